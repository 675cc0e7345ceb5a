// The status after delivery: a background job that reads, for each
// application this proxy delivered in the last STATUS_SYNC_DAYS, the status
// the company set (GET /applications/:id, scope applications_read), stores
// it on the row, and tells onStatusChanged when it changed.
//
// One GET per application: the API cannot filter applications by ids or by
// update time (its status[date] filter needs a status value, and the list of
// status values is not published), so a listing would read every
// application of the board to find a few.
//
// What it may spend: each application at most once per period
// (STATUS_SYNC_INTERVAL_MINUTES, 6 hours by default; claimed in the store, so
// with several instances one of them checks it);
// at most STATUS_SYNC_SHARE of the request budget, through a budget of its
// own (shared by the instances on PostgreSQL) on top of the client's, where
// its requests are 'low' priority: candidates' applications go first.
//
// Keys without applications_read (403 missing_scope): one log line, the gauge
// status_sync_enabled at 0, and the job stops until a restart; everything
// else works. The first status read of an application is its starting point,
// not a change: onStatusChanged is told of changes after it.
import { DEFAULT_WINDOW_MS, NotFoundError, PermissionError } from '../../client/index.ts';
import type { RecruitmentClient, RequestBudget } from '../../client/index.ts';
import type { StatusCheck, StatusStore } from '../storage/outbox/application-store.ts';
import type { WebhookEventStore } from '../storage/webhooks/webhook-store.ts';
import type { BudgetShare } from '../storage/backend.ts';
import { DAY_MS } from './spam.ts';

/** The part of the request budget the status sync may spend: 10% (12 of the service's 120 a minute). */
export const STATUS_SYNC_SHARE = 0.1;

/** What onStatusChanged is told. */
export interface StatusChange {
  /** The application's reference, as its apply answer gave it. */
  reference: string;
  /** The status read before (never null: the first read is no change). */
  previous: string;
  status: string;
  checkedAt: Date;
}

export type OnStatusChanged = (change: StatusChange) => void | Promise<void>;

export interface StatusSyncOptions {
  /** STATUS_SYNC_DAYS: how long after delivery an application is followed (0: never). */
  days: number;
  /** The least time between two checks of one application (STATUS_SYNC_INTERVAL_MINUTES; 0: every application now). */
  periodMs: number;
  /** Time between two passes; a pass checks every application due, within the budget. */
  intervalMs: number;
}

export const DEFAULT_STATUS_SYNC: Pick<StatusSyncOptions, 'intervalMs'> = { intervalMs: 60_000 };

/**
 * A check due within this much is made now: the passes' timer may fire a
 * millisecond before a whole period since the last check (Date.now and the
 * timers' clock differ), and a 1-minute period would then wait a pass more.
 */
export const PERIOD_SLACK_MS = 1_000;

/** The requests a budget of `perMinute` leaves the status sync, at least one. */
export function statusSyncPerMinute(perMinute: number): number {
  return Math.max(1, Math.floor(perMinute * STATUS_SYNC_SHARE));
}

/** The status sync's own budget, STATUS_SYNC_SHARE of the client's (named, so the instances on PostgreSQL share it). */
export function statusSyncShare(upstream: Pick<RequestBudget, 'perMinute' | 'windowMs'> | undefined): BudgetShare {
  return {
    name: 'status_sync',
    perMinute: statusSyncPerMinute(upstream?.perMinute ?? 120),
    windowMs: upstream?.windowMs ?? DEFAULT_WINDOW_MS,
  };
}

/** What a change leaves for the board: application.status_changed, when WEBHOOK_URL is set; answers whether it was recorded. */
export function recordStatusChanged(
  webhooks: Pick<WebhookEventStore, 'record'>,
  change: StatusChange,
): Promise<boolean> {
  return webhooks.record(change.reference, 'application.status_changed', { status: change.status });
}

export interface PassResult {
  /** Applications read at the service. */
  checked: number;
  /** Of those, with a status other than the one stored before (the first reads included). */
  changed: number;
  /** Claimed and given back: the pass stopped before reading them. */
  released: number;
}

export interface StatusSyncEvents {
  /** Called once: the keys may not read applications; the job has stopped. */
  onForbidden?: (error: PermissionError) => void;
  /** A pass that stopped on another error (the service unreachable, the store failing); the next one tries again. */
  onError?: (error: unknown) => void;
  onChecked?: (result: 'changed' | 'unchanged' | 'not_found') => void;
}

export interface StatusSyncDeps {
  store: Pick<StatusStore, 'claimStatusChecks' | 'recordStatus' | 'releaseStatusCheck'> & { readonly isOpen: boolean };
  client: Pick<RecruitmentClient, 'applications'>;
  /** The job's own budget: STATUS_SYNC_SHARE of the client's, taken before each request. */
  budget: RequestBudget;
  now: () => number;
  onStatusChanged: OnStatusChanged;
  events?: StatusSyncEvents;
}

export class StatusSync {
  readonly #deps: StatusSyncDeps;
  readonly #options: StatusSyncOptions;
  #forbidden = false;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<PassResult> | undefined;
  readonly #stopping = new AbortController();

  constructor(deps: StatusSyncDeps, options: StatusSyncOptions) {
    this.#deps = deps;
    this.#options = options;
  }

  /** False when STATUS_SYNC_DAYS is 0 or the keys may not read applications. */
  get enabled(): boolean {
    return this.#options.days > 0 && !this.#forbidden;
  }

  /** Runs a pass now, then every intervalMs; nothing when disabled. */
  start(): void {
    if (!this.enabled || this.#timer !== undefined || this.#stopping.signal.aborted) return;
    const tick = () => {
      void this.runOnce().catch(() => {});
    };
    tick();
    this.#timer = setInterval(tick, this.#options.intervalMs);
    this.#timer.unref();
  }

  /** Stops the timer, cuts a pass waiting for the budget, and waits for it. */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stopping.abort(new Error('the status sync is stopping'));
    await this.#running?.catch(() => {});
  }

  /** One pass (or joins the pass under way): checks every application due, within the budget. */
  runOnce(): Promise<PassResult> {
    this.#running ??= this.#pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #pass(): Promise<PassResult> {
    const result: PassResult = { checked: 0, changed: 0, released: 0 };
    const { store, budget } = this.#deps;
    // A batch is what the budget allows in a window: claims are not held long before their check.
    const batch = budget.perMinute;
    while (this.enabled && store.isOpen && !this.#stopping.signal.aborted) {
      const now = this.#deps.now();
      const checks = await store.claimStatusChecks(
        now,
        now - this.#options.days * DAY_MS,
        now - this.#options.periodMs + PERIOD_SLACK_MS,
        batch,
      );
      for (const [i, check] of checks.entries()) {
        try {
          const changed = await this.#check(check);
          result.checked += 1;
          if (changed) result.changed += 1;
        } catch (error) {
          // This one and the rest of the batch are due again at once: the next pass reads them.
          const left = checks.slice(i);
          await Promise.all(left.map((c) => store.releaseStatusCheck(c)));
          result.released += left.length;
          if (error instanceof PermissionError && error.code === 'missing_scope') {
            this.#forbidden = true;
            if (this.#timer !== undefined) clearInterval(this.#timer);
            this.#timer = undefined;
            this.#deps.events?.onForbidden?.(error);
            return result;
          }
          if (!this.#stopping.signal.aborted) this.#deps.events?.onError?.(error);
          return result;
        }
      }
      if (checks.length < batch) break;
    }
    return result;
  }

  /** Reads one application's status; answers whether it differed from the stored one. */
  async #check(check: StatusCheck): Promise<boolean> {
    const { client, budget, store, events } = this.#deps;
    const signal = this.#stopping.signal;
    await budget.acquire('low', signal);
    let status: string;
    try {
      status = (await client.applications.get(check.applicationId, {}, { priority: 'low', signal })).status;
    } catch (error) {
      // Gone at the service (deleted by the company): nothing to learn until the next period.
      if (!(error instanceof NotFoundError)) throw error;
      events?.onChecked?.('not_found');
      return false;
    }
    if (status === check.companyStatus) {
      events?.onChecked?.('unchanged');
      return false;
    }
    // Told before it is stored: if telling fails, the check is released and the change seen again (at least once).
    if (check.companyStatus !== null) {
      await this.#deps.onStatusChanged({
        reference: check.reference,
        previous: check.companyStatus,
        status,
        checkedAt: new Date(check.claimedAt),
      });
    }
    await store.recordStatus(check, status);
    events?.onChecked?.('changed');
    return true;
  }
}
