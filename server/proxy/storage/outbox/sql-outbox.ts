// The outbox methods that are one statement (with its lease check) on either
// database, written once over the seam each store gives (Sql), and the one
// reading of a stored row. The methods that run a transaction are written
// once too, in sql-application-store.ts.
import { LeaseLostError } from '../lease-renewal.ts';
import { OUTBOX_STATUSES } from './application-store.ts';
import type {
  ClaimedRow,
  Lease,
  OutboxRow,
  OutboxStatus,
  OutboxSummary,
  RateCount,
  ReceiptState,
  StatusCheck,
} from './application-store.ts';
import { OUTBOX_SQL, hitRatesText } from './outbox-sql.ts';
import { SOURCE_REFUSAL_SQL } from './source-refusals-sql.ts';
import { STATUS_SQL } from './status-sql.ts';
import { countByStatus, flag, listRows, parsePayload, parseUtm } from '../sql.ts';
import type { Raw, Sql } from '../sql.ts';

// pg reads bigint as a string (it may pass 2^53): ours are milliseconds and ids, well below.
const BIGINT_COLUMNS = [
  'created_at',
  'campaign_id',
  'company_id',
  'resume_bytes',
  'next_attempt_at',
  'dead_letter_at',
  'last_attempt_at',
  'delivered_at',
  'upstream_applicant_id',
  'upstream_application_id',
  'ended_at',
  'erased_at',
  'status_checked_at',
] as const;

function numbers(raw: Raw): Raw {
  const out: Raw = { ...raw };
  for (const column of BIGINT_COLUMNS) if (typeof out[column] === 'string') out[column] = Number(out[column]);
  if ('utm' in out) out.utm = parseUtm(out.utm);
  return out;
}

export function toRow(raw: Raw): OutboxRow {
  const { lease_owner: _owner, lease_until: _until, lease_token: _token, ...rest } = numbers(raw);
  return { ...(rest as unknown as OutboxRow), payload: parsePayload(raw.payload) };
}

export function toClaimed(raw: Raw): ClaimedRow {
  return { ...toRow(raw), lease_token: Number(raw.lease_token) };
}

export function toSummary(raw: Raw): OutboxSummary {
  return {
    ...(numbers(raw) as unknown as OutboxSummary),
    personal_data: flag(raw.personal_data),
  };
}

/** The counter of the fixed window `now` falls in. */
export function rateWindow(bucket: string, windowMs: number, now: number): { key: string; resetAt: number } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { key: `${bucket}@${start}`, resetAt: start + windowMs };
}

/** Whether a stored payload is the application of `wanted`. */
export function holdsEmail(payload: unknown, wanted: string): boolean {
  const email = parsePayload(payload)?.applicant.email;
  return typeof email === 'string' && email.trim().toLowerCase() === wanted;
}

export interface KeyWithAnswer {
  key: string;
  reference: string | null;
  body: string | null;
}

/** The idempotency keys an erasure deletes: those pointing at an erased row, and those whose stored answer holds the address. */
export function keysToErase(
  keys: readonly KeyWithAnswer[],
  erased: readonly { reference: string }[],
  wanted: string,
): string[] {
  const references = new Set(erased.map((a) => a.reference));
  return keys
    .filter(
      (k) =>
        (k.reference !== null && references.has(k.reference)) ||
        (k.body !== null && k.body.toLowerCase().includes(wanted)),
    )
    .map((k) => k.key);
}

export abstract class SqlOutbox {
  abstract readonly owner: string;
  protected abstract readonly sql: Sql;
  protected abstract readonly now: () => number;

  async claim(reference: string, leaseMs: number): Promise<ClaimedRow | undefined> {
    const now = this.now();
    const [row] = await this.sql.all(OUTBOX_SQL.claim, [this.owner, now + leaseMs, now, reference]);
    return row === undefined ? undefined : toClaimed(row);
  }

  /** Extended only while its token is the row's and its lease has not run out; a row erased meanwhile is still the attempt's to record. */
  async renewLease(lease: Lease, leaseMs: number): Promise<boolean> {
    const now = this.now();
    if ((await this.sql.run(OUTBOX_SQL.renewLease, [now + leaseMs, lease.reference, lease.lease_token, now])) > 0)
      return true;
    const [row] = await this.sql.all(OUTBOX_SQL.leaseOf, [lease.reference]);
    return row !== undefined && Number(row.lease_token) === lease.lease_token && row.status !== 'delivering';
  }

  /** After a write that changed nothing: rejects when another claim holds the row (else it was erased meanwhile, and stays so). */
  protected async checkLease(lease: Lease, sql: Sql = this.sql): Promise<void> {
    const [row] = await sql.all(OUTBOX_SQL.leaseOf, [lease.reference]);
    if (row === undefined || Number(row.lease_token) !== lease.lease_token) throw new LeaseLostError(lease.reference);
  }

  async nextDueAt(): Promise<number | undefined> {
    const [row] = await this.sql.all(OUTBOX_SQL.nextDueAt);
    return row?.at == null ? undefined : Number(row.at);
  }

  /** Makes every waiting row due now (at start-up: a restart often follows a fix, so the backoff starts over). */
  async makePendingDue(): Promise<number> {
    return this.sql.run(OUTBOX_SQL.makePendingDue, [this.now()]);
  }

  async markRetry(lease: Lease, nextAttemptAt: number, error: string, reached = false): Promise<void> {
    const changed = await this.sql.run(OUTBOX_SQL.markRetry, [
      nextAttemptAt,
      error,
      reached ? 1 : 0,
      lease.reference,
      lease.lease_token,
    ]);
    if (changed === 0) await this.checkLease(lease);
  }

  /** One statement: it waits for (or is waited for by) a refusal being recorded on the same row, never crosses it. */
  async answerQueued(reference: string): Promise<boolean> {
    return (await this.sql.run(OUTBOX_SQL.answerQueued, [reference])) > 0;
  }

  async setAnswered(reference: string, status: number): Promise<void> {
    await this.sql.run(OUTBOX_SQL.setAnswered, [status, reference]);
  }

  async get(reference: string): Promise<OutboxRow | undefined> {
    const [row] = await this.sql.all(OUTBOX_SQL.get, [reference]);
    return row === undefined ? undefined : toRow(row);
  }

  async recordedApplication(applicationId: number): Promise<string | undefined> {
    const [row] = await this.sql.all(OUTBOX_SQL.recordedApplication, [applicationId]);
    return row === undefined ? undefined : String(row.reference);
  }

  async summary(reference: string): Promise<OutboxSummary | undefined> {
    const [row] = await this.sql.all(OUTBOX_SQL.summary, [reference]);
    return row === undefined ? undefined : toSummary(row);
  }

  async list(options: { status?: OutboxStatus; limit?: number } = {}): Promise<OutboxSummary[]> {
    return (await listRows(this.sql, OUTBOX_SQL, options)).map(toSummary);
  }

  async counts(): Promise<Record<OutboxStatus, number>> {
    return countByStatus(this.sql, OUTBOX_SQL.counts, OUTBOX_STATUSES);
  }

  async queuedResumeBytes(): Promise<number> {
    const [row] = await this.sql.all(OUTBOX_SQL.queuedResumeBytes);
    return Number(row?.bytes ?? 0);
  }

  /** The count of a window, without counting this call. */
  async peekRate(bucket: string, windowMs: number): Promise<RateCount> {
    const window = rateWindow(bucket, windowMs, this.now());
    const [row] = await this.sql.all(OUTBOX_SQL.peekRate, [window.key]);
    return { count: row === undefined ? 0 : Number(row.count), resetAt: window.resetAt };
  }

  async rememberSourceRefusal(companyId: number, source: string, until: number): Promise<void> {
    await this.sql.run(SOURCE_REFUSAL_SQL.remember, [companyId, source, until]);
  }

  async sourceRefused(companyId: number, source: string): Promise<boolean> {
    return (await this.sql.all(SOURCE_REFUSAL_SQL.refusedUntil, [companyId, source, this.now()])).length > 0;
  }

  async markSourceDropped(lease: Lease): Promise<void> {
    const changed = await this.sql.run(SOURCE_REFUSAL_SQL.markSourceDropped, [lease.reference, lease.lease_token]);
    if (changed === 0) await this.checkLease(lease);
  }

  /** Counts one more in the window and answers the new count. */
  async hitRate(bucket: string, windowMs: number): Promise<RateCount> {
    const window = rateWindow(bucket, windowMs, this.now());
    const [row] = await this.sql.all(OUTBOX_SQL.hitRate, [window.key, window.resetAt]);
    return { count: Number(row!.count), resetAt: window.resetAt };
  }

  async hitRates(buckets: readonly string[], windowMs: number): Promise<RateCount[]> {
    if (new Set(buckets).size !== buckets.length) throw new Error('hitRates counts each bucket once');
    if (buckets.length === 0) return [];
    const now = this.now();
    const windows = buckets.map((bucket) => rateWindow(bucket, windowMs, now));
    const rows = await this.sql.all(
      hitRatesText(windows.length),
      windows.flatMap((window) => [window.key, window.resetAt]),
    );
    const counts = new Map(rows.map((row) => [String(row.bucket), Number(row.count)]));
    return windows.map((window) => ({ count: counts.get(window.key)!, resetAt: window.resetAt }));
  }

  // ---- after delivery: the status sync and the receipts ----

  async claimStatusChecks(
    now: number,
    deliveredSince: number,
    checkedBefore: number,
    limit: number,
  ): Promise<StatusCheck[]> {
    const rows = await this.sql.all(STATUS_SQL.claimStatusChecks, [now, deliveredSince, checkedBefore, limit]);
    return rows.map((row) => ({
      reference: String(row.reference),
      applicationId: Number(row.upstream_application_id),
      companyStatus: row.company_status == null ? null : String(row.company_status),
      claimedAt: Number(row.status_checked_at),
    }));
  }

  abstract recordStatus(check: StatusCheck, status: string): Promise<boolean>;

  async releaseStatusCheck(check: StatusCheck): Promise<void> {
    await this.sql.run(STATUS_SQL.releaseStatusCheck, [check.reference, check.claimedAt]);
  }

  async receipt(token: string): Promise<ReceiptState | undefined> {
    const [row] = await this.sql.all(STATUS_SQL.receipt, [token]);
    if (row === undefined) return undefined;
    return {
      status: row.status as OutboxStatus,
      company_status: row.company_status == null ? null : String(row.company_status),
      campaign_id: Number(row.campaign_id),
      company_id: Number(row.company_id),
      created_at: Number(row.created_at),
    };
  }
}
