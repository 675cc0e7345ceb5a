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
import { openBackend } from './backend.ts';
import type { Backend } from './backend.ts';
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
const sinceRelease = (migrations: readonly MigrationRecord[]) => migrations.filter((m) => m.version > RELEASE_0_2_0_VERSION).map(({ version, name }) => ({ version, name }));

/** What a store of 0.2.0 holds (fixtures/*-0.2.0.sql), read back through today's interfaces. */
async function assertReleaseDataKept(backend: Backend, migrations: readonly MigrationRecord[]): Promise<void> {
  // A minute after the fixtures were written (2026-01-01): the key has not expired.
  const store = backend.openApplications({ owner: 'today', now: () => Date.UTC(2026, 0, 1, 0, 1) });
  const report = await store.ready();
  assert.deepEqual(report.applied, sinceRelease(migrations), 'every migration of the release is recognised as applied, only the newer ones run');
  const waiting = await store.get('waiting-1');
  assert.equal(waiting?.status, 'pending');
  assert.equal(waiting?.payload?.applicant.email, 'ada@example.org');
  assert.equal((await store.summary('delivered-1'))?.upstream_application_id, 8);
  assert.deepEqual(await store.claimKey('key-1', ''), { kind: 'replay', status: 202, body: '{"reference":"waiting-1"}' });
  // The fencing token of 0.2.0's last migration is there: a claim takes the row under a new one.
  const claimed = await store.claim('waiting-1', 60_000);
  assert.equal(claimed?.lease_token, 1);
  await store.close();
}

describe('openBackend on SQLite', () => {
  it('opens a data directory written by 0.2.0: only the migrations after its own applied, its applications and keys kept', async () => {
    const dataDir = join(tmp, 'sqlite-0.2.0');
    mkdirSync(dataDir);
    const db = new DatabaseSync(join(dataDir, 'outbox.db'));
    db.exec(fixture('sqlite-0.2.0.sql'));
    db.close();
    const backend = openBackend({ dataDir, databaseUrl: null });
    try {
      await assertReleaseDataKept(backend, SQLITE_MIGRATIONS);
      assert.equal((await backend.ready()).version, SQLITE_MIGRATIONS.at(-1)!.version);
    } finally {
      await backend.close();
    }
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
    const backend = openBackend({ dataDir: join(tmp, 'pg-0.2.0'), databaseUrl: url });
    try {
      await assertReleaseDataKept(backend, POSTGRES_MIGRATIONS);
      assert.equal((await backend.ready()).version, POSTGRES_MIGRATIONS.at(-1)!.version);
    } finally {
      await backend.close();
    }
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
      assert.deepEqual(report.applied.map((m) => m.version), POSTGRES_MIGRATIONS.map((m) => m.version));
      // A store opened afterwards finds the database migrated by the same run.
      assert.deepEqual(await backend.openApplications({ owner: 'later' }).ready(), report);
    } finally {
      await copy.close();
      await backend.close();
    }
  });
});
