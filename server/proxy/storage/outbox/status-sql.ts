// The statements of what the proxy follows after delivery, both stores
// (written once, PostgreSQL spelling; toSqlite gives SQLite's): the
// company's status of each delivered application (the status sync) and the
// candidate's receipt, found by its token.

/**
 * Migration 6 of both databases (the same text: SQLite takes bigint as an
 * integer). The token is the receipt's only key: unique, and never shown
 * in `outbox list`.
 */
export const AFTER_DELIVERY_SQL = `
ALTER TABLE outbox ADD COLUMN receipt_token text;
ALTER TABLE outbox ADD COLUMN company_status text;
ALTER TABLE outbox ADD COLUMN status_checked_at bigint;
CREATE UNIQUE INDEX outbox_receipt_token ON outbox (receipt_token);
CREATE INDEX outbox_status_checks ON outbox (status, status_checked_at);
`;

/**
 * Claims up to $4 applications whose status is due for a check: delivered by
 * this proxy with the service's application id, delivered at or after $2,
 * last checked at or before $3 (never checked first, then the longest
 * unchecked). The claim is the check time itself, written in the same
 * statement ($1): another instance's claim in the next 6 hours finds it not
 * due. The due rows are chosen once (a materialised CTE: a subquery under IN
 * may be run again, and with SKIP LOCKED give more rows than its LIMIT);
 * SKIP LOCKED (PostgreSQL) passes over rows another instance is claiming
 * this instant, and the condition is checked again on the row as it is once
 * its lock is free, so a row is never claimed twice per period.
 */
const CLAIM_STATUS_CHECKS = `WITH due AS MATERIALIZED (
    SELECT reference AS due_reference FROM outbox
    WHERE status = 'delivered' AND upstream_application_id IS NOT NULL AND delivered_at >= $2 AND coalesce(status_checked_at, 0) <= $3
    ORDER BY coalesce(status_checked_at, 0), delivered_at, reference LIMIT $4 FOR UPDATE SKIP LOCKED)
  UPDATE outbox SET status_checked_at = $1 FROM due
  WHERE reference = due_reference AND status = 'delivered' AND coalesce(status_checked_at, 0) <= $3
  RETURNING reference, upstream_application_id, company_status, status_checked_at`;

export const STATUS_SQL = {
  claimStatusChecks: CLAIM_STATUS_CHECKS,
  /** The status stored before, under the claim it is checked with ($2, the claim's time), locked until the new one is recorded. */
  statusUnderClaim: 'SELECT company_status FROM outbox WHERE reference = $1 AND status_checked_at = $2 FOR UPDATE',
  /** The status the service answered, under the claim it was checked with ($3, the claim's time). */
  recordStatus: 'UPDATE outbox SET company_status = $1 WHERE reference = $2 AND status_checked_at = $3',
  /** A check that could not be made: the row is due again at once, unless claimed since ($2, the claim's time). */
  releaseStatusCheck: 'UPDATE outbox SET status_checked_at = NULL WHERE reference = $1 AND status_checked_at = $2',
  /** What a receipt shows: no personal data, no reference. */
  receipt: 'SELECT status, company_status, campaign_id, company_id, created_at FROM outbox WHERE receipt_token = $1',
} as const;
