// The per-address limit of GET /api/campaigns searches (SEARCH_RATE_LIMIT_PER_MINUTE).
// A search with words costs the process work that no cache spares when its
// words or page change; the limit keeps one address from asking for more
// than a visitor could type. Counted in memory, per instance: a search costs
// the instance that answers it. The list without words is not counted.
import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { addressGroup } from '../../applications/spam.ts';
import { ProblemError } from '../../http/problem.ts';

const MINUTE_MS = 60_000;

/** A request that searches with words: a q with something besides spaces. */
const searches = (req: Request): boolean => typeof req.query.q === 'string' && req.query.q.trim() !== '';

/** 429 rate_limited with Retry-After, the seconds until this address's minute ends. */
function tooManySearches(req: Request): ProblemError {
  const resetAt =
    (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime() ?? Date.now() + MINUTE_MS;
  const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  return new ProblemError('rate_limited', `Too many searches from this network; search again in ${seconds} seconds.`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * At most `limit` searches a minute from one address (an IPv6 address
 * counts by its /64, as the apply limit does; behind a reverse proxy, the
 * address TRUST_PROXY tells), past it 429 rate_limited with Retry-After.
 */
export function searchRateLimit(limit: number): RequestHandler {
  return rateLimit({
    windowMs: MINUTE_MS,
    limit,
    standardHeaders: false,
    legacyHeaders: false,
    skip: (req) => !searches(req),
    keyGenerator: (req) => addressGroup(req.ip ?? req.socket.remoteAddress ?? 'unknown'),
    // addressGroup is ipKeyGenerator by /64; the check reads the key generator's source for that name.
    validate: { keyGeneratorIpFallback: false },
    handler: (req, _res, next) => next(tooManySearches(req)),
  });
}
