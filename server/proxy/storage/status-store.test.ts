// The contract of what the store keeps after delivery (StatusStore): the
// receipts, found by their token, and the status sync's claims, run against
// SQLite and PostgreSQL (skipped without a server). On PostgreSQL, instances
// claiming at the same time never share an application.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import pg from 'pg';
import { freshDatabase, skipWithoutPostgres } from '../../test/postgres.ts';
import type { ApplicationStore, NewApplication } from './application-store.ts';
import { PostgresApplicationStore } from './postgres-store.ts';
import { SqliteApplicationStore } from './sqlite-store.ts';
import { claimed } from './test-support.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PERIOD = 6 * HOUR;

const skipPostgres = skipWithoutPostgres();
const databaseUrl = skipPostgres === false ? await freshDatabase() : undefined;
let pool: pg.Pool | undefined;

interface Harness {
  name: string;
  skip: false | string;
  open(owner: string, dir: string, now: () => number): Promise<ApplicationStore>;
  /** Empties the store (SQLite: a new file in `dir`). */
  reset(dir: string): Promise<void>;
}

const harnesses: Harness[] = [
  {
    name: 'SQLite',
    skip: false,
    async open(owner, dir, now) {
      const store = new SqliteApplicationStore({ dataDir: dir, owner, now });
      await store.ready();
      return store;
    },
    async reset(dir) {
      rmSync(join(dir, 'outbox.db'), { force: true });
    },
  },
  {
    name: 'PostgreSQL',
    skip: skipPostgres,
    async open(owner, _dir, now) {
      if (pool === undefined) {
        pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
        // The database is dropped when the file ends, idle connections with it.
        pool.on('error', () => {});
      }
      const store = new PostgresApplicationStore({ pool, owner, location: 'test', now });
      await store.ready();
      return store;
    },
    async reset() {
      await pool!.query('TRUNCATE outbox, resume_chunks, idempotency_keys, rate_counters');
    },
  },
];
after(() => pool?.end());

function application(reference: string, token?: string): NewApplication {
  return {
    reference,
    campaign_id: 12,
    company_id: 3,
    payload: { applicant: { email: `${reference}@example.org` } },
    resume: null,
    resume_type: null,
    ...(token === undefined ? {} : { receipt_token: token }),
  };
}

for (const harness of harnesses) {
  describe(`after delivery: receipts and status checks (${harness.name})`, { skip: harness.skip }, () => {
    let dir: string;
    let now: number;
    let store: ApplicationStore;
    const open = (owner: string) => harness.open(owner, dir, () => now);

    /** Stores and delivers an application as the service's application `applicationId`. */
    async function delivered(reference: string, applicationId: number | undefined, token?: string): Promise<void> {
      await store.enqueue(application(reference, token), { deadLetterAfterMs: DAY });
      await store.markDelivered(await claimed(store, reference), 'created_applicant', { applicantId: 1, ...(applicationId === undefined ? {} : { applicationId }) });
    }
    const claimIds = async (s: ApplicationStore, limit = 10) =>
      (await s.claimStatusChecks(now, now - 90 * DAY, now - PERIOD, limit)).map((c) => c.applicationId).sort((a, b) => a - b);

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'jbc-status-'));
      now = Date.UTC(2026, 0, 1);
      // The first open migrates; the store is then emptied before each test.
      await (await open('migrations')).close();
    });
    beforeEach(async () => {
      await harness.reset(dir);
      now = Date.UTC(2026, 0, 1);
      store = await open('instance-1');
    });
    afterEach(() => store.close());
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("finds a receipt by its token only, with the application's state and no personal data", async () => {
      await store.enqueue(application('r1', 'tok-1'), { deadLetterAfterMs: DAY });
      assert.deepEqual(await store.receipt('tok-1'), { status: 'pending', company_status: null, campaign_id: 12 });
      assert.equal(await store.receipt('r1'), undefined, 'the reference is not a token');
      assert.equal(await store.receipt('tok-2'), undefined);
      await store.markDelivered(await claimed(store, 'r1'), 'created_applicant', { applicantId: 1, applicationId: 7 });
      assert.equal((await store.receipt('tok-1'))?.status, 'delivered');
      const [check] = await store.claimStatusChecks(now, now - DAY, now - PERIOD, 10);
      await store.recordStatus(check!, 'interview');
      assert.deepEqual(await store.receipt('tok-1'), { status: 'delivered', company_status: 'interview', campaign_id: 12 }, "the company's status, once read");
      assert.equal('receipt_token' in ((await store.summary('r1')) ?? {}), false, '`outbox list` never shows the token');
    });

    it('claims delivered applications with their id, within the window, each once per period', async () => {
      await delivered('a', 101);
      await delivered('no-id', undefined);
      await store.enqueue(application('waiting'), { deadLetterAfterMs: DAY });
      now += 91 * DAY;
      await delivered('b', 102);
      // 'a' was delivered 91 days ago: out of the 90-day window.
      assert.deepEqual(await claimIds(store), [102]);
      assert.deepEqual(await claimIds(store), [], 'claimed: not due again within the period');
      const other = await open('instance-2');
      try {
        now += PERIOD - 1;
        assert.deepEqual(await claimIds(other), [], 'nor for another instance');
        now += 1;
        assert.deepEqual(await claimIds(other), [102], 'due again once the period has passed');
      } finally {
        await other.close();
      }
    });

    it('records the status under its claim only, and a released check is due again at once', async () => {
      await delivered('a', 101);
      const [check] = await store.claimStatusChecks(now, now - DAY, now - PERIOD, 10);
      assert.ok(check);
      assert.equal(check.companyStatus, null);
      assert.equal(await store.recordStatus(check, 'interview'), true);
      assert.equal((await store.get('a'))?.company_status, 'interview');

      now += PERIOD;
      const [second] = await store.claimStatusChecks(now, now - DAY, now - PERIOD, 10);
      assert.equal(second?.companyStatus, 'interview', 'the last status read comes with the claim');
      assert.equal(await store.recordStatus(check, 'stale'), false, 'a write under an older claim changes nothing');
      await store.releaseStatusCheck(second!);
      assert.deepEqual(await claimIds(store), [101], 'released: due again at once');
    });

    it('gives the never-checked applications first, then the longest unchecked, up to the limit', async () => {
      await delivered('a', 101);
      await delivered('b', 102);
      assert.deepEqual(await claimIds(store, 1), [101]);
      now += PERIOD;
      await delivered('c', 103);
      assert.deepEqual(await claimIds(store, 2), [102, 103]);
      assert.deepEqual(await claimIds(store, 2), [101]);
    });
  });
}

describe('status checks across live instances (PostgreSQL)', { skip: skipPostgres }, () => {
  it('gives each application to one instance per period when several claim at the same time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jbc-status-'));
    const now = Date.UTC(2026, 0, 1);
    const stores = await Promise.all(['i1', 'i2', 'i3'].map((owner) => harnesses[1]!.open(owner, dir, () => now)));
    try {
      await harnesses[1]!.reset(dir);
      const [first] = stores;
      for (let i = 1; i <= 30; i++) {
        await first!.enqueue(application(`r${i}`), { deadLetterAfterMs: DAY });
        await first!.markDelivered(await claimed(first!, `r${i}`), 'created_applicant', { applicantId: i, applicationId: 1000 + i });
      }
      const rounds = await Promise.all(stores.flatMap((s) => [1, 2, 3].map(() => s.claimStatusChecks(now, now - DAY, now - PERIOD, 4))));
      const ids = rounds.flat().map((c) => c.applicationId);
      assert.equal(new Set(ids).size, ids.length, 'no application claimed twice');
      assert.equal(ids.length, 30, 'every application claimed by one of them');
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
