// The SQLite side of the seam (Sql, sql.ts): the store's one DatabaseSync
// connection behind an async lock, so a transaction may await as it does on
// PostgreSQL. node:sqlite runs each statement at once, but a transaction
// (BEGIN IMMEDIATE … COMMIT) now spans awaits: any statement issued on the
// connection meanwhile would join it, and be rolled back with it. So every
// use of the connection, a single statement too, waits its turn on the lock;
// only the transaction's own runner, handed to its work, runs inside it.
// The lock is the file's in this process: a second connection of this
// process to the same file (a second store opened on the data directory)
// waits for it too, instead of spinning on busy_timeout with the thread
// blocked while the transaction it waits for cannot go on.
import { resolve } from 'node:path';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { toSqlite } from './sqlite-dialect.ts';
import type { Raw, Sql, SqlValue } from './sql.ts';

/** A promise-chain lock: each piece of work starts once the one before it has settled, in the order asked. */
export class AsyncLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    // The next waits for this one to settle, whether it failed or not.
    this.tail = result.catch(() => {});
    return result;
  }
}

/** The locks of the files this process has open, with how many connections use each. */
const fileLocks = new Map<string, { lock: AsyncLock; users: number }>();

function lockOf(path: string): AsyncLock {
  const entry = fileLocks.get(path) ?? { lock: new AsyncLock(), users: 0 };
  entry.users += 1;
  fileLocks.set(path, entry);
  return entry.lock;
}

function leave(path: string): void {
  const entry = fileLocks.get(path);
  if (entry !== undefined && --entry.users === 0) fileLocks.delete(path);
}

export class SqliteSql implements Sql {
  private readonly db: DatabaseSync;
  private readonly path: string;
  private readonly lock: AsyncLock;
  private readonly statements = new Map<string, StatementSync>();
  private closed = false;

  /** `path`: the file `db` is open on (its lock is shared with every connection of this process to it). */
  constructor(db: DatabaseSync, path: string) {
    this.db = db;
    this.path = resolve(path);
    this.lock = lockOf(this.path);
  }

  all(text: string, params: readonly SqlValue[] = []): Promise<Raw[]> {
    return this.lock.run(() => this.allNow(text, params));
  }

  run(text: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.lock.run(() => this.runNow(text, params));
  }

  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      let open = true;
      const inside = (): void => {
        if (!open) throw new Error('a statement of a transaction that has ended');
      };
      const sql: Sql = {
        all: async (text, params = []) => (inside(), this.allNow(text, params)),
        run: async (text, params = []) => (inside(), this.runNow(text, params)),
        transaction: (nested) => (inside(), nested(sql)),
      };
      try {
        const result = await work(sql);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        // SQLite has already rolled back after some errors (SQLITE_FULL, SQLITE_IOERR): the original error is the one to tell.
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
        throw error;
      } finally {
        open = false;
      }
    });
  }

  /** Runs SQL of SQLite's own (pragmas) in its turn. */
  exec(text: string): Promise<void> {
    return this.lock.run(() => this.db.exec(text));
  }

  /** Closes the connection once the work before it is done. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return this.lock.run(() => this.db.close()).finally(() => leave(this.path));
  }

  private allNow(text: string, params: readonly SqlValue[]): Raw[] {
    return this.stmt(text).all(...(params as SQLInputValue[])) as Raw[];
  }

  private runNow(text: string, params: readonly SqlValue[]): number {
    return Number(this.stmt(text).run(...(params as SQLInputValue[])).changes);
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
}
