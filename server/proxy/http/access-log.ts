// The request id and the access log: one line per request with the method,
// the path (no query string: it may hold a search for a person's name; a
// secret in the path, such as a receipt's token, written as its route's
// parameter), the status, the duration and the request id; no headers,
// address or body.
// Written by hand rather than with pino-http, which made a child logger and
// ran its serialisers for every request: here a request's child logger
// (`req.log`) is made only when a module logs through it. Lines go through
// the proxy's logger, which writes once per turn of the event loop
// (log-destination.ts).
import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import type { Logger } from 'pino';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id: the caller's X-Request-Id when well formed, else a new UUID. */
    id: string;
    /** A logger whose lines carry this request's id. */
    log: Logger;
  }
}

/** An error the app's error handler met, logged with the request's line. */
export type ResponseWithError = Response & { err?: Error };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function pathOnly(url: string | undefined): string {
  const path = url ?? '';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/** A path segment as a router compares it: percent-decoded, in lower case. */
function plainSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/**
 * Where a route's segments (literals, and `:name` parameters that match any
 * segment) appear in a path's non-empty segments; -1 when they do not.
 */
function indexOfRoute(segments: readonly string[], route: readonly string[]): number {
  for (let start = 0; start + route.length <= segments.length; start += 1) {
    if (route.every((part, i) => part.startsWith(':') || plainSegment(segments[start + i]!) === part)) return start;
  }
  return -1;
}

/**
 * What the access log writes for a path, given the routes whose parameters
 * are secrets (`/applications/receipt/:token`): where a path holds such a
 * route, wherever it starts (under the path a partner mounted the proxy at)
 * and however it is spelt (case, percent-escapes, doubled slashes), each
 * secret segment is written as its parameter's name.
 */
export function pathWithoutSecrets(secretRoutes: readonly string[]): (path: string) => string {
  const routes = secretRoutes.map((pattern) =>
    pattern
      .split('/')
      .filter((part) => part !== '')
      .map((part) => (part.startsWith(':') ? part : part.toLowerCase())),
  );
  // A path that cannot hold one (most): no split. A percent-escape may spell a literal, so it is looked at.
  const literals = routes.map((route) => route.find((part) => !part.startsWith(':')) ?? '');
  return (path) => {
    const lower = path.toLowerCase();
    if (!path.includes('%') && !literals.some((literal) => lower.includes(literal))) return path;
    const parts = path.split('/');
    // The positions of the non-empty segments in `parts`, and those segments.
    const positions = parts.flatMap((part, i) => (part === '' ? [] : [i]));
    const segments = positions.map((i) => parts[i]!);
    let redacted = false;
    for (const route of routes) {
      const start = indexOfRoute(segments, route);
      if (start === -1) continue;
      route.forEach((part, i) => {
        if (part.startsWith(':')) parts[positions[start + i]!] = part;
      });
      redacted = true;
    }
    return redacted ? parts.join('/') : path;
  };
}

const CHILD = Symbol('request logger');

export interface AccessLogOptions {
  /** Paths answered without a line (health probes). */
  quietPaths: ReadonlySet<string>;
  /** Routes whose parameters are secrets (a receipt's token): their lines show the parameter's name instead. */
  secretRoutes?: readonly string[];
  /** Called for every answer, quiet paths included, with its duration: the HTTP metrics. */
  onAnswered?: (req: Request, res: Response, seconds: number) => void;
}

/**
 * Gives `app`'s requests their id, `req.log` and a line in the access log,
 * once answered. A step of the app's first middleware, not a middleware of
 * its own: every router layer a request passes through costs allocations.
 */
export function accessLog(
  app: Express,
  logger: Logger,
  { quietPaths, onAnswered, secretRoutes = [] }: AccessLogOptions,
): (req: Request, res: Response) => void {
  const withoutSecrets = pathWithoutSecrets(secretRoutes);
  // req.log is a getter on the app's request prototype, defined once: defining
  // it on each request turned every request object into a slow dictionary
  // object, and that garbage was a tenth of a catalogue answer's cost.
  Object.defineProperty(app.request, 'log', {
    get(this: Express['request'] & { [CHILD]?: Logger }) {
      return (this[CHILD] ??= logger.child({ req: { id: this.id } }));
    },
    configurable: true,
  });
  // A completed request's line holds only the fields written below, none of
  // them personal data or a secret: it skips the redaction every other line
  // goes through, which was nearly half of its cost. Errored requests' lines
  // carry the error, and keep it.
  const completed = logger.child({}, { redact: [], formatters: { log: (line: object) => line } });
  return (req, res) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    const start = performance.now();
    // One listener for the line and the metrics: each listener more is one more allocation per answer.
    res.on('finish', () => {
      const elapsed = performance.now() - start;
      onAnswered?.(req, res, elapsed / 1000);
      const err = (res as ResponseWithError).err;
      const status = res.statusCode;
      const completedLine = err === undefined && status < 500;
      // Below the logger's level (LOG_LEVEL=warn), a completed request's line is not even built.
      if (completedLine && !completed.isLevelEnabled('info')) return;
      const raw = pathOnly(req.originalUrl);
      if (quietPaths.has(raw)) return;
      const path = withoutSecrets(raw);
      const responseTime = Math.round(elapsed);
      if (completedLine) {
        completed.info({ req: { id, method: req.method, path }, res: { status }, responseTime }, 'request completed');
      } else {
        logger.error(
          {
            req: { id, method: req.method, path },
            res: { status },
            responseTime,
            ...(err === undefined ? {} : { err }),
          },
          'request errored',
        );
      }
    });
  };
}
