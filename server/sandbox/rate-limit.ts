// 120 requests per minute per API client (service-facts.md), answered 403
// rate_limited beyond, with Retry-After in seconds. A sliding window over the
// last 60 s of real time (not the sandbox clock, so a moved clock neither
// blocks nor frees a client). Refused requests do not count.
import { ApiError } from './errors.ts';

const WINDOW_MS = 60_000;

export class RateLimiter {
  readonly #limit: number;
  readonly #hits = new Map<number, number[]>();

  /** limit 0 turns the limit off (benchmarks). */
  constructor(limitPerMinute: number) {
    this.#limit = limitPerMinute;
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
    while (hits.length > 0 && hits[0]! <= nowMs - WINDOW_MS) hits.shift();
    if (hits.length >= this.#limit) {
      const retryAfter = Math.max(1, Math.ceil((hits[0]! + WINDOW_MS - nowMs) / 1000));
      throw new ApiError(
        'rate_limited',
        `Rate limit of ${this.#limit} requests per minute exceeded; retry after ${retryAfter} s.`,
        [],
        { 'Retry-After': String(retryAfter) },
      );
    }
    hits.push(nowMs);
  }
}
