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
//
// Where the tokens are counted is a BudgetLedger: in this process by default
// (MemoryLedger), or shared by several processes spending for one API client
// (the proxy's PostgreSQL ledger). Waiting requests always queue here, in
// this process, by priority; only the head of the queue asks the ledger.

/**
 * The window a budget counts its requests in unless told: the service's
 * minute plus two seconds of slack, since the service counts a request when
 * it arrives, a little after its token was spent (later on a busy event
 * loop, or with the token spent in a shared database).
 */
export const DEFAULT_WINDOW_MS = 62_000;

/** Longest sleep between two looks at the ledger while requests wait. */
const RECHECK_MS = 250;

export type Priority = 'high' | 'low';

export interface Clock {
  /** Milliseconds, like Date.now(). */
  now(): number;
}

/** The size of a budget, as a ledger counts it. */
export interface BudgetLimits {
  /** Requests allowed per window. */
  perMinute: number;
  windowMs: number;
  /** Tokens only high-priority requests may use. */
  reservedForHigh: number;
}

/** A ledger's answer to one request for a token. */
export type LedgerAnswer = { granted: true } | { granted: false; retryInMs: number };

/** Where the spent tokens are counted. */
export interface BudgetLedger {
  /**
   * Spends one token for a request of this priority when the window has one
   * for it, else says how long until asking again is worth it. May answer at
   * once (a value) or later (a promise, rejected when the ledger cannot be reached).
   */
  take(priority: Priority): LedgerAnswer | Promise<LedgerAnswer>;
  /** Holds every taker of this ledger for `ms` (the service answered `rate_limited`). Never throws. */
  pause(ms: number): void;
  /** Tokens a request of this priority could take now, as far as this process knows. */
  available(priority: Priority): number;
}

export interface RequestBudgetOptions {
  /** Requests allowed per window (default 120, the service's limit). */
  perMinute?: number;
  /**
   * Length of the window in ms. Default DEFAULT_WINDOW_MS (62,000): the
   * service's minute plus two seconds of slack.
   */
  windowMs?: number;
  /** Tokens only high-priority requests may use (default 10% of perMinute, at least 1 when perMinute > 1). */
  reservedForHigh?: number;
  clock?: Clock;
  /** Builds the ledger that counts the tokens, given the budget's limits (default: a MemoryLedger, this process alone). */
  ledger?: (limits: BudgetLimits, clock: Clock) => BudgetLedger;
}

/** The default ledger: the tokens this process spent, in its own memory. */
export class MemoryLedger implements BudgetLedger {
  readonly #limits: BudgetLimits;
  readonly #clock: Clock;
  /** Times at which tokens were spent, oldest first. */
  readonly #spent: number[] = [];
  #pausedUntil = 0;

  constructor(limits: BudgetLimits, clock: Clock) {
    this.#limits = limits;
    this.#clock = clock;
  }

  take(priority: Priority): LedgerAnswer {
    const now = this.#clock.now();
    this.#forget(now);
    if (now >= this.#pausedUntil && this.#spent.length < this.#limit(priority)) {
      this.#spent.push(now);
      return { granted: true };
    }
    return { granted: false, retryInMs: Math.max(1, this.#nextTokenAt(priority) - now) };
  }

  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
  }

  available(priority: Priority): number {
    const now = this.#clock.now();
    this.#forget(now);
    if (now < this.#pausedUntil) return 0;
    return Math.max(0, this.#limit(priority) - this.#spent.length);
  }

  #limit(priority: Priority): number {
    return priority === 'high' ? this.#limits.perMinute : this.#limits.perMinute - this.#limits.reservedForHigh;
  }

  #forget(now: number): void {
    const horizon = now - this.#limits.windowMs;
    let expired = 0;
    while (expired < this.#spent.length && this.#spent[expired]! <= horizon) expired++;
    if (expired > 0) this.#spent.splice(0, expired);
  }

  /** When a request of this priority can get its token. */
  #nextTokenAt(priority: Priority): number {
    const limit = this.#limit(priority);
    // The token spent `spent.length - limit` places from the oldest comes back first.
    const freedBy = this.#spent[this.#spent.length - limit];
    const tokenAt = freedBy === undefined ? this.#clock.now() : freedBy + this.#limits.windowMs;
    return Math.max(tokenAt, this.#pausedUntil);
  }
}

interface Waiter {
  priority: Priority;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class RequestBudget implements BudgetLimits {
  readonly perMinute: number;
  readonly windowMs: number;
  readonly reservedForHigh: number;
  readonly #clock: Clock;
  readonly #ledger: BudgetLedger;
  readonly #high: Waiter[] = [];
  readonly #low: Waiter[] = [];
  /** True while the head of the queue waits for the ledger's answer: one question at a time. */
  #asking = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  constructor(options: RequestBudgetOptions = {}) {
    const perMinute = options.perMinute ?? 120;
    if (!Number.isInteger(perMinute) || perMinute < 1)
      throw new RangeError(`budget.perMinute must be a whole number from 1, got ${perMinute}`);
    this.perMinute = perMinute;
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    const reserved = options.reservedForHigh ?? (perMinute > 1 ? Math.max(1, Math.floor(perMinute / 10)) : 0);
    // Low-priority requests must always be able to get at least one token.
    this.reservedForHigh = Math.max(0, Math.min(reserved, perMinute - 1));
    this.#clock = options.clock ?? Date;
    const limits = { perMinute: this.perMinute, windowMs: this.windowMs, reservedForHigh: this.reservedForHigh };
    this.#ledger = options.ledger?.(limits, this.#clock) ?? new MemoryLedger(limits, this.#clock);
  }

  /** Tokens a request of this priority could take right now (for a shared ledger: as of this process's last look). */
  available(priority: Priority = 'high'): number {
    return this.#ledger.available(priority);
  }

  /** Requests waiting for a token. */
  get waiting(): number {
    return this.#high.length + this.#low.length;
  }

  /**
   * Takes one token, waiting for it when none is free. High-priority callers
   * are served first. Rejects with the signal's reason when aborted, and with
   * the ledger's error when the ledger cannot be reached.
   */
  acquire(priority: Priority = 'low', signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
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
   * and said how long to wait, which holds for every caller of this client
   * (and, with a shared ledger, of every process sharing it).
   */
  pauseFor(ms: number): void {
    this.#ledger.pause(ms);
    this.#drain();
  }

  #remove(waiter: Waiter): boolean {
    const queue = waiter.priority === 'high' ? this.#high : this.#low;
    const index = queue.indexOf(waiter);
    if (index === -1) return false;
    queue.splice(index, 1);
    if (waiter.onAbort !== undefined) waiter.signal?.removeEventListener('abort', waiter.onAbort);
    return true;
  }

  #drain(): void {
    while (!this.#asking) {
      const head = this.#high[0] ?? this.#low[0];
      if (head === undefined) return;
      const answer = this.#ledger.take(head.priority);
      if (!(answer instanceof Promise)) {
        if (!this.#settle(head, answer)) return;
        continue;
      }
      this.#asking = true;
      answer.then(
        (result) => {
          this.#asking = false;
          const granted = this.#settle(head, result);
          // Refused, but the head changed meanwhile (a high-priority request arrived, the head gave up): ask for the new head at once.
          if (granted || (this.#high[0] ?? this.#low[0]) !== head) this.#drain();
        },
        (error: unknown) => {
          this.#asking = false;
          if (this.#remove(head)) head.reject(error);
          this.#drain();
        },
      );
    }
  }

  /** Hands a granted token to `head`, or schedules the next question. True when granted. */
  #settle(head: Waiter, answer: LedgerAnswer): boolean {
    if (!answer.granted) {
      this.#wakeAt(this.#clock.now() + answer.retryInMs);
      return false;
    }
    // A waiter aborted while the ledger answered leaves its token unused: never more than the limit, at worst one less.
    if (this.#remove(head)) head.resolve();
    return true;
  }

  #wakeAt(at: number): void {
    if (this.#timer !== undefined && this.#timerAt <= at) return;
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
