// The partners' guide's PHP verification of a webhook, run as written: the
// ```php block of server/proxy/README.md served by PHP's built-in server,
// posted requests signed by the standardwebhooks library (as the proxy signs
// them). It must take a good one and refuse a changed body, a wrong secret and
// an old timestamp. Needs `php` (CI installs php-cli); skipped without it
// outside CI, like the PostgreSQL tests without their server.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../server/test/poll.ts';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(32, 8).toString('base64')}`;
const hasPhp = spawnSync('php', ['--version']).status === 0;
const skip = hasPhp || process.env.CI === 'true' ? false : 'php is not installed (CI installs php-cli)';

/** The PHP example of the guide, exactly as a partner copies it. */
function phpExample(): string {
  const guide = readFileSync(new URL('../server/proxy/README.md', import.meta.url), 'utf8');
  const start = guide.indexOf('**Verifying, in PHP**');
  assert.ok(start >= 0, 'the guide has its PHP example');
  const block = /```php\n([\s\S]*?)```/.exec(guide.slice(start));
  assert.ok(block, 'the PHP example is a ```php block');
  return block[1]!;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the partners' guide's PHP verification of a webhook", { skip }, () => {
  let dir: string;
  let php: ChildProcess;
  let url: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-php-webhook-'));
    writeFileSync(join(dir, 'index.php'), phpExample());
    const port = await freePort();
    url = `http://127.0.0.1:${port}/index.php`;
    php = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir], {
      env: { ...process.env, WEBHOOK_SECRET: SECRET },
      stdio: 'ignore',
    });
    await eventually(async () => (await fetch(url, { method: 'POST' }).catch(() => undefined)) !== undefined, {
      timeoutMs: 10_000,
      what: 'php -S',
    });
  });
  after(() => {
    php?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Posts `body` with the headers the proxy sends, signed with `secret` at `at`. */
  async function post(body: string, options: { secret?: string; at?: Date; sent?: string } = {}): Promise<number> {
    const id = `msg_${Math.random().toString(36).slice(2)}`;
    const at = options.at ?? new Date();
    const signature = new Webhook(options.secret ?? SECRET).sign(id, at, body);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: options.sent ?? body,
    });
    return response.status;
  }

  const event = JSON.stringify({
    type: 'application.delivered',
    timestamp: new Date().toISOString(),
    data: { reference: 'r-1' },
  });

  it('takes a request the proxy signed', async () => {
    assert.equal(await post(event), 204);
  });

  it('refuses a changed body, another secret and a timestamp older than five minutes', async () => {
    assert.equal(await post(event, { sent: event.replace('r-1', 'r-2') }), 400);
    assert.equal(await post(event, { secret: OTHER_SECRET }), 400);
    assert.equal(await post(event, { at: new Date(Date.now() - 10 * 60 * 1000) }), 400);
  });
});
