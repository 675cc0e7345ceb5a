// The SQLite store's schema (DATA_DIR/outbox.db) and its migrations. Version 1
// is the schema of the releases before migrations were recorded, written so
// it also brings any of their files up to date (tables created if missing,
// columns added after the first release added); version 2 moves the resume
// blobs of 0.2.0 files to files. A file made by those releases thus loses
// nothing: its rows stay, its blobs become files.
import type { DatabaseSync } from 'node:sqlite';
import { checkOrder, refuseNewer } from './migrations.ts';
import type { MigrationRecord, MigrationReport } from './migrations.ts';
import type { ResumeFiles } from './outbox/resume-files.ts';
import { WEBHOOK_EVENTS_SCHEMA } from './webhooks/webhooks-sql.ts';
import { AFTER_DELIVERY_SQL } from './outbox/status-sql.ts';
import { funnelSchema, waitingSchema } from './funnel/funnel-sql.ts';

const SCHEMA_V1 = `
CREATE TABLE IF NOT EXISTS outbox (
  reference TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  campaign_id INTEGER NOT NULL,
  company_id INTEGER NOT NULL,
  payload TEXT,
  resume_type TEXT,
  resume_bytes INTEGER,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'rejected', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  dead_letter_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  answered INTEGER,
  outcome TEXT,
  last_error TEXT,
  last_attempt_at INTEGER,
  delivered_at INTEGER,
  upstream_applicant_id INTEGER,
  upstream_application_id INTEGER,
  ended_at INTEGER,
  erased_at INTEGER,
  erased_by TEXT,
  unconfirmed_send INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
  owner TEXT NOT NULL,
  reference TEXT,
  status INTEGER,
  body TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency_keys (expires_at);
CREATE TABLE IF NOT EXISTS rate_counters (
  bucket TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
);
`;

// Columns added after the first release: a file created before them gets them.
const ADDED_COLUMNS: Record<string, string> = {
  ended_at: 'INTEGER',
  erased_at: 'INTEGER',
  erased_by: 'TEXT',
  unconfirmed_send: 'INTEGER NOT NULL DEFAULT 0',
};

/** Each application's campaign parameters and whether it went without the board's source; the companies refusing that source. */
const SOURCE_AND_UTM_V4 = `
ALTER TABLE outbox ADD COLUMN source_dropped INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN utm TEXT;
CREATE TABLE source_refusals (
  company_id INTEGER NOT NULL,
  source TEXT NOT NULL,
  refused_until INTEGER NOT NULL,
  PRIMARY KEY (company_id, source)
);
`;

interface SqliteMigration extends MigrationRecord {
  up(db: DatabaseSync, resumes: ResumeFiles): void;
}

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'outbox, idempotency keys and rate counters',
    up(db) {
      db.exec(SCHEMA_V1);
      const present = new Set((db.prepare('PRAGMA table_info(outbox)').all() as { name: string }[]).map((c) => c.name));
      for (const [name, type] of Object.entries(ADDED_COLUMNS)) {
        if (!present.has(name)) db.exec(`ALTER TABLE outbox ADD COLUMN ${name} ${type}`);
      }
    },
  },
  {
    version: 2,
    name: 'resumes as files in DATA_DIR/resumes',
    // 0.2.0 kept resumes as blobs in outbox_resumes: each becomes a file
    // (fsynced) before the table goes, one blob in memory at a time. A row
    // whose blob was already deleted no longer counts a resume.
    up(db, resumes) {
      const table = db
        .prepare("SELECT 1 AS yes FROM sqlite_master WHERE type = 'table' AND name = 'outbox_resumes'")
        .get();
      if (table === undefined) return;
      const references = (db.prepare('SELECT reference FROM outbox_resumes').all() as { reference: string }[]).map(
        (r) => r.reference,
      );
      const read = db.prepare('SELECT bytes FROM outbox_resumes WHERE reference = ?');
      for (const reference of references) {
        const { bytes } = read.get(reference) as { bytes: Uint8Array };
        resumes.write(reference, bytes);
      }
      resumes.syncFolder();
      db.exec('UPDATE outbox SET resume_bytes = NULL WHERE reference NOT IN (SELECT reference FROM outbox_resumes)');
      db.exec('DROP TABLE outbox_resumes');
    },
  },
  {
    version: 3,
    name: 'the fencing token of delivery leases',
    up(db) {
      db.exec('ALTER TABLE outbox ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0');
    },
  },
  {
    version: 4,
    name: 'application source refusals and campaign tracking',
    up(db) {
      db.exec(SOURCE_AND_UTM_V4);
    },
  },
  {
    version: 5,
    name: 'webhook events, and the idempotency key of each application',
    up(db) {
      db.exec(WEBHOOK_EVENTS_SCHEMA);
    },
  },
  {
    version: 6,
    name: "the candidate's receipt token and the company's status after delivery",
    up(db) {
      db.exec(AFTER_DELIVERY_SQL);
    },
  },
  {
    version: 7,
    name: "the funnel's daily counts per offer and source",
    up(db) {
      db.exec(funnelSchema('sqlite'));
    },
  },
  {
    version: 8,
    name: "the funnel's counts waiting to be added to the day's rows",
    up(db) {
      db.exec(waitingSchema('sqlite'));
    },
  },
];
checkOrder(SQLITE_MIGRATIONS);

/**
 * Applies the migrations the file lacks, all in one write transaction (BEGIN
 * IMMEDIATE: a second process opening the same file waits, then finds them
 * applied).
 */
export function migrateSqlite(
  db: DatabaseSync,
  resumes: ResumeFiles,
  where: string,
  now: () => number,
): MigrationReport {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    const done = (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    );
    refuseNewer(done, SQLITE_MIGRATIONS, where);
    const applied: MigrationRecord[] = [];
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of SQLITE_MIGRATIONS) {
      if (done.includes(migration.version)) continue;
      migration.up(db, resumes);
      record.run(migration.version, migration.name, now());
      applied.push({ version: migration.version, name: migration.name });
    }
    // Kept for the releases that read it: 3 is the schema they know.
    db.exec('PRAGMA user_version = 3');
    db.exec('COMMIT');
    return { applied, version: SQLITE_MIGRATIONS.at(-1)!.version };
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
