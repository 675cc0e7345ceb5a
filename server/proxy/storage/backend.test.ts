// openBackend on both databases: stores written by the last release open
// with their rows kept (their migrations recognised, only later ones run), and a new
// PostgreSQL database is migrated once for every store on it, the
// catalogue's copy included.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import pino from 'pino';
import { freshDatabase, skipWithoutPostgres } from '../../test/postgres.ts';
import { eventually } from '../../test/poll.ts';
import { MemoryStore } from 'express-rate-limit';
import { RequestBudget } from '../../client/index.ts';
import { openBackend, redactUrl, storageDescription, storageExists, storageLocation } from './backend.ts';
import type { Backend, BackendOptions } from './backend.ts';
import type { MigrationRecord } from './migrations.ts';
import { POSTGRES_MIGRATIONS } from './postgres-schema.ts';
import { SQLITE_MIGRATIONS } from './sqlite-schema.ts';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const silent = pino({ level: 'silent' });
const tmp = mkdtempSync(join(tmpdir(), 'backend-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The last migration 0.2.0 applied, on both databases: the fixtures are at it. */
const RELEASE_0_2_0_VERSION = 3;
/** The migrations added since 0.2.0, which opening its store applies. */
const sinceRelease = (migrations: readonly MigrationRecord[]) =>
  migrations.filter((m) => m.version > RELEASE_0_2_0_VERSION).map(({ version, name }) => ({ version, name }));

/** What a store of 0.2.0 holds (fixtures/*-0.2.0.sql), read back through today's interfaces. */
async function assertReleaseDataKept(backend: Backend, migrations: readonly MigrationRecord[]): Promise<void> {
  // A minute after the fixtures were written (2026-01-01): the key has not expired.
  const store = backend.openApplications({ owner: 'today', now: () => Date.UTC(2026, 0, 1, 0, 1) });
  const report = await store.ready();
  assert.deepEqual(
    report.applied,
    sinceRelease(migrations),
    'every migration of the release is recognised as applied, only the newer ones run',
  );
  const waiting = await store.get('waiting-1');
  assert.equal(waiting?.status, 'pending');
  assert.equal(waiting?.payload?.applicant.email, 'ada@example.org');
  assert.equal((await store.summary('delivered-1'))?.upstream_application_id, 8);
  assert.deepEqual(await store.claimKey('key-1', ''), {
    kind: 'replay',
    status: 202,
    body: '{"reference":"waiting-1"}',
  });
  // The fencing token of 0.2.0's last migration is there: a claim takes the row under a new one.
  const claimed = await store.claim('waiting-1', 60_000);
  assert.equal(claimed?.lease_token, 1);
  await store.close();
}

/** Runs `use` on a backend opened with `options`, closed after it whatever happens. */
async function withBackend(options: BackendOptions, use: (backend: Backend) => Promise<void>): Promise<void> {
  const backend = openBackend(options);
  try {
    await use(backend);
  } finally {
    await backend.close();
  }
}

describe('openBackend on SQLite', () => {
  it('opens a data directory written by 0.2.0: only the migrations after its own applied, its applications and keys kept', async () => {
    const dataDir = join(tmp, 'sqlite-0.2.0');
    mkdirSync(dataDir);
    const db = new DatabaseSync(join(dataDir, 'outbox.db'));
    db.exec(fixture('sqlite-0.2.0.sql'));
    db.close();
    await withBackend({ dataDir, databaseUrl: null }, async (backend) => {
      await assertReleaseDataKept(backend, SQLITE_MIGRATIONS);
      assert.equal((await backend.ready()).version, SQLITE_MIGRATIONS.at(-1)!.version);
    });
  });
});

const skipPostgres = skipWithoutPostgres();

describe('openBackend on PostgreSQL', { skip: skipPostgres }, () => {
  it('opens a database migrated by 0.2.0: only the migrations after its own applied, its applications and keys kept', async () => {
    const url = await freshDatabase();
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query(fixture('postgres-0.2.0.sql'));
    await setup.end();
    await withBackend({ dataDir: join(tmp, 'pg-0.2.0'), databaseUrl: url }, async (backend) => {
      await assertReleaseDataKept(backend, POSTGRES_MIGRATIONS);
      assert.equal((await backend.ready()).version, POSTGRES_MIGRATIONS.at(-1)!.version);
    });
  });

  it("migrates a new database once for every store: the catalogue's copy loads with no application store opened", async () => {
    const url = await freshDatabase();
    const backend = openBackend({ dataDir: join(tmp, 'pg-new'), databaseUrl: url });
    const copy = backend.openCatalogue(silent);
    try {
      await copy.load();
      assert.equal(copy.copy.shared, true);
      assert.equal(copy.copy.store.count(), 0, 'loaded: an empty copy, not a missing table');
      const report = await backend.ready();
      assert.deepEqual(
        report.applied.map((m) => m.version),
        POSTGRES_MIGRATIONS.map((m) => m.version),
      );
      // A store opened afterwards finds the database migrated by the same run.
      assert.deepEqual(await backend.openApplications({ owner: 'later' }).ready(), report);
    } finally {
      await copy.close();
      await backend.close();
    }
  });
});

describe('where a configuration keeps its data', () => {
  const files = { dataDir: '/var/lib/jobs', databaseUrl: null };
  const database = { dataDir: '/var/lib/jobs', databaseUrl: 'postgres://proxy:s3cret@db.example:5432/jobs' };

  it('names the outbox file, or the database without its password', () => {
    assert.equal(storageLocation(files), join('/var/lib/jobs', 'outbox.db'));
    assert.equal(storageLocation(database), 'postgres://proxy@db.example:5432/jobs');
    assert.equal(redactUrl('postgres://u:p@h/d'), 'postgres://u@h/d');
    assert.equal(redactUrl('postgres://u@h/d'), 'postgres://u@h/d', 'nothing to remove');
  });

  it('describes it as the start line does, the uploads directory beside a database', () => {
    assert.equal(storageDescription(files), 'data in /var/lib/jobs');
    assert.equal(
      storageDescription(database),
      'data in postgres://proxy@db.example:5432/jobs (uploads in /var/lib/jobs)',
    );
  });

  it('tells whether the files are there; a database is assumed to be', () => {
    const dataDir = join(tmp, 'exists');
    mkdirSync(dataDir);
    assert.equal(storageExists({ dataDir, databaseUrl: null }), false, 'a directory with no outbox.db');
    new DatabaseSync(join(dataDir, 'outbox.db')).close();
    assert.equal(storageExists({ dataDir, databaseUrl: null }), true);
    assert.equal(storageExists({ dataDir: join(tmp, 'nowhere'), databaseUrl: database.databaseUrl }), true);
  });
});

describe('what each backend gives beside its stores', () => {
  const share = { name: 'status-sync', perMinute: 12, windowMs: 60_000 };

  it('SQLite: counts addresses in memory, budgets in this process, and has no database to watch', async () => {
    const dataDir = join(tmp, 'sqlite-parts');
    mkdirSync(dataDir);
    await withBackend({ dataDir, databaseUrl: null }, async (backend) => {
      assert.equal(backend.location, join(dataDir, 'outbox.db'));
      assert.equal(backend.database, undefined);
      assert.equal(backend.watch(), undefined);
      assert.ok(backend.addressCounts(() => Promise.reject(new Error('not asked')), 60_000) instanceof MemoryStore);
      const budget = backend.requestBudget(() => {});
      assert.ok(budget instanceof RequestBudget);
      assert.equal(budget.perMinute, 120, "the client's own budget");
      const own = backend.requestBudget(() => {}, share);
      assert.deepEqual(
        [own.perMinute, own.windowMs, own.reservedForHigh],
        [12, 60_000, 0],
        "a job's share, nothing kept for high priority",
      );
      const report = await backend.ready();
      assert.equal(report.version, SQLITE_MIGRATIONS.at(-1)!.version, 'ready() migrates the file with no store opened');
      assert.deepEqual(await backend.ready(), report, 'once');
      const store = backend.openApplications({ owner: 'a' });
      await store.ready();
      await backend.close();
      assert.equal(store.isOpen, false, 'close() closes the stores it opened');
    });
  });

  describe('PostgreSQL', { skip: skipPostgres }, () => {
    it('counts addresses in the shared counters, budgets shared by the instances, and watches the database', async () => {
      const url = await freshDatabase();
      await withBackend({ dataDir: join(tmp, 'pg-parts'), databaseUrl: url }, async (backend) => {
        assert.equal(backend.location, redactUrl(url));
        assert.equal(backend.database?.location, redactUrl(url));
        const store = backend.openApplications({ owner: 'a' });
        await store.ready();
        const counts = backend.addressCounts(() => Promise.resolve(store), 60_000);
        assert.equal(counts.localKeys, false, 'shared between instances');
        assert.equal((await counts.increment('203.0.113.7')).totalHits, 1);
        assert.equal((await store.peekRate('ip:203.0.113.7', 60_000)).count, 1, "counted in the database's counters");
        const own = backend.requestBudget(() => {}, share);
        assert.deepEqual([own.perMinute, own.windowMs, own.reservedForHigh], [12, 60_000, 0]);
        assert.equal(backend.requestBudget(() => {}).perMinute, 120);
        assert.deepEqual(backend.watch()?.check(), { status: 'ok', ready: true });
        const pool = backend.database!.pool;
        await backend.close();
        assert.equal(pool.ended, true, 'close() ends the pool');
        assert.equal(store.isOpen, false);
      });
    });

    it('reports an idle connection the server cut to onIdleError, where it would have ended the process, and goes on with another', async () => {
      const url = await freshDatabase();
      const cut: Error[] = [];
      const options = {
        dataDir: join(tmp, 'pg-idle'),
        databaseUrl: url,
        onIdleError: (error: Error) => cut.push(error),
      };
      await withBackend(options, async (backend) => {
        const pool = backend.database!.pool;
        const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        try {
          await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        } finally {
          await admin.end();
        }
        await eventually(() => cut.length === 1, { timeoutMs: 5_000, what: 'the idle error reported' });
        assert.match(cut[0]!.message, /terminat/);
        assert.equal((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one, 1);
      });
    });
  });
});
