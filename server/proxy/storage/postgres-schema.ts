// The PostgreSQL database's schema and its migrations, for every table the
// proxy keeps there: the outbox and its resumes, idempotency keys, rate
// counters, the upstream request budget and the catalogue's shared copy. Times are milliseconds
// since the epoch (bigint), as in the SQLite file: the proxy passes its own
// clock (`now`) in every statement, so the lease rules read the same in both
// stores and tests can move time.
import type pg from 'pg';
import { SchemaBehindError, checkOrder, refuseNewer } from './migrations.ts';
import type { MigrationRecord, MigrationReport } from './migrations.ts';
import { WEBHOOK_EVENTS_SCHEMA } from './webhooks/webhooks-sql.ts';
import { AFTER_DELIVERY_SQL } from './outbox/status-sql.ts';
import { funnelSchema, waitingSchema } from './funnel/funnel-sql.ts';

/** The request budget several instances spend together (budget-ledger.ts): spent times, a shared pause, and the take function. */
const SHARED_BUDGET_SCHEMA = `
CREATE TABLE IF NOT EXISTS upstream_budget_spent (
  budget text NOT NULL,
  spent_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS upstream_budget_spent_window ON upstream_budget_spent (budget, spent_at);

CREATE TABLE IF NOT EXISTS upstream_budget_state (
  budget text PRIMARY KEY,
  paused_until timestamptz NOT NULL DEFAULT '-infinity',
  high_waiting_until timestamptz NOT NULL DEFAULT '-infinity'
);

-- Spends one token of budget p_budget for a request of priority p_priority
-- ('high' or 'low'), or says how long to wait: retry_ms 0 when granted; used,
-- the tokens spent in the window afterwards.
CREATE OR REPLACE FUNCTION upstream_budget_take(p_budget text, p_priority text, p_limit integer, p_reserved integer, p_window_ms integer, p_high_mark_ms integer)
RETURNS TABLE (retry_ms integer, used integer)
LANGUAGE plpgsql AS $$
DECLARE
  t timestamptz;
  win interval := p_window_ms * interval '1 millisecond';
  allowed integer := CASE WHEN p_priority = 'high' THEN p_limit ELSE p_limit - p_reserved END;
  st upstream_budget_state%ROWTYPE;
  freed timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('upstream_budget'), hashtext(p_budget));
  -- Read after the lock: the time of this take, not of the start of the wait.
  t := clock_timestamp();
  INSERT INTO upstream_budget_state (budget) VALUES (p_budget) ON CONFLICT (budget) DO NOTHING;
  SELECT * INTO st FROM upstream_budget_state s WHERE s.budget = p_budget;
  DELETE FROM upstream_budget_spent s WHERE s.budget = p_budget AND s.spent_at <= t - win;
  SELECT count(*) INTO used FROM upstream_budget_spent s WHERE s.budget = p_budget;
  IF st.paused_until > t THEN
    retry_ms := ceil(extract(epoch FROM st.paused_until - t) * 1000);
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_priority = 'low' AND st.high_waiting_until > t THEN
    retry_ms := ceil(extract(epoch FROM st.high_waiting_until - t) * 1000);
    RETURN NEXT;
    RETURN;
  END IF;
  IF used < allowed THEN
    INSERT INTO upstream_budget_spent (budget, spent_at) VALUES (p_budget, t);
    used := used + 1;
    retry_ms := 0;
    RETURN NEXT;
    RETURN;
  END IF;
  -- The token spent (used - allowed) places from the oldest comes back first.
  SELECT s.spent_at INTO freed FROM upstream_budget_spent s WHERE s.budget = p_budget ORDER BY s.spent_at OFFSET used - allowed LIMIT 1;
  IF p_priority = 'high' THEN
    UPDATE upstream_budget_state s SET high_waiting_until = greatest(s.high_waiting_until, t + p_high_mark_ms * interval '1 millisecond') WHERE s.budget = p_budget;
  END IF;
  retry_ms := greatest(1, ceil(extract(epoch FROM freed + win - t) * 1000));
  RETURN NEXT;
END
$$;
`;

/** The catalogue copy every instance follows (catalogue-shared.ts): its records and its version. */
const SHARED_CATALOGUE_SCHEMA = `
CREATE TABLE IF NOT EXISTS catalogue_campaigns (
  id bigint PRIMARY KEY,
  record jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS catalogue_version (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version bigint NOT NULL,
  synced_at timestamptz NOT NULL
);
`;

/**
 * What changed in the shared catalogue, and at which version: each record's
 * last change, each removed id (a tombstone, pruned after a while: an
 * instance further behind than pruned_version reloads the whole copy), and a
 * copy whose first sync is not complete yet (synced_at null) already holds
 * the pages walked so far.
 */
const SHARED_CATALOGUE_CHANGES = `
ALTER TABLE catalogue_campaigns ADD COLUMN changed_version bigint NOT NULL DEFAULT 0;
CREATE INDEX catalogue_campaigns_changed ON catalogue_campaigns (changed_version);
CREATE TABLE catalogue_deletions (
  id bigint PRIMARY KEY,
  deleted_version bigint NOT NULL
);
CREATE INDEX catalogue_deletions_version ON catalogue_deletions (deleted_version);
ALTER TABLE catalogue_version ADD COLUMN pruned_version bigint NOT NULL DEFAULT 0;
ALTER TABLE catalogue_version ALTER COLUMN synced_at DROP NOT NULL;
`;

interface PostgresMigration extends MigrationRecord {
  sql: string;
}

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'outbox, resume chunks, idempotency keys and rate counters',
    sql: `
CREATE TABLE outbox (
  reference text PRIMARY KEY,
  created_at bigint NOT NULL,
  campaign_id bigint NOT NULL,
  company_id bigint NOT NULL,
  payload jsonb,
  resume_type text,
  resume_bytes bigint,
  status text NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'rejected', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  dead_letter_at bigint NOT NULL,
  lease_owner text,
  lease_until bigint,
  answered integer,
  outcome text,
  last_error text,
  last_attempt_at bigint,
  delivered_at bigint,
  upstream_applicant_id bigint,
  upstream_application_id bigint,
  ended_at bigint,
  erased_at bigint,
  erased_by text,
  unconfirmed_send integer NOT NULL DEFAULT 0
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE TABLE resume_chunks (
  reference text NOT NULL REFERENCES outbox (reference) ON DELETE CASCADE,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (reference, seq)
);
CREATE TABLE idempotency_keys (
  key text PRIMARY KEY,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'done')),
  owner text NOT NULL,
  lease_until bigint NOT NULL,
  reference text,
  status integer,
  body text,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX idempotency_expiry ON idempotency_keys (expires_at);
CREATE TABLE rate_counters (
  bucket text PRIMARY KEY,
  count integer NOT NULL,
  reset_at bigint NOT NULL
);`,
  },
  {
    version: 2,
    name: 'the upstream request budget and the catalogue copy shared by every instance',
    sql: SHARED_BUDGET_SCHEMA + SHARED_CATALOGUE_SCHEMA,
  },
  {
    version: 3,
    name: 'the fencing token of delivery leases',
    sql: 'ALTER TABLE outbox ADD COLUMN lease_token integer NOT NULL DEFAULT 0',
  },
  {
    version: 4,
    name: 'application source refusals and campaign tracking',
    sql: `
ALTER TABLE outbox ADD COLUMN source_dropped integer NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN utm jsonb;
CREATE TABLE source_refusals (
  company_id bigint NOT NULL,
  source text NOT NULL,
  refused_until bigint NOT NULL,
  PRIMARY KEY (company_id, source)
);`,
  },
  {
    version: 5,
    name: 'webhook events, and the idempotency key of each application',
    sql: WEBHOOK_EVENTS_SCHEMA,
  },
  {
    version: 6,
    name: "the candidate's receipt token and the company's status after delivery",
    sql: AFTER_DELIVERY_SQL,
  },
  {
    version: 7,
    name: "the shared catalogue's change log: instances apply the campaigns changed since the version they hold",
    sql: SHARED_CATALOGUE_CHANGES,
  },
  {
    version: 8,
    name: "the funnel's daily counts per offer and source",
    sql: funnelSchema('postgres'),
  },
  {
    version: 9,
    name: "the funnel's counts waiting to be added to the day's rows",
    sql: waitingSchema('postgres'),
  },
];
checkOrder(POSTGRES_MIGRATIONS);

/** One number for the advisory lock every instance takes to migrate (any bigint; this one spells "jbc-apps"). */
const MIGRATION_LOCK = 0x6a62632d61707073n;

/** PostgreSQL's insufficient_privilege: the role may not create or alter the tables. */
const INSUFFICIENT_PRIVILEGE = '42501';

/** The versions recorded in schema_migrations, read without creating anything; undefined when the table is missing. */
async function appliedVersions(client: pg.PoolClient): Promise<number[] | undefined> {
  const { rows } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (rows[0]?.present !== true) return undefined;
  return (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version);
}

/**
 * Applies the migrations the database lacks. Instances starting together
 * queue on an advisory lock: the first applies, the others find it done.
 * A database already current is only read: the proxy may run with a role
 * that reads and writes rows and creates nothing, while the owner's role
 * runs `jobboard-connector migrate`. One behind that the role may not
 * migrate throws SchemaBehindError.
 */
export async function migratePostgres(pool: pg.Pool, where: string): Promise<MigrationReport> {
  const latest = POSTGRES_MIGRATIONS.at(-1)!.version;
  const client = await pool.connect();
  try {
    const found = await appliedVersions(client);
    if (found !== undefined) {
      refuseNewer(found, POSTGRES_MIGRATIONS, where);
      if (POSTGRES_MIGRATIONS.every((m) => found.includes(m.version))) return { applied: [], version: latest };
    }
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    let done: number[] = found ?? [];
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)',
      );
      done = (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
        (r) => r.version,
      );
      refuseNewer(done, POSTGRES_MIGRATIONS, where);
      const applied: MigrationRecord[] = [];
      for (const migration of POSTGRES_MIGRATIONS) {
        if (done.includes(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query(
            'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, clock_timestamp())',
            [migration.version, migration.name],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        applied.push({ version: migration.version, name: migration.name });
        done.push(migration.version);
      }
      return { applied, version: latest };
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== INSUFFICIENT_PRIVILEGE) throw error;
      throw new SchemaBehindError(where, Math.max(0, ...done), latest, { cause: error });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);
    }
  } finally {
    client.release();
  }
}
