// Where the proxy keeps what it knows: openBackend (backend.ts) chooses
// SQLite in DATA_DIR (one instance) or PostgreSQL with DATABASE_URL (several
// instances behind a load balancer) and answers one small interface per
// thing stored; the rest of the proxy imports from here.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { CatalogueStore } from '../catalogue/types.ts';
import type { ApplicationStore } from './outbox/application-store.ts';
import { openBackend, redactUrl } from './backend.ts';
import { openSharedCatalogueStore } from './catalogue/catalogue-shared.ts';
import { openCatalogueStore } from './catalogue/catalogue-sqlite.ts';
import { openPostgres } from './postgres.ts';
import type { MigrationReport } from './migrations.ts';
import type { WebhookEventOptions } from './webhooks/webhook-store.ts';

export type * from './outbox/application-store.ts';
export {
  IDEMPOTENCY_TTL_MS,
  KEY_LEASE_MS,
  OUTBOX_STATUSES,
  ResumeMissingError,
  eraseAfter,
} from './outbox/application-store.ts';
export { openBackend, redactUrl, storageDescription, storageExists, storageLocation } from './backend.ts';
export type { Backend, BackendOptions, BudgetShare, Database, OpenedCatalogue } from './backend.ts';
export type { DatabaseWatch } from './database-watch.ts';
export type { MigrationReport, MigrationRecord } from './migrations.ts';
export { SchemaBehindError } from './migrations.ts';
export { PostgresApplicationStore } from './outbox/postgres-store.ts';
export { SqliteApplicationStore } from './outbox/sqlite-store.ts';
export { WEBHOOK_EVENT_STATUSES, WEBHOOK_RETRY_FOR_MS, WebhookLeaseLostError } from './webhooks/webhook-store.ts';
export type {
  ClaimedEvent,
  WebhookEventOptions,
  WebhookEventRow,
  WebhookEventStatus,
  WebhookEventStore,
  WebhookLease,
  WebhookRetryResult,
} from './webhooks/webhook-store.ts';
export { WEBHOOK_SQL, applicationEventParams, newEventId } from './webhooks/webhooks-sql.ts';
export type { FunnelCounting, FunnelEntry, FunnelPeriod, FunnelReport, FunnelStore } from './funnel/funnel-store.ts';
export { DEFAULT_REPORT_LIMIT, SqlFunnelStore, sourceOf, zeroCounts } from './funnel/sql-funnel-store.ts';
export { dayOf } from './funnel/funnel-sql.ts';

/**
 * The application store a command (outbox, migrate) works on, migrated;
 * close() also closes the backend. Same choice as the proxy: DATABASE_URL,
 * else DATA_DIR.
 */
export async function openStoreForCommand(options: {
  dataDir: string;
  databaseUrl: string | null;
  owner: string;
  webhookEvents?: WebhookEventOptions | undefined;
}): Promise<{ store: ApplicationStore; migrations: MigrationReport; close(): Promise<void> }> {
  const backend = openBackend(options);
  const close = () => backend.close();
  try {
    const store = backend.openApplications({ owner: options.owner, webhookEvents: options.webhookEvents });
    return { store, migrations: await store.ready(), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The catalogue a command reads (offers check), as the proxy serves it: the
 * file DATA_DIR/catalogue.db, or with DATABASE_URL the shared copy, loaded
 * in memory (an instance's own file is that instance's to write). The file
 * is opened as the proxy opens it (SQLite's WAL lets both read it at once).
 * Undefined when there is no file to read: no proxy ever kept a catalogue in
 * that directory.
 */
export async function openCatalogueForCommand(options: {
  dataDir: string;
  databaseUrl: string | null;
  logger: Logger;
}): Promise<{ store: CatalogueStore; where: string; close(): Promise<void> } | undefined> {
  if (options.databaseUrl === null) {
    const where = join(options.dataDir, 'catalogue.db');
    if (!existsSync(where)) return undefined;
    const store = openCatalogueStore(options.dataDir);
    return { store, where, close: async () => store.close() };
  }
  const pool = openPostgres(options.databaseUrl);
  try {
    const shared = await openSharedCatalogueStore(pool, { logger: options.logger });
    return {
      store: shared.store,
      where: redactUrl(options.databaseUrl),
      async close() {
        await shared.close();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
