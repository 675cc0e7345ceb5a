// The application store on SQLite (DATA_DIR/outbox.db), for one proxy
// process: every accepted application is written here, with its resume, in
// one transaction BEFORE the candidate gets an answer; delivery claims rows
// with a lease and records what it learnt in the same place. Idempotency keys
// and the apply rate counters live in the same file so that "stored" and
// "this key now points at that application" commit together.
//
// Resumes are files beside it (resume-files.ts), written before the row that
// points at them and deleted after it lets them go.
//
// One proxy process owns one data directory (SQLite, WAL). Rows another
// process left in `delivering` (it was killed) are taken back at start-up.
// Other processes (the outbox and migrate commands) open the same file beside
// it: opening deletes nothing; only the holder of the data directory's lock
// removes the resume files no row holds (removeUnlinkedResumes).
// node:sqlite is synchronous: each method does its work at once and answers
// a settled promise, to fit the async interfaces PostgreSQL needs.
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { createOwnerOnlyDatabaseFile, makeOwnerOnlyFolder } from '../../owner-only.ts';
import { ResumeFiles } from '../applications/resume-files.ts';
import type { DataDirLock } from '../data-dir-lock.ts';
import { IDEMPOTENCY_TTL_MS, LeaseLostError, RETENTION_FROM, ResumeMissingError } from './application-store.ts';
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
import type { MigrationReport } from './migrations.ts';
import { migrateSqlite } from './sqlite-schema.ts';

const SUMMARY_COLUMNS = `reference, created_at, campaign_id, company_id, resume_type, resume_bytes, status, attempts,
  next_attempt_at, dead_letter_at, answered, outcome, last_error, last_attempt_at, delivered_at,
  upstream_applicant_id, upstream_application_id, ended_at, erased_at, erased_by, unconfirmed_send,
  (payload IS NOT NULL OR resume_bytes IS NOT NULL) AS personal_data`;

export interface SqliteStoreOptions extends StoreOptions {
  /** Directory holding outbox.db (created when missing). */
  dataDir: string;
  /** Where resumes are kept (default: DATA_DIR/resumes; tests give one whose disk fills). */
  resumes?: ResumeFiles;
}

export class SqliteApplicationStore implements ApplicationStore {
  readonly path: string;
  readonly location: string;
  /** What opening the file migrated. */
  readonly migrations: MigrationReport;
  readonly owner: string;
  private readonly dataDir: string;
  private readonly db: DatabaseSync;
  private readonly resumes: ResumeFiles;
  private readonly now: () => number;
  private readonly statements = new Map<string, StatementSync>();
  private closed = false;

  constructor(options: SqliteStoreOptions) {
    makeOwnerOnlyFolder(options.dataDir);
    this.dataDir = options.dataDir;
    this.path = join(options.dataDir, 'outbox.db');
    this.location = this.path;
    this.owner = options.owner;
    this.now = options.now ?? Date.now;
    createOwnerOnlyDatabaseFile(this.path);
    this.db = new DatabaseSync(this.path);
    // Incremental auto-vacuum (only takes effect on a new file): purge gives deleted resumes' space back.
    this.db.exec('PRAGMA busy_timeout = 5000; PRAGMA auto_vacuum = INCREMENTAL;');
    // WAL + synchronous FULL: a committed application survives kill -9 and power loss.
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
    // Deleted payloads and resumes are overwritten with zeros, not left in free pages: erased means gone from the file.
    this.db.exec('PRAGMA secure_delete = ON;');
    this.resumes = options.resumes ?? new ResumeFiles(options.dataDir);
    this.migrations = migrateSqlite(this.db, this.resumes, this.path, this.now);
  }

  /**
   * Deletes resume files no row holds: written by a process killed before its
   * row was committed, or left by one killed between a row letting its
   * resume go and the file's deletion. Answers how many it deleted.
   *
   * Only for the process holding the data directory (`lock`), at its start,
   * before it takes any upload: enqueue moves a resume file in before its
   * row commits, so a file without a row is an orphan only when no enqueue
   * can be under way, and only the lock holder stores applications. Run
   * later, or by another process, it would delete resumes being stored.
   */
  async removeUnlinkedResumes(lock: DataDirLock): Promise<number> {
    if (lock.dataDir !== resolve(this.dataDir)) throw new Error(`removeUnlinkedResumes: the lock held is on ${lock.dataDir}, not on ${resolve(this.dataDir)}`);
    const held = this.stmt('SELECT 1 AS yes FROM outbox WHERE reference = ? AND resume_bytes IS NOT NULL');
    let removed = 0;
    for (const reference of this.resumes.references()) {
      if (held.get(reference) !== undefined) continue;
      this.resumes.remove(reference);
      removed += 1;
    }
    return removed;
  }

  /** The resume of an application, read in chunks; undefined when it holds none; ResumeMissingError when its file is gone. */
  async openResume(reference: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    const holds = () => (this.stmt('SELECT resume_bytes FROM outbox WHERE reference = ?').get(reference) as { resume_bytes: number | null } | undefined)?.resume_bytes != null;
    if (!holds()) return undefined;
    if (await this.resumes.has(reference)) return this.resumes.open(reference);
    // Erased meanwhile (the row let it go first): nothing is missing, there is no resume any more.
    if (!holds()) return undefined;
    throw new ResumeMissingError(reference, `${join(this.resumes.dir, reference)} is gone`);
  }

  /** Opening the file migrated it already. */
  async ready(): Promise<MigrationReport> {
    return this.migrations;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private stmt(sql: string): StatementSync {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      // SQLite has already rolled back after some errors (SQLITE_FULL, SQLITE_IOERR): the original error is the one to tell.
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  // ---- idempotency keys ----

  /**
   * Keys claimed by requests of this process that have stored nothing yet.
   * In memory: a request refused for its content writes nothing to the disk
   * (no fsync for a flood of bad posts); the key is written with the
   * application it stores (enqueue), or with its answer (completeKey).
   */
  readonly #claims = new Map<string, string>();

  /**
   * Takes an Idempotency-Key for one request, or says why not: the same key
   * with another body, still being handled, or already answered (replay).
   */
  async claimKey(key: string, fingerprint: string): Promise<KeyClaim> {
    // Expired keys are pruned by the retention sweep; until then they do not count.
    const row = this.stmt('SELECT fingerprint, state, owner, reference, status, body FROM idempotency_keys WHERE key = ? AND expires_at > ?').get(key, this.now()) as
      | { fingerprint: string; state: string; owner: string; reference: string | null; status: number | null; body: string | null }
      | undefined;
    if (row === undefined) {
      const claimed = this.#claims.get(key);
      if (claimed !== undefined) return claimed === fingerprint ? { kind: 'in_progress' } : { kind: 'reused' };
      this.#claims.set(key, fingerprint);
      return { kind: 'claimed' };
    }
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.state === 'done' && row.status !== null && row.body !== null) return { kind: 'replay', status: row.status, body: row.body };
    if (row.owner === this.owner) return { kind: 'in_progress' };
    // The process that held it is gone (one process owns the data directory).
    if (row.reference !== null) {
      this.stmt('UPDATE idempotency_keys SET owner = ? WHERE key = ?').run(this.owner, key);
      return { kind: 'stored', reference: row.reference };
    }
    // Written by an older version before it stored anything: the retry takes it.
    this.stmt('DELETE FROM idempotency_keys WHERE key = ?').run(key);
    this.#claims.set(key, fingerprint);
    return { kind: 'claimed' };
  }

  /** Records the answer a key replays from now on. */
  async completeKey(key: string, status: number, body: string): Promise<void> {
    const now = this.now();
    this.stmt(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, status, body, created_at, expires_at) VALUES (?, ?, 'done', ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET state = 'done', status = excluded.status, body = excluded.body`,
    ).run(key, this.#claims.get(key) ?? '', this.owner, status, body, now, now + IDEMPOTENCY_TTL_MS);
    this.#claims.delete(key);
  }

  /** Frees a key whose request stored nothing (bad input), so a corrected form may reuse it. */
  async releaseKey(key: string): Promise<void> {
    this.#claims.delete(key);
  }

  // ---- rate counters (fixed windows) ----

  /** The count of a window, without counting this call. */
  async peekRate(bucket: string, windowMs: number): Promise<RateCount> {
    const now = this.now();
    const start = Math.floor(now / windowMs) * windowMs;
    const row = this.stmt('SELECT count, reset_at FROM rate_counters WHERE bucket = ?').get(`${bucket}@${start}`) as
      | { count: number; reset_at: number }
      | undefined;
    return { count: row?.count ?? 0, resetAt: start + windowMs };
  }

  /** Counts one more in the window and answers the new count. */
  async hitRate(bucket: string, windowMs: number): Promise<RateCount> {
    return this.hitRateNow(bucket, windowMs);
  }

  private hitRateNow(bucket: string, windowMs: number): RateCount {
    const now = this.now();
    const start = Math.floor(now / windowMs) * windowMs;
    const row = this.stmt(
      `INSERT INTO rate_counters (bucket, count, reset_at) VALUES (?, 1, ?)
       ON CONFLICT (bucket) DO UPDATE SET count = count + 1 RETURNING count`,
    ).get(`${bucket}@${start}`, start + windowMs) as { count: number };
    return { count: row.count, resetAt: start + windowMs };
  }

  private pruneRates(): number {
    return Number(this.stmt('DELETE FROM rate_counters WHERE reset_at <= ?').run(this.now()).changes);
  }

  /**
   * Deletes the rate counters of windows that are over and the idempotency
   * keys past their IDEMPOTENCY_TTL_MS (claimKey ignores those but does not
   * delete them: a request it refuses writes nothing).
   */
  async pruneExpired(): Promise<{ rateCounters: number; idempotencyKeys: number }> {
    return this.transaction(() => {
      const keys = this.stmt('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(this.now());
      return { rateCounters: this.pruneRates(), idempotencyKeys: Number(keys.changes) };
    });
  }

  // ---- applications ----

  /**
   * Stores one application (payload and resume) and, when given, links the
   * idempotency key to it and counts the email, all in one transaction. The
   * resume's upload file is made durable and taken first: a crash before the
   * commit leaves a file no row holds, deleted at the next start
   * (removeUnlinkedResumes).
   */
  async enqueue(app: NewApplication, options: EnqueueOptions): Promise<void> {
    const now = this.now();
    try {
      // Inside the try: a keep that fails after its rename (a full disk at the folder's fsync) leaves no file behind.
      if (app.resume !== null) await this.resumes.keep(app.reference, app.resume.path);
      this.transaction(() => {
        this.stmt(
          `INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, resume_type, resume_bytes, status,
             attempts, next_attempt_at, dead_letter_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
        ).run(
          app.reference, now, app.campaign_id, app.company_id, JSON.stringify(app.payload), app.resume_type, app.resume?.size ?? null, now,
          now + options.deadLetterAfterMs,
        );
        if (options.key !== undefined) {
          // The key is written with the application: a retry finds it, in this process or the next.
          this.stmt(
            `INSERT INTO idempotency_keys (key, fingerprint, state, owner, reference, created_at, expires_at) VALUES (?, ?, 'in_progress', ?, ?, ?, ?)
             ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_progress', owner = excluded.owner,
               reference = excluded.reference, status = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at`,
          ).run(options.key, this.#claims.get(options.key) ?? '', this.owner, app.reference, now, now + IDEMPOTENCY_TTL_MS);
        }
        if (options.emailBucket !== undefined) this.hitRateNow(options.emailBucket.bucket, options.emailBucket.windowMs);
      });
    } catch (error) {
      this.resumes.remove(app.reference);
      throw error;
    }
    if (options.key !== undefined) this.#claims.delete(options.key);
  }

  /**
   * Claims one pending row for an attempt: status delivering, a lease, and
   * attempts counted BEFORE the attempt, so a crash mid-attempt is known as
   * "an attempt may have reached the service" after a restart.
   */
  async claim(reference: string, leaseMs: number): Promise<ClaimedRow | undefined> {
    return this.claimNow(reference, leaseMs);
  }

  private claimNow(reference: string, leaseMs: number): ClaimedRow | undefined {
    const now = this.now();
    const row = this.stmt(
      `UPDATE outbox SET status = 'delivering', lease_owner = ?, lease_until = ?, lease_token = lease_token + 1, attempts = attempts + 1,
         last_attempt_at = ? WHERE reference = ? AND status = 'pending' RETURNING *`,
    ).get(this.owner, now + leaseMs, now, reference) as Record<string, SQLInputValue> | undefined;
    return row === undefined ? undefined : { ...this.toRow(row), lease_token: Number(row.lease_token) };
  }

  /** Extended only while its token is the row's and its lease has not run out; a row erased meanwhile is still the attempt's to record. */
  async renewLease(lease: Lease, leaseMs: number): Promise<boolean> {
    const now = this.now();
    const renewed = this.stmt("UPDATE outbox SET lease_until = ? WHERE reference = ? AND lease_token = ? AND status = 'delivering' AND lease_until > ?").run(
      now + leaseMs,
      lease.reference,
      lease.lease_token,
      now,
    );
    if (renewed.changes > 0) return true;
    const row = this.stmt('SELECT lease_token, status FROM outbox WHERE reference = ?').get(lease.reference) as { lease_token: number; status: string } | undefined;
    return row !== undefined && row.lease_token === lease.lease_token && row.status !== 'delivering';
  }

  /** After a write that changed nothing: rejects when another claim holds the row (else it was erased meanwhile, and stays so). */
  private checkLease(lease: Lease): void {
    const row = this.stmt('SELECT lease_token FROM outbox WHERE reference = ?').get(lease.reference) as { lease_token: number } | undefined;
    if (row === undefined || row.lease_token !== lease.lease_token) throw new LeaseLostError(lease.reference);
  }

  /** References of pending rows whose next attempt is due, oldest first. */
  private due(limit: number): string[] {
    const rows = this.stmt("SELECT reference FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?").all(
      this.now(),
      limit,
    ) as { reference: string }[];
    return rows.map((r) => r.reference);
  }

  /** Time of the next due attempt, if any row waits. */
  async nextDueAt(): Promise<number | undefined> {
    const row = this.stmt("SELECT min(next_attempt_at) AS at FROM outbox WHERE status = 'pending'").get() as { at: number | null };
    return row.at ?? undefined;
  }

  /**
   * Takes back rows left in `delivering` by a process that is gone (or by
   * this one, for references it no longer works on): they become due now.
   */
  async recoverLeases(activeHere: ReadonlySet<string> = new Set()): Promise<number> {
    const now = this.now();
    const rows = this.stmt("SELECT reference, lease_owner, lease_until FROM outbox WHERE status = 'delivering'").all() as {
      reference: string;
      lease_owner: string | null;
      lease_until: number | null;
    }[];
    let recovered = 0;
    for (const row of rows) {
      const othersGone = row.lease_owner !== this.owner;
      const expiredHere = row.lease_owner === this.owner && !activeHere.has(row.reference) && (row.lease_until ?? 0) <= now;
      if (othersGone || expiredHere) {
        // Whether the killed attempt reached the service is unknown. Due now, in its place in line (when it was due).
        this.stmt(
          "UPDATE outbox SET status = 'pending', next_attempt_at = min(next_attempt_at, ?), lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1, unconfirmed_send = 1 WHERE reference = ? AND status = 'delivering'",
        ).run(
          now,
          row.reference,
        );
        recovered += 1;
      }
    }
    return recovered;
  }

  /** Makes every waiting row due now (at start-up: a restart often follows a fix, so the backoff starts over). */
  async makePendingDue(): Promise<number> {
    const result = this.stmt("UPDATE outbox SET next_attempt_at = ? WHERE status = 'pending' AND next_attempt_at > ?").run(this.now(), this.now());
    return Number(result.changes);
  }

  /** Delivered: forget the personal data in the same statement, then the resume's file. */
  async markDelivered(lease: Lease, outcome: Outcome, ids: { applicantId?: number | undefined; applicationId?: number | undefined }): Promise<void> {
    const result = this.stmt(
      `UPDATE outbox SET status = 'delivered', outcome = ?, delivered_at = ?, payload = NULL, resume_bytes = NULL, lease_owner = NULL,
         lease_until = NULL, last_error = NULL, upstream_applicant_id = ?, upstream_application_id = ?
       WHERE reference = ? AND lease_token = ?`,
    ).run(outcome, this.now(), ids.applicantId ?? null, ids.applicationId ?? null, lease.reference, lease.lease_token);
    if (result.changes === 0) this.checkLease(lease);
    this.resumes.remove(lease.reference);
  }

  // markRetry, markRejected and markDead leave a row erased during its attempt as it is
  // (`erased_at IS NULL`): it must not go back in line. A delivery that succeeded
  // meanwhile is still recorded by markDelivered: the service has it, the list must say so.

  /** A transient failure: try again at `nextAttemptAt`. `reached`: the attempt may have reached the service. */
  async markRetry(lease: Lease, nextAttemptAt: number, error: string, reached = false): Promise<void> {
    const result = this.stmt(
      `UPDATE outbox SET status = 'pending', next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL,
         unconfirmed_send = max(unconfirmed_send, ?) WHERE reference = ? AND lease_token = ? AND erased_at IS NULL`,
    ).run(nextAttemptAt, error, reached ? 1 : 0, lease.reference, lease.lease_token);
    if (result.changes === 0) this.checkLease(lease);
  }

  /** Refused for good and the candidate was told so: personal data goes. */
  async markRejected(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    const result = this.stmt(
      `UPDATE outbox SET status = 'rejected', outcome = ?, last_error = ?, payload = NULL, resume_bytes = NULL, lease_owner = NULL,
         lease_until = NULL, ended_at = ? WHERE reference = ? AND lease_token = ? AND erased_at IS NULL`,
    ).run(outcome, error, this.now(), lease.reference, lease.lease_token);
    if (result.changes > 0) this.resumes.remove(lease.reference);
    else this.checkLease(lease);
  }

  /**
   * Not deliverable, and the candidate was told it was received: kept for an
   * operator (`outbox retry`) for PERSONAL_DATA_RETENTION_DAYS.
   */
  async markDead(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    const result = this.stmt(
      `UPDATE outbox SET status = 'dead', outcome = ?, last_error = ?, lease_owner = NULL, lease_until = NULL, ended_at = ?
       WHERE reference = ? AND lease_token = ? AND erased_at IS NULL`,
    ).run(outcome, error, this.now(), lease.reference, lease.lease_token);
    if (result.changes === 0) this.checkLease(lease);
  }

  async markRefused(lease: Lease, outcome: Outcome, error: string): Promise<'rejected' | 'dead' | undefined> {
    const row = this.stmt(
      `UPDATE outbox SET status = CASE WHEN answered IS NULL THEN 'rejected' ELSE 'dead' END, outcome = ?, last_error = ?,
         payload = CASE WHEN answered IS NULL THEN NULL ELSE payload END, resume_bytes = CASE WHEN answered IS NULL THEN NULL ELSE resume_bytes END,
         lease_owner = NULL, lease_until = NULL, ended_at = ?
       WHERE reference = ? AND lease_token = ? AND erased_at IS NULL RETURNING status`,
    ).get(outcome, error, this.now(), lease.reference, lease.lease_token) as { status: 'rejected' | 'dead' } | undefined;
    if (row === undefined) this.checkLease(lease);
    if (row?.status === 'rejected') this.resumes.remove(lease.reference);
    return row?.status;
  }

  async answerQueued(reference: string): Promise<boolean> {
    const result = this.stmt("UPDATE outbox SET answered = coalesce(answered, 202) WHERE reference = ? AND status IN ('pending', 'delivering')").run(reference);
    return result.changes > 0;
  }

  /** Records the status the candidate was answered. */
  async setAnswered(reference: string, status: number): Promise<void> {
    this.stmt('UPDATE outbox SET answered = ? WHERE reference = ? AND answered IS NULL').run(status, reference);
  }

  async get(reference: string): Promise<OutboxRow | undefined> {
    const row = this.stmt('SELECT * FROM outbox WHERE reference = ?').get(reference) as Record<string, SQLInputValue> | undefined;
    return row === undefined ? undefined : this.toRow(row);
  }

  private toRow(raw: Record<string, SQLInputValue>): OutboxRow {
    const { lease_owner: _owner, lease_until: _until, lease_token: _token, ...rest } = raw;
    return { ...(rest as unknown as OutboxRow), payload: typeof raw.payload === 'string' ? (JSON.parse(raw.payload) as ApplicationPayload) : null };
  }

  private toSummary(raw: Record<string, SQLInputValue>): OutboxSummary {
    return { ...(raw as unknown as OutboxSummary), personal_data: raw.personal_data === 1 };
  }

  async summary(reference: string): Promise<OutboxSummary | undefined> {
    const row = this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM outbox WHERE reference = ?`).get(reference) as Record<string, SQLInputValue> | undefined;
    return row === undefined ? undefined : this.toSummary(row);
  }

  async list(options: { status?: OutboxStatus; limit?: number } = {}): Promise<OutboxSummary[]> {
    const limit = options.limit ?? 1000;
    const rows =
      options.status !== undefined
        ? this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM outbox WHERE status = ? ORDER BY created_at LIMIT ?`).all(options.status, limit)
        : this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM outbox ORDER BY created_at LIMIT ?`).all(limit);
    return (rows as Record<string, SQLInputValue>[]).map((row) => this.toSummary(row));
  }

  async counts(): Promise<Record<OutboxStatus, number>> {
    const counts: Record<OutboxStatus, number> = { pending: 0, delivering: 0, delivered: 0, rejected: 0, dead: 0 };
    for (const row of this.stmt('SELECT status, count(*) AS n FROM outbox GROUP BY status').all() as { status: OutboxStatus; n: number }[]) {
      counts[row.status] = row.n;
    }
    return counts;
  }

  async queuedResumeBytes(): Promise<number> {
    const row = this.stmt(`SELECT coalesce(sum(resume_bytes), 0) AS bytes FROM outbox WHERE status <> 'delivered'`).get() as { bytes: number };
    return Number(row.bytes);
  }

  /**
   * Puts a dead (or waiting) application back in line now, with a fresh
   * dead-letter deadline. Answers what happened, for the CLI.
   */
  async retry(reference: string, deadLetterAfterMs: number): Promise<RetryResult> {
    const now = this.now();
    return this.transaction(() => {
      const row = this.stmt('SELECT status, payload IS NOT NULL AS has_payload, erased_at FROM outbox WHERE reference = ?').get(reference) as
        | { status: OutboxStatus; has_payload: number; erased_at: number | null }
        | undefined;
      if (row === undefined) return 'not_found';
      // Erased (retention or a request) and not delivered: nothing is left to send.
      if (row.erased_at !== null && row.status !== 'delivered') return 'erased';
      if (!(row.status === 'dead' || row.status === 'pending') || row.has_payload === 0) return 'not_retryable';
      this.stmt(
        "UPDATE outbox SET status = 'pending', next_attempt_at = ?, dead_letter_at = ?, outcome = NULL, ended_at = NULL WHERE reference = ?",
      ).run(now, now + deadLetterAfterMs, reference);
      return 'queued';
    });
  }

  // ---- retention and erasure ----

  /** Drops one row's payload and resume, recording when and why; its summary stays. The caller deletes the resume's file once committed. */
  private dropPersonalData(reference: string, now: number, by: ErasedBy): void {
    this.stmt('UPDATE outbox SET payload = NULL, resume_bytes = NULL, erased_at = ?, erased_by = ? WHERE reference = ?').run(now, by, reference);
  }

  /**
   * Erases the personal data of dead and refused rows that ended at least
   * `retentionMs` ago (see RETENTION_FROM). Rows in line are never touched:
   * they need their data to be delivered. Answers the references erased.
   */
  async eraseExpiredPersonalData(retentionMs: number): Promise<string[]> {
    const now = this.now();
    const erased = this.transaction(() => {
      const rows = this.stmt(
        `SELECT reference FROM outbox WHERE status IN ('dead', 'rejected') AND ${RETENTION_FROM} <= ?
           AND (payload IS NOT NULL OR resume_bytes IS NOT NULL)`,
      ).all(now - retentionMs) as { reference: string }[];
      for (const row of rows) this.dropPersonalData(row.reference, now, 'retention');
      return rows.map((r) => r.reference);
    });
    for (const reference of erased) this.resumes.remove(reference);
    return erased;
  }

  /**
   * A right-to-erasure request: every row whose applicant email is `email`
   * (trimmed, case-insensitive) loses its payload and resume; one still in
   * line becomes `rejected` with outcome `erased` (it cannot be delivered
   * without its data). Also deletes the per-email counters (`rateBucket`, as
   * the routes name it, hashed) and the idempotency keys that point at those
   * rows or whose stored answer holds the address.
   */
  async eraseByEmail(email: string, rateBucket: string): Promise<ErasureReport> {
    const wanted = email.trim().toLowerCase();
    // An empty address would match every stored answer below.
    if (!wanted.includes('@')) throw new Error('eraseByEmail needs an email address');
    const now = this.now();
    const report = this.transaction((): ErasureReport => {
      // Payloads are JSON: read the rows that still hold one (bounded by what is kept) and compare in JS.
      const rows = this.stmt('SELECT reference, status, outcome, payload FROM outbox WHERE payload IS NOT NULL').all() as {
        reference: string;
        status: OutboxStatus;
        outcome: Outcome | null;
        payload: string;
      }[];
      const applications: ErasureReport['applications'] = [];
      for (const row of rows) {
        const payload = JSON.parse(row.payload) as ApplicationPayload;
        if (typeof payload.applicant.email !== 'string' || payload.applicant.email.trim().toLowerCase() !== wanted) continue;
        this.dropPersonalData(row.reference, now, 'request');
        if (row.status === 'pending' || row.status === 'delivering') {
          this.stmt(
            "UPDATE outbox SET status = 'rejected', outcome = 'erased', ended_at = ?, lease_owner = NULL, lease_until = NULL WHERE reference = ?",
          ).run(now, row.reference);
          applications.push({ reference: row.reference, statusBefore: row.status, status: 'rejected', outcome: 'erased' });
        } else {
          applications.push({ reference: row.reference, statusBefore: row.status, status: row.status, outcome: row.outcome });
        }
      }
      const prefix = `${rateBucket}@`;
      const counters = this.stmt('DELETE FROM rate_counters WHERE substr(bucket, 1, ?) = ?').run(prefix.length, prefix);
      const erased = new Set(applications.map((a) => a.reference));
      const keys = this.stmt('SELECT key, reference, body FROM idempotency_keys').all() as { key: string; reference: string | null; body: string | null }[];
      let idempotencyKeys = 0;
      for (const key of keys) {
        const linked = key.reference !== null && erased.has(key.reference);
        const mentions = key.body !== null && key.body.toLowerCase().includes(wanted);
        if (linked || mentions) {
          this.stmt('DELETE FROM idempotency_keys WHERE key = ?').run(key.key);
          idempotencyKeys += 1;
        }
      }
      return { applications, rateCounters: Number(counters.changes), idempotencyKeys };
    });
    for (const application of report.applications) this.resumes.remove(application.reference);
    return report;
  }

  /** Deletes delivered and refused rows (they hold no personal data), and expired keys and counters. */
  async purgeDelivered(olderThanMs = 0): Promise<number> {
    const cutoff = this.now() - olderThanMs;
    return this.transaction(() => {
      const result = this.stmt(
        "DELETE FROM outbox WHERE status IN ('delivered', 'rejected') AND coalesce(delivered_at, ended_at, last_attempt_at, created_at) <= ?",
      ).run(cutoff);
      this.stmt('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(this.now());
      this.pruneRates();
      return Number(result.changes);
    });
  }

  /**
   * Gives the space of deleted rows and resumes back to the file system, then
   * copies the write-ahead log into the file and empties it, so earlier copies
   * of erased pages do not stay in outbox.db-wal. Best effort: while the proxy
   * reads, SQLite copies what it can and the log is reused from its start.
   */
  async compact(): Promise<void> {
    this.db.exec('PRAGMA incremental_vacuum');
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  /**
   * Claims due rows one by one: one process owns the file, and each claim is
   * one statement that takes a row only while it is pending.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    const rows: ClaimedRow[] = [];
    for (const reference of this.due(limit)) {
      const row = this.claimNow(reference, leaseMs);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }
}
