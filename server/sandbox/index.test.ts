import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEMO_KEYS, createSandboxApp, startSandbox } from './index.ts';
import { TestSandbox, call } from './test-support.ts';

describe('startSandbox and createSandboxApp', () => {
  it('answers url, origin and port for the address it listens on', async () => {
    const sandbox = await startSandbox();
    try {
      assert.equal(sandbox.url, `http://127.0.0.1:${sandbox.port}/v2`);
      assert.equal(sandbox.origin, `http://127.0.0.1:${sandbox.port}`);
      assert.equal(sandbox.demoKeys, undefined);
      assert.equal((await call(`${sandbox.url}/campaigns`)).status, 401);
    } finally {
      await sandbox.close();
    }
  });

  it('keeps its data in a SQLite file, and does not seed an already seeded file again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-test-'));
    try {
      const dbPath = join(dir, 'sandbox.db');
      const count = async () => {
        const t = new TestSandbox(await startSandbox({ dbPath, seed: 'demo' }));
        try {
          const api = t.api(await t.token(DEMO_KEYS.company));
          return JSON.parse((await api('/applicants')).headers.get('x-pagination')!)['total-count'] as number;
        } finally {
          await t.close();
        }
      };
      const first = await count();
      assert.ok(first > 0);
      assert.equal(await count(), first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('createSandboxApp builds the app without listening, from options', async () => {
    const app = createSandboxApp({ admin: true });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const reply = await call(`http://127.0.0.1:${port}/_sandbox/companies`, { body: { name: 'Direct' } });
      assert.equal(reply.status, 201);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('close() can be called twice', async () => {
    const sandbox = await startSandbox();
    await sandbox.close();
    await sandbox.close();
  });
});
