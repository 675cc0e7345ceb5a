// The proxy's public entry. createProxy() builds the whole proxy without
// listening: an Express app to mount inside a partner's own app, plus start()
// and stop() for the background work (catalogue sync, delivery worker).
// startProxy() is createProxy() on its own HTTP server, with a graceful close
// that finishes in-flight requests; the `proxy` command runs it.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { RecruitmentClient } from '../client/index.ts';
import { makeOwnerOnlyFolder } from '../owner-only.ts';
import { packageVersion } from '../package-root.ts';
import { portInUseError } from '../port-in-use.ts';
import { createMetricsApp, createProxyApp } from './app.ts';
import { createApplicationsModule } from './applications/index.ts';
import type { ApplicationsDeps, ApplicationsModule } from './applications/index.ts';
import { createCatalogue } from './catalogue/index.ts';
import type { LiveCatalogue } from './catalogue/index.ts';
import type { ProxyConfig } from './config.ts';
import { lockDataDir } from './storage/data-dir-lock.ts';
import { restrictDataDir } from './storage/data-dir-modes.ts';
import { BLOCK_FIX } from './applications/delivery-block.ts';
import { createLogger } from './logger.ts';
import { createRegistry, upstreamLatency } from './metrics.ts';
import { openBackend } from './storage/index.ts';
import { checkUpstream, recheckUntilVerified, upstreamClient } from './upstream-check.ts';
import type { UpstreamCheck, UpstreamCheckError } from './upstream-check.ts';
import type { Backend, Database } from './storage/index.ts';
import { funnelMetrics } from './stats/stats-metrics.ts';
import { BeaconLimiter, databaseBeaconCounts, memoryBeaconCounts } from './stats/beacon-limit.ts';

export { ConfigError, ENV_VARIABLES, loadProxyConfig } from './config.ts';
export type { ProxyConfig } from './config.ts';
export { DataDirInUseError } from './storage/data-dir-lock.ts';
export { SchemaBehindError } from './storage/index.ts';
export { FORWARDED_PAGE_PARAMS } from '../public-api/list-params.ts';
export { UpstreamCheckError, checkUpstream } from './upstream-check.ts';
export type { UpstreamCheck, UpstreamMistake } from './upstream-check.ts';
export type { OnStatusChanged, StatusChange } from './applications/index.ts';

export interface CreateProxyOptions {
  config: ProxyConfig;
  /** Default: a client of config.upstream whose calls are timed in the metrics. */
  client?: RecruitmentClient;
  logger?: Logger;
  /** A folder served at / (the demo's job-board page). */
  demoPageDir?: string;
  /** More demo pages, served before that folder (the demo's server-rendered board page). */
  demoPages?: RequestHandler;
  /** Default: a new registry with Node's default metrics. */
  registry?: Registry;
  /**
   * Options of the applications module: the delivery worker's timings, the
   * retention pass's interval, the status sync's timings and the clock (tests
   * shorten them), and onStatusChanged, told when a delivered application's
   * company status changes.
   */
  applications?: Pick<
    ApplicationsDeps,
    'delivery' | 'retention' | 'clock' | 'openUploadFile' | 'onStatusChanged' | 'statusSync' | 'webhooks'
  >;
}

export interface Proxy {
  /**
   * The Express app of every proxy route. Mount it in an existing app
   * (`app.use('/jobs', proxy.app)`, then give the widget that URL as its
   * endpoint) or serve it on its own.
   */
  app: Express;
  catalogue: LiveCatalogue;
  applications: ApplicationsModule;
  /** The PostgreSQL pool (DATABASE_URL) the shared stores use; undefined with SQLite. Ended by stop(). */
  database: Database | undefined;
  /** Resolves once the stores are opened and migrated (requests arriving before wait); rejects when they cannot be. */
  ready(): Promise<void>;
  registry: Registry;
  logger: Logger;
  /**
   * Checks the keys and the channel with the service (with this proxy's
   * client: its token, its request budget). Rejects with UpstreamCheckError on
   * a proven mistake (a company's keys, keys refused or without a scope, a
   * channel with no offer unless allowEmptyCatalogue); resolves `unverified`
   * when the service cannot say. startProxy() calls it before listening.
   */
  checkUpstream(): Promise<UpstreamCheck>;
  /** Starts the catalogue sync and the delivery worker. Nothing is synced or delivered before. */
  start(): void;
  /** From now on /readyz answers 503 and responses close their connection, so load balancers move away. */
  drain(): void;
  /**
   * Drains, stops the workers and closes the stores. Stop taking requests
   * first (close your server): a request still running may need the stores.
   */
  stop(): Promise<void>;
}

export interface StartProxyOptions extends CreateProxyOptions {
  /** How long close() waits for in-flight requests before cutting connections (default 10 s). */
  shutdownGraceMs?: number;
  /**
   * Check the keys and the channel with the service before listening (default
   * true): a proven mistake (a company's keys, a secret refused, a channel
   * with no offer) rejects with UpstreamCheckError; a service that cannot be
   * reached does not: the check is then made again every upstreamRecheckMs
   * (default 60 s) until the service answers, and a company's keys or a
   * missing scope found then block delivery (503 delivery_blocked, /readyz 503).
   */
  checkUpstream?: boolean;
  upstreamRecheckMs?: number;
}

export interface RunningProxy extends Omit<Proxy, 'start' | 'stop' | 'drain' | 'checkUpstream'> {
  /** http://host:port, with 127.0.0.1 when listening on every interface. */
  url: string;
  port: number;
  /** The HTTP server (for embedding and tests). */
  server: Server;
  /** Where the Prometheus metrics are: http://METRICS_HOST:METRICS_PORT/metrics. */
  metricsUrl: string;
  /** Stops taking requests, finishes in-flight ones, stops the workers and closes the stores. */
  close(): Promise<void>;
}

async function listen(server: Server, port: number, host: string, variable: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    throw portInUseError(error, port, host, `set ${variable} to a free port`);
  }
}

/** http://host:port of a listening server, with 127.0.0.1 when it listens on every interface. */
function urlOf(server: Server, configured: string): string {
  const { port } = server.address() as AddressInfo;
  const host = configured === '0.0.0.0' || configured === '::' ? '127.0.0.1' : configured;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** A bare configuration (from loadProxyConfig) or the options around one. */
function optionsOf<T extends CreateProxyOptions>(arg: ProxyConfig | T): T | CreateProxyOptions {
  return 'upstream' in arg ? { config: arg } : arg;
}

/**
 * Gives a data directory made by an older version the owner-only modes. One
 * that cannot be changed (files of another user) is said, not fatal: the
 * proxy works as before.
 */
function restrictDataDirOf(dataDir: string, logger: Logger): void {
  try {
    const changed = restrictDataDir(dataDir);
    if (changed > 0)
      logger.info(
        { event: 'data_dir_restricted', dataDir, changed },
        'data directory made readable by its owner only (0700 folders, 0600 files)',
      );
  } catch (error) {
    logger.warn(
      { event: 'data_dir_not_restricted', dataDir, error: error instanceof Error ? error.message : String(error) },
      'could not make the data directory readable by its owner only: chmod -R go-rwx it',
    );
  }
}

/** Said once at start when no origin is allowed on /api: browsers send Origin with every cross-site request and every POST, so no page could apply. */
const NO_ORIGINS_WARNING =
  "Neither ALLOWED_ORIGINS nor PUBLIC_ORIGIN is set, so no board page can call this proxy from a browser (403 origin_not_allowed): set ALLOWED_ORIGINS to the origins of the pages that embed the widget (like https://jobs.acme.example, or http://localhost:5173 for a page you develop), or PUBLIC_ORIGIN to this proxy's own origin when the pages are served from it.";

/** The whole proxy, not listening: mount `app`, then call start(). */
export function createProxy(configOrOptions: ProxyConfig | CreateProxyOptions): Proxy {
  const options = optionsOf(configOrOptions);
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const registry = options.registry ?? createRegistry();
  makeOwnerOnlyFolder(config.dataDir);
  // Before any store opens: the directory is one process's (DataDirInUseError), and only it deletes what a stopped one left there.
  const dataDirLock = lockDataDir(config.dataDir);
  restrictDataDirOf(config.dataDir, logger);
  if (config.allowedOrigins.length === 0 && config.publicOrigin === null)
    logger.warn({ event: 'no_allowed_origins' }, NO_ORIGINS_WARNING);

  const backend = openBackend({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    onIdleError: (error) =>
      logger.error({ event: 'database_error', error: error.message }, 'an idle PostgreSQL connection failed'),
  });
  // Several instances on one database spend the service's 120 requests a minute together; one instance, its own.
  const budget = backend.requestBudget((error, what) =>
    logger.warn({ event: 'budget_error', error: error instanceof Error ? error.message : String(error) }, what),
  );
  const client = options.client ?? upstreamClient(config.upstream, { onAttempt: upstreamLatency(registry), budget });

  // With a database, one instance syncs the catalogue and every instance answers from its own copy of the shared one (DATA_DIR/catalogue.db).
  const catalogueCopy = backend.openCatalogue(logger);
  const catalogue = createCatalogue({ config, client, copy: catalogueCopy.copy, logger, registry });
  const applications = createApplicationsModule({
    config,
    client,
    catalogue,
    logger,
    registry,
    backend,
    dataDirLock,
    ...options.applications,
  });
  // Both wait on the backend's migrations, not on each other; the store's error (it says what to do) is the one ready() tells.
  const catalogueLoaded = catalogueCopy.load();
  catalogueLoaded.catch(() => {});
  const ready = applications.whenReady().then(() => catalogueLoaded);
  ready.catch(() => {}); // a store that cannot open is reported by ready() and /readyz

  const databaseWatch = backend.watch();
  /** Readiness beyond the catalogue and the store: delivery not blocked, the database answering. */
  const moreChecks = () => {
    const block = applications.blocked();
    return {
      delivery:
        block === undefined
          ? { status: 'ok', ready: true }
          : {
              status: 'blocked',
              ready: false,
              reason: block.reason,
              error: block.error,
              since: block.since.toISOString(),
              fix: BLOCK_FIX[block.reason],
            },
      ...(databaseWatch === undefined ? {} : { database: databaseWatch.check() }),
    };
  };

  const beacons = funnelParts(options, backend, applications, config.upstream.secretKey, registry, logger);

  let draining = false;
  const app = createProxyApp({
    config,
    logger,
    registry,
    catalogue,
    applications,
    demoPageDir: options.demoPageDir,
    demoPages: options.demoPages,
    draining: () => draining,
    moreChecks,
    version: packageVersion(),
    stats: beacons,
    beacons,
  });

  let started = false;
  let stopping: Promise<void> | undefined;
  return {
    app,
    catalogue,
    applications,
    database: backend.database,
    registry,
    logger,
    ready: () => ready,
    checkUpstream: () => checkUpstream(config, { client }),
    start() {
      if (started || stopping !== undefined) return;
      started = true;
      catalogueLoaded.then(
        () => stopping === undefined && catalogue.start(),
        () => {},
      );
      applications.start();
      databaseWatch?.start();
    },
    drain() {
      draining = true;
    },
    stop() {
      stopping ??= (async () => {
        draining = true;
        databaseWatch?.stop();
        await Promise.allSettled([catalogue.stop(), applications.stop()]);
        await catalogueCopy.close();
        await backend.close();
        dataDirLock.release();
        // The last lines (the shutdown's own) out before the process may exit.
        await new Promise<void>((resolve) => logger.flush(() => resolve()));
      })();
      return stopping;
    },
  };
}

/**
 * A mistake the start check found once the proxy was serving: keys that can
 * deliver nothing block delivery (as the first such refusal of a delivery
 * would); the others are said in an error line (refused keys also turn /readyz 503).
 */
function afterStart(proxy: Proxy, mistake: UpstreamCheckError): void {
  if (mistake.mistake === 'wrong_client_kind' || mistake.mistake === 'missing_scope') {
    proxy.applications.block(mistake.mistake, `${mistake.mistake} (403, start check)`);
    return;
  }
  proxy.logger.error({ event: 'upstream_mistake', mistake: mistake.mistake }, mistake.message);
}

/** The whole proxy on its own HTTP server (config.host, config.port), started. */
export async function startProxy(configOrOptions: ProxyConfig | StartProxyOptions): Promise<RunningProxy> {
  const options: StartProxyOptions = optionsOf(configOrOptions);
  const { config } = options;
  const proxy = createProxy(options);
  const { logger } = proxy;

  // A request, resume included, arrives whole within UPLOAD_TIMEOUT_SECONDS or its socket is closed:
  // a stalled upload must not keep its memory and its place for Node's default 300 s. Node checks
  // the sockets' timers every connectionsCheckingInterval, so that is a fraction of the timeout.
  const server = createServer(
    {
      requestTimeout: config.uploadTimeoutMs,
      headersTimeout: Math.min(66_000, config.uploadTimeoutMs),
      connectionsCheckingInterval: Math.min(5_000, Math.max(250, config.uploadTimeoutMs / 4)),
    },
    proxy.app,
  );
  // Behind a load balancer, idle keep-alive connections must outlive its own idle timeout (often 60 s).
  server.keepAliveTimeout = 65_000;
  const metricsServer = createServer(createMetricsApp(proxy.registry));
  let recheck: { stop(): void } | undefined;
  try {
    // Listening means ready: the stores are opened and migrated first.
    await proxy.ready();
    if (options.checkUpstream ?? true) {
      const check = await proxy.checkUpstream();
      if (check.outcome === 'checked')
        logger.info(
          { event: 'upstream_checked', channel: config.channel, offers: check.offers },
          'keys and channel checked with the recruitment API',
        );
      else {
        logger.warn(
          { event: 'upstream_unverified', reason: check.reason },
          'the keys and channel could not be checked at start; starting anyway, applications are queued until the recruitment API answers',
        );
        recheck = recheckUntilVerified(
          () => proxy.checkUpstream(),
          (mistake) => afterStart(proxy, mistake),
          options.upstreamRecheckMs ?? 60_000,
        );
      }
    }
    await listen(server, config.port, config.host, 'PORT');
    await listen(metricsServer, config.metrics.port, config.metrics.host, 'METRICS_PORT');
  } catch (error) {
    recheck?.stop();
    server.close();
    await proxy.stop();
    throw error;
  }
  const url = urlOf(server, config.host);
  const { port } = server.address() as AddressInfo;
  const metricsUrl = `${urlOf(metricsServer, config.metrics.host)}/metrics`;

  proxy.start();
  logger.info(
    { port, host: config.host, channel: config.channel, dataDir: config.dataDir, metrics: metricsUrl },
    'proxy listening',
  );

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      recheck?.stop();
      proxy.drain();
      logger.info('proxy shutting down: finishing in-flight requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets would hold close() open; in-flight ones finish
      // first, and their sockets are closed as soon as they turn idle.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const grace = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 10_000);
      await closed;
      metricsServer.closeAllConnections();
      await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      clearInterval(sweep);
      clearTimeout(grace);
      await proxy.stop();
      logger.info('proxy stopped');
    })();
    return closing;
  };

  const { app, catalogue, applications, database, registry, ready } = proxy;
  return { app, catalogue, applications, database, registry, ready, logger, url, port, server, metricsUrl, close };
}

/**
 * What POST /api/funnel counts with (the application store's funnel once it
 * is open; one instance limits addresses in its memory, several in the
 * database), and today's counts in the metrics.
 */
function funnelParts(
  options: CreateProxyOptions,
  backend: Backend,
  applications: ApplicationsModule,
  secretKey: string,
  registry: Registry,
  logger: Logger,
) {
  const now = options.applications?.clock === undefined ? Date.now : () => options.applications!.clock!.now();
  const store = () => applications.whenReady().then(() => applications.outbox);
  const beaconCounts = backend.database === undefined ? memoryBeaconCounts(now) : databaseBeaconCounts(store);
  const funnel = () => store().then((outbox) => outbox.funnel);
  funnelMetrics(registry, { funnel, now }, (error) =>
    logger.warn(
      { event: 'funnel_metrics_error', error: error instanceof Error ? error.message : String(error) },
      "could not read today's funnel counts for the metrics",
    ),
  );
  return { funnel, limiter: new BeaconLimiter(secretKey, beaconCounts, now), now };
}
