// What the PostgreSQL store does beyond the contract both stores keep
// (application-store.test.ts): when it is open, its resumes as rows of
// resume_chunks (written from the upload file, read back chunk by chunk,
// deleted with their application's personal data), and the renewals of the
// Idempotency-Keys its requests hold. Skipped without a server.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { emailBucket } from '../../applications/form.ts';
import { freshMigratedDatabase, skipWithoutPostgres } from '../../../test/postgres.ts';
import { eventually } from '../../../test/poll.ts';
import { IDEMPOTENCY_TTL_MS, KEY_LEASE_MS, ResumeMissingError } from './application-store.ts';
import type { NewApplication } from './application-store.ts';
import { PostgresApplicationStore } from './postgres-store.ts';
import type { PostgresStoreOptions } from './postgres-store.ts';
import { RESUME_CHUNK_BYTES } from './resume-chunks.ts';
import { claimed, refuse, storedResume, uploadedResume } from '../test-support.ts';
import { DAY, HOUR } from '../../../test/time.ts';

const skip = skipWithoutPostgres();
const databaseUrl = skip === false ? await freshMigratedDatabase() : undefined;

/** The statements the store sent, by their first words: the key renewals are `UPDATE idempotency_keys SET lease_until`. */
const sent: string[] = [];
const RENEWAL = 'UPDATE idempotency_keys SET lease_until';
const renewals = () => sent.filter((text) => text.startsWith(RENEWAL)).length;
/** Renewals the database answered with no row: the claim was gone. */
let emptyRenewals = 0;
let failNext: RegExp | undefined;
let beforeSend: ((text: string) => Promise<void>) | undefined;

describe('PostgreSQL application store', { skip }, () => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const query = pool.query.bind(pool);
  // The store's own statements, seen, delayed (beforeSend) or cut (failNext, once) as a lost connection would.
  pool.query = (async (text: string, params?: unknown[]) => {
    sent.push(text);
    await beforeSend?.(text);
    if (failNext?.test(text) === true) {
      failNext = undefined;
      throw new Error('connection lost');
    }
    const result = await query(text, params);
    if (text.startsWith(RENEWAL) && result.rowCount === 0) emptyRenewals++;
    return result;
  }) as typeof pool.query;
  let dir: string;
  let now: number;
  let store: PostgresApplicationStore;
  const open = async (options: Partial<PostgresStoreOptions> = {}) => {
    const opened = new PostgresApplicationStore({
      pool,
      owner: 'process-1',
      location: 'test',
      now: () => now,
      ...options,
    });
    await opened.ready();
    return opened;
  };
  const chunkRows = async (reference: string) =>
    Number((await query('SELECT count(*) AS n FROM resume_chunks WHERE reference = $1', [reference])).rows[0].n);
  /** The received stage in the funnel's day rows, and the counts still waiting for a fold. */
  const foldedReceived = async () =>
    Number((await query('SELECT coalesce(sum(received), 0) AS n FROM funnel_source_days')).rows[0].n);
  const waitingCounts = async () => Number((await query('SELECT count(*) AS n FROM funnel_waiting')).rows[0].n);
  /** A store of the funnel that folds right after each count it makes. */
  const foldingAtOnce = (owner: string) => open({ owner, funnel: { channel: 'board', foldAfterMs: 0 } });
  const withResume = (reference: string, bytes: Buffer = Buffer.from('%PDF-1.4 resume')): NewApplication => ({
    reference,
    campaign_id: 12,
    company_id: 3,
    payload: { applicant: { email: 'ada@example.org', first_name: 'Ada' } },
    resume: uploadedResume(dir, bytes),
    resume_type: 'pdf',
  });
  /** Stores `reference` through `store` (one count received), then waits until the day rows hold `received` in all. */
  const countUntilFolded = async (store: PostgresApplicationStore, reference: string, received: number) => {
    await store.enqueue(withResume(reference), { deadLetterAfterMs: HOUR });
    await eventually(async () => (await foldedReceived()) === received, {
      timeoutMs: 10_000,
      what: `${received} received in the funnel's day rows`,
    });
  };

  after(() => pool.end());
  beforeEach(async () => {
    failNext = undefined;
    beforeSend = undefined;
    dir = mkdtempSync(join(tmpdir(), 'jbc-pg-store-'));
    now = Date.UTC(2026, 0, 1);
    await query('TRUNCATE outbox, resume_chunks, idempotency_keys, rate_counters, funnel_waiting');
    store = await open();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is open once ready() has migrated the database, and no more once closed', async () => {
    const fresh = new PostgresApplicationStore({ pool, owner: 'process-2', location: 'test' });
    assert.equal(fresh.isOpen, false, 'not before ready()');
    await fresh.ready();
    assert.equal(fresh.isOpen, true);
    await fresh.close();
    assert.equal(fresh.isOpen, false);
  });

  it("counts an application's funnel stages in the statements that store and deliver it: no round trip of their own", async () => {
    const counting = await open({ owner: 'process-2', funnel: { channel: 'board', foldAfterMs: 60_000 } });
    // The statements sent on a client of the pool (the store's transactions run there).
    const sentOnClients: string[] = [];
    const wrapped = new Map<pg.PoolClient, pg.PoolClient['query']>();
    const connect = pool.connect.bind(pool);
    // pg's own pool.query connects with a callback: left as it is.
    pool.connect = ((...args: unknown[]) => {
      if (args.length > 0) return (connect as (...a: unknown[]) => unknown)(...args);
      return connect().then((client) => {
        if (!wrapped.has(client)) {
          wrapped.set(client, client.query);
          const clientQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
          client.query = ((...args: unknown[]) => {
            sentOnClients.push(typeof args[0] === 'string' ? args[0] : '');
            return clientQuery(...args);
          }) as typeof client.query;
        }
        return client;
      });
    }) as typeof pool.connect;
    try {
      await counting.enqueue(withResume('counted'), { deadLetterAfterMs: HOUR });
      await counting.markDelivered(await claimed(counting, 'counted'), 'created_applicant', {});
    } finally {
      pool.connect = connect as typeof pool.connect;
      for (const [client, clientQuery] of wrapped) client.query = clientQuery;
      await counting.close();
    }
    const waiting = await query('SELECT stage FROM funnel_waiting ORDER BY id');
    assert.deepEqual(
      waiting.rows.map((row: { stage: string }) => row.stage),
      ['received', 'delivered'],
    );
    assert.deepEqual(
      sentOnClients.filter((text) => text.includes('INSERT INTO funnel_waiting')).map((text) => text.split(' (')[0]),
      ['WITH changed AS', 'WITH changed AS'],
    );
  });

  it('folds in the background the counts no other instance is folding, without waiting for its fold', async () => {
    const before = await foldedReceived();
    const counting = await open({ owner: 'process-2', funnel: { channel: 'board', foldAfterMs: 60_000 } });
    await counting.enqueue(withResume('folded-elsewhere'), { deadLetterAfterMs: HOUR });
    await counting.close();
    // Another instance's fold under way holds that count.
    const otherFold = new pg.Client({ connectionString: databaseUrl });
    await otherFold.connect();
    await otherFold.query('BEGIN');
    await otherFold.query('SELECT id FROM funnel_waiting FOR UPDATE');
    const folding = await foldingAtOnce('process-3');
    try {
      await countUntilFolded(folding, 'folded-here', before + 1);
      assert.equal(await waitingCounts(), 1, "the other fold's count is left to it");
    } finally {
      await otherFold.query('ROLLBACK');
      await otherFold.end();
      await folding.close();
    }
  });

  it('folds in the background every count waiting, batch after batch, when more wait than one batch takes', async () => {
    const before = await foldedReceived();
    // More than a fold's batch (4,096), as a busy day of several instances leaves them.
    await query(
      "INSERT INTO funnel_waiting (day, channel, stage, campaign_id) SELECT $1, 'board', 'received', 12 FROM generate_series(1, 5000)",
      [Math.floor(now / DAY)],
    );
    const folding = await foldingAtOnce('process-2');
    try {
      await countUntilFolded(folding, 'folded-last', before + 5001);
      assert.equal(await waitingCounts(), 0);
    } finally {
      await folding.close();
    }
  });

  describe('resumes as rows of resume_chunks', () => {
    it('writes one row per 256 KiB and deletes them with the personal data of a delivered, rejected or refused application', async () => {
      const bytes = Buffer.alloc(RESUME_CHUNK_BYTES + 1, 7);
      for (const reference of ['delivered', 'rejected', 'refused', 'dead'])
        await store.enqueue(withResume(reference, bytes), { deadLetterAfterMs: HOUR });
      assert.equal(await chunkRows('delivered'), 2);
      await store.markDelivered(await claimed(store, 'delivered'), 'created_applicant', {
        applicantId: 1,
        applicationId: 2,
      });
      assert.deepEqual(
        [
          (await store.get('delivered'))?.upstream_applicant_id,
          (await store.get('delivered'))?.upstream_application_id,
        ],
        [1, 2],
      );
      await store.markRejected(await claimed(store, 'rejected'), 'upstream_rejected', 'validation_failed (422)');
      assert.equal(await refuse(store, 'refused'), 'rejected');
      await store.markDead(await claimed(store, 'dead'), 'expired', 'server_error (503)');
      assert.deepEqual(
        [
          await chunkRows('delivered'),
          await chunkRows('rejected'),
          await chunkRows('refused'),
          await chunkRows('dead'),
        ],
        [0, 0, 0, 2],
        'a dead letter keeps its resume for a replay',
      );
      await store.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
      assert.equal(await chunkRows('dead'), 0, 'an erasure deletes them too');
    });

    it('stores the size the upload was counted at, and refuses an upload file shorter than it, storing nothing', async () => {
      const longer = uploadedResume(dir, Buffer.alloc(RESUME_CHUNK_BYTES + 1_000, 1));
      await store.enqueue(
        { ...withResume('declared'), resume: { path: longer.path, size: RESUME_CHUNK_BYTES + 10 } },
        { deadLetterAfterMs: HOUR },
      );
      assert.equal((await storedResume(store, 'declared'))?.length, RESUME_CHUNK_BYTES + 10);
      const short = join(dir, 'short');
      writeFileSync(short, Buffer.alloc(100));
      await assert.rejects(
        store.enqueue({ ...withResume('short'), resume: { path: short, size: 300 } }, { deadLetterAfterMs: HOUR }),
        /the upload file of short ended after 100 of 300 bytes/,
      );
      assert.equal(await store.get('short'), undefined);
      assert.equal(await chunkRows('short'), 0);
    });

    it('closes the upload file it copied, whether or not the copy succeeded', async () => {
      // The files this process holds open (Linux), by path.
      const openInDir = () =>
        readdirSync('/proc/self/fd')
          .flatMap((fd) => {
            try {
              return [readlinkSync(`/proc/self/fd/${fd}`)];
            } catch {
              return [];
            }
          })
          .filter((path) => path.startsWith(dir));
      await store.enqueue(withResume('r1'), { deadLetterAfterMs: HOUR });
      const short = join(dir, 'short');
      writeFileSync(short, Buffer.alloc(10));
      await assert.rejects(
        store.enqueue({ ...withResume('short'), resume: { path: short, size: 20 } }, { deadLetterAfterMs: HOUR }),
      );
      assert.deepEqual(openInDir(), []);
    });

    it('says how many of its rows of resume_chunks a resume taken away from outside the proxy lacks', async () => {
      await store.enqueue(withResume('r1', Buffer.alloc(RESUME_CHUNK_BYTES + 1, 3)), { deadLetterAfterMs: HOUR });
      await query("DELETE FROM resume_chunks WHERE reference = 'r1' AND seq = 1");
      await assert.rejects(
        store.openResume('r1'),
        (error: unknown) =>
          error instanceof ResumeMissingError && error.missing === '1 of its 2 rows of resume_chunks are there',
      );
    });

    it('opens no resume for an unknown application, and fails a read whose chunks were erased meanwhile rather than send it short', async () => {
      assert.equal(await store.openResume('nope'), undefined);
      await store.enqueue(withResume('r1', Buffer.alloc(2 * RESUME_CHUNK_BYTES, 3)), { deadLetterAfterMs: HOUR });
      const reading = (await store.openResume('r1'))![Symbol.asyncIterator]();
      assert.equal((await reading.next()).value?.length, RESUME_CHUNK_BYTES);
      await store.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
      await assert.rejects(reading.next(), /the resume is no longer stored/);
    });
  });

  describe('operator commands', () => {
    it('retries an application still in line (queued again) and refuses one being delivered', async () => {
      await store.enqueue(withResume('waiting'), { deadLetterAfterMs: HOUR });
      await store.enqueue(withResume('busy'), { deadLetterAfterMs: HOUR });
      await claimed(store, 'busy');
      now += 2 * HOUR;
      assert.equal(await store.retry('waiting', HOUR), 'queued');
      assert.equal((await store.get('waiting'))?.dead_letter_at, now + HOUR);
      assert.equal(await store.retry('busy', HOUR), 'not_retryable');
    });

    it('leases the rows it claims for leaseMs: no other instance takes them back before', async () => {
      await store.enqueue(withResume('r1'), { deadLetterAfterMs: HOUR });
      assert.deepEqual(
        (await store.claimDue(10, 1_000)).map((r) => r.reference),
        ['r1'],
      );
      const other = new PostgresApplicationStore({ pool, owner: 'process-2', location: 'test', now: () => now });
      now += 999;
      assert.equal(await other.recoverLeases(), 0);
      now += 1;
      assert.equal(await other.recoverLeases(), 1);
    });

    it('purges only the delivered rows older than asked', async () => {
      await store.enqueue(withResume('r1'), { deadLetterAfterMs: HOUR });
      await store.markDelivered(await claimed(store, 'r1'), 'created_applicant', {});
      now += HOUR - 1;
      assert.equal(await store.purgeDelivered(HOUR), 0);
      now += 1;
      assert.equal(await store.purgeDelivered(HOUR), 1);
    });
  });

  it('records a refusal while the candidate waits as application.rejected, once told as application.dead_lettered', async () => {
    const recording = await open({ webhookEvents: { includeCandidate: false } });
    await query('TRUNCATE webhook_events');
    for (const reference of ['waiting', 'told'])
      await recording.enqueue(withResume(reference), { deadLetterAfterMs: HOUR });
    await recording.setAnswered('told', 202);
    await refuse(recording, 'waiting');
    await refuse(recording, 'told');
    const ended = (await recording.webhooks.list())
      .filter((e) => e.seq === 2)
      .map((e) => `${e.reference}:${e.type}`)
      .sort();
    assert.deepEqual(ended, ['told:application.dead_lettered', 'waiting:application.rejected']);
    await recording.close();
  });

  describe('Idempotency-Key renewals', () => {
    it('renews a claimed key every third of its lease, again and again while its request runs', async () => {
      store = await open({ keyLeaseMs: 1_500 });
      const leaseUntil = async () =>
        Number((await query("SELECT lease_until FROM idempotency_keys WHERE key = 'k'")).rows[0]?.lease_until);
      assert.deepEqual(await store.claimKey('k', 'f1'), { kind: 'claimed' });
      for (let i = 1; i <= 2; i++) {
        now += 100;
        // Every 500 ms; a lease of 1.5 s ends before a renewal every 4.5 s would come.
        await eventually(async () => (await leaseUntil()) === now + 1_500, {
          timeoutMs: 1_400,
          what: `renewal ${i} within the lease`,
        });
      }
    });

    it('stops renewing a key once its request answered or released it, or its store closed', async () => {
      for (const end of ['complete', 'release', 'close'] as const) {
        // A renewal every 100 ms: the end's own statement is over before the next one is due.
        store = await open({ keyLeaseMs: 300 });
        await store.claimKey(`k-${end}`, 'f1');
        const before = renewals();
        await eventually(async () => renewals() > before, { timeoutMs: 5_000, what: 'a renewal' });
        if (end === 'complete') await store.completeKey(`k-${end}`, 202, '{}');
        else if (end === 'release') await store.releaseKey(`k-${end}`);
        else await store.close();
        const ended = renewals();
        await sleep(250);
        assert.equal(renewals(), ended, `no renewal after ${end}`);
        await store.close();
      }
    });

    it('takes back at once a claim of its own whose release never reached the database, even after a look the database did not answer', async () => {
      assert.deepEqual(await store.claimKey('k', 'f1'), { kind: 'claimed' });
      const releaseLost = async () => {
        failNext = /^DELETE FROM idempotency_keys WHERE key/;
        await assert.rejects(store.releaseKey('k'), /connection lost/);
      };
      await releaseLost();
      assert.deepEqual(
        await store.claimKey('k', 'f1'),
        { kind: 'claimed' },
        'its lease is still running, but no request of this process holds it',
      );
      await releaseLost();
      failNext = /^INSERT INTO idempotency_keys/;
      await assert.rejects(store.claimKey('k', 'f1'), /connection lost/);
      assert.deepEqual(
        await store.claimKey('k', 'f1'),
        { kind: 'claimed' },
        'after a look the database did not answer',
      );
    });

    it('claims a key deleted between its two looks (erased or pruned meanwhile)', async () => {
      const other = new PostgresApplicationStore({ pool, owner: 'process-2', location: 'test', now: () => now });
      await other.ready();
      await other.claimKey('k', 'f1');
      beforeSend = async (text) => {
        if (text.startsWith('SELECT fingerprint')) {
          beforeSend = undefined;
          await query("DELETE FROM idempotency_keys WHERE key = 'k'");
        }
      };
      assert.deepEqual(await store.claimKey('k', 'f1'), { kind: 'claimed' });
      await other.close();
    });

    it('renews a key it took over from a process that stored its application and died', async () => {
      const dead = new PostgresApplicationStore({ pool, owner: 'process-2', location: 'test', now: () => now });
      await dead.ready();
      await dead.claimKey('k', 'f1');
      await dead.enqueue(withResume('r1'), { deadLetterAfterMs: HOUR, key: 'k' });
      await dead.close();
      store = await open({ keyLeaseMs: 30 });
      now += KEY_LEASE_MS;
      assert.deepEqual(await store.claimKey('k', 'f1'), { kind: 'stored', reference: 'r1' });
      now += 100;
      await eventually(
        async () =>
          Number((await query("SELECT lease_until FROM idempotency_keys WHERE key = 'k'")).rows[0]?.lease_until) ===
          now + 30,
        { timeoutMs: 5_000, what: 'a renewal of the key taken over' },
      );
    });

    it('stops renewing a key whose claim is gone (erased by another instance) after one renewal that found nothing', async () => {
      store = await open({ keyLeaseMs: 30 });
      await store.claimKey('k', 'f1');
      await query("DELETE FROM idempotency_keys WHERE key = 'k'");
      const before = emptyRenewals;
      await eventually(() => emptyRenewals > before, { timeoutMs: 5_000, what: 'a renewal after the deletion' });
      const count = renewals();
      await sleep(100);
      assert.equal(renewals(), count);
    });

    it("frees a released key for every instance, not only for this process's next request", async () => {
      const other = new PostgresApplicationStore({ pool, owner: 'process-2', location: 'test', now: () => now });
      await other.ready();
      await store.claimKey('k', 'f1');
      await store.releaseKey('k');
      assert.deepEqual(await other.claimKey('k', 'f1'), { kind: 'claimed' });
      await other.close();
    });

    it('keeps a key 24 hours when no claim row was there to extend, as it stored its application or its answer', async () => {
      const other = new PostgresApplicationStore({ pool, owner: 'process-2', location: 'test', now: () => now });
      await store.enqueue(withResume('r1'), { deadLetterAfterMs: HOUR, key: 'stored' });
      await store.completeKey('answered', 202, '{}');
      now += IDEMPOTENCY_TTL_MS - 1;
      assert.deepEqual(await other.claimKey('stored', ''), { kind: 'stored', reference: 'r1' });
      assert.deepEqual(await other.claimKey('answered', ''), { kind: 'replay', status: 202, body: '{}' });
      await other.close();
    });

    it('stops renewing a key KEY_LEASE_MS after its claim: a claim its request left behind is not held for ever', async () => {
      store = await open({ keyLeaseMs: 30 });
      await store.claimKey('k', 'f1');
      now += KEY_LEASE_MS;
      const before = renewals();
      await sleep(100);
      assert.equal(renewals(), before);
    });
  });
});
