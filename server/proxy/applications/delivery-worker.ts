// The delivery worker: runs attempts (attemptDelivery) with at most
// `concurrency` upstream sends at once, records each result in the outbox
// where it is learnt, and retries queued rows with backoff and jitter until
// they are delivered or dead-lettered.
import type { ClaimedRow, OutboxRow, OutboxStore } from '../storage/outbox/application-store.ts';
import { attemptDelivery } from './delivery.ts';
import type { AttemptResult, DeliveryClient, SourceFate } from './delivery.ts';
import { SOURCE_REFUSAL_MS } from './application-source.ts';
import type { Sending } from './application-source.ts';
import type { BlockReason, DeliveryBlock } from './delivery-block.ts';
import { LeaseLostError, holdLease } from '../storage/lease-renewal.ts';
import type { LeaseHold } from '../storage/lease-renewal.ts';

export interface DeliveryOptions {
  /** Per-request timeout of the upstream calls (ms). */
  upstreamTimeoutMs: number;
  /** First backoff step (ms); doubles with each attempt, equal jitter. */
  baseBackoffMs: number;
  /** Longest wait between two attempts (ms). */
  maxBackoffMs: number;
  /** How often the worker looks for due rows when idle (ms). */
  pollIntervalMs: number;
  /**
   * A claimed row is this process's for this long (ms), renewed every third of
   * it while its attempt runs (DELIVERY_LEASE_SECONDS). With PostgreSQL, a
   * killed instance's rows wait at most this long before another takes them.
   */
  leaseMs: number;
  /**
   * Upstream sends at the same time (the candidates' first attempts and the
   * worker's retries together); further attempts wait for a slot (a waiting
   * candidate gets 202 at the deadline). Each send streams its resume, so this
   * bounds the upstream connections and the service's load, not memory.
   */
  concurrency: number;
  /** The `source` of every application (APPLICATION_SOURCE) and the board named when a company refuses it; null: none sent. */
  source: { value: string; board: string } | null;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  upstreamTimeoutMs: 30_000,
  baseBackoffMs: 5_000,
  maxBackoffMs: 15 * 60_000,
  pollIntervalMs: 1_000,
  leaseMs: 60_000,
  concurrency: 4,
  source: null,
};

/**
 * Wait before the next attempt: exponential with equal jitter (half fixed,
 * half random, so a burst of queued rows spreads out), at least what the
 * service asked in Retry-After, at most maxBackoffMs.
 */
export function backoffMs(
  attempts: number,
  options: Pick<DeliveryOptions, 'baseBackoffMs' | 'maxBackoffMs'>,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  const step = Math.min(options.maxBackoffMs, options.baseBackoffMs * 2 ** Math.max(0, attempts - 1));
  const jittered = step / 2 + random() * (step / 2);
  return Math.round(Math.min(options.maxBackoffMs, Math.max(jittered, retryAfterMs ?? 0)));
}

export interface WorkerEvents {
  /** After each attempt has been recorded in the outbox. */
  onRecorded?: (row: OutboxRow, result: AttemptResult, finalStatus: string) => void;
  /** An attempt whose result could not be recorded. */
  onError?: (reference: string, error: unknown) => void;
  /** Delivery stopped for everyone (once, when it starts). */
  onBlocked?: (block: DeliveryBlock) => void;
  /**
   * The attempt's lease was lost (its renewal found it ran out or taken, or a
   * write found another claim): its result was not written, the row is the
   * new claimer's (which looks at the service first).
   */
  onLeaseLost?: (row: OutboxRow, result: AttemptResult) => void;
  /** The service refused the application's source (the attempt sent it once more without). */
  onSourceRefused?: (row: OutboxRow) => void;
}

/**
 * Runs attempts and records their results. `deliverNow` is the attempt made
 * while the candidate waits; the loop retries the rest.
 */
export class DeliveryWorker {
  private readonly outbox: OutboxStore;
  private readonly client: DeliveryClient;
  private readonly options: DeliveryOptions;
  private readonly now: () => number;
  private readonly events: WorkerEvents;
  /** How applications carry the board's source; undefined: without one. */
  private readonly withSource: Sending | undefined;
  private readonly inFlight = new Map<string, Promise<AttemptResult | undefined>>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopping = false;
  private ticking = false;
  private ticks: Promise<void> | undefined;
  private nextWait: number | undefined;
  /** Set by a refusal no retry can fix; until a restart, no row is attempted. */
  blocked: DeliveryBlock | undefined;

  constructor(
    outbox: OutboxStore,
    client: DeliveryClient,
    options: DeliveryOptions,
    now: () => number,
    events: WorkerEvents = {},
  ) {
    this.outbox = outbox;
    this.client = client;
    this.options = options;
    this.now = now;
    this.events = events;
    this.withSource =
      options.source === null
        ? undefined
        : {
            source: options.source.value,
            board: options.source.board,
            refusals: outbox,
            refusedForMs: SOURCE_REFUSAL_MS,
            now,
          };
  }

  get activeReferences(): ReadonlySet<string> {
    return new Set(this.inFlight.keys());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.ticking = true;
    this.ticks = (async () => {
      // Rows a killed process was delivering: whether it reached the service is unknown, so they go again (409 tells).
      await this.outbox.recoverLeases(this.activeReferences);
      // A restart often follows a fix (keys, network): every waiting application gets one attempt now.
      await this.outbox.makePendingDue();
    })()
      .catch((error: unknown) => this.events.onError?.('-', error))
      .finally(() => {
        this.ticking = false;
        this.schedule(0);
      });
  }

  /** Stops looking for work and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.running = false;
    // Attempts still waiting for a send slot are not started: their rows stay pending for the next start.
    this.stopping = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    // A pass claiming rows ends first: the attempts it starts are then in flight, and awaited.
    await this.ticks;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Stops every delivery until a restart (the first reason stays). */
  block(reason: BlockReason, error: string): void {
    if (this.blocked !== undefined) return;
    this.blocked = { reason, error, since: new Date(this.now()) };
    this.events.onBlocked?.(this.blocked);
  }

  /** Wakes the loop now (a row was queued). */
  poke(): void {
    if (this.running) this.schedule(0);
  }

  /**
   * Claims and attempts one row now; resolves with the result once it is
   * recorded, or undefined when the row was not pending (someone else has it).
   */
  deliverNow(reference: string): Promise<AttemptResult | undefined> {
    const existing = this.inFlight.get(reference);
    if (existing !== undefined) return existing;
    const run = (async () => {
      await this.acquire();
      try {
        // Claimed only once a slot is free: a row waiting for its turn has made no attempt yet.
        if (this.stopping || !this.outbox.isOpen || this.blocked !== undefined) return undefined;
        const row = await this.outbox.claim(reference, this.options.leaseMs);
        if (row === undefined) return undefined;
        return await this.run(row);
      } finally {
        this.release();
      }
    })();
    return this.track(reference, run);
  }

  /** Attempts a row the tick claimed (its lease is this process's: it runs even while stopping, which waits for it). */
  private deliverClaimed(row: ClaimedRow): Promise<AttemptResult | undefined> {
    const run = (async () => {
      await this.acquire();
      try {
        return await this.run(row);
      } finally {
        this.release();
      }
    })();
    return this.track(row.reference, run);
  }

  private track(reference: string, run: Promise<AttemptResult | undefined>): Promise<AttemptResult | undefined> {
    const tracked = run.finally(() => {
      this.inFlight.delete(reference);
    });
    this.inFlight.set(reference, tracked);
    return tracked;
  }

  private sending = 0;
  private readonly waiting: (() => void)[] = [];

  private acquire(): Promise<void> {
    if (this.sending < this.options.concurrency) {
      this.sending += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.sending -= 1;
  }

  private async run(row: ClaimedRow): Promise<AttemptResult> {
    const lease = this.keepLease(row);
    let result: AttemptResult & { source?: SourceFate };
    try {
      result = await attemptDelivery(row, this.client, this.options.upstreamTimeoutMs, this.outbox, this.withSource);
    } finally {
      lease.stop();
    }
    // Counted whatever becomes of the lease: the service did refuse it.
    if (result.source === 'refused') this.events.onSourceRefused?.(row);
    // Another claimer may hold the row now: what this attempt learnt is its to find out again (it looks at the service first).
    if (lease.lost()) {
      this.events.onLeaseLost?.(row, result);
      return result;
    }
    try {
      const status = await this.record(row, result);
      this.events.onRecorded?.(row, result, status);
    } catch (error) {
      if (!(error instanceof LeaseLostError)) throw error;
      this.events.onLeaseLost?.(row, result);
    }
    return result;
  }

  /**
   * Renews the row's lease every third of it while its attempt runs; lost()
   * turns true once a renewal finds the lease no longer held (ran out, or
   * taken back by another instance), and stays so.
   */
  private keepLease(row: ClaimedRow): LeaseHold {
    return holdLease({
      renew: () => this.outbox.renewLease(row, this.options.leaseMs),
      leaseMs: this.options.leaseMs,
      onError: (error) => this.events.onError?.(row.reference, error),
    });
  }

  /**
   * Writes what the attempt learnt, right where it is learnt, under the
   * row's lease (rejects with LeaseLostError when another claim holds it).
   * Answers the row's new status.
   */
  private async record(row: ClaimedRow, result: AttemptResult & { source?: SourceFate }): Promise<string> {
    if (!this.outbox.isOpen) return 'unrecorded';
    // Before the outcome: a row that went without its source says so in `outbox list`, whatever came of it.
    if (result.source !== undefined && row.source_dropped !== 1) await this.outbox.markSourceDropped(row);
    switch (result.kind) {
      case 'delivered':
        await this.outbox.markDelivered(row, result.outcome, {
          applicantId: result.applicantId,
          applicationId: result.applicationId,
        });
        return 'delivered';
      case 'already_applied':
        // The service holds an application of this candidate to this campaign already: nothing to send.
        await this.outbox.markRejected(row, 'already_applied', 'application_exists (409)');
        return 'rejected';
      case 'rejected':
        // Rejected when the candidate is still waiting and will be told why; dead (kept for
        // an operator) when they were told it was received: one statement decides.
        return (await this.outbox.markRefused(row, result.outcome, result.error)) ?? 'unrecorded';
      case 'resume_missing':
        // Waiting would not bring it back: kept (payload and all) for an operator at once.
        await this.outbox.markDead(row, 'resume_missing', result.error);
        return 'dead';
      case 'retry': {
        const now = this.now();
        if (result.blocks !== undefined) this.block(result.blocks, result.error);
        // Blocked: the row waits for the fix, however old it is; its next attempt comes after a restart.
        if (now >= row.dead_letter_at && result.blocks === undefined) {
          await this.outbox.markDead(row, 'expired', result.error);
          return 'dead';
        }
        const next = now + backoffMs(row.attempts, this.options, result.retryAfterMs);
        await this.outbox.markRetry(
          row,
          Math.min(next, Math.max(row.dead_letter_at, now)),
          result.error,
          result.reached,
        );
        if (this.running) this.schedule(next - now);
        return 'pending';
      }
    }
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    // A pass is under way (claims are async): it schedules the next one when it ends.
    if (this.ticking) {
      this.nextWait = Math.min(this.nextWait ?? delayMs, delayMs);
      return;
    }
    const wait = Math.max(0, Math.min(delayMs, this.options.pollIntervalMs));
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, wait);
    this.timer.unref();
  }

  private tick(): void {
    if (!this.running || this.ticking || !this.outbox.isOpen) return;
    this.ticking = true;
    this.ticks = this.claimAndStart()
      .catch((error: unknown) => this.events.onError?.('-', error))
      .finally(() => {
        this.ticking = false;
        const wait = this.nextWait ?? this.options.pollIntervalMs;
        this.nextWait = undefined;
        this.schedule(wait);
      });
  }

  private async claimAndStart(): Promise<void> {
    await this.outbox.recoverLeases(this.activeReferences);
    // Only as many retries as there are free send slots; the rest wait for the next tick.
    const free = this.options.concurrency - this.sending;
    if (free <= 0 || this.stopping || this.blocked !== undefined) return;
    for (const row of await this.outbox.claimDue(free, this.options.leaseMs)) {
      // A failed write (disk full, database gone...) leaves the row leased; it is taken back when the lease ends.
      this.deliverClaimed(row).then(
        () => this.schedule(0),
        (error: unknown) => this.events.onError?.(row.reference, error),
      );
    }
  }
}
