// 120 requests per minute per API client (API rules: Rate limit), answered 403
// rate_limited beyond, with Retry-After in seconds. A sliding window over the
// last 60 s of real time (not the sandbox clock, so a moved clock neither
// blocks nor frees a client). Refused requests do not count. Tests may shorten
// the window (rateLimitWindowMs) so that waiting it out takes little time.
import { SandboxError } from './errors.ts';

export const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #hits = new Map<number, number[]>();

  /** limit 0 turns the limit off (benchmarks); windowMs is the length of the sliding window (default 60 s). */
  constructor(limit: number, windowMs = DEFAULT_RATE_LIMIT_WINDOW_MS) {
    if (!Number.isInteger(windowMs) || windowMs < 1)
      throw new RangeError(`The rate-limit window must be a whole number of milliseconds >= 1 (got ${windowMs}).`);
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  clear(): void {
    this.#hits.clear();
  }

  /** Counts one request of the client, or throws 403 rate_limited. */
  hit(clientId: number, nowMs = Date.now()): void {
    if (this.#limit <= 0) return;
    let hits = this.#hits.get(clientId);
    if (hits === undefined) {
      hits = [];
      this.#hits.set(clientId, hits);
    }
    while (hits.length > 0 && hits[0]! <= nowMs - this.#windowMs) hits.shift();
    if (hits.length >= this.#limit) {
      const retryAfter = Math.max(1, Math.ceil((hits[0]! + this.#windowMs - nowMs) / 1000));
      throw new SandboxError(
        'rate_limited',
        `Rate limit of ${this.#limit} requests ${this.#windowMs === DEFAULT_RATE_LIMIT_WINDOW_MS ? 'per minute' : `per ${this.#windowMs} ms`} exceeded; retry after ${retryAfter} s.`,
        [],
        { 'Retry-After': String(retryAfter) },
      );
    }
    hits.push(nowMs);
  }
}
