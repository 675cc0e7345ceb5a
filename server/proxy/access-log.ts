// The request id and the access log: one line per request with the method,
// the path (no query string: it may hold a search for a person's name), the
// status, the duration and the request id; no headers, address or body.
// Written by hand rather than with pino-http, which made a child logger and
// ran its serialisers for every request: here a request's child logger
// (`req.log`) is made only when a module logs through it. Lines go through
// the proxy's logger, whose destination writes asynchronously (logger.ts).
import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
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

export function accessLog(logger: Logger, quietPaths: ReadonlySet<string>): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { get: () => (child ??= logger.child({ req: { id } })), configurable: true });
    const start = performance.now();
    res.once('finish', () => {
      const path = pathOnly(req.originalUrl);
      if (quietPaths.has(path)) return;
      const err = (res as ResponseWithError).err;
      const line = {
        req: { id, method: req.method, path },
        res: { status: res.statusCode },
        responseTime: Math.round(performance.now() - start),
        ...(err === undefined ? {} : { err }),
      };
      if (err !== undefined || res.statusCode >= 500) logger.error(line, 'request errored');
      else logger.info(line, 'request completed');
    });
    next();
  };
}
