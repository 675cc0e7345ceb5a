// The statements both application stores run, each written once in the
// PostgreSQL spelling ($1 placeholders); the SQLite store runs them through
// toSqlite (sqlite-dialect.ts), the one place the spellings differ. Only
// what truly differs stays with one store: SQLite's claims one by one and
// its taking back of a gone process's rows, PostgreSQL's SKIP LOCKED claims,
// key leases and resume chunks. Times are the proxy's clock (ms), passed in.
import type { EnqueueOptions, NewApplication } from './application-store.ts';
import type { SqlValue } from '../sql.ts';

/** What `outbox list` and logs may show: every column but the personal data, and whether the row still holds some. */
const SUMMARY_COLUMNS = `reference, created_at, campaign_id, company_id, resume_type, resume_bytes, status, attempts,
  next_attempt_at, dead_letter_at, answered, outcome, last_error, last_attempt_at, delivered_at,
  upstream_applicant_id, upstream_application_id, ended_at, erased_at, erased_by, unconfirmed_send, source_dropped, utm, company_status, status_checked_at,
  (payload IS NOT NULL OR resume_bytes IS NOT NULL) AS personal_data`;

/**
 * When the retention period of a dead or refused row starts: when it ended;
 * rows stored before that time was recorded use their last attempt (a row
 * ends right after one), else their creation.
 */
export const RETENTION_FROM = 'coalesce(ended_at, last_attempt_at, created_at)';

/** The values of OUTBOX_SQL.enqueue for one application, in its order. */
export function enqueueParams(app: NewApplication, now: number, options: EnqueueOptions): SqlValue[] {
  const utm = app.utm === undefined || app.utm === null ? null : JSON.stringify(app.utm);
  return [
    app.reference,
    now,
    app.campaign_id,
    app.company_id,
    JSON.stringify(app.payload),
    app.resume_type,
    app.resume?.size ?? null,
    now + options.deadLetterAfterMs,
    utm,
    app.receipt_token ?? null,
    now + (options.firstAttemptAfterMs ?? 0),
  ];
}

export const OUTBOX_SQL = {
  // ---- applications ----
  enqueue: `INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, resume_type, resume_bytes, status, attempts, next_attempt_at, dead_letter_at, utm, receipt_token)
    VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 0, $11, $8, $9, $10)`,
  /** Status delivering, a lease under a new token, and the attempt counted before it is made. */
  claim: `UPDATE outbox SET status = 'delivering', lease_owner = $1, lease_until = $2, lease_token = lease_token + 1, attempts = attempts + 1,
    last_attempt_at = $3 WHERE reference = $4 AND status = 'pending' RETURNING *`,
  renewLease:
    "UPDATE outbox SET lease_until = $1 WHERE reference = $2 AND lease_token = $3 AND status = 'delivering' AND lease_until > $4",
  leaseOf: 'SELECT lease_token, status FROM outbox WHERE reference = $1',
  nextDueAt: "SELECT min(next_attempt_at) AS at FROM outbox WHERE status = 'pending'",
  makePendingDue: "UPDATE outbox SET next_attempt_at = $1 WHERE status = 'pending' AND next_attempt_at > $1",
  // The writes of an attempt, each under its lease (lease_token). markRetry, markRejected and markDead leave a
  // row erased during its attempt as it is (`erased_at IS NULL`): it must not go back in line. A delivery that
  // succeeded meanwhile is still recorded by markDelivered: the service has it, the list must say so. An end
  // written again (the row already in the status it writes) changes nothing: no second event, no second count.
  markDelivered: `UPDATE outbox SET status = 'delivered', outcome = $1, delivered_at = $2, payload = NULL, resume_bytes = NULL, lease_owner = NULL,
    lease_until = NULL, last_error = NULL, upstream_applicant_id = $3, upstream_application_id = $4
    WHERE reference = $5 AND lease_token = $6 AND status <> 'delivered'`,
  markRetry: `UPDATE outbox SET status = 'pending', next_attempt_at = $1, last_error = $2, lease_owner = NULL, lease_until = NULL,
    unconfirmed_send = CASE WHEN $3 = 1 THEN 1 ELSE unconfirmed_send END WHERE reference = $4 AND lease_token = $5 AND erased_at IS NULL`,
  markRejected: `UPDATE outbox SET status = 'rejected', outcome = $1, last_error = $2, payload = NULL, resume_bytes = NULL, lease_owner = NULL,
    lease_until = NULL, ended_at = $3 WHERE reference = $4 AND lease_token = $5 AND erased_at IS NULL AND status <> 'rejected'`,
  markDead: `UPDATE outbox SET status = 'dead', outcome = $1, last_error = $2, lease_owner = NULL, lease_until = NULL, ended_at = $3
    WHERE reference = $4 AND lease_token = $5 AND erased_at IS NULL AND status <> 'dead'`,
  /** Rejected (data gone) or dead (kept), decided in the statement that reads `answered`, so it cannot cross answerQueued. */
  markRefused: `UPDATE outbox SET status = CASE WHEN answered IS NULL THEN 'rejected' ELSE 'dead' END, outcome = $1, last_error = $2,
    payload = CASE WHEN answered IS NULL THEN NULL ELSE payload END, resume_bytes = CASE WHEN answered IS NULL THEN NULL ELSE resume_bytes END,
    lease_owner = NULL, lease_until = NULL, ended_at = $3
    WHERE reference = $4 AND lease_token = $5 AND erased_at IS NULL
    AND status <> CASE WHEN answered IS NULL THEN 'rejected' ELSE 'dead' END RETURNING status`,
  answerQueued:
    "UPDATE outbox SET answered = coalesce(answered, 202) WHERE reference = $1 AND status IN ('pending', 'delivering')",
  setAnswered: 'UPDATE outbox SET answered = $1 WHERE reference = $2 AND answered IS NULL',
  get: 'SELECT * FROM outbox WHERE reference = $1',
  recordedApplication: 'SELECT reference FROM outbox WHERE upstream_application_id = $1 LIMIT 1',
  summary: `SELECT ${SUMMARY_COLUMNS} FROM outbox WHERE reference = $1`,
  list: `SELECT ${SUMMARY_COLUMNS} FROM outbox ORDER BY created_at LIMIT $1`,
  listByStatus: `SELECT ${SUMMARY_COLUMNS} FROM outbox WHERE status = $2 ORDER BY created_at LIMIT $1`,
  counts: 'SELECT status, CAST(count(*) AS integer) AS n FROM outbox GROUP BY status',
  queuedResumeBytes:
    "SELECT CAST(coalesce(sum(resume_bytes), 0) AS bigint) AS bytes FROM outbox WHERE status <> 'delivered'",
  retryState:
    'SELECT status, payload IS NOT NULL AS has_payload, erased_at FROM outbox WHERE reference = $1 FOR UPDATE',
  requeue:
    "UPDATE outbox SET status = 'pending', next_attempt_at = $1, dead_letter_at = $2, outcome = NULL, ended_at = NULL WHERE reference = $3",

  // ---- retention and erasure ----
  dropPersonalData:
    'UPDATE outbox SET payload = NULL, resume_bytes = NULL, erased_at = $1, erased_by = $2 WHERE reference = $3',
  /** Rows in line are never touched: they need their data to be delivered. */
  retentionEnded: `SELECT reference FROM outbox WHERE status IN ('dead', 'rejected') AND ${RETENTION_FROM} <= $1
    AND (payload IS NOT NULL OR resume_bytes IS NOT NULL) FOR UPDATE`,
  withPayload: 'SELECT reference, status, outcome, payload FROM outbox WHERE payload IS NOT NULL FOR UPDATE',
  rejectErased:
    "UPDATE outbox SET status = 'rejected', outcome = 'erased', ended_at = $1, lease_owner = NULL, lease_until = NULL WHERE reference = $2",
  /** $1 a prefix, $2 its length: a plain comparison both databases spell alike (no LIKE wildcards in a bucket to escape). */
  deleteCountersOf: 'DELETE FROM rate_counters WHERE substr(bucket, 1, $2) = $1',
  keysWithAnswers: 'SELECT key, reference, body FROM idempotency_keys',
  deleteKey: 'DELETE FROM idempotency_keys WHERE key = $1',
  purgeDelivered:
    "DELETE FROM outbox WHERE status IN ('delivered', 'rejected') AND coalesce(delivered_at, ended_at, last_attempt_at, created_at) <= $1",
  pruneKeys: 'DELETE FROM idempotency_keys WHERE expires_at <= $1',
  pruneRates: 'DELETE FROM rate_counters WHERE reset_at <= $1',

  // ---- rate counters (fixed windows) ----
  peekRate: 'SELECT count FROM rate_counters WHERE bucket = $1',
  hitRate:
    'INSERT INTO rate_counters (bucket, count, reset_at) VALUES ($1, 1, $2) ON CONFLICT (bucket) DO UPDATE SET count = rate_counters.count + 1 RETURNING count',
} as const;

/** hitRate of `buckets` distinct buckets at once (parameters bucket, reset_at, ... from $1), each answered with its bucket. */
export function hitRatesText(buckets: number): string {
  const values = Array.from({ length: buckets }, (_, i) => `($${2 * i + 1}, 1, $${2 * i + 2})`).join(', ');
  return `INSERT INTO rate_counters (bucket, count, reset_at) VALUES ${values}
    ON CONFLICT (bucket) DO UPDATE SET count = rate_counters.count + 1 RETURNING bucket, count`;
}
