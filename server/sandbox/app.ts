// The sandbox as an Express app: createSandboxApp(ctx) apart from listen().
import express from 'express';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { adminRoutes } from './admin.ts';
import type { SandboxContext } from './context.ts';
import { SandboxError } from './errors.ts';
import { readFile } from './files.ts';
import { RouteTable } from './route-table.ts';
import { applicantRoutes } from './routes/applicants.ts';
import { applicationRoutes } from './routes/applications.ts';
import { campaignRoutes } from './routes/campaigns.ts';
import { channelRoutes } from './routes/channels.ts';
import { jwtRoutes } from './routes/jwt.ts';
import { buildRecruitmentApiDocument } from '../contract/openapi.ts';
import { docsPageRoute } from '../openapi/docs-page.ts';
import { packageVersion } from '../package-root.ts';

/** Largest JSON body taken: 20 MB, room for a 10 MiB file in base64 (our decision; the spec is silent). */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

export function createSandboxApp(ctx: SandboxContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Bracket notation (status[value]=x) is parsed by qs.
  app.set('query parser', 'extended');
  if (ctx.log) app.use(requestLog);

  const json = express.json({ limit: MAX_BODY_BYTES });
  const api = express.Router();
  // Every route is registered through the table, which answers which methods a path has.
  const routes = new RouteTable();
  const admin = ctx.admin ? adminRoutes(ctx, routes.router('/_sandbox')) : undefined;
  // Before authentication: a wrong method is answered 405 whatever the token.
  app.use((req, res, next) => {
    const allowed = routes.allowed(req.path);
    if (allowed.size === 0 || allowed.has(req.method)) return next();
    const allow = [...allowed].sort().join(', ');
    if (req.method === 'OPTIONS') {
      res.set('Allow', allow).status(204).end();
      return;
    }
    throw new SandboxError('method_not_allowed', `This method is not allowed on this path; use ${allow}.`, [], {
      Allow: allow,
    });
  });

  api.use(recordCreates(ctx));
  // The body is read before a fault is injected: a faulted create was received whole, and the traffic log knows what it named.
  api.use(requireJsonBody, json);
  api.use(faultInjection(ctx));
  api.use((_req, _res, next) => {
    pauseEndedCampaigns(ctx);
    next();
  });
  api.use(jwtRoutes(ctx, routes.router('/v2')));
  api.use(authenticate(ctx));
  api.use(campaignRoutes(ctx, routes.router('/v2')));
  api.use(channelRoutes(ctx, routes.router('/v2')));
  api.use(applicationRoutes(ctx, routes.router('/v2')));
  api.use(applicantRoutes(ctx, routes.router('/v2')));
  app.use('/v2', api);

  const root = routes.router('');
  // The API's description, outside /v2 and without a token, for generating clients and reading.
  const document = buildRecruitmentApiDocument(packageVersion());
  const openapi = JSON.stringify(document);
  root.get('/openapi.json', (_req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('json').send(openapi);
  });
  root.get(
    '/docs',
    docsPageRoute(() => document),
  );
  // Files are served to whoever holds their unguessable URL, as resume_url promises.
  root.get('/files/:name', (req, res) => {
    const name = /^([0-9a-f]{32})\.([a-z]+)$/.exec(req.params.name);
    const file = name === null ? undefined : readFile(ctx.db, name[1]!);
    if (file === undefined) throw new SandboxError('not_found', 'This file does not exist.');
    // A download, never a page of the sandbox's origin, whatever its bytes say.
    res
      .attachment(`file.${name![2]}`)
      .type(file.mime)
      .set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, max-age=3600' })
      .send(Buffer.from(file.bytes));
  });
  // The link of the legal-terms email: the applicant accepts the terms.
  root.get('/legals/:token', (req, res) => {
    const changed = ctx.db.run(
      'UPDATE applicants SET is_legals_accepted_by_manager = 1, legals_token = NULL, updated_at = ? WHERE legals_token = ?',
      ctx.clock.iso(),
      String(req.params.token),
    ).changes;
    res
      .status(changed === 1 ? 200 : 404)
      .type('html')
      .send(
        changed === 1
          ? '<!doctype html><title>Terms accepted</title><p>Thank you: the terms are accepted.</p>'
          : '<!doctype html><title>Not found</title><p>This link is not valid (any more).</p>',
      );
  });
  app.use(root.express);

  if (admin !== undefined) app.use('/_sandbox', adminRequestsOnly(ctx), requireJsonBody, json, admin);

  app.use(() => {
    throw new SandboxError(
      'not_found',
      `No route for this method and path. The API lives under /v2${ctx.admin ? ', the admin surface under /_sandbox' : ''}.`,
    );
  });
  app.use(errorHandler(ctx));
  return app;
}

function requestLog(req: Request, res: Response, next: NextFunction): void {
  const start = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    console.log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)} ms`);
  });
  next();
}

/**
 * The admin surface changes everything a sandbox holds, so a web page must not
 * reach it: a change is taken only as JSON (which a page on another site cannot
 * send without a CORS preflight the sandbox never grants, unlike a form or a
 * text/plain fetch, even with no body), a browser request from another
 * origin is refused outright, and so is a request addressed to another host
 * name (a page whose own name was pointed at the sandbox's address is of its
 * own origin to the browser: only the Host header tells).
 */
function adminRequestsOnly(ctx: SandboxContext): RequestHandler {
  return (req, _res, next) => {
    const host = req.headers.host;
    if (!ctx.tokens.isOwnHost(host, req.socket)) {
      const own = `127.0.0.1:${req.socket.localPort ?? 'PORT'}`;
      throw new SandboxError(
        'host_refused',
        `The admin surface answers only requests addressed to the sandbox itself (Host ${own}, localhost or the address it listens on, with its port), not ${host === undefined ? 'a request without Host' : 'this Host header'}: a web page on another name that resolves here must not reach it. Call http://${own}/_sandbox/... from a test, a script or curl.`,
      );
    }
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if ((origin !== undefined && !ctx.tokens.isOwnOrigin(origin)) || site === 'cross-site' || site === 'same-site') {
      throw new SandboxError(
        'origin_refused',
        'The admin surface takes no requests from web pages of other origins; call it from a test, a script or curl.',
      );
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method) && type !== 'application/json') {
      throw new SandboxError(
        'unsupported_media_type',
        'This request changes the sandbox: send it with "Content-Type: application/json" (and {} when there is nothing to say).',
      );
    }
    next();
  };
}

/** A body that is not JSON is refused with 415 rather than silently ignored. */
const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !req.is('application/json')) {
    throw new SandboxError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
  }
  next();
};

function faultInjection(ctx: SandboxContext): RequestHandler {
  return async (req, res, next) => {
    const fault = ctx.faults.take();
    if (fault === undefined) return next();
    // A sandbox closed during the wait ends the request there: its connection is gone, its database closed.
    const waited = fault.delay_ms === undefined || fault.delay_ms <= 0 || (await ctx.faults.delay(fault.delay_ms));
    if (!waited || fault.drop === true) {
      req.socket.destroy();
      return;
    }
    const status = fault.status ?? (fault.delay_ms !== undefined ? undefined : 503);
    if (status === undefined) return next();
    res.status(status).json({
      error: {
        code: status === 503 ? 'service_unavailable' : status >= 500 ? 'server_error' : 'invalid_request',
        message: `Fault injected by the sandbox (POST /_sandbox/faults): answering ${status}.`,
        details: [],
      },
    });
  };
}

/** Rule (API rules: States): when the date in date_end is reached, the campaign is paused (online → standby). */
function pauseEndedCampaigns(ctx: SandboxContext): void {
  const today = ctx.clock.today();
  ctx.db.run(
    "UPDATE campaigns SET status = 'standby', updated_at = ? WHERE status = 'online' AND date_end IS NOT NULL AND date_end <= ?",
    ctx.clock.iso(),
    today,
  );
}

function authenticate(ctx: SandboxContext): RequestHandler {
  return async (req, res, next) => {
    const client = await ctx.tokens.verify(req.headers.authorization);
    res.locals.client = client;
    try {
      ctx.rateLimiter.hit(client.id);
    } catch (error) {
      ctx.traffic.request(client.id, true);
      throw error;
    }
    ctx.traffic.request(client.id, false);
    next();
  };
}

/**
 * Records each create request as it arrives, with its answer (0 when the
 * connection closed without one) and the applications it created.
 */
function recordCreates(ctx: SandboxContext): RequestHandler {
  return (req, res, next) => {
    if (!ctx.traffic.isCreate(req.method, req.path)) return next();
    const record = ctx.traffic.begin({ at: ctx.clock.iso(), method: req.method, path: req.path }, next);
    // An answer is finished (or its connection closed) asynchronously, so after this line even for a synchronous handler.
    const finish = (status: number) =>
      record.finish(status, (res.locals.client as { id: number } | undefined)?.id ?? null, req.body);
    res.once('finish', () => finish(res.statusCode));
    res.once('close', () => {
      if (!res.writableFinished) finish(0);
    });
  };
}

function errorHandler(ctx: SandboxContext): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) return;
    // The sandbox was closed while this request was on its way: its connection is gone and its database closed,
    // so the error is that closing, not a bug to report.
    if (!ctx.db.raw.isOpen) {
      req.socket.destroy();
      return;
    }
    const apiError = toSandboxError(error);
    if (apiError.status >= 500) console.error('sandbox error', error);
    res
      .status(apiError.status)
      .set(apiError.headers)
      .json({
        error: { code: apiError.code, message: apiError.message, details: apiError.details },
      });
  };
}

function toSandboxError(error: unknown): SandboxError {
  if (error instanceof SandboxError) return error;
  const e = error as { type?: string; status?: number; statusCode?: number; message?: string };
  switch (e.type) {
    case 'entity.parse.failed':
      return new SandboxError('malformed_json', 'The body is not valid JSON: send one JSON object.');
    case 'entity.too.large':
      return new SandboxError(
        'payload_too_large',
        `The body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB; send files of at most 10 MiB.`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new SandboxError(
        'unsupported_media_type',
        "The body's charset or Content-Encoding is not supported; send UTF-8 JSON, uncompressed.",
      );
    default:
      break;
  }
  const status = e.status ?? e.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return new SandboxError('invalid_request', e.message ?? 'Invalid request.');
  }
  return new SandboxError('server_error', 'The sandbox failed; this is a bug, please report it.');
}
