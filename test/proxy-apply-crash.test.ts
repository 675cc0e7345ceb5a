// kill -9 of the proxy with applications queued and one caught between the
// service's 201 and the outbox's record: after a restart on the same data
// directory (SQLite) or database (PostgreSQL), each application reaches the
// service exactly once. With PostgreSQL the restarted proxy stands for another
// instance: it takes the killed one's rows and keys once their lease ends.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../server/sandbox/index.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import {
  apply,
  assertCreatedOnceAtTheWire,
  fetch,
  proxyEnv,
  setDuplicateApplications,
  upstreamApplicantCount,
  upstreamApplications,
  validFields,
} from './proxy-apply.test-support.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { eventually } from '../server/test/poll.ts';
import type { Fields } from './proxy-apply.test-support.ts';
import { scenarioMatrix } from './proxy-stores.ts';
import type { ScenarioStore } from './proxy-stores.ts';

const CHILD = new URL('./proxy-apply-child.ts', import.meta.url).pathname;

interface Child {
  process: ChildProcess;
  url: string;
  exited: Promise<NodeJS.Signals | number | null>;
}

async function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then((how) => reject(new Error(`the proxy child exited (${String(how)}) before listening`)));
  });
  return { process: child, url, exited };
}

type Row = { reference: string; status: string; outcome: string | null; attempts: number };
const ROWS_SQL = 'SELECT reference, status, outcome, attempts FROM outbox ORDER BY created_at';

/** The outbox's rows as the store holds them, read from outside the proxy. */
async function outboxRows(store: ScenarioStore, dataDir: string): Promise<Row[]> {
  if (store.env.DATABASE_URL !== undefined) {
    const client = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query<Row>(ROWS_SQL)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new DatabaseSync(join(dataDir, 'outbox.db'), { readOnly: true });
  try {
    return db.prepare(ROWS_SQL).all() as Row[];
  } finally {
    db.close();
  }
}

/** How long a killed proxy's rows and keys stay its own in PostgreSQL here (the default is minutes). */
const LEASE_MS = 3_000;

for (const { store, duplicates } of await scenarioMatrix()) {
  describe(
    `kill -9 of the proxy (${store.name}, sandbox duplicate_applications: ${duplicates})`,
    { skip: store.skip },
    () => {
      let sandbox: RunningSandbox;
      let dataDir: string;
      const children: Child[] = [];

      before(async () => {
        sandbox = await startSandbox({ port: 0, admin: true, seed: 'demo' });
        await setDuplicateApplications(sandbox, duplicates);
        dataDir = mkdtempSync(join(tmpdir(), 'jbc-crash-'));
      });
      after(async () => {
        for (const child of children)
          if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
        await Promise.all(children.map((c) => c.exited));
        await sandbox.close();
        rmSync(dataDir, { recursive: true, force: true });
      });

      it('loses no application and delivers each exactly once after a restart', async (t) => {
        const env = proxyEnv(sandbox, dataDir, {
          ...store.env,
          LOG_LEVEL: 'silent',
          DELIVERY_DEADLINE_MS: '2000',
          TEST_LEASE_MS: String(LEASE_MS),
        });
        // 1. A proxy that retries slowly and dies right after the service's first 201.
        const first = await startChild({
          ...env,
          TEST_CRASH_AFTER_UPSTREAM_CREATE: '1',
          TEST_BASE_BACKOFF_MS: '600000',
        });
        children.push(first);
        const campaigns = (await (await fetch(`${first.url}/api/campaigns?per_page=50`)).json()) as {
          items: { id: number }[];
        };
        const ids = campaigns.items.map((c) => c.id);

        // Three applications while the service answers 503: stored and answered 202.
        await admin(sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
        const queued: { fields: Fields; key: string }[] = [];
        for (let i = 0; i < 3; i++) {
          const item = { fields: validFields(ids[i]!), key: crypto.randomUUID() };
          const answer = await apply(first.url, item);
          assert.equal(answer.status, 202);
          queued.push(item);
        }

        // A fourth once the service is back: the service creates it, the proxy dies before recording it or answering.
        await admin(sandbox, 'POST', '/faults', { count: 0 });
        const caught = { fields: validFields(ids[3]!), key: crypto.randomUUID() };
        await assert.rejects(apply(first.url, caught), 'the candidate gets no answer: the proxy is gone');
        assert.equal(await first.exited, 'SIGKILL');
        assert.equal(upstreamApplications(sandbox, caught.fields.email).length, 1, 'the service has it');
        const before = await outboxRows(store, dataDir);
        assert.equal(before.length, 4, 'all four were stored before the crash');
        assert.deepEqual(before.map((r) => r.status).sort(), ['delivering', 'pending', 'pending', 'pending']);

        // 2. Restart on the same data directory.
        const second = await startChild(env);
        children.push(second);

        // The candidate's widget retries the unanswered submission with the same key: no second application.
        // PostgreSQL: 409 in_progress (the widget retries) until the killed proxy's claim on the key ends.
        let tries = 0;
        const retried = await eventually(
          async () => {
            tries += 1;
            const answer = await apply(second.url, caught);
            return answer.status === 409 && answer.body.code === 'idempotency_key_in_progress' ? undefined : answer;
          },
          { timeoutMs: 4 * LEASE_MS, what: "the killed proxy's claim on the key to end", intervalMs: 250 },
        );
        if (store.name === 'SQLite')
          assert.equal(tries, 1, 'SQLite answers the first retry: one process owns the file, the other is gone');
        assert.ok(retried.status === 202 || retried.status === 201, `answered ${retried.status}`);
        assert.equal(retried.headers.get('idempotent-replayed'), 'true');

        await eventually(async () => (await outboxRows(store, dataDir)).every((r) => r.status === 'delivered'), {
          timeoutMs: 20_000,
          what: 'every application delivered',
        });
        const wire = { requests: 0, succeeded: 0 };
        for (const { fields } of [...queued, caught]) {
          assert.equal(upstreamApplications(sandbox, fields.email).length, 1, `one application for ${fields.email}`);
          assert.equal(upstreamApplicantCount(sandbox, fields.email), 1);
          const one = await assertCreatedOnceAtTheWire(sandbox, fields.email, Number(fields.campaign_id));
          wire.requests += one.requests;
          wire.succeeded += one.succeeded;
        }
        t.diagnostic(`at the wire: ${wire.requests} create requests, ${wire.succeeded} created an application`);
        const caughtRow = (await outboxRows(store, dataDir)).find((r) => r.reference === retried.body.reference);
        assert.equal(
          caughtRow?.outcome,
          'found_delivered',
          'the restarted proxy found what the killed attempt had delivered',
        );

        second.process.kill('SIGKILL');
        assert.equal(await second.exited, 'SIGKILL');
      });
    },
  );
}
