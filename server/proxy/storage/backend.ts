// The one place that chooses where the proxy keeps what it stores: SQLite
// files in DATA_DIR (one process), or PostgreSQL at DATABASE_URL (several
// instances behind a load balancer). openBackend answers the same small
// interfaces either way, one per thing stored; every other module receives
// them and never asks which database is behind. A third flavour would be a
// third branch here, not an edit across the proxy.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type pg from 'pg';
import { RequestBudget } from '../../client/index.ts';
import type { Store } from 'express-rate-limit';
import { ownCatalogueCopy } from '../catalogue/own-copy.ts';
import type { CatalogueCopy } from '../catalogue/types.ts';
import { databaseAddressCounts, memoryAddressCounts } from './counts/address-counts.ts';
import type { ApplicationStore, RateCounterStore, StoreOptions } from './outbox/application-store.ts';
import { createSharedBudget } from './counts/budget-ledger.ts';
import { openCatalogueStore } from './catalogue/catalogue-sqlite.ts';
import { createSharedCatalogue } from './catalogue/catalogue-shared.ts';
import { watchDatabase } from './database-watch.ts';
import type { DatabaseWatch } from './database-watch.ts';
import type { MigrationReport } from './migrations.ts';
import { migratePostgres } from './postgres-schema.ts';
import { PostgresApplicationStore } from './outbox/postgres-store.ts';
import { openPostgres } from './postgres.ts';
import { SqliteApplicationStore } from './outbox/sqlite-store.ts';

/** A background job's own budget: `perMinute` requests per `windowMs`, shared by the instances under `name`. */
export interface BudgetShare {
  name: string;
  perMinute: number;
  windowMs: number;
}

export interface BackendOptions {
  dataDir: string;
  /** DATABASE_URL: PostgreSQL when set, else SQLite in dataDir. */
  databaseUrl: string | null;
  /** Told when an idle PostgreSQL connection fails (the pool drops it). */
  onIdleError?: (error: Error) => void;
}

/** The shared PostgreSQL database of a proxy instance. */
export interface Database {
  pool: pg.Pool;
  /** The URL without its password, for messages. */
  location: string;
}

/** The catalogue's copy on this backend, opened. */
export interface OpenedCatalogue {
  /** What the catalogue writes through and reads from (its store): this instance's own file, or its own copy (in its file too) of the one every instance follows. */
  copy: CatalogueCopy;
  /** Resolves once the copy can be served (the shared one loaded from the database, after ready()). */
  load(): Promise<void>;
  close(): Promise<void>;
}

export interface Backend {
  /** Where the data is, for messages: DATA_DIR/outbox.db, or the database URL without its password. */
  readonly location: string;
  /** The PostgreSQL pool, undefined with SQLite (Proxy.database, for tests and operators). */
  readonly database: Database | undefined;
  /** The applications, their resumes, idempotency keys and rate counters, as one process (`owner`) sees them. */
  openApplications(options: StoreOptions): ApplicationStore;
  /** The catalogue's copy. */
  openCatalogue(logger: Logger): OpenedCatalogue;
  /** Where the per-address apply limit counts, in windows of `windowMs`: memory, or the counters of `rates` that every instance shares. */
  addressCounts(rates: () => Promise<RateCounterStore>, windowMs: number): Store;
  /**
   * The upstream request budget the client spends from: this process's own, in
   * memory, or the one several instances spend together. With `share`, a
   * budget of its own for one background job (named, no tokens reserved for
   * high priority), on top of the client's.
   */
  requestBudget(onError: (error: unknown, what: string) => void, share?: BudgetShare): RequestBudget;
  /** Whether the database answers, for /readyz; undefined when there is none to lose (files). */
  watch(): DatabaseWatch | undefined;
  /** Migrates every table once (one ordered list per database); the stores are usable once it resolves. */
  ready(): Promise<MigrationReport>;
  /** Ends the pool (the stores opened on it first). */
  close(): Promise<void>;
}

/** postgres://user:secret@host/db → postgres://user@host/db. */
export function redactUrl(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}

/** Where the applications of a configuration are kept, for messages, without opening anything. */
export function storageLocation(options: Pick<BackendOptions, 'dataDir' | 'databaseUrl'>): string {
  return options.databaseUrl === null ? join(options.dataDir, 'outbox.db') : redactUrl(options.databaseUrl);
}

/** Where a proxy keeps its data, as its start line says it: the data directory, or the database (and the uploads' directory). */
export function storageDescription(options: Pick<BackendOptions, 'dataDir' | 'databaseUrl'>): string {
  return options.databaseUrl === null
    ? `data in ${options.dataDir}`
    : `data in ${redactUrl(options.databaseUrl)} (uploads in ${options.dataDir})`;
}

/** False when the configuration names files that are not there (a command pointed at the wrong data directory); a database is assumed there. */
export function storageExists(options: Pick<BackendOptions, 'dataDir' | 'databaseUrl'>): boolean {
  return options.databaseUrl !== null || existsSync(storageLocation(options));
}

/** Opens the backend of a configuration. PostgreSQL connects lazily: a wrong address shows at ready(). */
export function openBackend(options: BackendOptions): Backend {
  return options.databaseUrl === null
    ? openSqliteBackend(options.dataDir)
    : openPostgresBackend(options.databaseUrl, options.dataDir, options.onIdleError);
}

function openSqliteBackend(dataDir: string): Backend {
  const stores: ApplicationStore[] = [];
  /** What opening the file migrated: SQLite migrates when the first store opens it. */
  let migrations: MigrationReport | undefined;
  const openApplications = (options: StoreOptions): SqliteApplicationStore => {
    const store = new SqliteApplicationStore({ ...options, dataDir });
    migrations ??= store.migrations;
    stores.push(store);
    return store;
  };
  return {
    location: storageLocation({ dataDir, databaseUrl: null }),
    database: undefined,
    openApplications,
    openCatalogue(): OpenedCatalogue {
      const store = openCatalogueStore(dataDir);
      return { copy: ownCatalogueCopy(store), load: async () => {}, close: async () => store.close() };
    },
    addressCounts: () => memoryAddressCounts(),
    requestBudget: (_onError, share) =>
      share === undefined
        ? new RequestBudget()
        : new RequestBudget({ perMinute: share.perMinute, windowMs: share.windowMs, reservedForHigh: 0 }),
    watch: () => undefined,
    async ready() {
      if (migrations === undefined) await openApplications({ owner: 'migrations' }).close();
      return migrations!;
    },
    async close() {
      await Promise.all(stores.map((store) => store.close()));
    },
  };
}

function openPostgresBackend(url: string, dataDir: string, onIdleError?: (error: Error) => void): Backend {
  const database: Database = { pool: openPostgres(url, onIdleError), location: redactUrl(url) };
  const { pool, location } = database;
  const stores: ApplicationStore[] = [];
  let migrating: Promise<MigrationReport> | undefined;
  // Instances starting together take turns on an advisory lock (migratePostgres).
  const ready = () => (migrating ??= migratePostgres(pool, location));
  return {
    location,
    database,
    openApplications(options) {
      const store = new PostgresApplicationStore({ ...options, pool, location, migrate: ready });
      stores.push(store);
      return store;
    },
    openCatalogue(logger): OpenedCatalogue {
      const shared = createSharedCatalogue(pool, { logger, dataDir });
      return { copy: shared, load: () => ready().then(() => shared.load()), close: () => shared.close() };
    },
    addressCounts: (rates, windowMs) => databaseAddressCounts(rates, windowMs),
    requestBudget: (onError, share) =>
      createSharedBudget(pool, {
        onError,
        ...(share === undefined
          ? {}
          : { name: share.name, perMinute: share.perMinute, windowMs: share.windowMs, reservedForHigh: 0 }),
      }),
    watch: () => watchDatabase(pool, location),
    ready,
    async close() {
      await Promise.all(stores.map((store) => store.close()));
      if (!pool.ended) await pool.end();
    },
  };
}
