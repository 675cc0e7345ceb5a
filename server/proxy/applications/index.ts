// The applications module: POST /api/applications and the durable outbox
// behind it (the application store: DATA_DIR/outbox.db and DATA_DIR/resumes,
// or PostgreSQL with DATABASE_URL; uploads being received in
// DATA_DIR/uploads), with its delivery worker and the retention sweep that
// erases what is kept past PERSONAL_DATA_RETENTION_DAYS.
//   const applications = createApplicationsModule({ config, client, catalogue, backend, logger, registry, dataDirLock });
//   app.use('/api/applications', applications.router); applications.start();
//   ... await applications.stop();
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ProxyConfig } from '../config.ts';
import type { DataDirLock } from '../storage/data-dir-lock.ts';
import type { DeliveryClient } from './delivery.ts';
import { DEFAULT_DELIVERY, DeliveryWorker } from './delivery-worker.ts';
import type { DeliveryOptions } from './delivery-worker.ts';
import { BLOCK_FIX, blockedGauge } from './delivery-block.ts';
import type { BlockReason, DeliveryBlock } from './delivery-block.ts';
import { applicationMetrics } from './metrics.ts';
import { SchemaBehindError } from '../storage/index.ts';
import type { ApplicationStore, Backend } from '../storage/index.ts';
import { DEFAULT_RETENTION_INTERVAL_MS, RetentionSweeper, retentionMsOf } from './retention.ts';
import { applicationsRouter } from './routes.ts';
import { decoyReceipts } from '../receipt/decoy.ts';
import { receiptRouter } from '../receipt/route.ts';
import { DEFAULT_STATUS_SYNC, StatusSync, recordStatusChanged, statusSyncShare } from './status-sync.ts';
import type { OnStatusChanged, StatusSyncOptions } from './status-sync.ts';
import { statusSyncMetrics } from './status-sync-metrics.ts';
import type { RecruitmentClient } from '../../client/index.ts';
import { HOUR_MS } from './spam.ts';
import { UploadSpool } from './upload-spool.ts';
import { DEFAULT_WEBHOOK_SENDER, WebhookSender } from '../webhooks/sender.ts';
import type { WebhookSenderOptions } from '../webhooks/sender.ts';
import { alertsRouter } from '../webhooks/alerts-route.ts';
import type { OpenUploadFile } from './upload-spool.ts';
import type { ApplicationsCatalogue, Clock } from './types.ts';

export type { ApplicationsCatalogue, Clock } from './types.ts';
export type { DeliveryClient } from './delivery.ts';
export type { DeliveryOptions } from './delivery-worker.ts';
export type { OpenUploadFile } from './upload-spool.ts';
export { DEFAULT_DELIVERY } from './delivery-worker.ts';
export type { BlockReason, DeliveryBlock } from './delivery-block.ts';
export { OUTBOX_STATUSES } from '../storage/index.ts';
export type {
  ApplicationStore,
  ErasedBy,
  ErasureReport,
  OutboxRow,
  OutboxStatus,
  OutboxSummary,
  Outcome,
} from '../storage/index.ts';
export { DEFAULT_RETENTION_INTERVAL_MS } from './retention.ts';
export { DEFAULT_STATUS_SYNC, STATUS_SYNC_SHARE } from './status-sync.ts';
export type { OnStatusChanged, PassResult, StatusChange, StatusSync, StatusSyncOptions } from './status-sync.ts';
export type { SweepResult } from './retention.ts';

export interface ApplicationsDeps {
  config: ProxyConfig;
  /** Delivery's calls; its budget (when it has one) sizes the status sync's share. */
  client: DeliveryClient & Partial<Pick<RecruitmentClient, 'budget'>>;
  catalogue: ApplicationsCatalogue;
  logger: Logger;
  registry: Registry;
  /** The data directory's lock, held by this process: only its holder deletes what a stopped process left there. */
  dataDirLock: DataDirLock;
  /** Where the applications are kept (openBackend); its opener closes it, after stop(). */
  backend: Backend;
  clock?: Clock;
  /** Worker timings (tests shorten the backoff). */
  delivery?: Partial<DeliveryOptions>;
  /** Webhook sender timings (tests shorten the polling and the backoff). */
  webhooks?: Partial<WebhookSenderOptions>;
  /** Time between two retention passes (ms; default hourly). */
  retention?: { intervalMs?: number };
  /** How uploads are written to DATA_DIR/uploads (default node:fs's createWriteStream; tests give one whose disk is full). */
  openUploadFile?: OpenUploadFile;
  /** Told when the status sync sees a delivered application's status change (default: nothing). */
  onStatusChanged?: OnStatusChanged;
  /** The status sync's timings (tests shorten them); its days are STATUS_SYNC_DAYS, its period STATUS_SYNC_INTERVAL_MINUTES. */
  statusSync?: Partial<Omit<StatusSyncOptions, 'days'>>;
}

export interface ApplicationsModule {
  /** Mounted at /api/applications, before any body parser (it reads its own multipart bodies). */
  router: Router;
  /** The candidates' receipt pages, mounted at RECEIPT_PATH (/applications/receipt). */
  receipt: Router;
  /** POST /api/alerts (ALERTS=webhook): an alert recorded as a webhook event beside the applications' events. */
  alerts: Router;
  /** Starts the delivery worker (takes back rows a killed process was delivering) and the retention sweep. */
  start(): void;
  /** Stops the sweep, and the worker after the attempts under way end, then closes the outbox. */
  stop(): Promise<void>;
  outbox: ApplicationStore;
  /** True while the outbox is open (and migrated). */
  ready(): boolean;
  /** Resolves once the store is opened and migrated; rejects when it cannot be. */
  whenReady(): Promise<void>;
  /** Set when a refusal no retry can fix (wrong client kind, missing scope) has stopped delivery for everyone, until a restart. */
  blocked(): DeliveryBlock | undefined;
  /** Stops delivery for everyone, as such a refusal does (the start check learnt it later). */
  block(reason: BlockReason, error: string): void;
  /** The job following the company's status of delivered applications (STATUS_SYNC_DAYS). */
  statusSync: StatusSync;
}

export function createApplicationsModule(deps: ApplicationsDeps): ApplicationsModule {
  const now = deps.clock ? () => deps.clock!.now() : Date.now;
  const log = deps.logger.child({ module: 'applications' });
  const options: DeliveryOptions = {
    ...DEFAULT_DELIVERY,
    leaseMs: deps.config.deliveryLeaseMs,
    source: { value: deps.config.applicationSource, board: deps.config.channel },
    ...deps.delivery,
  };
  // A key claimed by a request is held as a row claimed by an attempt is: renewed while its work runs, free again one lease after its process died.
  const { backend } = deps;
  const webhook = deps.config.webhook;
  const outbox = backend.openApplications({
    owner: randomUUID(),
    now,
    keyLeaseMs: options.leaseMs,
    webhookEvents: webhook === null ? undefined : { includeCandidate: webhook.includeCandidate },
    funnel: deps.config.funnel ? { channel: deps.config.channel } : undefined,
  });
  const sender =
    webhook === null
      ? undefined
      : new WebhookSender({
          store: outbox.webhooks,
          target: webhook,
          options: { ...DEFAULT_WEBHOOK_SENDER, leaseMs: options.leaseMs, ...deps.webhooks },
          now,
          logger: deps.logger.child({ module: 'webhooks' }),
          registry: deps.registry,
        });
  const opened = openStore(deps, outbox, log);
  const spool = new UploadSpool(deps.config.dataDir, deps.openUploadFile);
  // Uploads a stopped process was receiving (none was acknowledged), deleted before the router below takes any.
  spool.clear(deps.dataDirLock);
  const metrics = applicationMetrics(deps.registry, () => outbox);
  const worker = createDeliveryWorker(deps, outbox, options, now, log, metrics);
  blockedGauge(deps.registry, () => worker.blocked);
  const retention = createRetention(deps, outbox, log);
  const statusSync = createStatusSync(deps, outbox, now, log);
  const stored = () => opened.then(() => outbox);
  // The honeypot's receipt links, which the receipt pages know without a row.
  const decoys = decoyReceipts(deps.config.upstream.secretKey);
  const router = applicationsRouter({
    config: deps.config,
    catalogue: deps.catalogue,
    logger: log,
    outbox: stored,
    worker: () => worker,
    metrics,
    spool,
    now,
    addressCounts: backend.addressCounts(stored, HOUR_MS),
    decoys,
  });
  let stopped = false;
  return {
    router,
    receipt: receiptRouter(deps.config, stored, decoys, deps.catalogue, now),
    alerts: alertsRouter({ config: deps.config, events: () => stored().then((store) => store.webhooks), now }),
    start() {
      if (stopped) return;
      // Once the store is ready (at once for SQLite); one that cannot open stays not ready.
      void opened.then(
        () => {
          if (stopped) return;
          worker.start();
          retention.start();
          sender?.start();
          statusSync.start();
        },
        () => {},
      );
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await opened.catch(() => {});
      await retention.stop();
      await statusSync.stop();
      await Promise.all([worker.stop(), sender?.stop()]);
      await outbox.close();
    },
    outbox,
    ready: () => outbox.isOpen,
    whenReady: () => opened,
    blocked: () => worker.blocked,
    block: (reason, error) => worker.block(reason, error),
    statusSync,
  };
}

/** Resolves once the store is opened and migrated, having deleted the resumes a stopped process left without an application. */
function openStore(deps: ApplicationsDeps, outbox: ApplicationStore, log: Logger): Promise<void> {
  const opened = outbox.ready().then(
    async (report) => {
      if (report.applied.length > 0) {
        log.info(
          {
            event: 'store_migrated',
            store: outbox.location,
            applied: report.applied.map((m) => m.version),
            version: report.version,
          },
          'application store migrated',
        );
      }
      // Requests reach the store only once this resolves: no resume is being stored yet.
      const removed = await outbox.removeUnlinkedResumes(deps.dataDirLock);
      if (removed > 0)
        log.info(
          { event: 'unlinked_resumes_removed', count: removed },
          'resumes a stopped process left without an application deleted',
        );
    },
    (error: unknown) => {
      // Says what to do already (run the migrate command as the owner): passed on as it is.
      if (error instanceof SchemaBehindError) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(
        `The application store ${outbox.location} cannot be opened: ${why}. Check DATABASE_URL and that the database server answers.`,
        { cause: error },
      );
    },
  );
  // Logged here; whoever awaits it (startProxy, requests) gets the error too.
  opened.catch((error: unknown) => {
    log.error(
      { event: 'store_error', store: outbox.location, error: error instanceof Error ? error.message : String(error) },
      'the application store cannot be opened',
    );
  });
  return opened;
}

/** The delivery worker, with its metrics and log lines. */
function createDeliveryWorker(
  deps: ApplicationsDeps,
  outbox: ApplicationStore,
  options: DeliveryOptions,
  now: () => number,
  log: Logger,
  metrics: ReturnType<typeof applicationMetrics>,
): DeliveryWorker {
  const worker = new DeliveryWorker(outbox, deps.client, options, now, {
    onRecorded(row, result, status) {
      if (status === 'delivered' && result.kind === 'delivered') metrics.delivered.inc({ outcome: result.outcome });
      if (result.kind === 'resume_missing') metrics.resumeMissing.inc();
      if (status === 'dead')
        metrics.deadLettered.inc({
          outcome:
            result.kind === 'rejected'
              ? result.outcome
              : result.kind === 'resume_missing'
                ? 'resume_missing'
                : 'expired',
        });
      const level =
        status === 'dead' || result.kind === 'resume_missing' ? 'error' : result.kind === 'retry' ? 'warn' : 'info';
      log[level](
        {
          event: 'delivery_attempt',
          reference: row.reference,
          attempt: row.attempts,
          result: result.kind,
          status,
          ...('error' in result ? { error: result.error } : {}),
        },
        `delivery attempt ${row.attempts}: ${result.kind}`,
      );
    },
    onLeaseLost(row, result) {
      log.warn(
        { event: 'delivery_lease_lost', reference: row.reference, attempt: row.attempts, result: result.kind },
        `delivery attempt ${row.attempts}: its lease was lost (it ran out, or another instance took the row back), so its result (${result.kind}) was not recorded; the instance holding the row now looks at the service before sending again`,
      );
    },
    onSourceRefused(row) {
      metrics.sourceRefused.inc({ company_id: String(row.company_id) });
      log.warn(
        {
          event: 'application_source_refused',
          reference: row.reference,
          company_id: row.company_id,
          source: options.source?.value,
        },
        `company ${row.company_id} refused the application source "${options.source?.value}": sent again without it, and without it to that company for a day; add the source to its sources list`,
      );
    },
    onError(reference, error) {
      // The error of a failed write (SQLite), never an upstream body: no personal data in it.
      log.error(
        { event: 'delivery_error', reference, error: error instanceof Error ? error.message : String(error) },
        'could not record a delivery attempt',
      );
    },
    onBlocked(block) {
      log.error(
        { event: 'delivery_blocked', reason: block.reason, error: block.error },
        `delivery stopped for every application: the recruitment API answered ${block.error}, which no retry can fix. ${BLOCK_FIX[block.reason]}; new applications are answered 503 delivery_blocked meanwhile`,
      );
    },
  });
  return worker;
}

/** The retention sweep (PERSONAL_DATA_RETENTION_DAYS), with its log lines. */
function createRetention(deps: ApplicationsDeps, outbox: ApplicationStore, log: Logger): RetentionSweeper {
  const retention = new RetentionSweeper(
    outbox,
    {
      retentionMs: retentionMsOf(deps.config.personalDataRetentionDays),
      intervalMs: deps.retention?.intervalMs ?? DEFAULT_RETENTION_INTERVAL_MS,
    },
    {
      onSwept(result) {
        if (
          result.erased.length === 0 &&
          result.webhookEvents === 0 &&
          result.rateCounters === 0 &&
          result.idempotencyKeys === 0
        )
          return;
        // References and counts only: what was erased must not reach the logs.
        log.info(
          {
            event: 'retention_sweep',
            erased: result.erased,
            webhook_events: result.webhookEvents,
            rate_counters: result.rateCounters,
            idempotency_keys: result.idempotencyKeys,
          },
          `retention: personal data of ${result.erased.length} dead or refused application(s) and ${result.webhookEvents} webhook event(s) erased`,
        );
      },
      onError(error) {
        log.error(
          { event: 'retention_error', error: error instanceof Error ? error.message : String(error) },
          'retention pass failed; the next one tries again',
        );
      },
    },
  );
  return retention;
}

/** The status sync, its budget STATUS_SYNC_SHARE of the client's (shared by the instances on one database), its metrics and log lines. */
function createStatusSync(
  deps: ApplicationsDeps,
  outbox: ApplicationStore,
  now: () => number,
  log: Logger,
): StatusSync {
  const budget = deps.backend.requestBudget(
    (error, what) =>
      log.warn({ event: 'budget_error', error: error instanceof Error ? error.message : String(error) }, what),
    statusSyncShare(deps.client.budget),
  );
  // The gauge reads the job's state when collected, after the job exists.
  const metrics = statusSyncMetrics(deps.registry, () => sync.enabled);
  const sync: StatusSync = new StatusSync(
    {
      store: outbox,
      client: deps.client,
      budget,
      now,
      async onStatusChanged(change) {
        // Told before the status is stored: an event that fails to be recorded leaves the change to be seen, and told, again.
        await recordStatusChanged(outbox.webhooks, change);
        await deps.onStatusChanged?.(change);
      },
      events: {
        onChecked: (result) => metrics.checks.inc({ result }),
        onForbidden(error) {
          metrics.forbidden.inc();
          log.error(
            { event: 'status_sync_forbidden', error: `${error.code} (${error.status ?? '-'})` },
            "status sync stopped: the API client of UPSTREAM_PRIVATE_KEY may not read applications (scope applications_read); candidates' receipts will not show the company's status. Give it that scope and restart the proxy; applications are received and delivered as before",
          );
        },
        onError(error) {
          metrics.checks.inc({ result: 'error' });
          log.warn(
            { event: 'status_sync_error', error: error instanceof Error ? error.message : String(error) },
            'status sync pass stopped; the next one tries again',
          );
        },
      },
    },
    {
      days: deps.config.statusSyncDays,
      periodMs: deps.config.statusSyncIntervalMinutes * 60_000,
      ...DEFAULT_STATUS_SYNC,
      ...deps.statusSync,
    },
  );
  return sync;
}
