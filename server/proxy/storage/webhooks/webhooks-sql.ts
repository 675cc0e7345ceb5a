// The statements of the webhook events (the table webhook_events), written
// once in the PostgreSQL spelling like outbox-sql.ts, and the one building of
// an event's row from the application it reports. An event is inserted by
// the same transaction as the change of the outbox row it reports, so a
// change is never seen without its event, nor an event without its change.
import { randomBytes } from 'node:crypto';
import { ALERT_EVENT_TYPE, AlertEvent, ApplicationEvent } from '../../../public-api/webhook-events.ts';
import type { ApplicationEventType, WebhookCandidate } from '../../../public-api/webhook-events.ts';
import { applicationTarget } from '../outbox/application-store.ts';
import { parsePayload } from '../sql.ts';
import type { Raw, SqlValue } from '../sql.ts';
import { WEBHOOK_RETRY_FOR_MS } from './webhook-store.ts';

/**
 * Migration 5 of both databases, one spelling: SQLite reads bigint and text
 * as its INTEGER and TEXT. The outbox keeps the request's Idempotency-Key,
 * which every event of the application tells.
 */
export const WEBHOOK_EVENTS_SCHEMA = `
ALTER TABLE outbox ADD COLUMN idempotency_key text;
CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  reference text NOT NULL,
  seq integer NOT NULL,
  type text NOT NULL,
  payload text NOT NULL,
  candidate text,
  created_at bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  give_up_at bigint NOT NULL,
  lease_owner text,
  lease_until bigint,
  lease_token integer NOT NULL DEFAULT 0,
  last_error text,
  last_attempt_at bigint,
  delivered_at bigint,
  ended_at bigint,
  UNIQUE (reference, seq)
);
CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_at);
`;

/** An event's webhook-id: unique, and the same at every attempt (the board skips ids it has seen). */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** An alert's event: it holds the candidate's search and, apart, their email; once it is done it keeps neither. */
const IS_ALERT = `type = '${ALERT_EVENT_TYPE}'`;
/** What an alert's event keeps once done: its payload emptied (the email is in `candidate`, set to NULL beside). */
const EMPTIED = `payload = CASE WHEN ${IS_ALERT} THEN '' ELSE payload END`;

/** Events whose earlier events (same application) are all done: order per application holds without a lock. */
const IN_TURN = `NOT EXISTS (SELECT 1 FROM webhook_events p WHERE p.reference = e.reference AND p.seq < e.seq AND p.status IN ('pending', 'delivering'))`;

export const WEBHOOK_SQL = {
  /** $1 id, $2 reference, $3 type, $4 body (without candidate), $5 candidate, $6 now, $7 give up at. seq: after the application's last event. */
  insert: `INSERT INTO webhook_events (id, reference, seq, type, payload, candidate, created_at, status, attempts, next_attempt_at, give_up_at)
    VALUES ($1, $2, (SELECT coalesce(max(seq), 0) + 1 FROM webhook_events WHERE reference = $2), $3, $4, $5, $6, 'pending', 0, $6, $7)`,
  /**
   * Due events in their application's turn, oldest first; those another instance is claiming are skipped (SKIP LOCKED; SQLite: one writer).
   * Chosen once, in a materialised CTE: under `id IN (subquery)` PostgreSQL may run the subquery again, and with SKIP LOCKED claim more than $4.
   */
  claimDue: `WITH due AS MATERIALIZED (
      SELECT e.id AS due_id FROM webhook_events e WHERE e.status = 'pending' AND e.next_attempt_at <= $3 AND ${IN_TURN}
      ORDER BY e.next_attempt_at, e.created_at, e.seq LIMIT $4 FOR UPDATE SKIP LOCKED)
    UPDATE webhook_events SET status = 'delivering', lease_owner = $1, lease_until = $2, lease_token = lease_token + 1, attempts = attempts + 1,
    last_attempt_at = $3 FROM due WHERE status = 'pending' AND id = due_id RETURNING *`,
  renewLease:
    "UPDATE webhook_events SET lease_until = $1 WHERE id = $2 AND lease_token = $3 AND status = 'delivering' AND lease_until > $4",
  /** The proxy keeps nothing of a delivered alert but that it was delivered. */
  markDelivered: `UPDATE webhook_events SET status = 'delivered', delivered_at = $1, candidate = NULL, ${EMPTIED}, lease_owner = NULL, lease_until = NULL, last_error = NULL
    WHERE id = $2 AND lease_token = $3 AND status = 'delivering'`,
  markRetry: `UPDATE webhook_events SET status = 'pending', next_attempt_at = $1, last_error = $2, lease_owner = NULL, lease_until = NULL
    WHERE id = $3 AND lease_token = $4 AND status = 'delivering'`,
  /**
   * The candidate's data goes too: a failed event is kept for an operator, and no retention pass reaches it.
   * An alert's is emptied: it cannot be sent again (the candidate creates the alert again).
   */
  markFailed: `UPDATE webhook_events SET status = 'failed', ended_at = $1, last_error = $2, candidate = NULL, ${EMPTIED}, lease_owner = NULL, lease_until = NULL
    WHERE id = $3 AND lease_token = $4 AND status = 'delivering'`,
  /** $2 = 1: one process owns the database (SQLite), so another owner's lease is a gone process's. */
  recoverLeases: `UPDATE webhook_events SET status = 'pending', lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1
    WHERE status = 'delivering' AND (coalesce(lease_until, 0) <= $1 OR ($2 = 1 AND lease_owner <> $3))`,
  nextDueAt: "SELECT min(next_attempt_at) AS at FROM webhook_events WHERE status = 'pending'",
  get: 'SELECT * FROM webhook_events WHERE id = $1',
  list: 'SELECT * FROM webhook_events ORDER BY created_at, reference, seq LIMIT $1',
  listByStatus: 'SELECT * FROM webhook_events WHERE status = $2 ORDER BY created_at, reference, seq LIMIT $1',
  counts: 'SELECT status, CAST(count(*) AS integer) AS n FROM webhook_events GROUP BY status',
  /** A failed event back in line now, with three more days. */
  retry: `UPDATE webhook_events SET status = 'pending', next_attempt_at = $1, give_up_at = $2, attempts = 0, ended_at = NULL
    WHERE id = $3 AND status = 'failed' AND payload <> ''`,
  /** The candidate's data leaves the events of an application whose personal data is erased (the events are still sent, without it). */
  dropCandidate: 'UPDATE webhook_events SET candidate = NULL WHERE reference = $1 AND candidate IS NOT NULL',
  /** The events still holding a candidate's fields (none delivered or failed: bounded by what waits), for an erasure to match by address. */
  withCandidate: 'SELECT id, type, candidate FROM webhook_events WHERE candidate IS NOT NULL',
  /**
   * An alert whose email is erased is not sent at all (it would say nothing): failed, emptied.
   * $1 now, $2 why, $3 its id. One being posted loses its lease: its result is not written.
   */
  dropAlert: `UPDATE webhook_events SET status = 'failed', ended_at = $1, last_error = $2, candidate = NULL, payload = '',
    lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1 WHERE id = $3 AND candidate IS NOT NULL`,
  /** The retention period reaches alerts not yet sent as an erasure does. $1 now, $2 why, $3 recorded at or before. */
  dropExpiredAlerts: `UPDATE webhook_events SET status = 'failed', ended_at = $1, last_error = $2, candidate = NULL, payload = '',
    lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1 WHERE ${IS_ALERT} AND candidate IS NOT NULL AND created_at <= $3`,
  dropEventCandidate: 'UPDATE webhook_events SET candidate = NULL WHERE id = $1 AND candidate IS NOT NULL',
  /** The retention period reaches the events too: none keeps a candidate's fields longer, sent or not. */
  dropExpiredCandidates: 'UPDATE webhook_events SET candidate = NULL WHERE candidate IS NOT NULL AND created_at <= $1',
  purgeDelivered: "DELETE FROM webhook_events WHERE status = 'delivered' AND delivered_at <= $1",
  setIdempotencyKey: 'UPDATE outbox SET idempotency_key = $1 WHERE reference = $2',
} as const;

function iso(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : new Date(Number(value)).toISOString();
}

/**
 * The values of WEBHOOK_SQL.insert for an event about the outbox row `row`
 * (as it is after the change reported). `holder`: the row's personal data
 * before the change (the change may drop it), sent only when
 * `includeCandidate`; `status`: application.status_changed's company status.
 */
export function applicationEventParams(
  type: ApplicationEventType,
  row: Raw,
  now: number,
  options: { includeCandidate: boolean; holder?: unknown; status?: string },
): SqlValue[] {
  const body = ApplicationEvent.parse({
    type,
    timestamp: new Date(now).toISOString(),
    data: {
      reference: String(row.reference),
      idempotency_key: row.idempotency_key == null ? null : String(row.idempotency_key),
      ...applicationTarget(Number(row.campaign_id)),
      company_id: Number(row.company_id),
      created_at: iso(row.created_at),
      delivered_at: iso(row.delivered_at),
      ended_at: iso(row.ended_at),
      erased_at: iso(row.erased_at),
      outcome: row.outcome ?? undefined,
      upstream_application_id: row.upstream_application_id == null ? undefined : Number(row.upstream_application_id),
      status: options.status,
    },
  });
  const held = options.includeCandidate ? parsePayload(options.holder ?? row.payload) : null;
  const candidate: WebhookCandidate | null =
    held === null
      ? null
      : { ...held.applicant, ...(held.cover_letter === undefined ? {} : { cover_letter: held.cover_letter }) };
  return [
    newEventId(),
    body.data.reference,
    type,
    JSON.stringify(body),
    candidate === null ? null : JSON.stringify(candidate),
    now,
    now + WEBHOOK_RETRY_FOR_MS,
  ];
}

/**
 * The values of WEBHOOK_SQL.insert for an alert.requested event: its own
 * reference (its alert_id, seq 1), the body without the email, and the email
 * apart, where an erasure finds it and delivery drops it.
 */
export function alertEventParams(event: AlertEvent, now: number): SqlValue[] {
  const { email, ...data } = AlertEvent.parse(event).data;
  return [
    newEventId(),
    data.alert_id,
    ALERT_EVENT_TYPE,
    JSON.stringify({ ...event, data }),
    JSON.stringify({ email }),
    now,
    now + WEBHOOK_RETRY_FOR_MS,
  ];
}
