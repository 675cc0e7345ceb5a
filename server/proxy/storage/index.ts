// Where the proxy keeps what it knows about applications: SQLite in DATA_DIR
// (one instance), or PostgreSQL with DATABASE_URL (several instances behind a
// load balancer). The database object holds the one pg.Pool of the process,
// for every store that shares PostgreSQL.
import type pg from 'pg';
import type { ApplicationStore } from './application-store.ts';
import type { MigrationReport } from './migrations.ts';
import { openPostgres } from './postgres.ts';
import { PostgresApplicationStore } from './postgres-store.ts';
import { SqliteApplicationStore } from './sqlite-store.ts';

export { openPostgres } from './postgres.ts';
export type * from './application-store.ts';
export { IDEMPOTENCY_TTL_MS, KEY_LEASE_MS, OUTBOX_STATUSES, ResumeMissingError, eraseAfter } from './application-store.ts';
export type { MigrationReport, MigrationRecord } from './migrations.ts';
export { SchemaBehindError } from './migrations.ts';
export { PostgresApplicationStore } from './postgres-store.ts';
export { SqliteApplicationStore } from './sqlite-store.ts';

/** The shared PostgreSQL database of a proxy instance. */
export interface Database {
  pool: pg.Pool;
  /** The URL without its password, for messages. */
  location: string;
}

/** postgres://user:secret@host/db → postgres://user@host/db. */
export function redactUrl(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}

/** Opens the pool of DATABASE_URL (connecting lazily), or nothing without one. */
export function openDatabase(databaseUrl: string | null, onIdleError?: (error: Error) => void): Database | undefined {
  return databaseUrl === null ? undefined : { pool: openPostgres(databaseUrl, onIdleError), location: redactUrl(databaseUrl) };
}

/**
 * The store a command (outbox, migrate) works on, migrated; close() also ends
 * the pool. Same choice as the proxy: DATABASE_URL, else DATA_DIR.
 */
export async function openStoreForCommand(options: { dataDir: string; databaseUrl: string | null; owner: string }): Promise<{ store: ApplicationStore; migrations: MigrationReport; close(): Promise<void> }> {
  const database = openDatabase(options.databaseUrl);
  const store = openApplicationStore({ dataDir: options.dataDir, database, owner: options.owner });
  const close = async () => {
    await store.close();
    await database?.pool.end();
  };
  try {
    return { store, migrations: await store.ready(), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The application store: PostgreSQL when a database is given, else SQLite in
 * dataDir. Await its ready() before use (PostgreSQL migrates then; SQLite did at open).
 */
export function openApplicationStore(options: { dataDir: string; database: Database | undefined; owner: string; now?: () => number; keyLeaseMs?: number }): ApplicationStore {
  const { database, ...rest } = options;
  return database === undefined ? new SqliteApplicationStore(rest) : new PostgresApplicationStore({ ...rest, pool: database.pool, location: database.location });
}
