// The request budget shared by every call of one client. The service allows
// 120 requests per minute per API client and answers 403 beyond, so the
// client spends from a bucket of `perMinute` tokens in which each spent token
// comes back one window after it was spent (a sliding window: never more than
// `perMinute` requests in any window, unlike a refill-rate bucket whose burst
// plus refill can exceed the limit within one minute).
//
// Priorities: waiting high-priority requests are served before any low one,
// and `reservedForHigh` tokens are kept out of reach of low-priority requests,
// so a background catalogue sync that drains its share never makes a
// candidate's application wait for a whole window.

/** Longest sleep between two looks at the clock while requests wait. */
const RECHECK_MS = 250;

export type Priority = 'high' | 'low';

export interface Clock {
  /** Milliseconds, like Date.now(). */
  now(): number;
}

export interface RequestBudgetOptions {
  /** Requests allowed per window (default 120, the service's limit). */
  perMinute?: number;
  /**
   * Length of the window in ms. Default 61,000: the service's minute plus a
   * second of slack, since the server counts a request when it arrives, a
   * little after the client spent its token.
   */
  windowMs?: number;
  /** Tokens only high-priority requests may use (default 10% of perMinute, at least 1 when perMinute > 1). */
  reservedForHigh?: number;
  clock?: Clock;
}

interface Waiter {
  priority: Priority;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class RequestBudget {
  readonly perMinute: number;
  readonly windowMs: number;
  readonly reservedForHigh: number;
  readonly #clock: Clock;
  /** Times at which tokens were spent, oldest first. */
  readonly #spent: number[] = [];
  readonly #high: Waiter[] = [];
  readonly #low: Waiter[] = [];
  #pausedUntil = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  constructor(options: RequestBudgetOptions = {}) {
    const perMinute = options.perMinute ?? 120;
    if (!Number.isInteger(perMinute) || perMinute < 1) throw new RangeError(`budget.perMinute must be a whole number from 1, got ${perMinute}`);
    this.perMinute = perMinute;
    this.windowMs = options.windowMs ?? 61_000;
    const reserved = options.reservedForHigh ?? (perMinute > 1 ? Math.max(1, Math.floor(perMinute / 10)) : 0);
    // Low-priority requests must always be able to get at least one token.
    this.reservedForHigh = Math.max(0, Math.min(reserved, perMinute - 1));
    this.#clock = options.clock ?? Date;
  }

  /** Tokens a request of this priority could take right now. */
  available(priority: Priority = 'high'): number {
    const now = this.#clock.now();
    this.#forget(now);
    if (now < this.#pausedUntil) return 0;
    return Math.max(0, this.#limit(priority) - this.#spent.length);
  }

  /** Requests waiting for a token. */
  get waiting(): number {
    return this.#high.length + this.#low.length;
  }

  /**
   * Takes one token, waiting for it when none is free. High-priority callers
   * are served first. Rejects with the signal's reason when aborted.
   */
  acquire(priority: Priority = 'low', signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Fast path: nobody ahead in the queue and a token free.
    if (this.#high.length === 0 && (priority === 'high' || this.#low.length === 0) && this.#tryTake(priority)) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { priority, resolve, reject, signal, onAbort: undefined };
      if (signal !== undefined) {
        waiter.onAbort = () => {
          this.#remove(waiter);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      (priority === 'high' ? this.#high : this.#low).push(waiter);
      this.#drain();
    });
  }

  /**
   * Stops handing out tokens for `ms`: the server answered `rate_limited`
   * and said how long to wait, which holds for every caller of this client.
   */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
    this.#drain();
  }

  #limit(priority: Priority): number {
    return priority === 'high' ? this.perMinute : this.perMinute - this.reservedForHigh;
  }

  #forget(now: number): void {
    const horizon = now - this.windowMs;
    let expired = 0;
    while (expired < this.#spent.length && this.#spent[expired]! <= horizon) expired++;
    if (expired > 0) this.#spent.splice(0, expired);
  }

  #tryTake(priority: Priority): boolean {
    const now = this.#clock.now();
    if (now < this.#pausedUntil) return false;
    this.#forget(now);
    if (this.#spent.length >= this.#limit(priority)) return false;
    this.#spent.push(now);
    return true;
  }

  #remove(waiter: Waiter): void {
    const queue = waiter.priority === 'high' ? this.#high : this.#low;
    const index = queue.indexOf(waiter);
    if (index !== -1) queue.splice(index, 1);
  }

  #drain(): void {
    for (;;) {
      const next = this.#high[0] ?? this.#low[0];
      if (next === undefined) return;
      if (!this.#tryTake(next.priority)) break;
      this.#remove(next);
      if (next.onAbort !== undefined) next.signal?.removeEventListener('abort', next.onAbort);
      next.resolve();
    }
    this.#wakeAt(this.#nextTokenAt());
  }

  /** When the request at the head of the queue can get its token. */
  #nextTokenAt(): number {
    const head = this.#high[0] ?? this.#low[0];
    if (head === undefined) return Infinity;
    const limit = this.#limit(head.priority);
    // The token spent `spent.length - limit` places from the oldest comes back first.
    const freedBy = this.#spent[this.#spent.length - limit];
    const tokenAt = freedBy === undefined ? this.#clock.now() : freedBy + this.windowMs;
    return Math.max(tokenAt, this.#pausedUntil);
  }

  #wakeAt(at: number): void {
    if (at === Infinity || (this.#timer !== undefined && this.#timerAt <= at)) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Infinity;
        this.#drain();
      },
      // Capped so that a clock moved by hand (tests, a shifted clock) is noticed soon.
      Math.min(RECHECK_MS, Math.max(1, at - this.#clock.now())),
    );
  }
}
