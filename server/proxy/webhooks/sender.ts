// The webhook sender: claims due events (webhook_events) and posts each to
// WEBHOOK_URL, signed. At least once: an event is marked delivered only
// after a 2xx, and an attempt whose process dies is taken back once its
// lease runs out. In order per application: the claim only takes an event
// whose earlier events are delivered or failed. Many instances on one
// PostgreSQL share the work through their claims (SKIP LOCKED), never
// claiming one event twice at once. Retried with exponential backoff until
// WEBHOOK_RETRY_FOR_MS after the event, then marked failed and kept.
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { WEBHOOK_EVENT_STATUSES } from '../storage/index.ts';
import type { ClaimedEvent, WebhookEventStore } from '../storage/index.ts';
import { WEBHOOK_TIMEOUT_MS, postEvent } from './post-event.ts';
import type { PostResult, PostTarget } from './post-event.ts';
import { LeaseLostError, holdLease } from '../storage/lease-renewal.ts';

export interface WebhookSenderOptions {
  /** How often due events are looked for. */
  pollMs: number;
  /** Events claimed at once. */
  batch: number;
  /** DELIVERY_LEASE_SECONDS: how long a claim lasts unrenewed (renewed every third of it while the POST runs). */
  leaseMs: number;
  timeoutMs: number;
  /** The first retry's delay; each next one doubles, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
}

export const DEFAULT_WEBHOOK_SENDER: Omit<WebhookSenderOptions, 'leaseMs'> = {
  pollMs: 1000,
  batch: 10,
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  retryBaseMs: 10_000,
  retryMaxMs: 6 * 60 * 60 * 1000,
};

/** The delay before the attempt after `attempts` failed ones: 10 s, 20 s, 40 s… up to 6 h (the defaults). */
export function retryDelay(
  attempts: number,
  options: Pick<WebhookSenderOptions, 'retryBaseMs' | 'retryMaxMs'>,
): number {
  return Math.min(options.retryMaxMs, options.retryBaseMs * 2 ** Math.max(0, attempts - 1));
}

export type WebhookOutcome = 'delivered' | 'retry' | 'failed' | 'lease_lost';

export interface WebhookSenderDeps {
  store: WebhookEventStore;
  target: PostTarget;
  options: WebhookSenderOptions;
  now: () => number;
  logger: Logger;
  registry: Registry;
}

export class WebhookSender {
  private readonly deps: WebhookSenderDeps;
  private readonly sent: Counter<'type' | 'outcome'>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(deps: WebhookSenderDeps) {
    this.deps = deps;
    this.sent = new Counter({
      name: 'webhook_events_total',
      help: 'Attempts to post webhook events to WEBHOOK_URL, by event type and outcome (delivered, retry, failed, lease_lost)',
      labelNames: ['type', 'outcome'] as const,
      registers: [deps.registry],
    });
    new Gauge({
      name: 'webhook_events',
      help: 'Webhook events by status (pending and delivering are waiting; failed ones wait for `webhooks retry`)',
      labelNames: ['status'] as const,
      registers: [deps.registry],
      async collect() {
        const counts = await deps.store.counts().catch(() => undefined);
        if (counts !== undefined) for (const status of WEBHOOK_EVENT_STATUSES) this.set({ status }, counts[status]);
      },
    });
  }

  start(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.schedule(0);
  }

  /** Stops polling, after the attempts under way end. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass().then(
        (full) => this.schedule(full ? 0 : this.deps.options.pollMs),
        (error: unknown) => {
          this.deps.logger.error(
            { event: 'webhook_error', error: error instanceof Error ? error.message : String(error) },
            'webhook sender pass failed; the next one tries again',
          );
          this.schedule(this.deps.options.pollMs);
        },
      );
    }, ms);
    this.timer.unref();
  }

  /** One pass: takes back run-out leases, sends what is due; true when the batch was full (more may wait). */
  async pass(): Promise<boolean> {
    const { store, options } = this.deps;
    await store.recoverLeases();
    const events = await store.claimDue(options.batch, options.leaseMs);
    await Promise.all(events.map((event) => this.send(event)));
    return events.length === options.batch;
  }

  /** One attempt under the event's lease, renewed while the POST runs; the POST is cut short once the lease is lost. */
  private async send(event: ClaimedEvent): Promise<void> {
    const { store, options, target, logger } = this.deps;
    const hold = holdLease({
      renew: () => store.renewLease(event, options.leaseMs),
      leaseMs: options.leaseMs,
      onError: (error) =>
        logger.warn(
          { event: 'webhook_lease_error', id: event.id, error: error instanceof Error ? error.message : String(error) },
          'the lease of a webhook event could not be renewed; its next write tells whether it is still held',
        ),
    });
    let outcome: WebhookOutcome;
    try {
      const result = await postEvent(target, event.id, event.body, {
        now: new Date(this.deps.now()),
        timeoutMs: options.timeoutMs,
        signal: hold.signal,
      });
      // Another claimer may hold the event now: what this attempt learnt is not written.
      outcome = hold.lost() ? 'lease_lost' : await this.record(event, result);
    } catch (error) {
      if (!(error instanceof LeaseLostError)) throw error;
      outcome = 'lease_lost';
    } finally {
      hold.stop();
    }
    if (outcome === 'lease_lost') {
      logger.warn(
        { event: 'webhook_lease_lost', id: event.id, type: event.type },
        'webhook event no longer held by this attempt (it outlasted its lease): its result was not written, whoever holds it now sends it',
      );
    }
    this.sent.inc({ type: event.type, outcome });
  }

  /** Writes an attempt's result: delivered on a 2xx only (a redirect is not followed: it failed), else retried later or, past its time, failed. */
  private async record(event: ClaimedEvent, result: PostResult): Promise<Exclude<WebhookOutcome, 'lease_lost'>> {
    const { store, options, logger } = this.deps;
    if (result.kind === 'answered' && result.ok) {
      await store.markDelivered(event);
      return 'delivered';
    }
    const error =
      result.kind === 'answered'
        ? `HTTP ${result.status}${result.body === '' ? '' : `: ${result.body.slice(0, 200)}`}`
        : result.error;
    const now = this.deps.now();
    const line = { id: event.id, type: event.type, reference: event.reference, attempts: event.attempts, error };
    if (now >= event.give_up_at) {
      await store.markFailed(event, error);
      logger.error(
        { event: 'webhook_failed', ...line },
        'webhook event given up after 3 days of retries: `jobboard-connector webhooks retry ID` sends it again',
      );
      return 'failed';
    }
    await store.markRetry(event, now + retryDelay(event.attempts, options), error);
    logger.warn({ event: 'webhook_retry', ...line }, 'webhook event not accepted; retried later');
    return 'retry';
  }
}
