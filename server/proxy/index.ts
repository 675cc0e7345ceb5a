// startProxy: the whole proxy in one process. One upstream client (one rate
// budget: applications 'high', catalogue sync 'low'), the catalogue and its
// background sync, the applications module and its delivery worker, the
// Express app, and a graceful close that finishes in-flight requests.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createClient } from '../client/index.ts';
import type { RecruitmentClient } from '../client/index.ts';
import { createProxyApp } from './app.ts';
import { createApplicationsModule } from './applications/index.ts';
import type { ApplicationsModule, Clock, DeliveryOptions } from './applications/index.ts';
import { createCatalogue, openCatalogueStore } from './catalogue/index.ts';
import type { LiveCatalogue } from './catalogue/index.ts';
import type { ProxyConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { createRegistry, instrumentedFetch } from './metrics.ts';

export interface StartProxyOptions {
  config: ProxyConfig;
  /** Default: a client of config.upstream whose calls are timed in the metrics. */
  client?: RecruitmentClient;
  logger?: Logger;
  /** A folder served at / (the demo's job-board page). */
  demoPageDir?: string;
  /** Default: a new registry with Node's default metrics. */
  registry?: Registry;
  /** How long close() waits for in-flight requests before cutting connections (default 10 s). */
  shutdownGraceMs?: number;
  /** Options of the applications module: the delivery worker's timings and clock (tests shorten the backoff). */
  applications?: { delivery?: Partial<DeliveryOptions>; clock?: Clock };
}

export interface RunningProxy {
  /** http://host:port, with 127.0.0.1 when listening on every interface. */
  url: string;
  port: number;
  catalogue: LiveCatalogue;
  applications: ApplicationsModule;
  registry: Registry;
  /** The HTTP server (for embedding and tests). */
  server: Server;
  /** Stops taking requests, finishes in-flight ones, stops the workers and closes the stores. */
  close(): Promise<void>;
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const registry = options.registry ?? createRegistry();
  mkdirSync(config.dataDir, { recursive: true });

  const client =
    options.client ??
    createClient({
      baseUrl: config.upstream.url,
      privateKey: config.upstream.privateKey,
      secretKey: config.upstream.secretKey,
      fetch: instrumentedFetch(registry),
    });

  const store = openCatalogueStore(config.dataDir);
  const catalogue = createCatalogue({ config, client, store, logger, registry });
  const applications = createApplicationsModule({ config, client, catalogue, logger, registry, ...options.applications });

  let draining = false;
  const app = createProxyApp({
    config,
    logger,
    registry,
    catalogue,
    applications,
    demoPageDir: options.demoPageDir,
    draining: () => draining,
    version: packageVersion(),
  });

  const server = createServer(app);
  // Behind a load balancer, idle keep-alive connections must outlive its own idle timeout (often 60 s).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await applications.stop();
    store.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${config.port} on ${config.host} is already in use: stop what uses it, or set PORT to a free port.`, { cause: error });
    }
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  catalogue.start();
  applications.start();
  logger.info({ port, host: config.host, channel: config.channel, dataDir: config.dataDir }, 'proxy listening');

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      draining = true;
      logger.info('proxy shutting down: finishing in-flight requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets would hold close() open; in-flight ones finish
      // first, and their sockets are closed as soon as they turn idle.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const grace = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 10_000);
      await closed;
      clearInterval(sweep);
      clearTimeout(grace);
      await Promise.allSettled([catalogue.stop(), applications.stop()]);
      store.close();
      logger.info('proxy stopped');
    })();
    return closing;
  };

  return { url, port, catalogue, applications, registry, server, close };
}
