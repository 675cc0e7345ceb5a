// The webhook events' store on either database: every method is one
// statement (webhooks-sql.ts), so one class over each store's runner (Sql)
// serves both; and the one recorder of events (recordIn), which the
// application store calls in the transaction of each change it reports.
import { ALERT_EVENT_TYPE, WebhookCandidate } from '../../../public-api/webhook-events.ts';
import type { AlertEvent, ApplicationEventType } from '../../../public-api/webhook-events.ts';
import { OUTBOX_SQL } from '../outbox/outbox-sql.ts';
import { countByStatus, listRows, wantedEmail } from '../sql.ts';
import type { Raw, Sql } from '../sql.ts';
import { WEBHOOK_SQL, alertEventParams, applicationEventParams } from './webhooks-sql.ts';
import { LeaseLostError } from '../lease-renewal.ts';
import { WEBHOOK_EVENT_STATUSES, WEBHOOK_RETRY_FOR_MS } from './webhook-store.ts';
import type {
  ClaimedEvent,
  WebhookEventOptions,
  WebhookEventRow,
  WebhookEventStatus,
  WebhookEventStore,
  WebhookLease,
  WebhookRetryResult,
} from './webhook-store.ts';

function toEvent(raw: Raw): WebhookEventRow {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: String(raw.id),
    reference: String(raw.reference),
    seq: Number(raw.seq),
    type: String(raw.type),
    payload: String(raw.payload),
    has_candidate: raw.candidate !== null && raw.candidate !== undefined,
    created_at: Number(raw.created_at),
    status: raw.status as WebhookEventStatus,
    attempts: Number(raw.attempts),
    next_attempt_at: Number(raw.next_attempt_at),
    give_up_at: Number(raw.give_up_at),
    last_error: (raw.last_error ?? null) as string | null,
    last_attempt_at: n(raw.last_attempt_at),
    delivered_at: n(raw.delivered_at),
    ended_at: n(raw.ended_at),
  };
}

/** Whether an event's stored candidate has the address `wanted` (as wantedEmail gives it). */
function candidateIs(candidate: unknown, wanted: string): boolean {
  const parsed = WebhookCandidate.safeParse(JSON.parse(String(candidate)));
  const email = parsed.success ? parsed.data.email : undefined;
  return typeof email === 'string' && email.trim().toLowerCase() === wanted;
}

/** The body sent: the stored one, with the candidate's fields put back in `data` when they are still kept (an alert's email as data.email). */
function bodyOf(raw: Raw): string {
  if (raw.candidate === null || raw.candidate === undefined) return String(raw.payload);
  const event = JSON.parse(String(raw.payload)) as { data: Record<string, unknown> };
  const candidate = WebhookCandidate.parse(JSON.parse(String(raw.candidate)));
  if (raw.type === ALERT_EVENT_TYPE) event.data = { ...event.data, email: candidate.email };
  else event.data.candidate = candidate;
  return JSON.stringify(event);
}

const ALERT_ERASED = "erased at the candidate's request before it was sent: not sent";
const ALERT_EXPIRED = 'kept past PERSONAL_DATA_RETENTION_DAYS without being sent: erased, not sent';

export class SqlWebhookEvents implements WebhookEventStore {
  readonly recording: boolean;
  private readonly sql: Sql;
  private readonly now: () => number;
  private readonly owner: string;
  private readonly options: WebhookEventOptions | undefined;
  /** SQLite: one process owns the file, so a lease of another owner is a gone process's. */
  private readonly singleProcess: boolean;

  constructor(
    sql: Sql,
    now: () => number,
    owner: string,
    options: WebhookEventOptions | undefined,
    singleProcess: boolean,
  ) {
    this.sql = sql;
    this.now = now;
    this.owner = owner;
    this.options = options;
    this.singleProcess = singleProcess;
    this.recording = options !== undefined;
  }

  async record(reference: string, type: ApplicationEventType, extra: { status?: string } = {}): Promise<boolean> {
    return this.recordIn(this.sql, type, reference, undefined, extra);
  }

  /**
   * The one recorder of the events: records an event about `reference` (when
   * events are recorded) on `sql`, the transaction of the change it reports.
   * `holder`: the row's personal data before the change (holder());
   * `status`: application.status_changed's company status. False when no
   * row has that reference (or no events are recorded).
   */
  async recordIn(
    sql: Sql,
    type: ApplicationEventType,
    reference: string,
    holder?: unknown,
    extra: { status?: string } = {},
  ): Promise<boolean> {
    if (this.options === undefined) return false;
    const [row] = await sql.all(OUTBOX_SQL.get, [reference]);
    if (row === undefined) return false;
    const options = { includeCandidate: this.options.includeCandidate, holder, ...extra };
    await sql.run(WEBHOOK_SQL.insert, applicationEventParams(type, row, this.now(), options));
    return true;
  }

  async recordAlert(event: AlertEvent): Promise<string> {
    if (this.options === undefined) throw new Error('no webhook events are recorded without WEBHOOK_URL');
    const params = alertEventParams(event, this.now());
    await this.sql.run(WEBHOOK_SQL.insert, params);
    return String(params[0]);
  }

  /** The personal data a row holds before a change that drops it (read, and locked, only when events carry it). */
  async holder(sql: Sql, reference: string): Promise<unknown> {
    if (this.options?.includeCandidate !== true) return undefined;
    return (await sql.all('SELECT payload FROM outbox WHERE reference = $1 FOR UPDATE', [reference]))[0]?.payload;
  }

  async claimDue(limit: number, leaseMs: number): Promise<ClaimedEvent[]> {
    const now = this.now();
    const rows = await this.sql.all(WEBHOOK_SQL.claimDue, [this.owner, now + leaseMs, now, limit]);
    return rows
      .map((raw) => ({ ...toEvent(raw), lease_token: Number(raw.lease_token), body: bodyOf(raw) }))
      .sort((a, b) => a.next_attempt_at - b.next_attempt_at);
  }

  async renewLease(lease: WebhookLease, leaseMs: number): Promise<boolean> {
    const now = this.now();
    return (await this.sql.run(WEBHOOK_SQL.renewLease, [now + leaseMs, lease.id, lease.lease_token, now])) > 0;
  }

  private async write(changed: number, lease: WebhookLease): Promise<void> {
    if (changed === 0) throw new LeaseLostError(lease.id, 'webhook event');
  }

  async markDelivered(lease: WebhookLease): Promise<void> {
    await this.write(await this.sql.run(WEBHOOK_SQL.markDelivered, [this.now(), lease.id, lease.lease_token]), lease);
  }

  async markRetry(lease: WebhookLease, nextAttemptAt: number, error: string): Promise<void> {
    await this.write(
      await this.sql.run(WEBHOOK_SQL.markRetry, [nextAttemptAt, error, lease.id, lease.lease_token]),
      lease,
    );
  }

  async markFailed(lease: WebhookLease, error: string): Promise<void> {
    await this.write(
      await this.sql.run(WEBHOOK_SQL.markFailed, [this.now(), error, lease.id, lease.lease_token]),
      lease,
    );
  }

  async recoverLeases(): Promise<number> {
    return this.sql.run(WEBHOOK_SQL.recoverLeases, [this.now(), this.singleProcess ? 1 : 0, this.owner]);
  }

  async nextDueAt(): Promise<number | undefined> {
    const [row] = await this.sql.all(WEBHOOK_SQL.nextDueAt);
    return row?.at == null ? undefined : Number(row.at);
  }

  async get(id: string): Promise<WebhookEventRow | undefined> {
    const [row] = await this.sql.all(WEBHOOK_SQL.get, [id]);
    return row === undefined ? undefined : toEvent(row);
  }

  async list(options: { status?: WebhookEventStatus; limit?: number } = {}): Promise<WebhookEventRow[]> {
    return (await listRows(this.sql, WEBHOOK_SQL, options)).map(toEvent);
  }

  async counts(): Promise<Record<WebhookEventStatus, number>> {
    return countByStatus(this.sql, WEBHOOK_SQL.counts, WEBHOOK_EVENT_STATUSES);
  }

  async eraseCandidate(email: string): Promise<number> {
    const wanted = wantedEmail(email);
    let erased = 0;
    for (const row of await this.sql.all(WEBHOOK_SQL.withCandidate)) {
      if (!candidateIs(row.candidate, wanted)) continue;
      erased +=
        row.type === ALERT_EVENT_TYPE
          ? await this.sql.run(WEBHOOK_SQL.dropAlert, [this.now(), ALERT_ERASED, String(row.id)])
          : await this.sql.run(WEBHOOK_SQL.dropEventCandidate, [String(row.id)]);
    }
    return erased;
  }

  async eraseExpiredCandidates(retentionMs: number): Promise<number> {
    const before = this.now() - retentionMs;
    const alerts = await this.sql.run(WEBHOOK_SQL.dropExpiredAlerts, [this.now(), ALERT_EXPIRED, before]);
    return alerts + (await this.sql.run(WEBHOOK_SQL.dropExpiredCandidates, [before]));
  }

  async retry(id: string): Promise<WebhookRetryResult> {
    const now = this.now();
    if ((await this.sql.run(WEBHOOK_SQL.retry, [now, now + WEBHOOK_RETRY_FOR_MS, id])) > 0) return 'queued';
    const row = await this.get(id);
    return row === undefined ? 'not_found' : row.status === 'failed' ? 'emptied' : 'not_failed';
  }
}
