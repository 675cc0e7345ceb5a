// openStoreForCommand, what the outbox and migrate commands open: the
// application store of a configuration, migrated, on SQLite (DATA_DIR) and on
// PostgreSQL (DATABASE_URL, a fresh database; skipped without a server).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { freshDatabase, skipWithoutPostgres } from '../../test/postgres.ts';
import { pino } from 'pino';
import { openCatalogueStore } from './catalogue/catalogue-sqlite.ts';
import { openCatalogueForCommand, openStoreForCommand } from './index.ts';

const skipPostgres = skipWithoutPostgres();
const databaseUrl = skipPostgres === false ? await freshDatabase() : null;

const application = (reference: string) => ({
  reference,
  campaign_id: 12,
  company_id: 3,
  payload: { applicant: { email: 'ada@example.org', first_name: 'Ada' } },
  resume: null,
  resume_type: null,
});

for (const [name, url, skip] of [
  ['SQLite', null, false],
  ['PostgreSQL', databaseUrl, skipPostgres],
] as const) {
  describe(`openStoreForCommand (${name})`, { skip }, () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'jbc-index-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('opens the store migrated, with the events asked for, and a second opening finds nothing more to migrate', async () => {
      const first = await openStoreForCommand({
        dataDir: dir,
        databaseUrl: url,
        owner: 'outbox-command',
        webhookEvents: { includeCandidate: false },
      });
      try {
        assert.ok(first.migrations.applied.length > 0, 'a new store is migrated');
        assert.equal(first.migrations.version, first.migrations.applied.at(-1)?.version);
        assert.equal(first.store.webhooks.recording, true, 'the webhook events the command was given');
        await first.store.enqueue(application('r1'), { deadLetterAfterMs: 60_000 });
      } finally {
        await first.close();
      }
      const second = await openStoreForCommand({ dataDir: dir, databaseUrl: url, owner: 'outbox-command' });
      try {
        assert.deepEqual(second.migrations.applied, []);
        assert.equal(second.migrations.version, first.migrations.version);
        assert.equal(second.store.webhooks.recording, false);
        assert.equal((await second.store.get('r1'))?.status, 'pending');
      } finally {
        await second.close();
      }
    });

    it('closes the backend with close(): the store answers no more', async () => {
      const opened = await openStoreForCommand({ dataDir: dir, databaseUrl: url, owner: 'outbox-command' });
      await opened.close();
      await assert.rejects(opened.store.get('r1'));
    });
  });
}

describe('openStoreForCommand refusing a store', () => {
  it('rejects with why when the store cannot be opened (here: migrated by a newer version)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jbc-index-'));
    try {
      const db = new DatabaseSync(join(dir, 'outbox.db'));
      db.exec(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
      db.exec("INSERT INTO schema_migrations VALUES (9999, 'from the future', 0)");
      db.close();
      await assert.rejects(
        openStoreForCommand({ dataDir: dir, databaseUrl: null, owner: 'migrate' }),
        /migrated by a newer jobboard-connector \(schema version 9999/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects when the PostgreSQL server cannot be reached', { skip: skipPostgres }, async () => {
    // A port nothing listens on: the connection is refused at once.
    const unreachable = new URL(databaseUrl!);
    unreachable.port = '9';
    await assert.rejects(
      openStoreForCommand({ dataDir: tmpdir(), databaseUrl: unreachable.toString(), owner: 'migrate' }),
      /ECONNREFUSED/,
    );
  });
});

// openCatalogueForCommand, what `offers check` reads: the catalogue a proxy keeps in DATA_DIR, in this process.
describe('openCatalogueForCommand (SQLite)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalogue-command-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const logger = pino({ level: 'silent' });

  it('answers nothing where no proxy kept a catalogue', async () => {
    assert.equal(await openCatalogueForCommand({ dataDir: dir, databaseUrl: null, logger }), undefined);
  });

  it('opens the catalogue a proxy kept in the data directory, named by its file, and closes it', async () => {
    openCatalogueStore(dir).close();
    const opened = await openCatalogueForCommand({ dataDir: dir, databaseUrl: null, logger });
    assert.ok(opened !== undefined);
    assert.equal(opened.where, join(dir, 'catalogue.db'));
    assert.deepEqual(opened.store.listedIds(), []);
    await opened.close();
    assert.throws(() => opened.store.listedIds());
  });
});
