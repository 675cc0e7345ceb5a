// The README's recipe for testing one's own page against a local proxy:
// `ALLOWED_ORIGINS=http://localhost:5173 npm start`. The demo (npm start's
// last step, `jobboard-connector demo`, in a process of its own) then answers
// CORS for that origin; another gets the proxy's readable refusal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, freePort } from './cli-processes.ts';
import { eventually } from '../server/test/poll.ts';

const RECIPE = 'ALLOWED_ORIGINS=http://localhost:5173 npm start';
const PAGE_ORIGIN = 'http://localhost:5173';

describe('the demo started with ALLOWED_ORIGINS, as the README says to test your own page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jbc-demo-origins-'));
  let demo: ReturnType<typeof spawn>;
  let output = '';
  let proxy: string;

  before(async () => {
    const [port, sandboxPort] = [await freePort(), await freePort()];
    proxy = `http://localhost:${port}`;
    demo = spawn(
      process.execPath,
      [
        CLI.sources,
        'demo',
        '--port',
        String(port),
        '--sandbox-port',
        String(sandboxPort),
        '--data-dir',
        join(dir, 'proxy'),
      ],
      {
        env: { ...process.env, ALLOWED_ORIGINS: PAGE_ORIGIN, METRICS_PORT: '0', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    demo.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    demo.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(() => output.includes(proxy), { timeoutMs: 60_000, what: `the demo to listen (${output})` });
  });
  after(() => {
    demo?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is the recipe the README gives', () => {
    assert.ok(
      readFileSync(new URL('../README.md', import.meta.url), 'utf8').includes(RECIPE),
      `the README says: ${RECIPE}`,
    );
  });

  it(`answers CORS for ${PAGE_ORIGIN}: the offers and a preflight of the application form`, async () => {
    const offers = await fetch(`${proxy}/api/campaigns`, { headers: { origin: PAGE_ORIGIN } });
    assert.equal(offers.status, 200);
    assert.equal(offers.headers.get('access-control-allow-origin'), PAGE_ORIGIN);
    assert.ok(((await offers.json()) as { items: unknown[] }).items.length > 0, 'the seeded offers');
    const preflight = await fetch(`${proxy}/api/applications`, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'idempotency-key',
      },
    });
    assert.ok(preflight.status === 204 || preflight.status === 200, String(preflight.status));
    assert.equal(preflight.headers.get('access-control-allow-origin'), PAGE_ORIGIN);
  });

  it('refuses another origin with 403 origin_not_allowed, its page able to read why', async () => {
    const offers = await fetch(`${proxy}/api/campaigns`, { headers: { origin: 'http://localhost:5174' } });
    assert.equal(offers.status, 403);
    assert.equal(((await offers.json()) as { code: string }).code, 'origin_not_allowed');
  });
});
