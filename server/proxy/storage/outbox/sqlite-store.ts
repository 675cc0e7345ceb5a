// The application store on SQLite (DATA_DIR/outbox.db), for one proxy
// process: the store written once (sql-application-store.ts) over the file's
// one connection (sqlite-sql.ts), with resumes as files beside it
// (resume-files.ts) and the claims of a process that owns the file
// (OneProcessClaims). Idempotency keys and the apply rate counters live in
// the same file so that "stored" and "this key now points at that
// application" commit together.
//
// One proxy process owns one data directory (SQLite, WAL). Rows another
// process left in `delivering` (it was killed) are taken back at start-up.
// Other processes (the outbox and migrate commands) open the same file beside
// it: opening deletes nothing; only the holder of the data directory's lock
// removes the resume files no row holds (removeUnlinkedResumes).
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createOwnerOnlyDatabaseFile, makeOwnerOnlyFolder } from '../../../owner-only.ts';
import { IDEMPOTENCY_TTL_MS } from './application-store.ts';
import type { ClaimedRow, KeyClaim, StoreOptions } from './application-store.ts';
import type { MigrationReport } from '../migrations.ts';
import { OUTBOX_SQL } from './outbox-sql.ts';
import { ResumeFiles, ResumesAsFiles } from './resume-files.ts';
import { SqlApplicationStore } from './sql-application-store.ts';
import type { ClaimRules } from './sql-application-store.ts';
import { toClaimed } from './sql-outbox.ts';
import type { Sql } from '../sql.ts';
import { SqliteSql } from '../sqlite-sql.ts';
import { migrateSqlite } from '../sqlite-schema.ts';

export interface SqliteStoreOptions extends StoreOptions {
  /** Directory holding outbox.db (created when missing). */
  dataDir: string;
  /** Where resumes are kept (default: DATA_DIR/resumes; tests give one whose disk fills). */
  resumes?: ResumeFiles;
}

/**
 * Claims by the one process that owns the file: due rows one statement each,
 * in one transaction; another owner's row is a gone process's; an
 * Idempotency-Key in use is a claim in memory (a request refused for its
 * content writes nothing to the disk: no fsync for a flood of bad posts),
 * written with the application it stores (storeKey) or its answer.
 */
export class OneProcessClaims implements ClaimRules {
  readonly singleProcess = true;
  private readonly sql: Sql;
  private readonly owner: string;
  private readonly now: () => number;
  /** Keys claimed by requests of this process that have stored nothing yet. */
  readonly #claims = new Map<string, string>();

  constructor(sql: Sql, owner: string, now: () => number) {
    this.sql = sql;
    this.owner = owner;
    this.now = now;
  }

  /** Claims due rows one by one, oldest first, in one transaction: a concurrent call finds them taken. */
  claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    const now = this.now();
    return this.sql.transaction(async (sql) => {
      const due = await sql.all(
        "SELECT reference FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2",
        [now, limit],
      );
      const rows: ClaimedRow[] = [];
      for (const { reference } of due) {
        const [row] = await sql.all(OUTBOX_SQL.claim, [this.owner, now + leaseMs, now, String(reference)]);
        if (row !== undefined) rows.push(toClaimed(row));
      }
      return rows;
    });
  }

  /**
   * Takes back rows left in `delivering` by a process that is gone (one
   * process owns the file: any other owner's row), or by this one for
   * references it no longer works on once their lease ended. Whether the
   * killed attempt reached the service is unknown: due now, in its place in
   * line (when it was due), under a new lease_token.
   */
  recoverLeases(activeHere: ReadonlySet<string>): Promise<number> {
    const now = this.now();
    return this.sql.transaction(async (sql) => {
      const rows = await sql.all("SELECT reference, lease_owner, lease_until FROM outbox WHERE status = 'delivering'");
      let recovered = 0;
      for (const row of rows) {
        const reference = String(row.reference);
        const othersGone = row.lease_owner !== this.owner;
        const expiredHere = !othersGone && !activeHere.has(reference) && Number(row.lease_until ?? 0) <= now;
        if (!othersGone && !expiredHere) continue;
        await sql.run(
          "UPDATE outbox SET status = 'pending', next_attempt_at = min(next_attempt_at, $1), lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1, unconfirmed_send = 1 WHERE reference = $2 AND status = 'delivering'",
          [now, reference],
        );
        recovered += 1;
      }
      return recovered;
    });
  }

  /**
   * Takes an Idempotency-Key for one request, or says why not: the same key
   * with another body, still being handled, or already answered (replay).
   * One transaction: two requests with one key, at once, never both take it.
   */
  claimKey(key: string, fingerprint: string): Promise<KeyClaim> {
    return this.sql.transaction(async (sql): Promise<KeyClaim> => {
      // Expired keys are pruned by the retention sweep; until then they do not count.
      const [row] = await sql.all(
        'SELECT fingerprint, state, owner, reference, status, body FROM idempotency_keys WHERE key = $1 AND expires_at > $2',
        [key, this.now()],
      );
      if (row === undefined) {
        const claimed = this.#claims.get(key);
        if (claimed !== undefined) return claimed === fingerprint ? { kind: 'in_progress' } : { kind: 'reused' };
        this.#claims.set(key, fingerprint);
        return { kind: 'claimed' };
      }
      if (row.fingerprint !== fingerprint) return { kind: 'reused' };
      if (row.state === 'done' && row.status !== null && row.body !== null)
        return { kind: 'replay', status: Number(row.status), body: String(row.body) };
      if (row.owner === this.owner) return { kind: 'in_progress' };
      // The process that held it is gone (one process owns the data directory).
      if (row.reference !== null) {
        await sql.run('UPDATE idempotency_keys SET owner = $1 WHERE key = $2', [this.owner, key]);
        return { kind: 'stored', reference: String(row.reference) };
      }
      // Written by an older version before it stored anything: the retry takes it.
      await sql.run(OUTBOX_SQL.deleteKey, [key]);
      this.#claims.set(key, fingerprint);
      return { kind: 'claimed' };
    });
  }

  async storeKey(sql: Sql, key: string, reference: string, now: number): Promise<void> {
    await sql.run(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, reference, created_at, expires_at) VALUES ($1, $2, 'in_progress', $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_progress', owner = excluded.owner,
         reference = excluded.reference, status = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [key, this.#claims.get(key) ?? '', this.owner, reference, now, now + IDEMPOTENCY_TTL_MS],
    );
  }

  keyStored(key: string): void {
    this.#claims.delete(key);
  }

  /** Records the answer a key replays from now on. */
  async completeKey(key: string, status: number, body: string): Promise<void> {
    const now = this.now();
    await this.sql.run(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, status, body, created_at, expires_at) VALUES ($1, $2, 'done', $3, $4, $5, $6, $7)
       ON CONFLICT (key) DO UPDATE SET state = 'done', status = excluded.status, body = excluded.body`,
      [key, this.#claims.get(key) ?? '', this.owner, status, body, now, now + IDEMPOTENCY_TTL_MS],
    );
    this.#claims.delete(key);
  }

  /** Frees a key whose request stored nothing (bad input), so a corrected form may reuse it. */
  async releaseKey(key: string): Promise<void> {
    this.#claims.delete(key);
  }

  close(): void {}
}

/** The file opened, set up and migrated, before the store is built on it. */
function openFile(options: SqliteStoreOptions, path: string) {
  makeOwnerOnlyFolder(options.dataDir);
  createOwnerOnlyDatabaseFile(path);
  const db = new DatabaseSync(path);
  // Incremental auto-vacuum (only takes effect on a new file): purge gives deleted resumes' space back.
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA auto_vacuum = INCREMENTAL;');
  // WAL + synchronous FULL: a committed application survives kill -9 and power loss.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
  // Deleted payloads and resumes are overwritten with zeros, not left in free pages: erased means gone from the file.
  db.exec('PRAGMA secure_delete = ON;');
  const files = options.resumes ?? new ResumeFiles(options.dataDir);
  const now = options.now ?? Date.now;
  // Opened synchronously, before the store can be used.
  const migrations = migrateSqlite(db, files, path, now);
  return { sql: new SqliteSql(db, path), files, now, migrations };
}

export class SqliteApplicationStore extends SqlApplicationStore {
  readonly path: string;
  readonly location: string;
  /** What opening the file migrated. */
  readonly migrations: MigrationReport;
  private readonly file: SqliteSql;
  private closed = false;

  constructor(options: SqliteStoreOptions) {
    const path = join(options.dataDir, 'outbox.db');
    const { sql, files, now, migrations } = openFile(options, path);
    super({
      sql,
      owner: options.owner,
      now,
      resumes: new ResumesAsFiles(files, sql, options.dataDir),
      claims: new OneProcessClaims(sql, options.owner, now),
      webhookEvents: options.webhookEvents,
      funnel: options.funnel,
      writesInWith: false,
    });
    this.path = path;
    this.location = path;
    this.migrations = migrations;
    this.file = sql;
  }

  /** Opening the file migrated it already. */
  async ready(): Promise<MigrationReport> {
    return this.migrations;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await super.close();
    await this.file.close();
  }

  /**
   * Gives the space of deleted rows and resumes back to the file system, then
   * copies the write-ahead log into the file and empties it, so earlier copies
   * of erased pages do not stay in outbox.db-wal. Best effort: while the proxy
   * reads, SQLite copies what it can and the log is reused from its start.
   */
  async compact(): Promise<void> {
    await this.file.exec('PRAGMA incremental_vacuum');
    await this.file.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
}
