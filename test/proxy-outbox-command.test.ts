// jobboard-connector outbox list | retry ID | purge-delivered | erase --email, on a real outbox file
// (and on a PostgreSQL database with DATABASE_URL).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { emailBucket } from '../server/proxy/applications/form.ts';
import pg from 'pg';
import { PostgresApplicationStore } from '../server/proxy/storage/outbox/postgres-store.ts';
import { SqliteApplicationStore } from '../server/proxy/storage/outbox/sqlite-store.ts';
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';
import { claimed } from '../server/proxy/storage/test-support.ts';
import { enqueueApplication } from './outbox-rows.test-support.ts';
import { runOutboxCommand as run } from './proxy-apply.test-support.ts';

const DAY = 24 * 60 * 60 * 1000;
const skipPostgres = skipWithoutPostgres();
const databaseUrl = skipPostgres === false ? await freshDatabase() : undefined;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Runs with PERSONAL_DATA_RETENTION_DAYS set (or unset), as an operator's shell would. */
async function withRetention<T>(days: string | undefined, fn: () => Promise<T>): Promise<T> {
  const previous = process.env.PERSONAL_DATA_RETENTION_DAYS;
  if (days === undefined) delete process.env.PERSONAL_DATA_RETENTION_DAYS;
  else process.env.PERSONAL_DATA_RETENTION_DAYS = days;
  try {
    return await fn();
  } finally {
    if (previous === undefined) delete process.env.PERSONAL_DATA_RETENTION_DAYS;
    else process.env.PERSONAL_DATA_RETENTION_DAYS = previous;
  }
}

describe('jobboard-connector outbox', () => {
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-outbox-cmd-'));
    const outbox = new SqliteApplicationStore({ dataDir: dir, owner: 'test' });
    for (const reference of ['dead-1', 'done-1', 'wait-1']) {
      await enqueueApplication(outbox, { reference, email: 'grace@example.org', resumeIn: dir, countEmail: true });
    }
    const dead1Lease = await claimed(outbox, 'dead-1', 1000);
    await outbox.markDead(dead1Lease, 'expired', 'service_unavailable (503)');
    const done1Lease = await claimed(outbox, 'done-1', 1000);
    await outbox.markDelivered(done1Lease, 'created_applicant', { applicantId: 1, applicationId: 2 });
    await outbox.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists every application with its status and last error, and no personal data', async () => {
    const out = await run(['list', '--data-dir', dir]);
    assert.match(out, /dead-1\s+dead\s+7\s+1\s/);
    assert.match(out, /service_unavailable \(503\)/);
    assert.match(out, /pending: 1, delivering: 0, delivered: 1, rejected: 0, dead: 1/);
    assert.equal(out.includes('grace@example.org'), false);
  });

  it('lists one status as JSON lines with --status and --json', async () => {
    const lines = (await run(['list', '--status', 'dead', '--json', '--data-dir', dir])).trim().split('\n');
    assert.equal(lines.length, 1);
    assert.equal((JSON.parse(lines[0]!) as { reference: string }).reference, 'dead-1');
  });

  it('reads the data directory from DATA_DIR', async () => {
    const previous = process.env.DATA_DIR;
    process.env.DATA_DIR = dir;
    try {
      assert.match(await run(['list']), /done-1/);
    } finally {
      if (previous === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = previous;
    }
  });

  it('puts a dead application back in line', async () => {
    assert.match(await run(['retry', 'dead-1', '--data-dir', dir]), /dead-1 queued/);
    const outbox = new SqliteApplicationStore({ dataDir: dir, owner: 'check' });
    assert.equal((await outbox.get('dead-1'))?.status, 'pending');
    await outbox.close();
  });

  it('refuses to retry a delivered or unknown application, saying why', async () => {
    await assert.rejects(
      run(['retry', 'done-1', '--data-dir', dir]),
      /is delivered: only dead or waiting applications/,
    );
    await assert.rejects(run(['retry', 'nope', '--data-dir', dir]), /No application nope/);
  });

  it('purges delivered applications only', async () => {
    assert.match(
      await run(['purge-delivered', '--data-dir', dir]),
      /Deleted 1 delivered or refused application from the outbox/,
    );
    const out = await run(['list', '--data-dir', dir]);
    assert.equal(out.includes('done-1'), false);
    assert.ok(out.includes('dead-1') && out.includes('wait-1'));
  });

  it('says where it looked when there is no outbox', async () => {
    await assert.rejects(
      run(['list', '--data-dir', join(dir, 'missing')]),
      /No outbox in .*missing.*--data-dir or DATA_DIR/,
    );
  });

  it('names an unknown command and a wrong status', async () => {
    await assert.rejects(run(['frobnicate', '--data-dir', dir]), /Unknown outbox command "frobnicate"/);
    await assert.rejects(run(['list', '--status', 'lost', '--data-dir', dir]), /--status must be one of/);
  });

  it('shows what personal data each row keeps and until when, in the table and in JSON', async () => {
    const outbox = new SqliteApplicationStore({ dataDir: dir, owner: 'check' });
    const endedAt = (await outbox.summary('dead-1'))!.ended_at!;
    await outbox.close();
    const out = await withRetention(undefined, () => run(['list', '--data-dir', dir]));
    assert.match(out, /PERSONAL DATA/);
    assert.match(out, new RegExp(`dead-1 .* until ${iso(endedAt + 30 * DAY)}`));
    assert.match(out, /wait-1 .* until delivered/);
    assert.match(out, /done-1 .* none/);
    const json = (await withRetention('7', () => run(['list', '--json', '--data-dir', dir])))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { reference: string; personal_data: boolean; erase_after: number | null });
    const byRef = Object.fromEntries(json.map((row) => [row.reference, row]));
    assert.deepEqual([byRef['dead-1']?.personal_data, byRef['dead-1']?.erase_after], [true, endedAt + 7 * DAY]);
    assert.deepEqual([byRef['wait-1']?.personal_data, byRef['wait-1']?.erase_after], [true, null]);
    assert.deepEqual([byRef['done-1']?.personal_data, byRef['done-1']?.erase_after], [false, null]);
    await assert.rejects(
      withRetention('0', () => run(['list', '--data-dir', dir])),
      /PERSONAL_DATA_RETENTION_DAYS must be a whole number of days, at least 1/,
    );
  });

  it("erase --email removes one person's data, not others', and an erased application can no longer be retried", async () => {
    let outbox = new SqliteApplicationStore({ dataDir: dir, owner: 'setup' });
    await enqueueApplication(outbox, { reference: 'ada-1', email: 'ada@example.org', resumeIn: dir, countEmail: true });
    await outbox.close();

    const out = await run(['erase', '--email', ' Grace@Example.org ', '--data-dir', dir]);
    assert.match(out, /applications: 2 \((dead-1, wait-1|wait-1, dead-1)\)/);
    assert.match(out, /wait-1 was waiting for delivery: it will not be delivered \(now rejected, outcome erased\)/);
    assert.match(out, /dead-1 was dead-lettered: it can no longer be retried/);
    assert.match(out, /rate counters: 1/);
    assert.equal(out.toLowerCase().includes('grace@example.org'), false, 'the answer holds no personal data');

    outbox = new SqliteApplicationStore({ dataDir: dir, owner: 'check' });
    for (const reference of ['dead-1', 'wait-1']) {
      const row = await outbox.get(reference);
      assert.deepEqual([row?.payload, row?.resume_bytes, row?.erased_by], [null, null, 'request']);
    }
    assert.deepEqual(
      [(await outbox.get('wait-1'))?.status, (await outbox.get('wait-1'))?.outcome],
      ['rejected', 'erased'],
    );
    assert.equal((await outbox.get('ada-1'))?.payload?.applicant.email, 'ada@example.org');
    assert.notEqual((await outbox.get('ada-1'))?.resume_bytes, null);
    assert.equal((await outbox.peekRate(emailBucket('grace@example.org'), DAY)).count, 0);
    assert.equal((await outbox.peekRate(emailBucket('ada@example.org'), DAY)).count, 1);
    await outbox.close();

    await assert.rejects(
      run(['retry', 'dead-1', '--data-dir', dir]),
      /dead-1 cannot be retried: its personal data was erased on .* at an erasure request/,
    );
    assert.match(await run(['list', '--data-dir', dir]), /dead-1 .* erased \S+ \(request\)/);
    assert.match(
      await run(['erase', '--email', 'grace@example.org', '--data-dir', dir]),
      /Nothing held for that address/,
    );
  });

  it('erase --json answers the references and counts', async () => {
    const answer = JSON.parse(await run(['erase', '--email', 'grace@example.org', '--json', '--data-dir', dir])) as {
      applications: { reference: string; status_before: string; status: string; outcome: string | null }[];
      rate_counters: number;
      idempotency_keys: number;
    };
    assert.deepEqual(answer.applications.map((a) => [a.reference, a.status_before, a.status, a.outcome]).sort(), [
      ['dead-1', 'dead', 'dead', 'expired'],
      ['wait-1', 'pending', 'rejected', 'erased'],
    ]);
    assert.equal(answer.rate_counters, 1);
    assert.equal(answer.idempotency_keys, 0);
  });

  it('erase needs an address', async () => {
    await assert.rejects(
      run(['erase', '--data-dir', dir]),
      /erase needs the applicant's address: jobboard-connector outbox erase --email ADDRESS/,
    );
    await assert.rejects(run(['erase', '--email', 'grace', '--data-dir', dir]), /--email must be an email address/);
  });

  it('refuses to retry a dead application whose data the retention erased, saying why', async () => {
    const outbox = new SqliteApplicationStore({ dataDir: dir, owner: 'later', now: () => Date.now() + 31 * DAY });
    assert.deepEqual(await outbox.eraseExpiredPersonalData(30 * DAY), ['dead-1']);
    await outbox.close();
    await assert.rejects(
      run(['retry', 'dead-1', '--data-dir', dir]),
      /dead-1 cannot be retried: its personal data was erased on .* after PERSONAL_DATA_RETENTION_DAYS/,
    );
  });
});

describe('jobboard-connector outbox with DATABASE_URL', { skip: skipPostgres }, () => {
  /** Runs with DATABASE_URL set, as an operator's shell of a PostgreSQL deployment would. */
  async function withDatabase<T>(fn: () => Promise<T>): Promise<T> {
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = databaseUrl;
    try {
      return await fn();
    } finally {
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
    }
  }

  it('lists, retries and erases in the PostgreSQL database, whatever the data directory holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jbc-outbox-pg-'));
    const pool = new pg.Pool({ connectionString: databaseUrl });
    try {
      const outbox = new PostgresApplicationStore({ pool, owner: 'setup', location: 'test' });
      await outbox.ready();
      for (const [reference, email] of [
        ['pg-dead', 'grace@example.org'],
        ['pg-wait', 'ada@example.org'],
      ] as const) {
        await enqueueApplication(outbox, { reference, email, resumeIn: dir });
      }
      const pgDeadLease = await claimed(outbox, 'pg-dead', 1000);
      await outbox.markDead(pgDeadLease, 'expired', 'service_unavailable (503)');

      const listed = await withDatabase(() => run(['list', '--data-dir', dir]));
      assert.match(listed, /pg-dead\s+dead\s+7\s+1\s/);
      assert.match(listed, /pending: 1, delivering: 0, delivered: 0, rejected: 0, dead: 1/);
      assert.match(
        await withDatabase(() => run(['retry', 'pg-dead', '--data-dir', dir])),
        /Application pg-dead queued/,
      );
      assert.equal((await outbox.get('pg-dead'))?.status, 'pending');
      const erased = await withDatabase(() => run(['erase', '--email', 'ada@example.org', '--data-dir', dir]));
      assert.match(erased, /pg-wait was waiting for delivery: it will not be delivered/);
      assert.deepEqual(
        [(await outbox.get('pg-wait'))?.status, (await outbox.get('pg-wait'))?.payload],
        ['rejected', null],
      );
    } finally {
      await pool.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
