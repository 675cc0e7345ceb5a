// Test helpers: an application and its resume as the routes hand them to the
// store (the resume already written to an upload file of the data directory);
// the bytes of a stored resume; a claim, an attempt's ends (each written
// twice too), and a delivery awaited; a store of
// each test's own folder, or of one test recording webhook events; the two stores a contract suite runs against.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe } from 'node:test';
import pg from 'pg';
import { eventually } from '../../test/poll.ts';
import { freshDatabase, skipWithoutPostgres } from '../../test/postgres.ts';
import { UploadSpool } from '../applications/upload-spool.ts';
import type {
  ApplicationStore,
  ClaimedRow,
  Lease,
  NewApplication,
  OutboxStore,
  StoreOptions,
} from './outbox/application-store.ts';
import { PostgresApplicationStore } from './outbox/postgres-store.ts';
import { SqliteApplicationStore } from './outbox/sqlite-store.ts';

export function uploadedResume(dataDir: string, bytes: Uint8Array): { path: string; size: number } {
  const path = new UploadSpool(dataDir).newPath();
  writeFileSync(path, bytes);
  return { path, size: bytes.length };
}

/** An application to offer 12 of company 3 from Ada, with a PDF resume uploaded into `resumeIn` (the data directory), or none without it. */
export function newApplication(
  reference: string,
  options: { resumeIn?: string; email?: string; utm?: NewApplication['utm'] } = {},
): NewApplication {
  const { resumeIn, email = 'ada@example.org', utm } = options;
  return {
    reference,
    campaign_id: 12,
    company_id: 3,
    payload: { applicant: { email, first_name: 'Ada' }, cover_letter: 'Hello' },
    resume: resumeIn === undefined ? null : uploadedResume(resumeIn, Buffer.from('%PDF-1.4 resume')),
    resume_type: resumeIn === undefined ? null : 'pdf',
    ...(utm === undefined ? {} : { utm }),
  };
}

/** The bytes of a stored resume, or null when the store holds none for that reference. */
export async function storedResume(outbox: Pick<OutboxStore, 'openResume'>, reference: string): Promise<Buffer | null> {
  const stream = await outbox.openResume(reference);
  if (stream === undefined) return null;
  const chunks: Uint8Array[] = [];
  // Copied: a chunk is only valid until the next is read.
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Claims a pending row for an attempt, as the worker does; fails the test when it is not claimable. */
export async function claimed(
  outbox: Pick<OutboxStore, 'claim'>,
  reference: string,
  leaseMs = 60_000,
): Promise<ClaimedRow> {
  const row = await outbox.claim(reference, leaseMs);
  if (row === undefined) throw new Error(`${reference} could not be claimed`);
  return row;
}

/** Each end an attempt writes, with the outcome and error the delivery worker would give it. */
export function attemptEnds(
  outbox: OutboxStore,
): Record<'delivered' | 'rejected' | 'dead' | 'refused', (lease: Lease) => Promise<unknown>> {
  return {
    delivered: (lease) => outbox.markDelivered(lease, 'created_applicant', { applicantId: 1, applicationId: 2 }),
    rejected: (lease) => outbox.markRejected(lease, 'upstream_rejected', 'validation_failed (422)'),
    dead: (lease) => outbox.markDead(lease, 'expired', 'server_error (503)'),
    refused: (lease) => outbox.markRefused(lease, 'campaign_closed', 'campaign_not_open (422)'),
  };
}

/** For each reference, claims its row and writes its end twice under that one lease, as an attempt that wrote it again would. */
export async function endedTwice(
  outbox: OutboxStore,
  ends: Record<string, (lease: Lease) => Promise<unknown>>,
): Promise<void> {
  for (const [reference, end] of Object.entries(ends)) {
    const lease = await claimed(outbox, reference);
    await end(lease);
    await end(lease);
  }
}

/** Claims the row of `reference` and records the service's refusal of its fields (422); answers the row's status. */
export async function refuse(
  outbox: Pick<OutboxStore, 'claim' | 'markRefused'>,
  reference: string,
): Promise<'rejected' | 'dead' | undefined> {
  return outbox.markRefused(await claimed(outbox, reference), 'upstream_rejected', 'validation_failed (422)');
}

/** Waits (5 s at most) until the row of `reference` is delivered; `what` names the wait in its timeout. */
export async function untilDelivered(outbox: Pick<OutboxStore, 'get'>, reference: string, what: string): Promise<void> {
  await eventually(async () => (await outbox.get(reference))?.status === 'delivered', { timeoutMs: 5_000, what });
}

/**
 * Runs `work` on a SQLite store that records webhook events (without the
 * candidate's data), in a temporary folder of its own; then closes the store
 * and removes the folder.
 */
export async function withEventStore(work: (store: SqliteApplicationStore) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'jbc-events-'));
  const store = new SqliteApplicationStore({ dataDir: dir, owner: 'test', webhookEvents: { includeCandidate: false } });
  try {
    await work(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a test of storeEachTest's suite reaches: its folder, its clock (a test moves it) and its store. */
export interface StoreOfTest<S> {
  dir: string;
  now: number;
  store: S;
}

/**
 * Before each test of the suite, a new temporary folder named from `prefix`, the clock at
 * 2026-01-01 and the store `open` makes on them; after each, that store closed and the folder removed.
 */
export function storeEachTest<S extends { close(): Promise<void> }>(
  prefix: string,
  open: (dir: string, now: () => number) => S | Promise<S>,
): StoreOfTest<S> {
  const test = {} as StoreOfTest<S>;
  beforeEach(async () => {
    test.dir = mkdtempSync(join(tmpdir(), prefix));
    test.now = Date.UTC(2026, 0, 1);
    test.store = await open(test.dir, () => test.now);
  });
  afterEach(async () => {
    await test.store.close();
    rmSync(test.dir, { recursive: true, force: true });
  });
  return test;
}

/** The store of one side of a contract suite: SQLite in a data directory, or PostgreSQL in a database of the suite's own. */
export interface StoreHarness {
  name: 'SQLite' | 'PostgreSQL';
  /** True when other owners are live instances (PostgreSQL): their leases are respected. */
  shared: boolean;
  /** A store as one process sees it; `dir` is its data directory. */
  open(
    owner: string,
    dir: string,
    now: () => number,
    webhookEvents?: StoreOptions['webhookEvents'],
    funnel?: StoreOptions['funnel'],
  ): Promise<ApplicationStore>;
  /** Empties the store before a test: SQLite's file in `dir` removed, PostgreSQL's tables emptied. */
  reset(dir: string): Promise<void>;
  /** The suite's PostgreSQL pool (undefined on SQLite), for what a test does from outside the store. */
  pool(): pg.Pool | undefined;
}

/** Tables a reset empties on PostgreSQL: every one a store writes. */
const STORE_TABLES =
  'outbox, resume_chunks, idempotency_keys, rate_counters, webhook_events, source_refusals, funnel_counts, funnel_outcomes, funnel_source_days, funnel_source_outcomes, funnel_offer_spans, funnel_waiting';

/**
 * A contract suite run against both stores: `describe('TITLE (SQLite)')` and
 * `describe('TITLE (PostgreSQL)')`, the latter on a fresh database of its own
 * (skipped without TEST_DATABASE_URL, failing under CI=true).
 */
export function forEachStore(title: string, suite: (harness: StoreHarness) => void): void {
  describe(`${title} (SQLite)`, () => {
    suite({
      name: 'SQLite',
      shared: false,
      async open(owner, dir, now, webhookEvents, funnel) {
        const store = new SqliteApplicationStore({ dataDir: dir, owner, now, webhookEvents, funnel });
        await store.ready();
        return store;
      },
      async reset(dir) {
        for (const file of ['outbox.db', 'outbox.db-wal', 'outbox.db-shm']) rmSync(join(dir, file), { force: true });
      },
      pool: () => undefined,
    });
  });
  const skip = skipWithoutPostgres();
  describe(`${title} (PostgreSQL)`, { skip }, () => {
    let pool: pg.Pool | undefined;
    before(async () => {
      pool = new pg.Pool({ connectionString: await freshDatabase(), max: 8 });
      // The database is dropped when the file ends, idle connections with it.
      pool.on('error', () => {});
    });
    after(() => pool?.end());
    const open = async (
      owner: string,
      now: () => number,
      webhookEvents?: StoreOptions['webhookEvents'],
      funnel?: StoreOptions['funnel'],
    ) => {
      const store = new PostgresApplicationStore({ pool: pool!, owner, location: 'test', now, webhookEvents, funnel });
      await store.ready();
      return store;
    };
    suite({
      name: 'PostgreSQL',
      shared: true,
      open: (owner, _dir, now, webhookEvents, funnel) => open(owner, now, webhookEvents, funnel),
      async reset() {
        // Migrated first: the tables exist before the first store of the suite opens.
        await (await open('reset', Date.now)).close();
        await pool!.query(`TRUNCATE ${STORE_TABLES}`);
      },
      pool: () => pool,
    });
  });
}
