// Spam defences of POST /api/applications: the per-IP limit before the body
// is read (in the counts the storage backend chose: memory, or the shared
// database when several instances run);
// the per-email limit in the application store (it survives a restart, and
// every instance shares it), counted with the application it lets in; and the
// optional captcha check against the provider's verify endpoint.
import { isIPv4 } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { ProblemError } from '../http/problem.ts';
import type { ProxyConfig } from '../config.ts';
import type { ApplicationMetrics } from './metrics.ts';
import { storeUnavailable } from './store-failure.ts';
import type { RateCount, RateCounterStore } from '../storage/outbox/application-store.ts';

/**
 * The address a limit counts by: an IPv4 address as it is (an IPv4-mapped
 * IPv6 one as its IPv4), an IPv6 address by its /64 prefix, since one
 * household or host holds a whole /64.
 */
export function addressGroup(ip: string): string {
  return ipKeyGenerator(ip, 64);
}

/**
 * The network an address belongs to, for the caps one network must not pass:
 * an IPv6 address by its /48 (what one site is given: a /56 alone holds 256
 * /64s), an IPv4 address by its /24 when `byPrefix`, else as itself.
 */
export function networkGroup(ip: string, byPrefix: boolean): string {
  const key = ipKeyGenerator(ip, 48);
  if (!byPrefix || !isIPv4(key)) return key;
  return `${key.slice(0, key.lastIndexOf('.'))}.0/24`;
}

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

export function rateLimited(count: RateCount, now: number, what: string): ProblemError {
  const seconds = Math.max(1, Math.ceil((count.resetAt - now) / 1000));
  return new ProblemError('rate_limited', `Too many applications ${what}; try again in ${seconds} seconds.`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/** A limit whose counter cannot be read fails closed: logged for the operator, answered 503, never let through uncounted. */
function counterUnavailable(error: unknown, which: string, log: Logger): ProblemError {
  log.error(
    { event: 'rate_counter_error', limit: which, error: error instanceof Error ? error.message : String(error) },
    `the ${which} apply limit could not be counted: application refused`,
  );
  return storeUnavailable(error);
}

/**
 * The per-address limit, APPLY_RATE_LIMIT_PER_IP posts an hour, checked
 * before the body is read, so a flood costs no parsing. IPv6 addresses count
 * by /64: one household or host holds a whole /64. Counted in `counts`
 * (Backend.addressCounts: memory for one instance, the database for several).
 * When they cannot count (the database down, its pool exhausted), the post is
 * refused with 503 before its body is read.
 */
export function ipLimit(limit: number, metrics: ApplicationMetrics, log: Logger, counts: Store): RequestHandler {
  const limiter = rateLimit({
    windowMs: HOUR_MS,
    limit,
    standardHeaders: false,
    legacyHeaders: false,
    // A store error is not let through uncounted (passOnStoreError false): it is answered 503 below.
    store: counts,
    passOnStoreError: false,
    keyGenerator: (req) => addressGroup(req.ip ?? req.socket.remoteAddress ?? 'unknown'),
    // addressGroup is ipKeyGenerator by /64; the check reads the key generator's source for that name.
    validate: { keyGeneratorIpFallback: false },
    handler: (req, res, next) => {
      metrics.refused.inc({ code: 'rate_limited' });
      // Answered before the upload was read: close rather than take in the rest.
      res.setHeader('Connection', 'close');
      const resetAt =
        (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime() ?? Date.now() + HOUR_MS;
      next(rateLimited({ count: limit, resetAt }, Date.now(), 'from this network'));
    },
  });
  // The limiter hands a store's error to next(), as it does its own 429 (a ProblemError).
  return (req, res, next) =>
    limiter(req, res, (error?: unknown) => {
      if (error === undefined || error instanceof ProblemError) {
        next(error);
        return;
      }
      metrics.refused.inc({ code: 'not_ready' });
      // Answered before the upload was read: close rather than take in the rest.
      res.setHeader('Connection', 'close');
      next(counterUnavailable(error, 'per-address', log));
    });
}

/**
 * Throws 429 when this email already sent APPLY_RATE_LIMIT_PER_EMAIL
 * applications today (counted when stored); 503 when the count cannot be read.
 */
export async function checkEmail(
  rates: RateCounterStore,
  bucket: string,
  limit: number,
  now: number,
  log: Logger,
): Promise<void> {
  let current: RateCount;
  try {
    current = await rates.peekRate(bucket, DAY_MS);
  } catch (error) {
    throw counterUnavailable(error, 'per-email', log);
  }
  if (current.count >= limit) throw rateLimited(current, now, 'with this email address today');
}

function captchaFailed(detail: string): ProblemError {
  return new ProblemError('captcha_failed', detail);
}

/**
 * Asks the provider (Turnstile and hCaptcha share the siteverify form) whether
 * the token is good. A verifier that cannot be reached fails closed.
 */
export async function verifyCaptcha(
  captcha: NonNullable<ProxyConfig['captcha']>,
  token: string | undefined,
  ip: string,
  timeoutMs = 5_000,
): Promise<void> {
  if (token === undefined || token.length > 4096)
    throw captchaFailed('Complete the anti-robot check and send the form again.');
  let answer: unknown;
  try {
    const response = await fetch(captcha.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        secret: captcha.secret,
        response: token,
        remoteip: ip,
        ...(captcha.provider === 'hcaptcha' ? { sitekey: captcha.siteKey } : {}),
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    answer = response.ok ? await response.json() : undefined;
  } catch {
    answer = undefined;
  }
  if (answer === undefined)
    throw captchaFailed('The anti-robot check could not be verified just now; complete it again and send the form.');
  if (typeof answer !== 'object' || answer === null || (answer as { success?: unknown }).success !== true) {
    throw captchaFailed('The anti-robot check was not passed; complete it again and send the form.');
  }
}
