// Spam defences of POST /api/applications: the per-IP limit before the body
// is read (in memory, or in the shared database when several instances run);
// the per-email limit in the application store (it survives a restart, and
// every instance shares it), counted with the application it lets in; and the
// optional captcha check against the provider's verify endpoint.
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Store } from 'express-rate-limit';
import { ProblemError } from '../problem.ts';
import type { ProxyConfig } from '../config.ts';
import type { ApplicationMetrics } from './metrics.ts';
import type { RateCount, RateCounterStore } from '../storage/application-store.ts';

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

export function rateLimited(count: RateCount, now: number, what: string): ProblemError {
  const seconds = Math.max(1, Math.ceil((count.resetAt - now) / 1000));
  return new ProblemError('rate_limited', `Too many applications ${what}; try again in ${seconds} seconds.`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * The per-address limit, APPLY_RATE_LIMIT_PER_IP posts an hour, checked
 * before the body is read, so a flood costs no parsing. IPv6 addresses count
 * by /64: one household or host holds a whole /64. Counted in memory (no disk
 * write) for one instance; with `shared` (PostgreSQL), in the database, so
 * instances behind a balancer count the same posts (one small write each).
 */
export function ipLimit(limit: number, metrics: ApplicationMetrics, shared?: () => Promise<RateCounterStore>): RequestHandler {
  return rateLimit({
    windowMs: HOUR_MS,
    limit,
    standardHeaders: false,
    legacyHeaders: false,
    // A database that cannot answer lets the post through: the application itself then waits for it or answers 503.
    ...(shared === undefined ? {} : { store: sharedAddressCounts(shared), passOnStoreError: true }),
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown', 64),
    handler: (req, res, next) => {
      metrics.refused.inc({ code: 'rate_limited' });
      // Answered before the upload was read: close rather than take in the rest.
      res.setHeader('Connection', 'close');
      const resetAt = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime() ?? Date.now() + HOUR_MS;
      next(rateLimited({ count: limit, resetAt }, Date.now(), 'from this network'));
    },
  });
}

/** Per-address counts in the shared rate counters (hourly windows, pruned with the others). */
function sharedAddressCounts(rates: () => Promise<RateCounterStore>): Store {
  return {
    localKeys: false,
    prefix: 'ip:',
    async increment(key) {
      const count = await (await rates()).hitRate(`ip:${key}`, HOUR_MS);
      return { totalHits: count.count, resetTime: new Date(count.resetAt) };
    },
    // Only called with skipFailedRequests or skipSuccessfulRequests, which this limit does not set.
    decrement() {},
    resetKey() {},
  };
}

/** Throws 429 when this email already sent APPLY_RATE_LIMIT_PER_EMAIL applications today (counted when stored). */
export async function checkEmail(rates: RateCounterStore, bucket: string, limit: number, now: number): Promise<void> {
  const current = await rates.peekRate(bucket, DAY_MS);
  if (current.count >= limit) throw rateLimited(current, now, 'with this email address today');
}

function captchaFailed(detail: string): ProblemError {
  return new ProblemError('captcha_failed', detail);
}

/**
 * Asks the provider (Turnstile and hCaptcha share the siteverify form) whether
 * the token is good. A verifier that cannot be reached fails closed.
 */
export async function verifyCaptcha(captcha: NonNullable<ProxyConfig['captcha']>, token: string | undefined, ip: string, timeoutMs = 5_000): Promise<void> {
  if (token === undefined || token.length > 4096) throw captchaFailed('Complete the anti-robot check and send the form again.');
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
  if (answer === undefined) throw captchaFailed('The anti-robot check could not be verified just now; complete it again and send the form.');
  if (typeof answer !== 'object' || answer === null || (answer as { success?: unknown }).success !== true) {
    throw captchaFailed('The anti-robot check was not passed; complete it again and send the form.');
  }
}
