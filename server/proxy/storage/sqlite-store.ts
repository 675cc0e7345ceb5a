// The application store on SQLite (DATA_DIR/outbox.db), for one proxy
// process: every accepted application is written here, with its resume, in
// one transaction BEFORE the candidate gets an answer; delivery claims rows
// with a lease and records what it learnt in the same place. Idempotency keys
// and the apply rate counters live in the same file so that "stored" and
// "this key now points at that application" commit together.
//
// Statements both stores run are written once (outbox-sql.ts, sql-outbox.ts).
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
import type { StatementSync } from 'node:sqlite';
import { createOwnerOnlyDatabaseFile, makeOwnerOnlyFolder } from '../../owner-only.ts';
import type { DataDirLock } from './data-dir-lock.ts';
import { IDEMPOTENCY_TTL_MS, ResumeMissingError } from './application-store.ts';
import type {
  ApplicationStore,
  ClaimedRow,
  EnqueueOptions,
  ErasedBy,
  ErasureReport,
  KeyClaim,
  Lease,
  NewApplication,
} from './application-store.ts';
import type { OutboxStatus, Outcome, RetryResult, StoreOptions } from './application-store.ts';
import type { MigrationReport } from './migrations.ts';
import { OUTBOX_SQL, enqueueParams } from './outbox-sql.ts';
import { ResumeFiles } from './resume-files.ts';
import { SqlOutbox, holdsEmail, keysToErase, rateWindow, toClaimed } from './sql-outbox.ts';
import type { KeyWithAnswer } from './sql-outbox.ts';
import { wantedEmail } from './sql.ts';
import type { Raw, Sql, SqlValue } from './sql.ts';
import type { ApplicationEventType } from '../../public-api/webhook-events.ts';
import { SqlWebhookEvents } from './sql-webhook-events.ts';
import { SqliteEvents } from './sqlite-events.ts';
import { WEBHOOK_SQL } from './webhooks-sql.ts';
import { toSqlite } from './sqlite-dialect.ts';
import { migrateSqlite } from './sqlite-schema.ts';

export interface SqliteStoreOptions extends StoreOptions {
  /** Directory holding outbox.db (created when missing). */
  dataDir: string;
  /** Where resumes are kept (default: DATA_DIR/resumes; tests give one whose disk fills). */
  resumes?: ResumeFiles;
}

export class SqliteApplicationStore extends SqlOutbox implements ApplicationStore {
  readonly path: string;
  readonly location: string;
  /** What opening the file migrated. */
  readonly migrations: MigrationReport;
  readonly owner: string;
  protected readonly now: () => number;
  protected readonly sql: Sql = {
    all: async (text, params = []) => this.stmt(text).all(...params) as Record<string, unknown>[],
    run: async (text, params = []) => Number(this.stmt(text).run(...params).changes),
  };
  readonly webhooks: SqlWebhookEvents;
  private readonly events: SqliteEvents;
  private readonly dataDir: string;
  private readonly db: DatabaseSync;
  private readonly resumes: ResumeFiles;
  private readonly statements = new Map<string, StatementSync>();
  private closed = false;

  constructor(options: SqliteStoreOptions) {
    super();
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
    this.events = new SqliteEvents(
      {
        get: (text, ...params) => this.stmt(text).get(...params) as Raw | undefined,
        run: (text, ...params) => this.exec(text, ...params),
      },
      options.webhookEvents,
      this.now,
    );
    this.webhooks = new SqlWebhookEvents(this.sql, this.now, this.owner, options.webhookEvents, true);
  }

  /** One write of an attempt and, when it changed the row, its event, in one transaction. */
  private attemptWrite(lease: Lease, type: ApplicationEventType, text: string, ...params: SqlValue[]): number {
    return this.transaction(() => this.events.write(type, lease.reference, text, params));
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
    if (lock.dataDir !== resolve(this.dataDir))
      throw new Error(`removeUnlinkedResumes: the lock held is on ${lock.dataDir}, not on ${resolve(this.dataDir)}`);
    let removed = 0;
    for (const reference of this.resumes.references()) {
      if (this.holdsResume(reference)) continue;
      this.resumes.remove(reference);
      removed += 1;
    }
    return removed;
  }

  private holdsResume(reference: string): boolean {
    return (
      this.stmt('SELECT 1 AS yes FROM outbox WHERE reference = $1 AND resume_bytes IS NOT NULL').get(reference) !==
      undefined
    );
  }

  /** The resume of an application, read in chunks; undefined when it holds none; ResumeMissingError when its file is gone. */
  async openResume(reference: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    if (!this.holdsResume(reference)) return undefined;
    if (await this.resumes.has(reference)) return this.resumes.open(reference);
    // Erased meanwhile (the row let it go first): nothing is missing, there is no resume any more.
    if (!this.holdsResume(reference)) return undefined;
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

  /** The prepared statement of a text written for PostgreSQL (outbox-sql.ts), or for SQLite alone. */
  private stmt(text: string): StatementSync {
    let s = this.statements.get(text);
    if (s === undefined) {
      s = this.db.prepare(toSqlite(text));
      this.statements.set(text, s);
    }
    return s;
  }

  private exec(text: string, ...params: SqlValue[]): number {
    return Number(this.stmt(text).run(...params).changes);
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
    const row = this.stmt(
      'SELECT fingerprint, state, owner, reference, status, body FROM idempotency_keys WHERE key = $1 AND expires_at > $2',
    ).get(key, this.now()) as
      | {
          fingerprint: string;
          state: string;
          owner: string;
          reference: string | null;
          status: number | null;
          body: string | null;
        }
      | undefined;
    if (row === undefined) {
      const claimed = this.#claims.get(key);
      if (claimed !== undefined) return claimed === fingerprint ? { kind: 'in_progress' } : { kind: 'reused' };
      this.#claims.set(key, fingerprint);
      return { kind: 'claimed' };
    }
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.state === 'done' && row.status !== null && row.body !== null)
      return { kind: 'replay', status: row.status, body: row.body };
    if (row.owner === this.owner) return { kind: 'in_progress' };
    // The process that held it is gone (one process owns the data directory).
    if (row.reference !== null) {
      this.exec('UPDATE idempotency_keys SET owner = $1 WHERE key = $2', this.owner, key);
      return { kind: 'stored', reference: row.reference };
    }
    // Written by an older version before it stored anything: the retry takes it.
    this.exec(OUTBOX_SQL.deleteKey, key);
    this.#claims.set(key, fingerprint);
    return { kind: 'claimed' };
  }

  /** Records the answer a key replays from now on. */
  async completeKey(key: string, status: number, body: string): Promise<void> {
    const now = this.now();
    this.exec(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, status, body, created_at, expires_at) VALUES ($1, $2, 'done', $3, $4, $5, $6, $7)
       ON CONFLICT (key) DO UPDATE SET state = 'done', status = excluded.status, body = excluded.body`,
      key,
      this.#claims.get(key) ?? '',
      this.owner,
      status,
      body,
      now,
      now + IDEMPOTENCY_TTL_MS,
    );
    this.#claims.delete(key);
  }

  /** Frees a key whose request stored nothing (bad input), so a corrected form may reuse it. */
  async releaseKey(key: string): Promise<void> {
    this.#claims.delete(key);
  }

  /**
   * Deletes the rate counters of windows that are over and the idempotency
   * keys past their IDEMPOTENCY_TTL_MS (claimKey ignores those but does not
   * delete them: a request it refuses writes nothing).
   */
  async pruneExpired(): Promise<{ rateCounters: number; idempotencyKeys: number }> {
    return this.transaction(() => {
      const idempotencyKeys = this.exec(OUTBOX_SQL.pruneKeys, this.now());
      return { rateCounters: this.exec(OUTBOX_SQL.pruneRates, this.now()), idempotencyKeys };
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
        this.exec(OUTBOX_SQL.enqueue, ...enqueueParams(app, now, options.deadLetterAfterMs));
        if (options.key !== undefined) this.exec(WEBHOOK_SQL.setIdempotencyKey, options.key, app.reference);
        this.events.record('application.received', app.reference);
        if (options.key !== undefined) {
          // The key is written with the application: a retry finds it, in this process or the next.
          this.exec(
            `INSERT INTO idempotency_keys (key, fingerprint, state, owner, reference, created_at, expires_at) VALUES ($1, $2, 'in_progress', $3, $4, $5, $6)
             ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_progress', owner = excluded.owner,
               reference = excluded.reference, status = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at`,
            options.key,
            this.#claims.get(options.key) ?? '',
            this.owner,
            app.reference,
            now,
            now + IDEMPOTENCY_TTL_MS,
          );
        }
        if (options.emailBucket !== undefined) {
          const window = rateWindow(options.emailBucket.bucket, options.emailBucket.windowMs, now);
          this.stmt(OUTBOX_SQL.hitRate).get(window.key, window.resetAt);
        }
      });
    } catch (error) {
      this.resumes.remove(app.reference);
      throw error;
    }
    if (options.key !== undefined) this.#claims.delete(options.key);
  }

  /**
   * Claims due rows one by one, oldest first, all before answering (no await
   * between the look and the claims: a concurrent call finds them taken): one
   * process owns the file, and each claim is one statement that takes a row
   * only while it is pending.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    const now = this.now();
    const due = this.stmt(
      "SELECT reference FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2",
    ).all(now, limit) as {
      reference: string;
    }[];
    const rows: ClaimedRow[] = [];
    for (const { reference } of due) {
      const row = this.stmt(OUTBOX_SQL.claim).get(this.owner, now + leaseMs, now, reference);
      if (row !== undefined) rows.push(toClaimed(row));
    }
    return rows;
  }

  /**
   * Takes back rows left in `delivering` by a process that is gone (one
   * process owns the file: any other owner's row), or by this one for
   * references it no longer works on once their lease ended. Whether the
   * killed attempt reached the service is unknown: due now, in its place in
   * line (when it was due), under a new lease_token.
   */
  async recoverLeases(activeHere: ReadonlySet<string> = new Set()): Promise<number> {
    const now = this.now();
    const rows = this.stmt(
      "SELECT reference, lease_owner, lease_until FROM outbox WHERE status = 'delivering'",
    ).all() as {
      reference: string;
      lease_owner: string | null;
      lease_until: number | null;
    }[];
    let recovered = 0;
    for (const row of rows) {
      const othersGone = row.lease_owner !== this.owner;
      const expiredHere =
        row.lease_owner === this.owner && !activeHere.has(row.reference) && (row.lease_until ?? 0) <= now;
      if (!othersGone && !expiredHere) continue;
      this.exec(
        "UPDATE outbox SET status = 'pending', next_attempt_at = min(next_attempt_at, $1), lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1, unconfirmed_send = 1 WHERE reference = $2 AND status = 'delivering'",
        now,
        row.reference,
      );
      recovered += 1;
    }
    return recovered;
  }

  /** Delivered: forget the personal data in the same statement, then the resume's file. */
  async markDelivered(
    lease: Lease,
    outcome: Outcome,
    ids: { applicantId?: number | undefined; applicationId?: number | undefined },
  ): Promise<void> {
    const changed = this.attemptWrite(
      lease,
      'application.delivered',
      OUTBOX_SQL.markDelivered,
      outcome,
      this.now(),
      ids.applicantId ?? null,
      ids.applicationId ?? null,
      lease.reference,
      lease.lease_token,
    );
    if (changed === 0) await this.checkLease(lease);
    this.resumes.remove(lease.reference);
  }

  /** Refused for good and the candidate was told so: personal data goes. */
  async markRejected(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    const changed = this.attemptWrite(
      lease,
      'application.rejected',
      OUTBOX_SQL.markRejected,
      outcome,
      error,
      this.now(),
      lease.reference,
      lease.lease_token,
    );
    if (changed > 0) this.resumes.remove(lease.reference);
    else await this.checkLease(lease);
  }

  /** Not deliverable, and the candidate was told it was received: kept for an operator (`outbox retry`) for PERSONAL_DATA_RETENTION_DAYS. */
  async markDead(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    const changed = this.attemptWrite(
      lease,
      'application.dead_lettered',
      OUTBOX_SQL.markDead,
      outcome,
      error,
      this.now(),
      lease.reference,
      lease.lease_token,
    );
    if (changed === 0) await this.checkLease(lease);
  }

  async markRefused(lease: Lease, outcome: Outcome, error: string): Promise<'rejected' | 'dead' | undefined> {
    const row = this.transaction(() => {
      const holder = this.events.holder(lease.reference);
      const refused = this.stmt(OUTBOX_SQL.markRefused).get(
        outcome,
        error,
        this.now(),
        lease.reference,
        lease.lease_token,
      ) as { status: 'rejected' | 'dead' } | undefined;
      if (refused !== undefined)
        this.events.record(
          refused.status === 'rejected' ? 'application.rejected' : 'application.dead_lettered',
          lease.reference,
          holder,
        );
      return refused;
    });
    if (row === undefined) await this.checkLease(lease);
    if (row?.status === 'rejected') this.resumes.remove(lease.reference);
    return row?.status;
  }

  /**
   * Puts a dead (or waiting) application back in line now, with a fresh
   * dead-letter deadline. Answers what happened, for the CLI.
   */
  async retry(reference: string, deadLetterAfterMs: number): Promise<RetryResult> {
    const now = this.now();
    return this.transaction(() => {
      const row = this.stmt(OUTBOX_SQL.retryState).get(reference) as
        { status: OutboxStatus; has_payload: number; erased_at: number | null } | undefined;
      if (row === undefined) return 'not_found';
      // Erased (retention or a request) and not delivered: nothing is left to send.
      if (row.erased_at !== null && row.status !== 'delivered') return 'erased';
      if (!(row.status === 'dead' || row.status === 'pending') || row.has_payload === 0) return 'not_retryable';
      this.exec(OUTBOX_SQL.requeue, now, now + deadLetterAfterMs, reference);
      return 'queued';
    });
  }

  // ---- retention and erasure ----

  /**
   * Drops one row's payload and resume, recording when and why, and the
   * candidate's fields from its events; its summary stays. The caller deletes
   * the resume's file once committed. Answers how many events held them.
   */
  private dropPersonalData(reference: string, now: number, by: ErasedBy): number {
    this.exec(OUTBOX_SQL.dropPersonalData, now, by, reference);
    return this.exec(WEBHOOK_SQL.dropCandidate, reference);
  }

  /** Erases the personal data of dead and refused rows that ended at least `retentionMs` ago; answers their references. */
  async eraseExpiredPersonalData(retentionMs: number): Promise<string[]> {
    const now = this.now();
    const erased = this.transaction(() => {
      const rows = this.stmt(OUTBOX_SQL.retentionEnded).all(now - retentionMs) as { reference: string }[];
      for (const row of rows) {
        this.dropPersonalData(row.reference, now, 'retention');
        this.events.record('application.erased', row.reference);
      }
      return rows.map((r) => r.reference);
    });
    for (const reference of erased) this.resumes.remove(reference);
    return erased;
  }

  /** See ApplicationStore.eraseByEmail: rows, their events, counters and keys. */
  async eraseByEmail(email: string, rateBucket: string): Promise<ErasureReport> {
    const wanted = wantedEmail(email);
    const now = this.now();
    const report = this.transaction((): ErasureReport => {
      // Payloads are JSON: read the rows that still hold one (bounded by what is kept) and compare in JS.
      const rows = this.stmt(OUTBOX_SQL.withPayload).all() as {
        reference: string;
        status: OutboxStatus;
        outcome: Outcome | null;
        payload: string;
      }[];
      const applications: ErasureReport['applications'] = [];
      let webhookEvents = 0;
      for (const row of rows) {
        if (!holdsEmail(row.payload, wanted)) continue;
        webhookEvents += this.dropPersonalData(row.reference, now, 'request');
        if (row.status === 'pending' || row.status === 'delivering') {
          this.exec(OUTBOX_SQL.rejectErased, now, row.reference);
          applications.push({
            reference: row.reference,
            statusBefore: row.status,
            status: 'rejected',
            outcome: 'erased',
          });
        } else {
          applications.push({
            reference: row.reference,
            statusBefore: row.status,
            status: row.status,
            outcome: row.outcome,
          });
        }
        this.events.record('application.erased', row.reference);
      }
      const prefix = `${rateBucket}@`;
      const rateCounters = this.exec(OUTBOX_SQL.deleteCountersOf, prefix, prefix.length);
      const keys = this.stmt(OUTBOX_SQL.keysWithAnswers).all() as unknown as KeyWithAnswer[];
      const doomed = keysToErase(keys, applications, wanted);
      for (const key of doomed) this.exec(OUTBOX_SQL.deleteKey, key);
      return { applications, rateCounters, idempotencyKeys: doomed.length, webhookEvents };
    });
    for (const application of report.applications) this.resumes.remove(application.reference);
    // The events of rows that no longer hold the address (delivered: their payload went), found by the address their candidate holds.
    report.webhookEvents += await this.webhooks.eraseCandidate(email);
    return report;
  }

  /** Deletes delivered and refused rows (they hold no personal data), and expired keys and counters. */
  async purgeDelivered(olderThanMs = 0): Promise<number> {
    const now = this.now();
    return this.transaction(() => {
      const purged = this.exec(OUTBOX_SQL.purgeDelivered, now - olderThanMs);
      this.exec(WEBHOOK_SQL.purgeDelivered, now - olderThanMs);
      this.exec(OUTBOX_SQL.pruneKeys, now);
      this.exec(OUTBOX_SQL.pruneRates, now);
      return purged;
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
}
