// The companies that refused the board's application source, and until when
// the proxy sends them applications without one (source_refusals, migration
// 4). Shared through the database: every instance learns it from the first
// refusal. Written once in the PostgreSQL spelling (toSqlite for SQLite).

export const SOURCE_REFUSAL_SQL = {
  /** One row per company and source: a later refusal moves its end. */
  remember: `INSERT INTO source_refusals (company_id, source, refused_until) VALUES ($1, $2, $3)
    ON CONFLICT (company_id, source) DO UPDATE SET refused_until = excluded.refused_until`,
  refusedUntil:
    'SELECT refused_until FROM source_refusals WHERE company_id = $1 AND source = $2 AND refused_until > $3',
  /** The outbox row remembers that it went without its source (`outbox list` shows it). */
  markSourceDropped: 'UPDATE outbox SET source_dropped = 1 WHERE reference = $1 AND lease_token = $2',
} as const;
