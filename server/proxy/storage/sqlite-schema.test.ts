// The SQLite store's migrations as an operator sees them (`migrate` lists
// each by name) and as the file ends up: a file of the first release gets the
// columns a new file has, with the same types; the 0.2.0 resume blobs become
// files made durable before their table goes; a refused file is left as it was.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { ResumeFiles } from './outbox/resume-files.ts';
import { SqliteApplicationStore } from './outbox/sqlite-store.ts';

/** The outbox table of the first release: no ended_at, erased_at, erased_by, unconfirmed_send. */
const FIRST_OUTBOX = `CREATE TABLE outbox (reference TEXT PRIMARY KEY, created_at INTEGER NOT NULL, campaign_id INTEGER NOT NULL,
  company_id INTEGER NOT NULL, payload TEXT, resume_type TEXT, resume_bytes INTEGER, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL, dead_letter_at INTEGER NOT NULL, lease_owner TEXT, lease_until INTEGER, answered INTEGER, outcome TEXT,
  last_error TEXT, last_attempt_at INTEGER, delivered_at INTEGER, upstream_applicant_id INTEGER, upstream_application_id INTEGER)`;

describe('SQLite schema migrations', () => {
  let dir: string;
  const open = (dataDir: string, resumes?: ResumeFiles) =>
    new SqliteApplicationStore({ dataDir, owner: 'p', now: () => 0, ...(resumes === undefined ? {} : { resumes }) });
  const columns = (file: string) => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return (
        db.prepare('PRAGMA table_info(outbox)').all() as {
          name: string;
          type: string;
          notnull: number;
          dflt_value: unknown;
        }[]
      )
        .map(({ name, type, notnull, dflt_value }) => ({ name, type, notnull, dflt_value }))
        .sort((a, b) => a.name.localeCompare(b.name));
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-sqlite-schema-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names each migration it applies, as the migrate command lists them', async () => {
    const store = open(dir);
    await store.close();
    assert.deepEqual(
      store.migrations.applied.map((m) => m.name),
      [
        'outbox, idempotency keys and rate counters',
        'resumes as files in DATA_DIR/resumes',
        'the fencing token of delivery leases',
        'application source refusals and campaign tracking',
        'webhook events, and the idempotency key of each application',
        "the candidate's receipt token and the company's status after delivery",
        "the funnel's daily counts per offer and source",
        "the funnel's counts waiting to be added to the day's rows",
      ],
    );
  });

  it("gives a first release's outbox the columns a new file has, with the same types", async () => {
    const fresh = join(dir, 'fresh');
    await open(fresh).close();
    const old = join(dir, 'old');
    mkdirSync(old);
    const db = new DatabaseSync(join(old, 'outbox.db'));
    db.exec(FIRST_OUTBOX);
    db.close();
    await open(old).close();
    assert.deepEqual(columns(join(old, 'outbox.db')), columns(join(fresh, 'outbox.db')));
  });

  it('makes the resume files of 0.2.0 blobs durable, the folder synced once they are all written', async () => {
    const db = new DatabaseSync(join(dir, 'outbox.db'));
    db.exec(
      `${FIRST_OUTBOX}; CREATE TABLE outbox_resumes (reference TEXT PRIMARY KEY, bytes BLOB NOT NULL); PRAGMA user_version = 2;`,
    );
    const insert =
      db.prepare(`INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, resume_type, resume_bytes, status, next_attempt_at, dead_letter_at)
      VALUES (?, 0, 12, 3, '{}', 'pdf', 9, 'pending', 0, 0)`);
    const blob = db.prepare('INSERT INTO outbox_resumes (reference, bytes) VALUES (?, ?)');
    for (const reference of ['a', 'b']) {
      insert.run(reference);
      blob.run(reference, Buffer.from('%PDF-1.4\n'));
    }
    db.close();
    const steps: string[] = [];
    /** Records the writes and syncs the migration asks for. */
    class Recorded extends ResumeFiles {
      override write(reference: string, bytes: Uint8Array): void {
        steps.push(`write ${reference}`);
        super.write(reference, bytes);
      }
      override syncFolder(): void {
        steps.push('sync folder');
        super.syncFolder();
      }
    }
    await open(dir, new Recorded(dir)).close();
    assert.deepEqual(steps, ['write a', 'write b', 'sync folder']);
  });

  it('leaves a file it refuses unlocked and unchanged, so the operator can repair it', async () => {
    await open(dir).close();
    const db = new DatabaseSync(join(dir, 'outbox.db'));
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)").run();
    db.close();
    assert.throws(() => open(dir), /migrated by a newer jobboard-connector/);
    const repair = new DatabaseSync(join(dir, 'outbox.db'));
    try {
      repair.prepare('DELETE FROM schema_migrations WHERE version = 99').run();
    } finally {
      repair.close();
    }
    await open(dir).close();
  });
});
