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
 * cross-site requests and pass. Another origin gets 403 origin_not_allowed,
 * preflight included, with no CORS header. Any OPTIONS request is answered
 * here as a preflight: 204 with the allowed methods and headers.
 */
export function apiCors(allowed: readonly string[]): RequestHandler {
  const origins = new Set(allowed);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
      throw new ProblemError('origin_not_allowed', `This proxy does not accept requests from ${origin.slice(0, 200)}. Its operator can add the origin to ALLOWED_ORIGINS (or set PUBLIC_ORIGIN when it is the proxy's own).`);
    }
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
    next();
  };
}
