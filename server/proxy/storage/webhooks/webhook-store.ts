// The webhook events waiting for (or past) their sending to WEBHOOK_URL, on
// either database, as the stores keep them (sql-webhook-events.ts writes the
// one implementation for both). Claims and leases follow the outbox's rules:
// a claim hands out a new lease_token, every write of an attempt names it and
// changes nothing once another claimer has the event.
import type { AlertEvent, ApplicationEventType } from '../../../public-api/webhook-events.ts';
import { LeaseLostError } from '../lease-renewal.ts';

/** How long an event is retried before it is marked failed (and kept, for `webhooks retry`). */
export const WEBHOOK_RETRY_FOR_MS = 3 * 24 * 60 * 60 * 1000;

export const WEBHOOK_EVENT_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

/** Whether (and how) a store records webhook events: only when WEBHOOK_URL is set, else nobody would send them. */
export interface WebhookEventOptions {
  /** WEBHOOK_INCLUDE_CANDIDATE: the candidate's fields go in the events while the row holds them. */
  includeCandidate: boolean;
}

export interface WebhookEventRow {
  /** The webhook-id. */
  id: string;
  reference: string;
  /** Its place among its application's events (1, 2…): sent in that order. */
  seq: number;
  type: string;
  /** The JSON body, without the candidate's fields. */
  payload: string;
  /** Whether the candidate's fields are still kept with it (they go once it is delivered, or erased). */
  has_candidate: boolean;
  created_at: number;
  status: WebhookEventStatus;
  attempts: number;
  next_attempt_at: number;
  /** After a failed attempt past this time, the event is marked failed. */
  give_up_at: number;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  /** When it was marked failed. */
  ended_at: number | null;
}

export interface WebhookLease {
  id: string;
  lease_token: number;
}

/** An event claimed for an attempt: its body to send (with the candidate's fields when kept), and the lease its writes must show. */
export type ClaimedEvent = WebhookEventRow & WebhookLease & { body: string };

/** The lease-lost error of a webhook event: the one of every lease (LeaseLostError), under the name the sender and operators know. */
export const WebhookLeaseLostError = LeaseLostError;
export type WebhookLeaseLostError = LeaseLostError;

/** emptied: an alert's failed event, which keeps nothing to send. */
export type WebhookRetryResult = 'queued' | 'not_found' | 'not_failed' | 'emptied';

export interface WebhookEventStore {
  /** True when this store records events (WEBHOOK_URL set). */
  readonly recording: boolean;
  /**
   * Records an event about one application now (its own statement, outside
   * any transaction): for application.status_changed, with the company's
   * `status`. False when the store keeps no such application (or records no events).
   */
  record(reference: string, type: ApplicationEventType, extra?: { status?: string }): Promise<boolean>;
  /**
   * Records an alert.requested event now (its own statement). The email is
   * kept apart from the body, as a candidate's fields are: it leaves at
   * delivery, failure, erasure (the event is then not sent) or retention,
   * and a delivered or failed alert keeps no body either. Answers its webhook-id.
   */
  recordAlert(event: AlertEvent): Promise<string>;
  /** Claims up to `limit` due events whose earlier events (same application) are delivered or failed; none is ever claimed twice at once. */
  claimDue(limit: number, leaseMs: number): Promise<ClaimedEvent[]>;
  /** Extends a held lease; false once it is no longer held (the attempt must write nothing more). */
  renewLease(lease: WebhookLease, leaseMs: number): Promise<boolean>;
  markDelivered(lease: WebhookLease): Promise<void>;
  markRetry(lease: WebhookLease, nextAttemptAt: number, error: string): Promise<void>;
  markFailed(lease: WebhookLease, error: string): Promise<void>;
  /** Takes back events whose lease ran out (SQLite: any other owner's, its process is gone): due again, under a new token. */
  recoverLeases(): Promise<number>;
  nextDueAt(): Promise<number | undefined>;
  get(id: string): Promise<WebhookEventRow | undefined>;
  list(options?: { status?: WebhookEventStatus; limit?: number }): Promise<WebhookEventRow[]>;
  counts(): Promise<Record<WebhookEventStatus, number>>;
  /** Puts a failed event back in line now, with three more days of retries. */
  retry(id: string): Promise<WebhookRetryResult>;
  /**
   * A right-to-erasure request reaching the events: the candidate's fields
   * leave every event that still holds them for this address (trimmed,
   * case-insensitive), whatever became of the application's row. Each
   * application's event is still sent, without them; an alert's is not sent
   * (marked failed, emptied). Answers how many events held them.
   */
  eraseCandidate(email: string): Promise<number>;
  /** The retention period reaching the events: the candidate's fields leave every event recorded at least `retentionMs` ago; answers how many. */
  eraseExpiredCandidates(retentionMs: number): Promise<number>;
}
