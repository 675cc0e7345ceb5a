// The durable outbox: every accepted application is written here, with its
// resume, in one transaction BEFORE the candidate gets an answer; delivery
// claims rows with a lease and records what it learnt in the same place.
// Idempotency keys and the apply rate counters live in the same file so that
// "stored" and "this key now points at that application" commit together.
//
// Resumes are files beside it (resume-files.ts), written before the row that
// points at them and deleted after it lets them go.
//
// One proxy process owns one data directory (SQLite, WAL). Rows another
// process left in `delivering` (it was killed) are taken back at start-up.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { ApplicantFormName } from '../../contract/application-form.ts';
import type { JobboardApplicantInput } from '../../contract/index.ts';
import { ResumeFiles } from './resume-files.ts';

export const OUTBOX_STATUSES = ['pending', 'delivering', 'delivered', 'rejected', 'dead'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** What was learnt about one application, kept after its personal data is gone. */
export type Outcome =
  /** POST /jobboards/applicants created the applicant with this application. */
  | 'created_applicant'
  /** The applicant existed; POST /applications created the application. */
  | 'created_application'
  /** A later attempt found the application already there: an earlier attempt had delivered it. */
  | 'found_delivered'
  /** The candidate had already applied to this campaign (first attempt). */
  | 'already_applied'
  /** The service refused the content (field errors). */
  | 'upstream_rejected'
  /** The campaign no longer takes applications on this board. */
  | 'campaign_closed'
  /** Not delivered within DEAD_LETTER_AFTER_HOURS. */
  | 'expired'
  /** Its personal data was erased at the candidate's request before it was delivered: it never will be. */
  | 'erased';

/** Why a row's personal data was erased before delivery. */
export type ErasedBy =
  /** PERSONAL_DATA_RETENTION_DAYS after it was dead-lettered or refused. */
  | 'retention'
  /** `outbox erase --email`: the candidate asked. */
  | 'request';

/**
 * The personal data of one application, kept only until it is delivered: the
 * applicant fields the form fills (and its language), typed by the contract's
 * applicant input, and the cover letter, sent upstream as a comment.
 */
export interface ApplicationPayload {
  applicant: Pick<JobboardApplicantInput, ApplicantFormName | 'locale'>;
  cover_letter?: string;
}

export interface OutboxRow {
  reference: string;
  created_at: number;
  campaign_id: number;
  company_id: number;
  /** Null once delivered or refused: personal data leaves the store then. */
  payload: ApplicationPayload | null;
  /** Size of the resume it holds (read it with openResume); null when it holds none, or no more. */
  resume_bytes: number | null;
  resume_type: string | null;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  dead_letter_at: number;
  /** HTTP status the candidate was answered (201, 202, 409, 422), null before the answer. */
  answered: number | null;
  outcome: Outcome | null;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  upstream_applicant_id: number | null;
  upstream_application_id: number | null;
  /** When it became dead or rejected (null before this was recorded: then its last attempt, else its creation, counts). */
  ended_at: number | null;
  /** When its personal data was erased before delivery, and why; null otherwise. */
  erased_at: number | null;
  erased_by: ErasedBy | null;
  /**
   * 1 when an earlier attempt may have reached the service without its answer
   * reaching us (a timeout, a connection cut after sending, a 5xx, a process
   * killed mid-attempt): the next attempt first looks for the application there.
   */
  unconfirmed_send: number;
}

/** A row without its personal data: what `outbox list` and logs may show. */
export type OutboxSummary = Omit<OutboxRow, 'payload'> & {
  /** Whether the row still holds the candidate's fields or resume. */
  personal_data: boolean;
};

/** What `eraseByEmail` removed: references and counts, never the data itself. */
export interface ErasureReport {
  applications: { reference: string; statusBefore: OutboxStatus; status: OutboxStatus; outcome: Outcome | null }[];
  rateCounters: number;
  idempotencyKeys: number;
}

export interface NewApplication {
  reference: string;
  campaign_id: number;
  company_id: number;
  payload: ApplicationPayload;
  /** An upload file (UploadSpool) holding the resume, kept by enqueue. */
  resume: { path: string; size: number } | null;
  resume_type: string | null;
}

export type KeyClaim =
  | { kind: 'claimed' }
  | { kind: 'reused' }
  | { kind: 'in_progress' }
  | { kind: 'replay'; status: number; body: string }
  /** A key a killed process was handling when it had already stored the application. */
  | { kind: 'stored'; reference: string };

export interface RateCount {
  count: number;
  resetAt: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS outbox (
  reference TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  campaign_id INTEGER NOT NULL,
  company_id INTEGER NOT NULL,
  payload TEXT,
  resume_type TEXT,
  resume_bytes INTEGER,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'rejected', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  dead_letter_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  answered INTEGER,
  outcome TEXT,
  last_error TEXT,
  last_attempt_at INTEGER,
  delivered_at INTEGER,
  upstream_applicant_id INTEGER,
  upstream_application_id INTEGER,
  ended_at INTEGER,
  erased_at INTEGER,
  erased_by TEXT,
  unconfirmed_send INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
  owner TEXT NOT NULL,
  reference TEXT,
  status INTEGER,
  body TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency_keys (expires_at);
CREATE TABLE IF NOT EXISTS rate_counters (
  bucket TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
);
`;

// Columns added after the first release: a file created before them gets them at open.
const ADDED_COLUMNS: Record<string, string> = { ended_at: 'INTEGER', erased_at: 'INTEGER', erased_by: 'TEXT', unconfirmed_send: 'INTEGER NOT NULL DEFAULT 0' };

const SUMMARY_COLUMNS = `reference, created_at, campaign_id, company_id, resume_type, resume_bytes, status, attempts,
  next_attempt_at, dead_letter_at, answered, outcome, last_error, last_attempt_at, delivered_at,
  upstream_applicant_id, upstream_application_id, ended_at, erased_at, erased_by, unconfirmed_send,
  (payload IS NOT NULL OR resume_bytes IS NOT NULL) AS personal_data`;

/**
 * When the retention period of a dead or refused row starts: when it ended;
 * rows stored before that time was recorded use their last attempt (a row
 * ends right after one), else their creation.
 */
const RETENTION_FROM = 'coalesce(ended_at, last_attempt_at, created_at)';

/** The date a dead or refused row's personal data is erased automatically; null when it holds none or is still in line. */
export function eraseAfter(row: OutboxSummary, retentionMs: number): number | null {
  if (!row.personal_data || !(row.status === 'dead' || row.status === 'rejected')) return null;
  return (row.ended_at ?? row.last_attempt_at ?? row.created_at) + retentionMs;
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface OutboxOptions {
  /** Directory holding outbox.db (created when missing). */
  dataDir: string;
  /** Identifies this process's leases and idempotency claims. */
  owner: string;
  now?: () => number;
}

export class Outbox {
  readonly path: string;
  readonly owner: string;
  private readonly db: DatabaseSync;
  private readonly resumes: ResumeFiles;
  private readonly now: () => number;
  private readonly statements = new Map<string, StatementSync>();
  private closed = false;

  constructor(options: OutboxOptions) {
    mkdirSync(options.dataDir, { recursive: true });
    this.path = join(options.dataDir, 'outbox.db');
    this.owner = options.owner;
    this.now = options.now ?? Date.now;
    this.db = new DatabaseSync(this.path);
    // Incremental auto-vacuum (only takes effect on a new file): purge gives deleted resumes' space back.
    this.db.exec('PRAGMA busy_timeout = 5000; PRAGMA auto_vacuum = INCREMENTAL;');
    // WAL + synchronous FULL: a committed application survives kill -9 and power loss.
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
    // Deleted payloads and resumes are overwritten with zeros, not left in free pages: erased means gone from the file.
    this.db.exec('PRAGMA secure_delete = ON;');
    this.db.exec(SCHEMA);
    const present = new Set((this.db.prepare('PRAGMA table_info(outbox)').all() as { name: string }[]).map((c) => c.name));
    for (const [name, type] of Object.entries(ADDED_COLUMNS)) {
      if (!present.has(name)) this.db.exec(`ALTER TABLE outbox ADD COLUMN ${name} ${type}`);
    }
    this.resumes = new ResumeFiles(options.dataDir);
    this.moveResumeBlobsToFiles();
    this.removeUnlinkedResumes();
    this.db.exec('PRAGMA user_version = 3');
  }

  /**
   * Versions before 3 kept resumes as blobs in an outbox_resumes table: each
   * becomes a file (fsynced) before the table goes, one blob in memory at a
   * time. A row whose blob was already deleted no longer counts a resume.
   */
  private moveResumeBlobsToFiles(): void {
    const table = this.db.prepare("SELECT 1 AS yes FROM sqlite_master WHERE type = 'table' AND name = 'outbox_resumes'").get();
    if (table === undefined) return;
    const references = (this.db.prepare('SELECT reference FROM outbox_resumes').all() as { reference: string }[]).map((r) => r.reference);
    const read = this.db.prepare('SELECT bytes FROM outbox_resumes WHERE reference = ?');
    for (const reference of references) {
      const { bytes } = read.get(reference) as { bytes: Uint8Array };
      this.resumes.write(reference, bytes);
    }
    this.resumes.syncFolder();
    this.transaction(() => {
      this.db.exec('UPDATE outbox SET resume_bytes = NULL WHERE reference NOT IN (SELECT reference FROM outbox_resumes)');
      this.db.exec('DROP TABLE outbox_resumes');
    });
  }

  /**
   * Deletes resume files no row holds: written by a process killed before its
   * row was committed, or left by one killed between a row letting its
   * resume go and the file's deletion.
   */
  private removeUnlinkedResumes(): void {
    const held = this.stmt('SELECT 1 AS yes FROM outbox WHERE reference = ? AND resume_bytes IS NOT NULL');
    for (const reference of this.resumes.references()) {
      if (held.get(reference) === undefined) this.resumes.remove(reference);
    }
  }

  /** The resume of an application, read in chunks; undefined when it holds none. */
  openResume(reference: string): AsyncIterable<Uint8Array> | undefined {
    const row = this.stmt('SELECT resume_bytes FROM outbox WHERE reference = ?').get(reference) as { resume_bytes: number | null } | undefined;
    return row?.resume_bytes == null ? undefined : this.resumes.open(reference);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  close(): void {
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
      this.db.exec('ROLLBACK');
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
  claimKey(key: string, fingerprint: string): KeyClaim {
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
  completeKey(key: string, status: number, body: string): void {
    const now = this.now();
    this.stmt(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, status, body, created_at, expires_at) VALUES (?, ?, 'done', ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET state = 'done', status = excluded.status, body = excluded.body`,
    ).run(key, this.#claims.get(key) ?? '', this.owner, status, body, now, now + IDEMPOTENCY_TTL_MS);
    this.#claims.delete(key);
  }

  /** Frees a key whose request stored nothing (bad input), so a corrected form may reuse it. */
  releaseKey(key: string): void {
    this.#claims.delete(key);
  }

  // ---- rate counters (fixed windows) ----

  /** The count of a window, without counting this call. */
  peekRate(bucket: string, windowMs: number): RateCount {
    const now = this.now();
    const start = Math.floor(now / windowMs) * windowMs;
    const row = this.stmt('SELECT count, reset_at FROM rate_counters WHERE bucket = ?').get(`${bucket}@${start}`) as
      | { count: number; reset_at: number }
      | undefined;
    return { count: row?.count ?? 0, resetAt: start + windowMs };
  }

  /** Counts one more in the window and answers the new count. */
  hitRate(bucket: string, windowMs: number): RateCount {
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
  pruneExpired(): { rateCounters: number; idempotencyKeys: number } {
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
   * commit leaves a file no row holds, deleted at the next start.
   */
  async enqueue(app: NewApplication, options: { deadLetterAfterMs: number; key?: string; emailBucket?: { bucket: string; windowMs: number } }): Promise<void> {
    if (app.resume !== null) await this.resumes.keep(app.reference, app.resume.path);
    const now = this.now();
    try {
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
        if (options.emailBucket !== undefined) this.hitRate(options.emailBucket.bucket, options.emailBucket.windowMs);
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
  claim(reference: string, leaseMs: number): OutboxRow | undefined {
    const now = this.now();
    const row = this.stmt(
      `UPDATE outbox SET status = 'delivering', lease_owner = ?, lease_until = ?, attempts = attempts + 1, last_attempt_at = ?
       WHERE reference = ? AND status = 'pending' RETURNING *`,
    ).get(this.owner, now + leaseMs, now, reference) as Record<string, SQLInputValue> | undefined;
    return row === undefined ? undefined : this.toRow(row);
  }

  /** References of pending rows whose next attempt is due, oldest first. */
  due(limit: number): string[] {
    const rows = this.stmt("SELECT reference FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?").all(
      this.now(),
      limit,
    ) as { reference: string }[];
    return rows.map((r) => r.reference);
  }

  /** Time of the next due attempt, if any row waits. */
  nextDueAt(): number | undefined {
    const row = this.stmt("SELECT min(next_attempt_at) AS at FROM outbox WHERE status = 'pending'").get() as { at: number | null };
    return row.at ?? undefined;
  }

  /**
   * Takes back rows left in `delivering` by a process that is gone (or by
   * this one, for references it no longer works on): they become due now.
   */
  recoverLeases(activeHere: ReadonlySet<string> = new Set()): number {
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
        // Whether the killed attempt reached the service is unknown.
        this.stmt("UPDATE outbox SET status = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_until = NULL, unconfirmed_send = 1 WHERE reference = ? AND status = 'delivering'").run(
          now,
          row.reference,
        );
        recovered += 1;
      }
    }
    return recovered;
  }

  /** Makes every waiting row due now (at start-up: a restart often follows a fix, so the backoff starts over). */
  makePendingDue(): number {
    const result = this.stmt("UPDATE outbox SET next_attempt_at = ? WHERE status = 'pending' AND next_attempt_at > ?").run(this.now(), this.now());
    return Number(result.changes);
  }

  /** Delivered: forget the personal data in the same statement, then the resume's file. */
  markDelivered(reference: string, outcome: Outcome, ids: { applicantId?: number | undefined; applicationId?: number | undefined }): void {
    this.stmt(
      `UPDATE outbox SET status = 'delivered', outcome = ?, delivered_at = ?, payload = NULL, resume_bytes = NULL, lease_owner = NULL,
         lease_until = NULL, last_error = NULL, upstream_applicant_id = ?, upstream_application_id = ?
       WHERE reference = ?`,
    ).run(outcome, this.now(), ids.applicantId ?? null, ids.applicationId ?? null, reference);
    this.resumes.remove(reference);
  }

  // markRetry, markRejected and markDead leave a row erased during its attempt as it is
  // (`erased_at IS NULL`): it must not go back in line. A delivery that succeeded
  // meanwhile is still recorded by markDelivered: the service has it, the list must say so.

  /** A transient failure: try again at `nextAttemptAt`. `reached`: the attempt may have reached the service. */
  markRetry(reference: string, nextAttemptAt: number, error: string, reached = false): void {
    this.stmt(
      `UPDATE outbox SET status = 'pending', next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL,
         unconfirmed_send = max(unconfirmed_send, ?) WHERE reference = ? AND erased_at IS NULL`,
    ).run(nextAttemptAt, error, reached ? 1 : 0, reference);
  }

  /** Refused for good and the candidate was told so: personal data goes. */
  markRejected(reference: string, outcome: Outcome, error: string): void {
    const result = this.stmt(
      `UPDATE outbox SET status = 'rejected', outcome = ?, last_error = ?, payload = NULL, resume_bytes = NULL, lease_owner = NULL,
         lease_until = NULL, ended_at = ? WHERE reference = ? AND erased_at IS NULL`,
    ).run(outcome, error, this.now(), reference);
    if (result.changes > 0) this.resumes.remove(reference);
  }

  /**
   * Not deliverable, and the candidate was told it was received: kept for an
   * operator (`outbox retry`) for PERSONAL_DATA_RETENTION_DAYS.
   */
  markDead(reference: string, outcome: Outcome, error: string): void {
    this.stmt(
      `UPDATE outbox SET status = 'dead', outcome = ?, last_error = ?, lease_owner = NULL, lease_until = NULL, ended_at = ?
       WHERE reference = ? AND erased_at IS NULL`,
    ).run(outcome, error, this.now(), reference);
  }

  /** Records the status the candidate was answered. */
  setAnswered(reference: string, status: number): void {
    this.stmt('UPDATE outbox SET answered = ? WHERE reference = ? AND answered IS NULL').run(status, reference);
  }

  get(reference: string): OutboxRow | undefined {
    const row = this.stmt('SELECT * FROM outbox WHERE reference = ?').get(reference) as Record<string, SQLInputValue> | undefined;
    return row === undefined ? undefined : this.toRow(row);
  }

  private toRow(raw: Record<string, SQLInputValue>): OutboxRow {
    const { lease_owner: _owner, lease_until: _until, ...rest } = raw;
    return { ...(rest as unknown as OutboxRow), payload: typeof raw.payload === 'string' ? (JSON.parse(raw.payload) as ApplicationPayload) : null };
  }

  private toSummary(raw: Record<string, SQLInputValue>): OutboxSummary {
    return { ...(raw as unknown as OutboxSummary), personal_data: raw.personal_data === 1 };
  }

  summary(reference: string): OutboxSummary | undefined {
    const row = this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM outbox WHERE reference = ?`).get(reference) as Record<string, SQLInputValue> | undefined;
    return row === undefined ? undefined : this.toSummary(row);
  }

  list(options: { status?: OutboxStatus; limit?: number } = {}): OutboxSummary[] {
    const limit = options.limit ?? 1000;
    const rows =
      options.status !== undefined
        ? this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM outbox WHERE status = ? ORDER BY created_at LIMIT ?`).all(options.status, limit)
        : this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM outbox ORDER BY created_at LIMIT ?`).all(limit);
    return (rows as Record<string, SQLInputValue>[]).map((row) => this.toSummary(row));
  }

  counts(): Record<OutboxStatus, number> {
    const counts: Record<OutboxStatus, number> = { pending: 0, delivering: 0, delivered: 0, rejected: 0, dead: 0 };
    for (const row of this.stmt('SELECT status, count(*) AS n FROM outbox GROUP BY status').all() as { status: OutboxStatus; n: number }[]) {
      counts[row.status] = row.n;
    }
    return counts;
  }

  /**
   * Puts a dead (or waiting) application back in line now, with a fresh
   * dead-letter deadline. Answers what happened, for the CLI.
   */
  retry(reference: string, deadLetterAfterMs: number): 'queued' | 'not_found' | 'not_retryable' | 'erased' {
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
  eraseExpiredPersonalData(retentionMs: number): string[] {
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
  eraseByEmail(email: string, rateBucket: string): ErasureReport {
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
  purgeDelivered(olderThanMs = 0): number {
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

  /** Gives the space of deleted rows and resumes back to the file system. */
  vacuum(): void {
    this.db.exec('PRAGMA incremental_vacuum');
  }

  /**
   * Copies the write-ahead log into the file and empties it, so earlier copies
   * of erased pages do not stay in outbox.db-wal. Best effort: while the proxy
   * reads, SQLite copies what it can and the log is reused from its start.
   */
  checkpoint(): void {
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
}
