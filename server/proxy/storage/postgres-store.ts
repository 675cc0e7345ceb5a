// The application store on PostgreSQL (DATABASE_URL), shared by every proxy
// instance behind a load balancer. Same rows and rules as the SQLite store,
// with what several live instances need:
// - resumes are rows of resume_chunks (256 KiB each), written from the upload
//   file inside the enqueue transaction and read back chunk by chunk;
// - delivery claims due rows with FOR UPDATE SKIP LOCKED and a lease
//   (lease_owner, lease_until, and lease_token, the fencing token every write
//   of the attempt names): the owner renews it while its attempt runs, a row
//   is taken over only once its lease has ended, and the old owner's writes
//   then change nothing;
// - an Idempotency-Key claim is a row with a lease too, so a retry landing on
//   another instance answers in_progress while the first one handles it.
// Times are the proxy's clock (`now`, ms), passed in every statement; a
// lease (DELIVERY_LEASE_SECONDS) is long against the instances' clocks
// drifting apart, and the token, not the clock, decides whose write counts.
import { open } from 'node:fs/promises';
import type pg from 'pg';
import { IDEMPOTENCY_TTL_MS, KEY_LEASE_MS, LeaseLostError, RETENTION_FROM, ResumeMissingError } from './application-store.ts';
import type {
  ApplicationPayload,
  ApplicationStore,
  ClaimedRow,
  EnqueueOptions,
  ErasedBy,
  ErasureReport,
  KeyClaim,
  Lease,
  NewApplication,
  OutboxRow,
  OutboxStatus,
  OutboxSummary,
  Outcome,
  RateCount,
  RetryResult,
  StoreOptions,
} from './application-store.ts';
import type { DataDirLock } from '../data-dir-lock.ts';
import { migratePostgres } from './postgres-schema.ts';
import type { MigrationReport } from './migrations.ts';
import { inTransaction } from './postgres.ts';

/** Resume bytes per row of resume_chunks: one chunk in memory at a time, each way. */
export const RESUME_CHUNK_BYTES = 256 * 1024;

const SUMMARY_COLUMNS = `reference, created_at, campaign_id, company_id, resume_type, resume_bytes, status, attempts,
  next_attempt_at, dead_letter_at, answered, outcome, last_error, last_attempt_at, delivered_at,
  upstream_applicant_id, upstream_application_id, ended_at, erased_at, erased_by, unconfirmed_send,
  (payload IS NOT NULL OR resume_bytes IS NOT NULL) AS personal_data`;

// pg reads bigint as a string (it may pass 2^53): ours are milliseconds and ids, well below.
const BIGINT_COLUMNS = [
  'created_at', 'campaign_id', 'company_id', 'resume_bytes', 'next_attempt_at', 'dead_letter_at', 'last_attempt_at', 'delivered_at',
  'upstream_applicant_id', 'upstream_application_id', 'ended_at', 'erased_at',
] as const;

type Raw = Record<string, unknown>;

function numbers(raw: Raw): Raw {
  const out: Raw = { ...raw };
  for (const column of BIGINT_COLUMNS) if (typeof out[column] === 'string') out[column] = Number(out[column]);
  return out;
}

function toRow(raw: Raw): OutboxRow {
  const { lease_owner: _owner, lease_until: _until, lease_token: _token, ...rest } = numbers(raw);
  return { ...(rest as unknown as OutboxRow), payload: (raw.payload ?? null) as ApplicationPayload | null };
}

function toClaimed(raw: Raw): ClaimedRow {
  return { ...toRow(raw), lease_token: Number(raw.lease_token) };
}

function toSummary(raw: Raw): OutboxSummary {
  return numbers(raw) as unknown as OutboxSummary;
}

export interface PostgresStoreOptions extends StoreOptions {
  pool: pg.Pool;
  /** Names the database in messages (no password). */
  location: string;
}

export class PostgresApplicationStore implements ApplicationStore {
  readonly owner: string;
  readonly location: string;
  private readonly pool: pg.Pool;
  private readonly now: () => number;
  private readonly keyLeaseMs: number;
  private migrated = false;
  private closed = false;
  /** The renewal timers of the Idempotency-Keys this process's requests hold. */
  private readonly keyRenewals = new Map<string, NodeJS.Timeout>();

  private migrating: Promise<MigrationReport> | undefined;

  /**
   * Keys claimed by requests of this process that are still running. A claim
   * of this owner not among them was left by a request whose release could
   * not reach the database (it went away): a retry takes it at once, instead
   * of waiting for its lease.
   */
  readonly #handling = new Set<string>();

  /** The store on `pool`; usable once ready() has migrated the database. The pool stays the caller's: close() does not end it. */
  constructor(options: PostgresStoreOptions) {
    this.owner = options.owner;
    this.location = options.location;
    this.pool = options.pool;
    this.now = options.now ?? Date.now;
    this.keyLeaseMs = options.keyLeaseMs ?? KEY_LEASE_MS;
  }

  /** Migrates the database (once per store; instances starting together take turns on a lock). */
  ready(): Promise<MigrationReport> {
    this.migrating ??= migratePostgres(this.pool, this.location).then((report) => {
      this.migrated = true;
      return report;
    });
    return this.migrating;
  }

  get isOpen(): boolean {
    return this.migrated && !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const key of [...this.keyRenewals.keys()]) this.stopRenewingKey(key);
  }

  private async query(sql: string, params: unknown[] = [], client: pg.Pool | pg.PoolClient = this.pool): Promise<Raw[]> {
    return (await client.query(sql, params)).rows as Raw[];
  }

  // ---- idempotency keys ----

  async claimKey(key: string, fingerprint: string): Promise<KeyClaim> {
    // Held from the look on: a second request of this process with the key, meanwhile, must not take the claim over.
    if (this.#handling.has(key)) return this.claimKeyOf(key, fingerprint, false);
    this.#handling.add(key);
    try {
      const claim = await this.claimKeyOf(key, fingerprint, true);
      if (claim.kind !== 'claimed') this.#handling.delete(key);
      return claim;
    } catch (error) {
      this.#handling.delete(key);
      throw error;
    }
  }

  /** `abandoned`: a claim of this owner with no application is one no request of this process runs. */
  private async claimKeyOf(key: string, fingerprint: string, abandoned: boolean): Promise<KeyClaim> {
    const now = this.now();
    // A new key, one past its TTL, or one whose owner stopped before storing anything: this request takes it.
    const taken = await this.query(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, created_at, expires_at) VALUES ($1, $2, 'in_progress', $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_progress', owner = excluded.owner, lease_until = excluded.lease_until,
         reference = NULL, status = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
       WHERE idempotency_keys.expires_at <= $5
          OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.reference IS NULL
              AND (idempotency_keys.lease_until <= $5 OR (idempotency_keys.owner = $3 AND $7)))
       RETURNING key`,
      [key, fingerprint, this.owner, now + this.keyLeaseMs, now, now + IDEMPOTENCY_TTL_MS, abandoned],
    );
    if (taken.length === 1) {
      this.renewKey(key);
      return { kind: 'claimed' };
    }
    const [row] = await this.query('SELECT fingerprint, state, owner, lease_until, reference, status, body FROM idempotency_keys WHERE key = $1', [key]);
    // Deleted between the two statements (erased, pruned): try once more.
    if (row === undefined) return this.claimKeyOf(key, fingerprint, abandoned);
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.state === 'done' && row.status !== null && row.body !== null) return { kind: 'replay', status: Number(row.status), body: String(row.body) };
    if (Number(row.lease_until) > now) return { kind: 'in_progress' };
    // Its owner stored the application and is gone (its lease ran out): this request answers for it.
    const [takenOver] = await this.query(
      `UPDATE idempotency_keys SET owner = $2, lease_until = $3 WHERE key = $1 AND state = 'in_progress' AND lease_until <= $4 AND reference IS NOT NULL RETURNING reference`,
      [key, this.owner, now + this.keyLeaseMs, now],
    );
    if (takenOver === undefined) return { kind: 'in_progress' };
    this.renewKey(key);
    return { kind: 'stored', reference: String(takenOver.reference) };
  }

  /**
   * Keeps a claimed key this process's while its request runs: its lease
   * (keyLeaseMs) is extended every third of it until the request completes
   * or releases it, so a killed process's keys are free again one lease
   * later. Never past KEY_LEASE_MS after the claim: no request lives that
   * long, and a claim its request left behind must not be held for ever.
   */
  private renewKey(key: string): void {
    this.stopRenewingKey(key);
    const until = this.now() + KEY_LEASE_MS;
    const timer = setInterval(() => {
      const now = this.now();
      if (now >= until || this.closed) {
        this.stopRenewingKey(key);
        return;
      }
      this.query("UPDATE idempotency_keys SET lease_until = $1 WHERE key = $2 AND owner = $3 AND state = 'in_progress' RETURNING key", [
        now + this.keyLeaseMs,
        key,
        this.owner,
      ]).then(
        (rows) => {
          // Answered, released or erased meanwhile: nothing left to hold.
          if (rows.length === 0 && this.keyRenewals.get(key) === timer) this.stopRenewingKey(key);
        },
        // The database did not answer: the next renewal tries again, while the lease lasts.
        () => {},
      );
    }, Math.max(1, Math.floor(this.keyLeaseMs / 3)));
    timer.unref();
    this.keyRenewals.set(key, timer);
  }

  private stopRenewingKey(key: string): void {
    clearInterval(this.keyRenewals.get(key));
    this.keyRenewals.delete(key);
  }

  async completeKey(key: string, status: number, body: string): Promise<void> {
    this.#handling.delete(key);
    this.stopRenewingKey(key);
    const now = this.now();
    await this.query(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, status, body, created_at, expires_at) VALUES ($1, '', 'done', $2, $3, $4, $5, $3, $6)
       ON CONFLICT (key) DO UPDATE SET state = 'done', status = excluded.status, body = excluded.body, lease_until = excluded.lease_until`,
      [key, this.owner, now, status, body, now + IDEMPOTENCY_TTL_MS],
    );
  }

  async releaseKey(key: string): Promise<void> {
    // Its request is over, whether or not the database hears of it.
    this.#handling.delete(key);
    this.stopRenewingKey(key);
    await this.query(`DELETE FROM idempotency_keys WHERE key = $1 AND owner = $2 AND state = 'in_progress' AND reference IS NULL`, [key, this.owner]);
  }

  // ---- rate counters (fixed windows) ----

  async peekRate(bucket: string, windowMs: number): Promise<RateCount> {
    const start = Math.floor(this.now() / windowMs) * windowMs;
    const [row] = await this.query('SELECT count FROM rate_counters WHERE bucket = $1', [`${bucket}@${start}`]);
    return { count: row === undefined ? 0 : Number(row.count), resetAt: start + windowMs };
  }

  async hitRate(bucket: string, windowMs: number, client: pg.Pool | pg.PoolClient = this.pool): Promise<RateCount> {
    const start = Math.floor(this.now() / windowMs) * windowMs;
    const [row] = await this.query(
      `INSERT INTO rate_counters (bucket, count, reset_at) VALUES ($1, 1, $2) ON CONFLICT (bucket) DO UPDATE SET count = rate_counters.count + 1 RETURNING count`,
      [`${bucket}@${start}`, start + windowMs],
      client,
    );
    return { count: Number(row!.count), resetAt: start + windowMs };
  }

  async pruneExpired(): Promise<{ rateCounters: number; idempotencyKeys: number }> {
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      const keys = await client.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
      const rates = await client.query('DELETE FROM rate_counters WHERE reset_at <= $1', [now]);
      return { rateCounters: rates.rowCount ?? 0, idempotencyKeys: keys.rowCount ?? 0 };
    });
  }

  // ---- applications ----

  /**
   * One transaction: the row, its resume (read from the upload file 256 KiB
   * at a time), the key now pointing at it and the email counted. Committed
   * means durable (synchronous_commit); the upload file is the caller's.
   */
  async enqueue(app: NewApplication, options: EnqueueOptions): Promise<void> {
    const now = this.now();
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, resume_type, resume_bytes, status, attempts, next_attempt_at, dead_letter_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 0, $2, $8)`,
        [app.reference, now, app.campaign_id, app.company_id, JSON.stringify(app.payload), app.resume_type, app.resume?.size ?? null, now + options.deadLetterAfterMs],
      );
      if (app.resume !== null) await this.writeResume(client, app.reference, app.resume.path, app.resume.size);
      if (options.key !== undefined) {
        await client.query(
          `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, reference, created_at, expires_at) VALUES ($1, '', 'in_progress', $2, $3, $4, $5, $6)
           ON CONFLICT (key) DO UPDATE SET state = 'in_progress', owner = excluded.owner, lease_until = excluded.lease_until, reference = excluded.reference,
             status = NULL, body = NULL`,
          [options.key, this.owner, now + this.keyLeaseMs, app.reference, now, now + IDEMPOTENCY_TTL_MS],
        );
      }
      if (options.emailBucket !== undefined) await this.hitRate(options.emailBucket.bucket, options.emailBucket.windowMs, client);
    });
    // The key now names the application: no longer a claim a retry could take.
    if (options.key !== undefined) this.#handling.delete(options.key);
  }

  private async writeResume(client: pg.PoolClient, reference: string, path: string, size: number): Promise<void> {
    const file = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(RESUME_CHUNK_BYTES);
      let written = 0;
      for (let seq = 0; written < size; seq++) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(RESUME_CHUNK_BYTES, size - written), written);
        if (bytesRead === 0) throw new Error(`the upload file of ${reference} ended after ${written} of ${size} bytes`);
        await client.query('INSERT INTO resume_chunks (reference, seq, bytes) VALUES ($1, $2, $3)', [reference, seq, buffer.subarray(0, bytesRead)]);
        written += bytesRead;
      }
    } finally {
      await file.close();
    }
  }

  /** Nothing to delete: a resume's chunks are written in its row's transaction, never without it. */
  async removeUnlinkedResumes(_lock: DataDirLock): Promise<number> {
    return 0;
  }

  async openResume(reference: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    const [row] = await this.query(
      'SELECT o.resume_bytes, (SELECT count(*)::int FROM resume_chunks c WHERE c.reference = o.reference) AS chunks FROM outbox o WHERE o.reference = $1',
      [reference],
    );
    if (row === undefined || row.resume_bytes === null) return undefined;
    const chunks = Number(row.chunks);
    const expected = Math.ceil(Number(row.resume_bytes) / RESUME_CHUNK_BYTES);
    // Written with the row in one transaction, so only a hand outside the proxy takes chunks away.
    if (chunks !== expected) throw new ResumeMissingError(reference, `${chunks} of its ${expected} rows of resume_chunks are there`);
    const read = async (seq: number): Promise<Buffer> => {
      const [chunk] = await this.query('SELECT bytes FROM resume_chunks WHERE reference = $1 AND seq = $2', [reference, seq]);
      // Erased while it was being read: the send fails rather than going out short.
      if (chunk === undefined) throw new Error('the resume is no longer stored');
      return chunk.bytes as Buffer;
    };
    return (async function* () {
      for (let seq = 0; seq < chunks; seq++) yield await read(seq);
    })();
  }

  async claim(reference: string, leaseMs: number): Promise<ClaimedRow | undefined> {
    const now = this.now();
    const [row] = await this.query(
      `UPDATE outbox SET status = 'delivering', lease_owner = $1, lease_until = $2, lease_token = lease_token + 1, attempts = attempts + 1,
         last_attempt_at = $3 WHERE reference = $4 AND status = 'pending' RETURNING *`,
      [this.owner, now + leaseMs, now, reference],
    );
    return row === undefined ? undefined : toClaimed(row);
  }

  /** Rows another instance is claiming right now are skipped (SKIP LOCKED), so no row is ever claimed twice. */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    const now = this.now();
    const rows = await this.query(
      `UPDATE outbox SET status = 'delivering', lease_owner = $1, lease_until = $2, lease_token = lease_token + 1, attempts = attempts + 1, last_attempt_at = $3
       WHERE reference IN (
         SELECT reference FROM outbox WHERE status = 'pending' AND next_attempt_at <= $3 ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED
       ) RETURNING *`,
      [this.owner, now + leaseMs, now, limit],
    );
    return rows.map(toClaimed).sort((a, b) => a.next_attempt_at - b.next_attempt_at);
  }

  /** Extended only while its token is the row's and its lease has not run out; a row erased meanwhile is still the attempt's to record. */
  async renewLease(lease: Lease, leaseMs: number): Promise<boolean> {
    const now = this.now();
    const renewed = await this.query(
      "UPDATE outbox SET lease_until = $1 WHERE reference = $2 AND lease_token = $3 AND status = 'delivering' AND lease_until > $4 RETURNING reference",
      [now + leaseMs, lease.reference, lease.lease_token, now],
    );
    if (renewed.length > 0) return true;
    const [row] = await this.query('SELECT lease_token, status FROM outbox WHERE reference = $1', [lease.reference]);
    return row !== undefined && Number(row.lease_token) === lease.lease_token && row.status !== 'delivering';
  }

  /** After a write that changed nothing: rejects when another claim holds the row (else it was erased meanwhile, and stays so). */
  private async checkLease(lease: Lease, client: pg.Pool | pg.PoolClient = this.pool): Promise<void> {
    const [row] = await this.query('SELECT lease_token FROM outbox WHERE reference = $1', [lease.reference], client);
    if (row === undefined || Number(row.lease_token) !== lease.lease_token) throw new LeaseLostError(lease.reference);
  }

  async nextDueAt(): Promise<number | undefined> {
    const [row] = await this.query("SELECT min(next_attempt_at) AS at FROM outbox WHERE status = 'pending'");
    return row?.at == null ? undefined : Number(row.at);
  }

  /**
   * Other instances are alive: a row is taken back only once its lease has
   * ended, whoever holds it (this process's own too, unless it still works on
   * it). It keeps its place in line (the time it was due), ahead of the rows
   * that became due while it was held.
   */
  async recoverLeases(activeHere: ReadonlySet<string> = new Set()): Promise<number> {
    const now = this.now();
    const rows = await this.query(
      `UPDATE outbox SET status = 'pending', next_attempt_at = least(next_attempt_at, $1), lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1,
         unconfirmed_send = 1 WHERE status = 'delivering' AND coalesce(lease_until, 0) <= $1 AND NOT (lease_owner = $2 AND reference = ANY($3::text[]))
       RETURNING reference`,
      [now, this.owner, [...activeHere]],
    );
    return rows.length;
  }

  async makePendingDue(): Promise<number> {
    const now = this.now();
    const rows = await this.query("UPDATE outbox SET next_attempt_at = $1 WHERE status = 'pending' AND next_attempt_at > $1 RETURNING reference", [now]);
    return rows.length;
  }

  async markDelivered(lease: Lease, outcome: Outcome, ids: { applicantId?: number | undefined; applicationId?: number | undefined }): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const result = await client.query(
        `UPDATE outbox SET status = 'delivered', outcome = $1, delivered_at = $2, payload = NULL, resume_bytes = NULL, lease_owner = NULL,
           lease_until = NULL, last_error = NULL, upstream_applicant_id = $3, upstream_application_id = $4
         WHERE reference = $5 AND lease_token = $6`,
        [outcome, this.now(), ids.applicantId ?? null, ids.applicationId ?? null, lease.reference, lease.lease_token],
      );
      if ((result.rowCount ?? 0) === 0) await this.checkLease(lease, client);
      await client.query('DELETE FROM resume_chunks WHERE reference = $1', [lease.reference]);
    });
  }

  // markRetry, markRejected and markDead leave a row erased during its attempt as it is (see the SQLite store).

  async markRetry(lease: Lease, nextAttemptAt: number, error: string, reached = false): Promise<void> {
    const rows = await this.query(
      `UPDATE outbox SET status = 'pending', next_attempt_at = $1, last_error = $2, lease_owner = NULL, lease_until = NULL,
         unconfirmed_send = greatest(unconfirmed_send, $3) WHERE reference = $4 AND lease_token = $5 AND erased_at IS NULL RETURNING reference`,
      [nextAttemptAt, error, reached ? 1 : 0, lease.reference, lease.lease_token],
    );
    if (rows.length === 0) await this.checkLease(lease);
  }

  async markRejected(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const result = await client.query(
        `UPDATE outbox SET status = 'rejected', outcome = $1, last_error = $2, payload = NULL, resume_bytes = NULL, lease_owner = NULL,
           lease_until = NULL, ended_at = $3 WHERE reference = $4 AND lease_token = $5 AND erased_at IS NULL`,
        [outcome, error, this.now(), lease.reference, lease.lease_token],
      );
      if ((result.rowCount ?? 0) > 0) await client.query('DELETE FROM resume_chunks WHERE reference = $1', [lease.reference]);
      else await this.checkLease(lease, client);
    });
  }

  async markDead(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    const rows = await this.query(
      `UPDATE outbox SET status = 'dead', outcome = $1, last_error = $2, lease_owner = NULL, lease_until = NULL, ended_at = $3
       WHERE reference = $4 AND lease_token = $5 AND erased_at IS NULL RETURNING reference`,
      [outcome, error, this.now(), lease.reference, lease.lease_token],
    );
    if (rows.length === 0) await this.checkLease(lease);
  }

  async markRefused(lease: Lease, outcome: Outcome, error: string): Promise<'rejected' | 'dead' | undefined> {
    return inTransaction(this.pool, async (client) => {
      const [row] = await this.query(
        `UPDATE outbox SET status = CASE WHEN answered IS NULL THEN 'rejected' ELSE 'dead' END, outcome = $1, last_error = $2,
           payload = CASE WHEN answered IS NULL THEN NULL ELSE payload END, resume_bytes = CASE WHEN answered IS NULL THEN NULL ELSE resume_bytes END,
           lease_owner = NULL, lease_until = NULL, ended_at = $3
         WHERE reference = $4 AND lease_token = $5 AND erased_at IS NULL RETURNING status`,
        [outcome, error, this.now(), lease.reference, lease.lease_token],
        client,
      );
      if (row === undefined) await this.checkLease(lease, client);
      if (row?.status === 'rejected') await client.query('DELETE FROM resume_chunks WHERE reference = $1', [lease.reference]);
      return row?.status as 'rejected' | 'dead' | undefined;
    });
  }

  /** One statement: it waits for (or is waited for by) a refusal being recorded on the same row, never crosses it. */
  async answerQueued(reference: string): Promise<boolean> {
    const rows = await this.query(
      "UPDATE outbox SET answered = coalesce(answered, 202) WHERE reference = $1 AND status IN ('pending', 'delivering') RETURNING reference",
      [reference],
    );
    return rows.length > 0;
  }

  async setAnswered(reference: string, status: number): Promise<void> {
    await this.query('UPDATE outbox SET answered = $1 WHERE reference = $2 AND answered IS NULL', [status, reference]);
  }

  async get(reference: string): Promise<OutboxRow | undefined> {
    const [row] = await this.query('SELECT * FROM outbox WHERE reference = $1', [reference]);
    return row === undefined ? undefined : toRow(row);
  }

  async summary(reference: string): Promise<OutboxSummary | undefined> {
    const [row] = await this.query(`SELECT ${SUMMARY_COLUMNS} FROM outbox WHERE reference = $1`, [reference]);
    return row === undefined ? undefined : toSummary(row);
  }

  async list(options: { status?: OutboxStatus; limit?: number } = {}): Promise<OutboxSummary[]> {
    const limit = options.limit ?? 1000;
    const rows =
      options.status !== undefined
        ? await this.query(`SELECT ${SUMMARY_COLUMNS} FROM outbox WHERE status = $1 ORDER BY created_at LIMIT $2`, [options.status, limit])
        : await this.query(`SELECT ${SUMMARY_COLUMNS} FROM outbox ORDER BY created_at LIMIT $1`, [limit]);
    return rows.map(toSummary);
  }

  async counts(): Promise<Record<OutboxStatus, number>> {
    const counts: Record<OutboxStatus, number> = { pending: 0, delivering: 0, delivered: 0, rejected: 0, dead: 0 };
    for (const row of await this.query('SELECT status, count(*)::int AS n FROM outbox GROUP BY status')) counts[row.status as OutboxStatus] = Number(row.n);
    return counts;
  }

  async queuedResumeBytes(): Promise<number> {
    const [row] = await this.query(`SELECT coalesce(sum(resume_bytes), 0)::bigint AS bytes FROM outbox WHERE status <> 'delivered'`);
    return Number(row?.bytes ?? 0);
  }

  async retry(reference: string, deadLetterAfterMs: number): Promise<RetryResult> {
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      const [row] = await this.query('SELECT status, payload IS NOT NULL AS has_payload, erased_at FROM outbox WHERE reference = $1 FOR UPDATE', [reference], client);
      if (row === undefined) return 'not_found';
      if (row.erased_at !== null && row.status !== 'delivered') return 'erased';
      if (!(row.status === 'dead' || row.status === 'pending') || row.has_payload === false) return 'not_retryable';
      await client.query(
        "UPDATE outbox SET status = 'pending', next_attempt_at = $1, dead_letter_at = $2, outcome = NULL, ended_at = NULL WHERE reference = $3",
        [now, now + deadLetterAfterMs, reference],
      );
      return 'queued';
    });
  }

  // ---- retention and erasure ----

  private async dropPersonalData(client: pg.PoolClient, references: string[], now: number, by: ErasedBy): Promise<void> {
    await client.query('UPDATE outbox SET payload = NULL, resume_bytes = NULL, erased_at = $1, erased_by = $2 WHERE reference = ANY($3::text[])', [now, by, references]);
    await client.query('DELETE FROM resume_chunks WHERE reference = ANY($1::text[])', [references]);
  }

  async eraseExpiredPersonalData(retentionMs: number): Promise<string[]> {
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      const rows = await this.query(
        `SELECT reference FROM outbox WHERE status IN ('dead', 'rejected') AND ${RETENTION_FROM} <= $1
           AND (payload IS NOT NULL OR resume_bytes IS NOT NULL) FOR UPDATE`,
        [now - retentionMs],
        client,
      );
      const references = rows.map((r) => String(r.reference));
      if (references.length > 0) await this.dropPersonalData(client, references, now, 'retention');
      return references;
    });
  }

  async eraseByEmail(email: string, rateBucket: string): Promise<ErasureReport> {
    const wanted = email.trim().toLowerCase();
    // An empty address would match every stored answer below.
    if (!wanted.includes('@')) throw new Error('eraseByEmail needs an email address');
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      // Compared in JS, as the SQLite store does (trim and case as JavaScript reads them).
      const rows = await this.query(
        "SELECT reference, status, outcome, payload->'applicant'->>'email' AS email FROM outbox WHERE payload IS NOT NULL FOR UPDATE",
        [],
        client,
      );
      const applications: ErasureReport['applications'] = [];
      for (const row of rows) {
        if (typeof row.email !== 'string' || row.email.trim().toLowerCase() !== wanted) continue;
        const reference = String(row.reference);
        const statusBefore = row.status as OutboxStatus;
        await this.dropPersonalData(client, [reference], now, 'request');
        if (statusBefore === 'pending' || statusBefore === 'delivering') {
          await client.query(
            "UPDATE outbox SET status = 'rejected', outcome = 'erased', ended_at = $1, lease_owner = NULL, lease_until = NULL WHERE reference = $2",
            [now, reference],
          );
          applications.push({ reference, statusBefore, status: 'rejected', outcome: 'erased' });
        } else {
          applications.push({ reference, statusBefore, status: statusBefore, outcome: (row.outcome ?? null) as Outcome | null });
        }
      }
      const counters = await client.query('DELETE FROM rate_counters WHERE starts_with(bucket, $1)', [`${rateBucket}@`]);
      const keys = await client.query('DELETE FROM idempotency_keys WHERE reference = ANY($1::text[]) OR strpos(lower(body), $2) > 0', [
        applications.map((a) => a.reference),
        wanted,
      ]);
      return { applications, rateCounters: counters.rowCount ?? 0, idempotencyKeys: keys.rowCount ?? 0 };
    });
  }

  async purgeDelivered(olderThanMs = 0): Promise<number> {
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      const result = await client.query(
        "DELETE FROM outbox WHERE status IN ('delivered', 'rejected') AND coalesce(delivered_at, ended_at, last_attempt_at, created_at) <= $1",
        [now - olderThanMs],
      );
      await client.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
      await client.query('DELETE FROM rate_counters WHERE reset_at <= $1', [now]);
      return result.rowCount ?? 0;
    });
  }

  /** Autovacuum gives the space back; erased rows' old versions go with it. */
  async compact(): Promise<void> {}
}
