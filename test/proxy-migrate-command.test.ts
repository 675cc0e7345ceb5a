// jobboard-connector migrate, as an operator runs it (a real process): on a
// data directory (SQLite) and on DATABASE_URL (PostgreSQL), what it applied,
// nothing the second time, one applier when two run at once, and a clear
// error for a DATABASE_URL that is not PostgreSQL's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { POSTGRES_MIGRATIONS } from '../server/proxy/storage/postgres-schema.ts';
import { SQLITE_MIGRATIONS } from '../server/proxy/storage/sqlite-schema.ts';
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';

const CLI = new URL('../server/cli.ts', import.meta.url).pathname;
const skipPostgres = skipWithoutPostgres();
const databaseUrl = skipPostgres === false ? await freshDatabase() : undefined;

function migrate(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _inherited, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'migrate', ...args], { env: { ...base, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
    });
  });
}

describe('jobboard-connector migrate', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'jbc-migrate-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('on a data directory, says what it applied, then that nothing is left to apply', async () => {
    const dir = newDir();
    const first = await migrate({ DATA_DIR: dir });
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      new RegExp(
        `outbox\\.db: applied ${SQLITE_MIGRATIONS.length} migrations:\\n {2}1 outbox, idempotency keys and rate counters\\n {2}2 resumes as files.*\\n {2}3 the fencing token of delivery leases`,
      ),
    );
    for (const m of SQLITE_MIGRATIONS)
      assert.ok(first.stdout.includes(`  ${m.version} ${m.name}`), `migration ${m.version} is listed`);
    const second = await migrate({}, ['--data-dir', dir]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`up to date \\(schema version ${SQLITE_MIGRATIONS.at(-1)!.version}\\)`));
  });

  it('upgrades an outbox.db of the previous release (user_version 3) keeping its rows', async () => {
    const dir = newDir();
    const db = new DatabaseSync(join(dir, 'outbox.db'));
    db.exec(`CREATE TABLE outbox (reference TEXT PRIMARY KEY, created_at INTEGER NOT NULL, campaign_id INTEGER NOT NULL, company_id INTEGER NOT NULL,
      payload TEXT, resume_type TEXT, resume_bytes INTEGER, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL,
      dead_letter_at INTEGER NOT NULL, lease_owner TEXT, lease_until INTEGER, answered INTEGER, outcome TEXT, last_error TEXT, last_attempt_at INTEGER,
      delivered_at INTEGER, upstream_applicant_id INTEGER, upstream_application_id INTEGER, ended_at INTEGER, erased_at INTEGER, erased_by TEXT,
      unconfirmed_send INTEGER NOT NULL DEFAULT 0);
      INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, status, next_attempt_at, dead_letter_at)
        VALUES ('kept', 1, 12, 3, '{"applicant":{"email":"ada@example.org"}}', 'pending', 1, 2);
      PRAGMA user_version = 3;`);
    db.close();
    const run = await migrate({ DATA_DIR: dir });
    assert.equal(run.code, 0, run.stderr);
    const check = new DatabaseSync(join(dir, 'outbox.db'), { readOnly: true });
    assert.deepEqual(
      { ...check.prepare('SELECT reference, payload, status FROM outbox').get() },
      {
        reference: 'kept',
        payload: '{"applicant":{"email":"ada@example.org"}}',
        status: 'pending',
      },
    );
    assert.equal(
      check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'idempotency_keys'").get()?.n,
      1,
      'the tables it lacked were created',
    );
    check.close();
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL, saying what is expected', async () => {
    const run = await migrate({ DATA_DIR: newDir(), DATABASE_URL: 'mysql://db/jobs' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /DATABASE_URL must be a PostgreSQL URL, like postgres:\/\//);
  });

  it(
    'on DATABASE_URL, applies once even when two run at the same time, and records it',
    { skip: skipPostgres },
    async () => {
      // A password in the URL (the test server trusts local users and ignores it) must not be printed.
      const withPassword = new URL(databaseUrl!);
      withPassword.password = 'pw-not-printed';
      const env = { DATA_DIR: newDir(), DATABASE_URL: withPassword.toString() };
      const runs = await Promise.all([migrate(env), migrate(env)]);
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
      const outputs = runs.map((r) => r.stdout).sort();
      const listed = POSTGRES_MIGRATIONS.map(({ version, name }) => `  ${version} ${name}`).join('\n');
      assert.ok(outputs[0]!.includes(`applied ${POSTGRES_MIGRATIONS.length} migrations:\n${listed}`), outputs[0]!);
      assert.ok(
        outputs[0]!.includes(
          '  2 the upstream request budget and the catalogue copy shared by every instance\n  3 the fencing token of delivery leases',
        ),
      );
      assert.ok(
        outputs[1]!.includes(`up to date (schema version ${POSTGRES_MIGRATIONS.at(-1)!.version})`),
        outputs[1]!,
      );
      assert.equal(outputs.join('').includes('pw-not-printed'), false, 'no password in what it prints');
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ version: number; name: string }>(
          'SELECT version, name FROM schema_migrations ORDER BY version',
        );
        assert.deepEqual(
          rows,
          POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name })),
        );
      } finally {
        await client.end();
      }
    },
  );
});
