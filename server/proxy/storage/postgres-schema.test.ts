// The PostgreSQL migrations runner: what it applies and records, how it reads
// a database already current without writing, how it stops on a database it
// may not change (SchemaBehindError), and what a failing migration leaves.
// Each test has a fresh database; "a role that may not create" is a role of
// its own (dropped at the end) the connections act as.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { TEST_DATABASE_URL, freshDatabase, freshMigratedDatabase, skipWithoutPostgres } from '../../test/postgres.ts';
import { SchemaBehindError } from './migrations.ts';
import { POSTGRES_MIGRATIONS, migratePostgres } from './postgres-schema.ts';

const skip = skipWithoutPostgres();
const LATEST = POSTGRES_MIGRATIONS.at(-1)!.version;
/** A role with no privilege beyond PUBLIC's: in PostgreSQL 15 it may read what is granted to PUBLIC and create nothing. */
const reader = `jbc_reader_${randomBytes(4).toString('hex')}`;

const pools: pg.Pool[] = [];
function poolOn(url: string, options: { as?: string; readOnly?: boolean } = {}): pg.Pool {
  const settings = [
    options.as === undefined ? '' : `-c role=${options.as}`,
    options.readOnly === true ? '-c default_transaction_read_only=on' : '',
  ];
  const pool = new pg.Pool({ connectionString: url, max: 1, options: settings.join(' ').trim() || undefined });
  pools.push(pool);
  return pool;
}

/** Runs `sql` on the database at `url`, as its owner. */
async function asOwner(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The advisory locks held on the database at `url` (the migrations' lock is one). */
async function advisoryLocks(url: string): Promise<number> {
  const { rows } = await asOwner(
    url,
    "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
  );
  return Number(rows[0].n);
}

/** Makes recording `version` in schema_migrations fail with `code`, as a refused or failing write would. */
async function failRecording(url: string, version: number, code: string): Promise<void> {
  await asOwner(
    url,
    `
    CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL);
    CREATE FUNCTION refuse_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.version = ${version} THEN RAISE EXCEPTION 'refused by the test' USING ERRCODE = '${code}'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER refuse_version BEFORE INSERT ON schema_migrations FOR EACH ROW EXECUTE FUNCTION refuse_version();`,
  );
}

describe('PostgreSQL migrations', { skip }, () => {
  before(() => asOwner(TEST_DATABASE_URL!, `CREATE ROLE ${reader} NOLOGIN`));
  after(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await asOwner(TEST_DATABASE_URL!, `DROP ROLE IF EXISTS ${reader}`);
  });

  it('applies every migration to an empty database, records each with its name, and creates every table the proxy uses', async () => {
    const url = await freshDatabase();
    const report = await migratePostgres(poolOn(url), 'test database');
    assert.deepEqual(
      report.applied.map((m) => m.version),
      POSTGRES_MIGRATIONS.map((m) => m.version),
    );
    assert.equal(report.version, LATEST);
    assert.ok(
      report.applied.every((m) => m.name.length > 0),
      'every migration has a name the migrate command prints',
    );
    const { rows } = await asOwner(url, 'SELECT version, name FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows, report.applied);
    const tables = [
      'outbox',
      'resume_chunks',
      'idempotency_keys',
      'rate_counters',
      'upstream_budget_spent',
      'upstream_budget_state',
      'catalogue_campaigns',
      'catalogue_version',
      'catalogue_deletions',
      'source_refusals',
      'funnel_counts',
      'funnel_outcomes',
      'funnel_source_days',
      'funnel_source_outcomes',
      'funnel_offer_spans',
      'funnel_waiting',
    ];
    const { rows: present } = await asOwner(
      url,
      `SELECT ${tables.map((t) => `to_regclass('${t}') IS NOT NULL AS ${t}`).join(', ')}, to_regproc('upstream_budget_take') IS NOT NULL AS budget_take`,
    );
    assert.deepEqual(present[0], { ...Object.fromEntries(tables.map((t) => [t, true])), budget_take: true });
    assert.equal(await advisoryLocks(url), 0, 'the migrations lock is given back');
  });

  it('only reads a database already current: a connection that may not write starts on it', async () => {
    const url = await freshMigratedDatabase();
    assert.deepEqual(await migratePostgres(poolOn(url, { readOnly: true }), 'test database'), {
      applied: [],
      version: LATEST,
    });
    assert.deepEqual(
      await migratePostgres(poolOn(url), 'test database'),
      { applied: [], version: LATEST },
      'and applies nothing twice',
    );
  });

  it('lets instances starting together migrate once: one applies, the others wait and find it done', async () => {
    const url = await freshDatabase();
    const reports = await Promise.all(Array.from({ length: 4 }, () => migratePostgres(poolOn(url), 'test database')));
    assert.deepEqual(reports.map((r) => r.applied.length).sort(), [0, 0, 0, POSTGRES_MIGRATIONS.length]);
    assert.equal(
      Number((await asOwner(url, 'SELECT count(*) AS n FROM schema_migrations')).rows[0].n),
      POSTGRES_MIGRATIONS.length,
    );
  });

  it('stops with SchemaBehindError (version 0, what to run) on an empty database its role may not create tables in', async () => {
    const url = await freshDatabase();
    await assert.rejects(migratePostgres(poolOn(url, { as: reader }), 'test database'), (error: unknown) => {
      assert.ok(error instanceof SchemaBehindError);
      assert.deepEqual([error.current, error.needed], [0, LATEST]);
      assert.equal((error.cause as { code?: string } | undefined)?.code, '42501', 'the refusal is kept as the cause');
      assert.match(
        error.message,
        /test database: the schema is at version 0, this proxy needs version \d+.*jobboard-connector migrate/,
      );
      return true;
    });
    assert.equal(await advisoryLocks(url), 0);
  });

  it('names the version a database its role may not migrate is at', async () => {
    const url = await freshMigratedDatabase();
    await asOwner(url, `DELETE FROM schema_migrations WHERE version > 3; GRANT SELECT ON schema_migrations TO PUBLIC`);
    await assert.rejects(
      migratePostgres(poolOn(url, { as: reader }), 'test database'),
      (error: unknown) => error instanceof SchemaBehindError && error.current === 3,
    );
  });

  it('names the last version it applied when a later migration is refused', async () => {
    const url = await freshDatabase();
    await failRecording(url, 3, '42501');
    await assert.rejects(
      migratePostgres(poolOn(url), 'test database'),
      (error: unknown) => error instanceof SchemaBehindError && error.current === 2,
    );
    assert.equal(await advisoryLocks(url), 0);
  });

  it('refuses a database a newer proxy migrated, whatever its role may do', async () => {
    const url = await freshMigratedDatabase();
    await asOwner(
      url,
      `INSERT INTO schema_migrations VALUES (${LATEST + 1}, 'from the future', now()); GRANT SELECT ON schema_migrations TO PUBLIC`,
    );
    for (const pool of [poolOn(url), poolOn(url, { as: reader })]) {
      await assert.rejects(
        migratePostgres(pool, 'test database'),
        (error: unknown) =>
          !(error instanceof SchemaBehindError) &&
          (error as Error).message.includes(`migrated by a newer jobboard-connector (schema version ${LATEST + 1}`),
      );
    }
  });

  it('applies a migration and its record together: a failed record leaves the schema as it was, and the error as it came', async () => {
    const url = await freshDatabase();
    await failRecording(url, 3, '23514');
    await assert.rejects(
      migratePostgres(poolOn(url), 'test database'),
      (error: unknown) => (error as { code?: string }).code === '23514' && !(error instanceof SchemaBehindError),
    );
    const { rows } = await asOwner(
      url,
      "SELECT (SELECT array_agg(version ORDER BY version) FROM schema_migrations) AS versions, to_regclass('outbox') IS NOT NULL AS outbox, EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'outbox' AND column_name = 'lease_token') AS lease_token",
    );
    assert.deepEqual(rows[0], { versions: [1, 2], outbox: true, lease_token: false });
    assert.equal(await advisoryLocks(url), 0);
  });
});
