// jobboard-connector webhooks list | retry ID | send-test, on a real outbox
// file and against a real receiver verifying the signature.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import pg from 'pg';
import { PostgresApplicationStore } from '../server/proxy/storage/outbox/postgres-store.ts';
import { SqliteApplicationStore } from '../server/proxy/storage/outbox/sqlite-store.ts';
import { main } from '../server/proxy/commands/webhooks.ts';
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';
import { runMain } from './in-process-command.ts';
import { enqueueApplication } from './outbox-rows.test-support.ts';

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const skipPostgres = skipWithoutPostgres();
const databaseUrl = skipPostgres === false ? await freshDatabase() : undefined;

/** Runs the command in this process with `env` set; answers what it printed. */
const run = (args: string[], env: Record<string, string> = {}) => runMain(main, args, env);

describe('jobboard-connector webhooks', () => {
  let dir: string;
  let ids: { delivered: string; failed: string; pending: string };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-webhooks-cmd-'));
    const store = new SqliteApplicationStore({
      dataDir: dir,
      owner: 'test',
      webhookEvents: { includeCandidate: true },
    });
    for (const reference of ['app-1', 'app-2', 'app-3']) {
      await enqueueApplication(store, { reference, email: 'grace@example.org' });
    }
    const [one, two, three] = (await store.webhooks.claimDue(10, 60_000)).sort((a, b) =>
      a.reference.localeCompare(b.reference),
    );
    await store.webhooks.markDelivered(one!);
    await store.webhooks.markFailed(two!, 'HTTP 500: down');
    await store.webhooks.markRetry(three!, Date.now() + 60_000, 'no answer within 10000 ms');
    ids = { delivered: one!.id, failed: two!.id, pending: three!.id };
    await store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("lists the events with their status and last error, and counts by status, never the candidate's data", async () => {
    const listed = await run(['list', '--data-dir', dir]);
    assert.match(listed, /^ID\s+TYPE\s+REFERENCE\s+STATUS\s+ATTEMPTS/);
    assert.match(listed, new RegExp(`${ids.failed}\\s+application.received\\s+app-2\\s+failed\\s+1 .*HTTP 500: down`));
    assert.match(listed, /pending: 1, delivering: 0, delivered: 1, failed: 1$/m);
    assert.equal(listed.includes('grace@example.org'), false);
  });

  it('lists one status as JSON lines with --status and --json, the event body without candidate fields', async () => {
    // The event still waiting holds the candidate's fields (a failed one no longer does): the listing never shows them.
    const lines = (await run(['list', '--status', 'pending', '--json', '--data-dir', dir])).trim().split('\n');
    assert.equal(lines.length, 1);
    const row = JSON.parse(lines[0]!) as {
      id: string;
      status: string;
      has_candidate: boolean;
      event: { type: string; data: Record<string, unknown> };
    };
    assert.equal(row.id, ids.pending);
    assert.equal(row.status, 'pending');
    assert.equal(row.has_candidate, true);
    assert.equal(row.event.type, 'application.received');
    assert.equal(row.event.data.candidate, undefined);
  });

  it('puts a failed event back in line, and says why it cannot retry an unknown or a delivered one', async () => {
    assert.match(await run(['retry', ids.failed, '--data-dir', dir]), new RegExp(`Webhook event ${ids.failed} queued`));
    assert.match(await run(['list', '--status', 'pending', '--data-dir', dir]), new RegExp(ids.failed));
    await assert.rejects(
      run(['retry', 'msg_nope', '--data-dir', dir]),
      /No webhook event msg_nope in .*outbox\.db: `jobboard-connector webhooks list --status failed` shows the failed ones\./,
    );
    await assert.rejects(
      run(['retry', ids.delivered, '--data-dir', dir]),
      new RegExp(`Webhook event ${ids.delivered} is delivered: only failed events can be retried`),
    );
    await assert.rejects(run(['retry', '--data-dir', dir]), /retry needs the id of an event/);
  });

  it('names a wrong status, an unknown command and a directory without an outbox', async () => {
    await assert.rejects(
      run(['list', '--status', 'dead', '--data-dir', dir]),
      /--status must be one of pending, delivering, delivered, failed/,
    );
    await assert.rejects(run(['resend', '--data-dir', dir]), /Unknown webhooks command "resend"/);
    await assert.rejects(
      run(['list', '--data-dir', join(dir, 'nowhere')]),
      /No outbox in .*nowhere \(no outbox\.db there\)/,
    );
  });
});

describe('jobboard-connector webhooks send-test', () => {
  it("posts a signed webhook.test event and prints the receiver's answer", async () => {
    const seen: unknown[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        try {
          seen.push(new Webhook(SECRET).verify(Buffer.concat(chunks).toString('utf8'), headers));
          res.writeHead(200).end('thanks');
        } catch {
          res.writeHead(401).end('bad signature');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    try {
      assert.match(
        await run(['send-test'], { WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET }),
        /^Sent webhook\.test msg_\S+ to http:\/\/127\.0\.0\.1:\d+\/hooks: HTTP 200\nthanks\n$/,
      );
      assert.equal((seen[0] as { type: string }).type, 'webhook.test');
      const other = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;
      await assert.rejects(
        run(['send-test'], { WEBHOOK_URL: url, WEBHOOK_SECRET: other }),
        /HTTP 401\nbad signature\nThe receiver did not accept it \(not 2xx\): check that it verifies with the same WEBHOOK_SECRET\./,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('says what is missing without WEBHOOK_URL, and when nothing answers', async () => {
    const saved = process.env.WEBHOOK_URL;
    delete process.env.WEBHOOK_URL;
    try {
      await assert.rejects(
        run(['send-test']),
        /^Error: send-test needs WEBHOOK_URL \(and WEBHOOK_SECRET\), as the proxy has them/,
      );
    } finally {
      if (saved !== undefined) process.env.WEBHOOK_URL = saved;
    }
    await assert.rejects(
      run(['send-test'], { WEBHOOK_URL: 'https://board.example/hooks' }),
      /WEBHOOK_SECRET is required when WEBHOOK_URL is set/,
    );
    // A port nothing listens on any more.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(
      run(['send-test'], { WEBHOOK_URL: `http://127.0.0.1:${port}/hooks`, WEBHOOK_SECRET: SECRET }),
      /no answer \(ECONNREFUSED\)\. Check that the board's receiver runs/,
    );
  });
});

describe('jobboard-connector webhooks with DATABASE_URL', { skip: skipPostgres }, () => {
  it('lists and retries the events in the PostgreSQL database', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const store = new PostgresApplicationStore({
      pool,
      owner: 'test',
      location: 'test',
      webhookEvents: { includeCandidate: false },
    });
    await store.ready();
    await enqueueApplication(store, { reference: 'pg-1', email: 'ada@example.org' });
    const [event] = await store.webhooks.claimDue(10, 60_000);
    await store.webhooks.markFailed(event!, 'HTTP 410');
    await store.close();
    await pool.end();
    const env = { DATABASE_URL: databaseUrl! };
    assert.match(
      await run(['list', '--status', 'failed', '--data-dir', join(tmpdir(), 'jbc-no-such-dir')], env),
      new RegExp(`${event!.id}\\s+application.received\\s+pg-1\\s+failed`),
    );
    assert.match(await run(['retry', event!.id], env), /queued/);
    await assert.rejects(run(['retry', 'msg_nope'], env), /No webhook event msg_nope in postgres:\/\//);
  });
});
