// Personal data kept no longer than needed: a timer that, while the proxy
// runs, erases the personal data of applications dead-lettered or refused
// more than PERSONAL_DATA_RETENTION_DAYS ago, and drops the rate counters and
// idempotency keys whose time is over. Each pass is one short synchronous
// SQLite transaction, so stopping only clears the timer.
import type { Outbox } from './outbox.ts';

export interface RetentionOptions {
  /** How long a dead or refused application keeps its personal data (ms). */
  retentionMs: number;
  /** Time between two passes (ms). */
  intervalMs: number;
}

/** Hourly: retention is counted in days, and a pass over a quiet outbox costs next to nothing. */
export const DEFAULT_RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface SweepResult {
  /** References whose personal data was erased in this pass. */
  erased: string[];
  rateCounters: number;
  idempotencyKeys: number;
}

export interface RetentionEvents {
  onSwept?: (result: SweepResult) => void;
  /** A pass that failed (the file busy or full); the next pass tries again. */
  onError?: (error: unknown) => void;
}

export class RetentionSweeper {
  private readonly outbox: Outbox;
  private readonly options: RetentionOptions;
  private readonly events: RetentionEvents;
  private timer: NodeJS.Timeout | undefined;

  constructor(outbox: Outbox, options: RetentionOptions, events: RetentionEvents = {}) {
    this.outbox = outbox;
    this.options = options;
    this.events = events;
  }

  /** Runs a pass now (a proxy stopped for a while may be late), then every intervalMs. */
  start(): void {
    if (this.timer !== undefined) return;
    this.runPass();
    this.timer = setInterval(() => this.runPass(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pass; answers what it removed. */
  sweep(): SweepResult {
    const erased = this.outbox.eraseExpiredPersonalData(this.options.retentionMs);
    // The log may still hold earlier copies of the erased pages.
    if (erased.length > 0) this.outbox.checkpoint();
    return { erased, ...this.outbox.pruneExpired() };
  }

  private runPass(): void {
    if (!this.outbox.isOpen) return;
    try {
      this.events.onSwept?.(this.sweep());
    } catch (error) {
      this.events.onError?.(error);
    }
  }
}
