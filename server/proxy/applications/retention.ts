// Personal data kept no longer than needed: a timer that, while the proxy
// runs, erases the personal data of applications dead-lettered or refused
// more than PERSONAL_DATA_RETENTION_DAYS ago, and the candidate's fields of
// webhook events recorded as long ago (sent or not), and drops the rate counters and
// idempotency keys whose time is over. Stopping clears the timer and waits
// for a pass under way.
import type { ApplicationStore } from '../storage/outbox/application-store.ts';
import { DAY_MS } from './spam.ts';

/** What a pass needs of the store. */
export type SweptStore = Pick<ApplicationStore, 'isOpen' | 'eraseExpiredPersonalData' | 'compact' | 'pruneExpired'> & {
  webhooks: Pick<ApplicationStore['webhooks'], 'eraseExpiredCandidates'>;
};

export interface RetentionOptions {
  /** How long a dead or refused application keeps its personal data (ms). */
  retentionMs: number;
  /** Time between two passes (ms). */
  intervalMs: number;
}

/** PERSONAL_DATA_RETENTION_DAYS as the sweeper counts it. */
export function retentionMsOf(days: number): number {
  return days * DAY_MS;
}

/** Hourly: retention is counted in days, and a pass over a quiet outbox costs next to nothing. */
export const DEFAULT_RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface SweepResult {
  /** References whose personal data was erased in this pass. */
  erased: string[];
  /** Webhook events whose candidate's fields were erased in this pass. */
  webhookEvents: number;
  rateCounters: number;
  idempotencyKeys: number;
}

export interface RetentionEvents {
  onSwept?: (result: SweepResult) => void;
  /** A pass that failed (the file busy or full); the next pass tries again. */
  onError?: (error: unknown) => void;
}

export class RetentionSweeper {
  private readonly outbox: SweptStore;
  private running: Promise<void> | undefined;
  private readonly options: RetentionOptions;
  private readonly events: RetentionEvents;
  private timer: NodeJS.Timeout | undefined;

  constructor(outbox: SweptStore, options: RetentionOptions, events: RetentionEvents = {}) {
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

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass; answers what it removed. */
  async sweep(): Promise<SweepResult> {
    const erased = await this.outbox.eraseExpiredPersonalData(this.options.retentionMs);
    const webhookEvents = await this.outbox.webhooks.eraseExpiredCandidates(this.options.retentionMs);
    // The store may still hold earlier copies of the erased pages (SQLite's log).
    if (erased.length > 0 || webhookEvents > 0) await this.outbox.compact();
    return { erased, webhookEvents, ...(await this.outbox.pruneExpired()) };
  }

  private runPass(): void {
    if (!this.outbox.isOpen || this.running !== undefined) return;
    this.running = this.sweep()
      .then(
        (result) => this.events.onSwept?.(result),
        (error: unknown) => this.events.onError?.(error),
      )
      .finally(() => {
        this.running = undefined;
      });
  }
}
