// Spam defences of POST /api/applications: per-IP and per-email limits kept
// in the outbox's SQLite file (they survive a restart), and the optional
// captcha check against the provider's verify endpoint.
import { ProblemError } from '../problem.ts';
import type { ProxyConfig } from '../config.ts';
import type { Outbox, RateCount } from './outbox.ts';

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

export function rateLimited(count: RateCount, now: number, what: string): ProblemError {
  const seconds = Math.max(1, Math.ceil((count.resetAt - now) / 1000));
  return new ProblemError('rate_limited', `Too many applications ${what}; try again in ${seconds} seconds.`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/** Counts one application attempt from this address; throws 429 past APPLY_RATE_LIMIT_PER_IP per hour. */
export function countIp(outbox: Outbox, ip: string, limit: number, now: number): void {
  const current = outbox.peekRate(`ip:${ip}`, HOUR_MS);
  if (current.count >= limit) throw rateLimited(current, now, 'from this network');
  outbox.hitRate(`ip:${ip}`, HOUR_MS);
}

/** Throws 429 when this email already sent APPLY_RATE_LIMIT_PER_EMAIL applications today (counted when stored). */
export function checkEmail(outbox: Outbox, bucket: string, limit: number, now: number): void {
  const current = outbox.peekRate(bucket, DAY_MS);
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
