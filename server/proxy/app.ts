// The proxy's Express app, a function of its dependencies:
// no listen() here, so tests start it on port 0 and startProxy composes it.
// Order matters: request id, logging, metrics and security headers first,
// in one middleware, then CORS on /api, the routes, the 404 (or 405 with Allow), and the one error handler.
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { accessLog } from './http/access-log.ts';
import { allowedMethods } from './http/allowed-methods.ts';
import type { ResponseWithError } from './http/access-log.ts';
import { createCatalogueReader, searchOverBudgetProblem } from './catalogue/routes/reader.ts';
import { SearchOverBudgetError } from './catalogue/search-text.ts';
import type { SyncStatus } from './catalogue/catalogue.ts';
import { STORE_FAILURE } from './catalogue/store-failures.ts';
import type { CatalogueStore } from './catalogue/types.ts';
import type { ProxyConfig } from './config.ts';
import { jsonAnswer, sendCachedJson } from './http/http-cache.ts';
import type { JsonAnswer } from './http/http-cache.ts';
import { httpMetrics } from './metrics.ts';
import { apiCors } from './http/cors.ts';
import { packagePath } from '../package-root.ts';
import { docsPageRoute } from '../openapi/docs-page.ts';
import { ProblemError } from './http/problem.ts';
import { recordedHeaders } from './http/security-headers.ts';
import { campaignRoutes } from './catalogue/routes/campaigns.ts';
import { searchRateLimit } from './catalogue/routes/search-rate-limit.ts';
import { configRouter } from './widget-serving/config.ts';
import { embedRouter } from './catalogue/routes/embed.ts';
import { sitemapHandler } from './catalogue/routes/sitemap.ts';
import { offersFeedHandler } from './catalogue/routes/offers-feed.ts';
import { FEED_PATH } from '../public-api/feed-url.ts';
import { takesAnySpontaneous } from '../public-api/spontaneous-companies.ts';
import { healthRouter } from './http/health.ts';
import {
  WIDGET_CHUNK_CACHE_CONTROL,
  WIDGET_CHUNK_PATH,
  widgetChunkHandler,
  widgetHandler,
} from './widget-serving/widget.ts';
import { PINNED_WIDGET_PATH } from './http/widget-pin.ts';
import { RECEIPT_PATH, RECEIPT_ROUTE } from './receipt/token.ts';
import type { Check, Readiness } from './http/health.ts';
import { mountStatsRoutes } from './stats/stats-routes.ts';
import type { DashboardSource } from './stats/dashboard-route.ts';
import { offerChecksOf } from './stats/dashboard-checks.ts';
import { beaconRouter, funnelDisabledRouter } from './stats/beacon-route.ts';
import type { BeaconDeps } from './stats/beacon-route.ts';

/**
 * GET /metrics, on a listener of its own (METRICS_HOST:METRICS_PORT, local by
 * default): what the proxy counts is for its operator, not for the public.
 */
export function createMetricsApp(registry: Registry): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.type(registry.contentType).send(await registry.metrics());
  });
  app.use((_req, res) => {
    res.status(404).type('text').send('Only GET /metrics is served here.\n');
  });
  return app;
}

/** What the app reads of the catalogue (LiveCatalogue satisfies it). */
export interface AppCatalogue {
  store: CatalogueStore;
  lastSyncedAt(): Date | null;
  isStale(): boolean;
  status(): SyncStatus;
}

export interface ProxyAppDeps {
  config: ProxyConfig;
  logger: Logger;
  registry: Registry;
  catalogue: AppCatalogue;
  /** The applications module (mounted at /api/applications). */
  applications?:
    { router: RequestHandler; ready(): boolean; receipt?: RequestHandler; alerts?: RequestHandler } | undefined;
  /** A folder served at / (the demo job-board page). */
  demoPageDir?: string | undefined;
  /** More demo pages, served before that folder, under the same policy. */
  demoPages?: RequestHandler | undefined;
  /** True while shutting down: /readyz answers 503 so load balancers stop sending requests. */
  draining?: () => boolean;
  /** More checks of /readyz (delivery, database): each one not ready makes the proxy not ready. */
  moreChecks?: () => Record<string, Check & { ready: boolean }>;
  /** Shown in /api/openapi.json. */
  version?: string;
  /** The funnel's counts (and the offer checks) for GET /api/stats and GET /dashboard, served only with DASHBOARD_TOKEN. */
  stats?: Pick<DashboardSource, 'funnel' | 'now'> | undefined;
  /** What POST /api/funnel counts with when FUNNEL is on: the funnel's store, the per-address limit, the clock. */
  beacons?: Pick<BeaconDeps, 'funnel' | 'limiter' | 'now'> | undefined;
}

const DEMO_PAGE_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

const QUIET_PATHS = new Set(['/healthz', '/readyz']);

function readiness(deps: ProxyAppDeps): Readiness {
  const { catalogue, applications } = deps;
  const checks: Record<string, Check> = {};
  const syncedAt = catalogue.lastSyncedAt();
  const sync = catalogue.status();
  checks.catalogue = {
    status: syncedAt === null ? 'never_synced' : catalogue.isStale() ? 'stale' : 'ok',
    last_synced_at: syncedAt?.toISOString() ?? null,
    campaigns: catalogue.store.count(),
    ...(sync.skippedIds.length === 0 ? {} : { skipped_campaigns: sync.skippedIds.length }),
  };
  // The upstream check is what the last catalogue sync learnt: a probe per
  // /readyz would spend the 120 requests a minute that applications need.
  const failed = sync.lastError;
  // A sync that failed in the catalogue's store says nothing of the service: the store is named instead.
  const storeFailed = failed?.name === STORE_FAILURE;
  if (storeFailed) checks.catalogue_store = { status: 'failing', since: failed.at.toISOString(), error: failed.code };
  const error = storeFailed ? null : failed;
  const upstream = upstreamStatus(error);
  // Credentials refused (401, or 403 other than the rate limit) is a
  // configuration mistake the proxy cannot recover from: not ready. An
  // unreachable, rate-limiting or failing upstream is reported but keeps the
  // proxy ready, since the outbox exists precisely to accept applications then.
  const credentialsRefused = upstream === 'credentials_refused';
  checks.upstream = {
    status: (error === null && sync.lastAttemptAt === null) || storeFailed ? 'unknown' : upstream,
    checked_by: 'catalogue_sync',
    checked_at: sync.lastAttemptAt?.toISOString() ?? null,
    affects_readiness: credentialsRefused,
    ...(error === null
      ? {}
      : {
          since: error.at.toISOString(),
          error: error.code,
          ...(error.status === undefined ? {} : { http_status: error.status }),
        }),
  };
  if (applications !== undefined) checks.outbox = { status: applications.ready() ? 'ok' : 'not_open' };
  const draining = deps.draining?.() ?? false;
  if (draining) checks.shutdown = { status: 'draining' };
  let othersReady = true;
  for (const [name, { ready: ok, ...check }] of Object.entries(deps.moreChecks?.() ?? {})) {
    checks[name] = check;
    othersReady &&= ok;
  }
  const ready = syncedAt !== null && !credentialsRefused && (applications?.ready() ?? true) && !draining && othersReady;
  return { ready, checks };
}

/** The upstream's state from the last sync's error (null: it answered). */
function upstreamStatus(error: SyncStatus['lastError']): string {
  if (error === null) return 'ok';
  if (error.name === 'SchemaError') return 'contract_error';
  if (error.status === 401 || (error.status === 403 && error.code !== 'rate_limited')) return 'credentials_refused';
  if (error.status === 403) return 'rate_limited';
  // No answer, a timeout or a 5xx.
  if (error.status === undefined || error.status >= 500) return 'unreachable';
  return 'error';
}

/** body-parser and friends throw http-errors; anything else unknown is ours (500). */
function asProblem(error: unknown): ProblemError | undefined {
  if (error instanceof ProblemError) return error;
  // A search the store stopped at its time budget, whichever route asked for it.
  if (error instanceof SearchOverBudgetError) return searchOverBudgetProblem(error);
  const e = error as { status?: unknown; statusCode?: unknown; type?: unknown; expose?: unknown };
  const status =
    typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  if (status === 413) {
    return new ProblemError(
      'request_too_large',
      'The request body is larger than this endpoint accepts (JSON bodies: at most 16 KB); send a smaller one.',
    );
  }
  return new ProblemError(
    'malformed_request',
    'The request could not be read: check its syntax, encoding and Content-Type.',
  );
}

/** GET /api/stats and GET /dashboard, only with DASHBOARD_TOKEN (404 otherwise), the offers named by the catalogue. */
function mountStats(app: express.Express, deps: ProxyAppDeps): void {
  const token = deps.config.dashboardToken;
  if (token === null || deps.stats === undefined) return;
  const { store } = deps.catalogue;
  mountStatsRoutes(app, token, {
    ...deps.stats,
    titleOf: (id) => store.get(id)?.name ?? null,
    offerChecks: offerChecksOf(store, deps.stats.now, deps.config.boardLang),
    boardLang: deps.config.boardLang,
  });
}

/** POST /api/funnel: the widget's beacons, of the offers the catalogue holds; with FUNNEL=false, 404 funnel_disabled. */
function mountBeacons(app: express.Express, deps: ProxyAppDeps): void {
  if (!deps.config.funnel) app.use('/api/funnel', funnelDisabledRouter());
  else if (deps.beacons !== undefined) {
    const { store } = deps.catalogue;
    const isBroadcast = (id: number) => store.get(id) !== undefined;
    app.use(
      '/api/funnel',
      beaconRouter({ ...deps.beacons, channel: deps.config.channel, registry: deps.registry, isBroadcast }),
    );
  }
}

export function createProxyApp(deps: ProxyAppDeps): express.Express {
  const { config, logger, registry } = deps;
  const app = express();
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  app.disable('x-powered-by');

  // What every request gets, as one router layer: each layer a request
  // passes through costs allocations, a measurable part of a catalogue answer.
  const logRequest = accessLog(app, logger, {
    quietPaths: QUIET_PATHS,
    secretRoutes: [RECEIPT_ROUTE],
    onAnswered: httpMetrics(registry),
  });
  const setSecurityHeaders = recordedHeaders(helmet());
  const { draining } = deps;
  app.use((req, res, next) => {
    logRequest(req, res);
    setSecurityHeaders(res);
    // While shutting down, answers close their connection so clients reconnect to another instance.
    if (draining?.() === true) res.setHeader('Connection', 'close');
    next();
  });

  // Public documentation: any origin may read it (API explorers hosted elsewhere).
  // Built on its first request, not at start: turning the zod schemas into
  // JSON Schema is the largest allocation of a start, for a document few read.
  let document: Promise<Record<string, unknown>> | undefined;
  const openApiDocument = () =>
    (document ??= import('../public-api/openapi.ts').then(
      ({ buildOpenApi }) =>
        buildOpenApi(deps.version ?? '0.0.0', config.fields, takesAnySpontaneous(config.spontaneousApplications)),
      (error: unknown) => {
        // The next request tries again.
        document = undefined;
        throw error;
      },
    ));
  let openapi: Promise<JsonAnswer<unknown>> | undefined;
  app.get('/api/openapi.json', async (req, res) => {
    openapi ??= openApiDocument().then(jsonAnswer);
    const answer = await openapi;
    res.setHeader('Access-Control-Allow-Origin', '*');
    sendCachedJson(req, res, answer, 'public, max-age=300');
  });
  // The same document as a page to read, rendered on its first request.
  app.get('/api/docs', docsPageRoute(openApiDocument));

  // Before the widget's CORS, which must not open the board's own stats to other origins.
  mountStats(app, deps);
  app.use('/api', apiCors([...config.allowedOrigins, ...(config.publicOrigin === null ? [] : [config.publicOrigin])]));
  app.use('/api/config', configRouter(config));
  const reader = createCatalogueReader(deps.catalogue.store, {
    boardOfferUrl: config.boardOfferUrl,
    boardImage: config.boardOgImage,
  });
  app.get('/api/campaigns', searchRateLimit(config.searchRateLimitPerMinute));
  campaignRoutes(app, '/api/campaigns', reader);
  // The applications module reads its own (multipart) bodies: mounted before any body parser.
  if (deps.applications !== undefined) app.use('/api/applications', deps.applications.router);
  if (deps.applications?.receipt !== undefined) app.use(RECEIPT_PATH, deps.applications.receipt);
  // Reads its own (text) bodies, at most 4 KB.
  mountBeacons(app, deps);
  // POST /api/alerts's JSON body: a small limit, an alert is an address and a search.
  app.use('/api', express.json({ limit: '16kb' }));
  if (deps.applications?.alerts !== undefined) app.use('/api/alerts', deps.applications.alerts);

  app.use(healthRouter(() => readiness(deps)));

  app.get('/widget.js', widgetHandler(config.widgetFile));
  app.get(WIDGET_CHUNK_PATH, widgetChunkHandler(config.widgetFile));
  app.get(
    PINNED_WIDGET_PATH,
    widgetHandler(config.widgetFile, {
      cacheControl: WIDGET_CHUNK_CACHE_CONTROL,
      metricsRoute: '/widget-:hash.js',
      pinned: true,
    }),
  );
  app.use(
    '/embed',
    embedRouter(reader, packagePath('dist', 'ssr', 'render.js'), config.publicOrigin, config.boardOfferUrl),
  );
  app.get(
    '/sitemap.xml',
    sitemapHandler(deps.catalogue.store, config.boardOfferUrl, { publicOrigin: config.publicOrigin }),
  );
  app.get(FEED_PATH, offersFeedHandler(deps.catalogue.store, reader, config));

  if (deps.demoPageDir !== undefined) {
    // The demo page has an inline script (the analytics log) and may be
    // opened over plain http on a LAN address: its own, looser policy.
    app.use(
      '/',
      (_req, res, next) => {
        res.setHeader('Content-Security-Policy', DEMO_PAGE_CSP);
        next();
      },
      ...(deps.demoPages === undefined ? [] : [deps.demoPages]),
      express.static(deps.demoPageDir, { index: 'index.html', maxAge: 0 }),
    );
  }

  // A path the proxy serves, asked with a method it does not have: 405 with the
  // methods it has (OPTIONS is Express's: 200 with them). Any other: 404.
  app.use((req, _res, next) => {
    const allow = allowedMethods(app.router, req.path).join(', ');
    if (allow === '')
      throw new ProblemError(
        'not_found',
        'Nothing here: this proxy serves no such path. Its routes are listed in its OpenAPI document, /api/openapi.json.',
      );
    if (req.method === 'OPTIONS') {
      next();
      return;
    }
    throw new ProblemError('method_not_allowed', `This method is not allowed on this path; use ${allow}.`, {
      headers: { Allow: allow },
    });
  });

  // The one place that answers errors: ProblemError as
  // its body; anything unexpected as a bare 500 with no details, logged.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const problem = asProblem(error);
    const answer =
      problem ?? new ProblemError('internal_error', 'Something went wrong on our side. Try again in a moment.');
    if (problem === undefined) {
      // The access log writes it with the request's line, as error.
      (res as ResponseWithError).err = error instanceof Error ? error : new Error(String(error));
    }
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
    res.type('application/problem+json').send(JSON.stringify(answer.toBody()));
  });

  return app;
}
