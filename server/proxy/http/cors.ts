// CORS on /api: which origins may call the proxy from a browser, and the
// headers that tell the browser so. Written out rather than with the `cors`
// package: the only decision, whether an origin is allowed, is an exact
// comparison with the configured origins, which the proxy made itself
// already; what is left is constant headers, and the package rebuilt them
// (options, header lists, callbacks) for every request of the catalogue.
import type { RequestHandler } from 'express';
import { addVary } from './http-cache.ts';
import { ProblemError } from './problem.ts';

/** What a browser may send and read on /api. */
export const API_CORS = {
  methods: ['GET', 'HEAD', 'POST'],
  allowedHeaders: ['Content-Type', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id'],
  exposedHeaders: ['ETag', 'Idempotent-Replayed', 'Retry-After', 'X-Request-Id'],
  maxAgeSeconds: 600,
} as const;

const EXPOSED = API_CORS.exposedHeaders.join(',');
const PREFLIGHT: readonly [string, string][] = [
  ['Access-Control-Allow-Methods', API_CORS.methods.join(',')],
  ['Access-Control-Allow-Headers', API_CORS.allowedHeaders.join(',')],
  ['Access-Control-Max-Age', String(API_CORS.maxAgeSeconds)],
  ['Access-Control-Expose-Headers', EXPOSED],
];

/**
 * Origins allowed on /api: those of ALLOWED_ORIGINS, and the proxy's own public
 * origin (PUBLIC_ORIGIN: its demo page, or a board serving the widget from the
 * proxy's host). Never the Host header, which whoever sends the request
 * chooses. Requests without Origin (curl, servers) are not browsers'
 * cross-site requests and pass. Any OPTIONS request is answered here as a
 * preflight: 204 with the allowed methods and headers.
 *
 * Another origin gets 403 origin_not_allowed, readable by its page: a refusal
 * the browser hides looks like a network failure to the candidate, and tells
 * the board's developer nothing. Only the refusal is readable. No route runs
 * for that origin: the 403 is answered here, before any handler, so no
 * offer, configuration or application answer ever carries its Allow-Origin.
 * Its preflight is answered like an allowed one, so that the request that
 * follows reaches this refusal rather than failing in the browser; that
 * request is refused here in turn, its body unread.
 */
export function apiCors(allowed: readonly string[]): RequestHandler {
  const origins = new Set(allowed);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin) res.setHeader('Access-Control-Allow-Origin', origin);
    // The answer differs by Origin even for requests without one (no Allow-Origin then).
    addVary(res, 'Origin');
    if (req.method === 'OPTIONS') {
      for (const [name, value] of PREFLIGHT) res.setHeader(name, value);
      // Safari waits for a body on a 204 without Content-Length.
      res.statusCode = 204;
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    if (origin !== undefined && !origins.has(origin)) {
      const shown = origin.slice(0, 200);
      req.log.warn(
        { origin: shown },
        `refused a request from ${shown}, an origin not in ALLOWED_ORIGINS: add it there if it is a page of the board`,
      );
      throw new ProblemError(
        'origin_not_allowed',
        "This proxy does not accept requests from this page's origin (the request's Origin header). Its operator can add the origin to ALLOWED_ORIGINS (or set PUBLIC_ORIGIN when it is the proxy's own).",
      );
    }
    next();
  };
}
