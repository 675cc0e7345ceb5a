// Where the proxy keeps what it knows: openBackend (backend.ts) chooses
// SQLite in DATA_DIR (one instance) or PostgreSQL with DATABASE_URL (several
// instances behind a load balancer) and answers one small interface per
// thing stored; the rest of the proxy imports from here.
import type { ApplicationStore } from './outbox/application-store.ts';
import { openBackend } from './backend.ts';
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
