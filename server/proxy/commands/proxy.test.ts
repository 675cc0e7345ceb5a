// `jobboard-connector proxy` as a child process: configuration errors, and a
// graceful stop on SIGTERM.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEMO_KEYS, startSandbox } from '../../sandbox/index.ts';
import { fetch } from '../test-support.ts';
import { runCli } from '../../test/cli-run.ts';
import { eventually } from '../../test/poll.ts';
import { pdf } from '../../test/files.ts';
import { demoProxyEnv } from '../../test/demo-proxy-env.ts';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'proxy-command-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string>) {
  return runCli(CLI, ['proxy', ...args], env);
}

/** Keys and channel the configuration takes (never checked upstream: the start stops at another variable first). */
const VALID_KEYS = { UPSTREAM_PRIVATE_KEY: 'k', UPSTREAM_SECRET_KEY: 's', JOBBOARD_CHANNEL: 'jobboard_demo' };

describe('jobboard-connector proxy', () => {
  it('when required variables are missing, names each one and exits 1 without a stack trace', async () => {
    const p = run([], { DATA_DIR: tmp });
    assert.equal(await p.exited, 1);
    for (const name of ['UPSTREAM_URL', 'UPSTREAM_PRIVATE_KEY', 'UPSTREAM_SECRET_KEY', 'JOBBOARD_CHANNEL'])
      assert.match(p.err(), new RegExp(name));
    assert.doesNotMatch(p.err(), /\n\s+at /);
  });

  it('when a value is wrong, says what it expects', async () => {
    const p = run([], {
      UPSTREAM_URL: 'http://127.0.0.1:9/v2',
      ...VALID_KEYS,
      ALLOWED_ORIGINS: 'https://board.example/path',
      PORT: 'eighty',
    });
    assert.equal(await p.exited, 1);
    assert.match(p.err(), /ALLOWED_ORIGINS "https:\/\/board.example\/path" is not an origin/);
    assert.match(p.err(), /PORT must be a port number/);
  });

  it('when UPSTREAM_URL has no scheme and a variable is misspelt, prints the line of each and exits 1', async () => {
    const p = run([], {
      UPSTREAM_URL: 'api.example/v2',
      ...VALID_KEYS,
      ALLOWED_ORIGIN: '',
      DATA_DIR: tmp,
    });
    assert.equal(await p.exited, 1);
    const lines = p.err().split('\n');
    assert.ok(
      lines.includes(
        '  - UPSTREAM_URL must be the http(s) URL of the API root, ending in /v2, with its scheme: write https://api.example/v2 (like https://api.recruitment.example/v2)',
      ),
      p.err(),
    );
    assert.ok(
      lines.includes(
        '  - ALLOWED_ORIGIN is not a variable of the proxy; did you mean ALLOWED_ORIGINS? A likely typo stops the start (its setting would be ignored): rename it, or unset it.',
      ),
      p.err(),
    );
    assert.doesNotMatch(p.err(), /\n\s+at /);
  });

  it('--help lists the variables and exits 0', async () => {
    const p = run(['--help'], {});
    assert.equal(await p.exited, 0);
    assert.match(p.out(), /UPSTREAM_URL/);
    assert.match(p.out(), /SIGTERM/);
  });

  it('serves, then on SIGTERM finishes the application in flight (answered and delivered) and exits 0', async () => {
    const sandbox = await startSandbox({ admin: true, seed: 'demo', rateLimitPerMinute: 0 });
    try {
      const p = run([], demoProxyEnv(sandbox.url, { DATA_DIR: join(tmp, 'data') }));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = /Proxy listening on (http:\/\/\S+)/.exec(p.err());
          if (match) {
            clearInterval(timer);
            resolve(match[1]!);
          }
        }, 20);
        void p.exited.then(() => {
          clearInterval(timer);
          reject(new Error(`exited early: ${p.err()}`));
        });
      });
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      assert.equal((await fetch(`${url}/api/config`, { headers: { 'X-Request-Id': 'last-request' } })).status, 200);
      const campaigns = await eventually(
        async () => {
          const { items } = (await (await fetch(`${url}/api/campaigns`)).json()) as { items: { id: number }[] };
          return items.length > 0 && items;
        },
        { timeoutMs: 30_000, what: 'the proxy to sync its campaigns', intervalMs: 50 },
      );

      // The service holds the next call 1.5 s: the application's delivery is under way when SIGTERM comes.
      sandbox.context.faults.set(1, { delay_ms: 1500 });
      const email = `sigterm.${process.pid}@example.org`;
      const form = new FormData();
      for (const [name, value] of Object.entries({
        campaign_id: String(campaigns[0]!.id),
        email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        is_legals_accepted_by_manager: 'true',
      }))
        form.append(name, value);
      form.append('resume', new Blob([pdf()], { type: 'application/pdf' }), 'cv.pdf');
      let answered = false;
      const application = fetch(`${url}/api/applications`, {
        method: 'POST',
        headers: { 'idempotency-key': crypto.randomUUID() },
        body: form,
      }).then(async (response) => {
        answered = true;
        return { status: response.status, body: (await response.json()) as { status: string } };
      });
      await eventually(() => sandbox.context.faults.remaining <= 0, {
        timeoutMs: 10_000,
        what: 'the delivery to take the delay',
        intervalMs: 10,
      });
      assert.equal(answered, false, 'the application is in flight');
      p.child.kill('SIGTERM');

      const answer = await application;
      assert.equal(answer.status, 201);
      assert.equal(answer.body.status, 'delivered');
      assert.equal(await p.exited, 0);
      assert.match(p.err(), /SIGTERM: finishing in-flight requests/);
      const held = sandbox.context.db.all<{ id: number }>(
        'SELECT a.id FROM applications a JOIN applicants p ON p.id = a.applicant_id WHERE p.email = ?',
        email,
      );
      assert.equal(held.length, 1, 'the service holds the application');
      // stdout is JSON lines (pino), ending with the stop.
      const lines = p
        .out()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; req?: { id: string; path: string } });
      assert.equal(lines.at(-1)?.msg, 'proxy stopped');
      // Lines are written at the end of their turn: the last request's line is not lost on a clean stop.
      assert.deepEqual(lines.find((l) => l.req?.id === 'last-request')?.req, {
        id: 'last-request',
        method: 'GET',
        path: '/api/config',
      });
      assert.doesNotMatch(p.out(), new RegExp(DEMO_KEYS.jobboard.secret_key));
    } finally {
      await sandbox.close();
    }
  });
});
