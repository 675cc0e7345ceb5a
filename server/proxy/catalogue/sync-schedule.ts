// When the catalogue's syncs run: the full walk at start, then an interval
// after the last one ended (sooner after a failure, or when another instance
// holds the sync lock); the newest offers every minute; a sync asked for
// meanwhile joins or follows the one running. What each reads is SyncWalk's.
import type { Logger } from 'pino';
import { ApiError, RateLimitError } from '../../client/errors.ts';
import type { CatalogueMetrics } from './metrics.ts';
import { CatalogueStoreError } from './store-failures.ts';
import type { SyncWalk } from './sync-walk.ts';
import type { CatalogueStore } from './types.ts';

export interface SyncStatus {
  /** Time of the last attempt that finished (successfully or not). */
  lastAttemptAt: Date | null;
  lastError: { at: Date; name: string; status: number | undefined; code: string } | null;
  running: boolean;
  /** Ids of the upstream campaigns left out of the last complete sync because they break the contract. */
  skippedIds: number[];
}

export interface SyncScheduleDeps {
  walk: SyncWalk;
  store: CatalogueStore;
  now: () => number;
  intervalMs: number;
  /** Delay before retrying a failed sync. */
  retryMs: number;
  newestEveryMs: number;
  log: Logger;
  metrics: CatalogueMetrics;
}

export class SyncSchedule {
  private readonly deps: SyncScheduleDeps;
  private timer: NodeJS.Timeout | undefined;
  private newestTimer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private runningForced = false;
  private forcedNext: Promise<number> | undefined;
  private newestRunning: Promise<void> | undefined;
  private stopped = true;
  private abort = new AbortController();
  private readonly state: SyncStatus = { lastAttemptAt: null, lastError: null, running: false, skippedIds: [] };

  constructor(deps: SyncScheduleDeps) {
    this.deps = deps;
  }

  /** Aborted by stop(): the calls upstream of a stopped catalogue. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.abort = new AbortController();
    this.sync(false).catch(() => undefined);
    this.scheduleNewest();
  }

  /** Stops the timers, aborts the syncs running and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.newestTimer);
    this.abort.abort();
    await Promise.allSettled([this.running, this.newestRunning]);
  }

  status(): SyncStatus {
    return { ...this.state, skippedIds: [...this.state.skippedIds] };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.sync(false).catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  syncNewest(): Promise<void> {
    const { walk, log, metrics } = this.deps;
    this.newestRunning ??= walk
      .runNewest(this.abort.signal)
      .then(
        () => metrics?.newest.inc({ result: 'success' }),
        (error: unknown) => {
          metrics?.newest.inc({ result: 'failure' });
          if (!this.stopped)
            log.warn({ err: error }, 'reading the newest campaigns failed; the next minute tries again');
        },
      )
      .finally(() => (this.newestRunning = undefined));
    return this.newestRunning;
  }

  private scheduleNewest(): void {
    // One chain of timers, even when a read still running at stop() ends after a new start().
    clearTimeout(this.newestTimer);
    if (this.stopped) return;
    this.newestTimer = setTimeout(() => {
      void this.syncNewest().finally(() => this.scheduleNewest());
    }, this.deps.newestEveryMs);
    this.newestTimer.unref();
  }

  sync(forced: boolean): Promise<number> {
    const { walk, store, now, intervalMs, retryMs, log, metrics } = this.deps;
    const status = this.state;
    if (this.running !== undefined) {
      if (!forced || this.runningForced) return this.running;
      // Asked to sync now during a scheduled sync, which may have read its pages long before: the next one, once that one ends.
      this.forcedNext ??= this.running
        .catch(() => undefined)
        .then(() => {
          this.forcedNext = undefined;
          return this.sync(true);
        });
      return this.forcedNext;
    }
    status.running = true;
    this.runningForced = forced;
    this.running = walk
      .runSync(this.abort.signal, forced)
      .then(
        (result) => {
          if ('followingInMs' in result) {
            this.schedule(result.followingInMs);
            return store.count();
          }
          const { kept: count, skippedIds } = result;
          status.lastError = null;
          status.skippedIds = skippedIds;
          metrics?.syncs.inc({ result: 'success' });
          log.info({ campaigns: count, skipped: skippedIds.length }, 'catalogue synced');
          this.schedule(intervalMs);
          return count;
        },
        (error: unknown) => {
          const e = error as Error;
          status.lastError = {
            at: new Date(now()),
            name: e.name,
            status: error instanceof ApiError ? error.status : undefined,
            code: error instanceof ApiError || error instanceof CatalogueStoreError ? error.code : 'error',
          };
          metrics?.syncs.inc({ result: 'failure' });
          if (!this.stopped) log.warn({ err: e }, 'catalogue sync failed; keeping the previous catalogue');
          // The service's rate limit names its own wait; honour it when longer,
          // but never past the interval (a Retry-After of a day would freeze the catalogue).
          const askedWait = error instanceof RateLimitError ? Math.min(error.retryAfterMs ?? 0, intervalMs) : 0;
          this.schedule(Math.max(retryMs, askedWait));
          throw error;
        },
      )
      .finally(() => {
        status.lastAttemptAt = new Date(now());
        status.running = false;
        this.running = undefined;
      });
    return this.running;
  }
}
