// `jobboard-connector proxy` restarts itself with its Node flags (a small young
// generation), keeping its pid; an operator's own sizing in NODE_OPTIONS wins.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROXY_NODE_FLAGS } from '../server/proxy/node-flags.ts';
import { startSandbox } from '../server/sandbox/index.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import { CLI, freePort, startCli, stopCli } from './cli-processes.ts';
import { fetch, proxyEnv } from './proxy-apply.test-support.ts';

const TIMEOUT = { timeout: 60_000 };

/** The command line the process with this pid runs now. */
const commandLine = (pid: number) =>
  execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();

describe('the proxy command and its Node flags', () => {
  let sandbox: RunningSandbox;
  let tmp: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0, admin: true, seed: 'demo' });
    tmp = mkdtempSync(join(tmpdir(), 'jbc-node-flags-'));
  });
  after(async () => {
    await sandbox.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('runs with a young generation of at most 2 × 2 MiB, in the process it was started as', TIMEOUT, async () => {
    const metricsPort = await freePort();
    const proxy = await startCli(
      CLI.sources,
      'proxy',
      [],
      proxyEnv(sandbox, mkdtempSync(join(tmp, 'data-')), { METRICS_PORT: String(metricsPort), LOG_LEVEL: 'silent' }),
    );
    try {
      // The pid a supervisor started is still the proxy's: its signals reach it.
      for (const flag of PROXY_NODE_FLAGS)
        assert.ok(commandLine(proxy.pid).includes(flag), `${flag} missing from: ${commandLine(proxy.pid)}`);
      // Startup and the catalogue's sync grow Node's default young generation to 32 MiB.
      for (let i = 0; i < 200; i++) await (await fetch(`${proxy.url}/api/campaigns`)).arrayBuffer();
      const page = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const newSpace = /^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m.exec(page);
      assert.ok(newSpace !== null, 'the metrics page has no new-space size');
      assert.ok(Number(newSpace[1]) <= 4 * 1024 * 1024, `the young generation is ${newSpace[1]} bytes`);
    } finally {
      await stopCli(proxy);
    }
  });

  it('leaves the young generation as an operator sized it in NODE_OPTIONS', TIMEOUT, async () => {
    const proxy = await startCli(
      CLI.sources,
      'proxy',
      [],
      proxyEnv(sandbox, mkdtempSync(join(tmp, 'data-')), {
        NODE_OPTIONS: '--max-semi-space-size=8',
        LOG_LEVEL: 'silent',
      }),
    );
    try {
      assert.ok((await fetch(`${proxy.url}/api/campaigns`)).ok);
      for (const flag of PROXY_NODE_FLAGS)
        assert.ok(
          !commandLine(proxy.pid).includes(flag),
          `restarted although NODE_OPTIONS sized the young generation: ${commandLine(proxy.pid)}`,
        );
    } finally {
      await stopCli(proxy);
    }
  });
});
