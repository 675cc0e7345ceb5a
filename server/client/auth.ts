// The bearer token: fetched with POST /jwt on first use, cached, renewed a
// margin before it expires and when the server refuses it. Concurrent callers
// share one renewal, so a burst of requests at start-up costs one POST /jwt.
import { TOKEN_LIFETIME_SECONDS } from '../contract/index.ts';
import type { TokenResponse } from '../contract/index.ts';
import type { Clock } from './budget.ts';

export interface TokenCacheOptions {
  /** Performs POST /jwt. */
  fetchToken: (signal: AbortSignal | undefined) => Promise<TokenResponse>;
  clock: Clock;
  /** Renew this long before `expires_at` (default 5 minutes of the 4-hour lifetime). */
  renewMarginMs?: number;
}

interface Cached {
  token: string;
  expiresAt: number;
}

export class TokenCache {
  readonly #options: TokenCacheOptions;
  readonly #marginMs: number;
  #cached: Cached | undefined;
  #pending: Promise<Cached> | undefined;
  /** Number of POST /jwt calls made; read by tests and metrics. */
  renewals = 0;

  constructor(options: TokenCacheOptions) {
    this.#options = options;
    this.#marginMs = options.renewMarginMs ?? 5 * 60 * 1000;
  }

  /** A token valid for at least the renewal margin. */
  async get(signal?: AbortSignal): Promise<string> {
    const cached = this.#cached;
    if (cached !== undefined && this.#options.clock.now() < cached.expiresAt - this.#marginMs) return cached.token;
    return (await this.#renew(signal)).token;
  }

  /** Forgets `token` after the server refused it; a newer token already fetched by another caller is kept. */
  invalidate(token: string): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  /**
   * When to consider the token expired, on our clock. When `expires_at` is not
   * comfortably in our future (the server's clock disagrees with ours, as a
   * sandbox whose clock was moved does), assume the documented 4-hour lifetime
   * from now rather than renewing on every call; a 401 still triggers renewal.
   */
  #expiryOf(answer: TokenResponse): number {
    const now = this.#options.clock.now();
    const expiresAt = Date.parse(answer.expires_at);
    return expiresAt - now > 2 * this.#marginMs ? expiresAt : now + TOKEN_LIFETIME_SECONDS * 1000;
  }

  #renew(signal: AbortSignal | undefined): Promise<Cached> {
    // One renewal for everybody: the first caller's signal does not cancel it for the others.
    this.#pending ??= (async () => {
      try {
        this.renewals++;
        const answer = await this.#options.fetchToken(undefined);
        const cached = { token: answer.token, expiresAt: this.#expiryOf(answer) };
        this.#cached = cached;
        return cached;
      } finally {
        this.#pending = undefined;
      }
    })();
    return signal === undefined ? this.#pending : raceAbort(this.#pending, signal);
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
