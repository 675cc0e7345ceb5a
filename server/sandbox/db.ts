// The sandbox's storage: one SQLite database through node:sqlite, a file or
// ':memory:'. Times are ISO strings (UTC, milliseconds), so text order is time
// order. Indexes are chosen for the list endpoints: every list query is
// "one company (or one creating client), optional filter, newest first".
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { createOwnerOnlyDatabaseFile, restrictDatabaseFile } from '../owner-only.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS companies (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  entity_option INTEGER NOT NULL DEFAULT 0,
  skills_option INTEGER NOT NULL DEFAULT 0,
  sources TEXT NOT NULL DEFAULT '[]',
  restricted_tags TEXT,
  duplicate_applications TEXT NOT NULL DEFAULT 'refuse' CHECK (duplicate_applications IN ('refuse', 'accept')),
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_clients (
  id INTEGER PRIMARY KEY,
  private_key TEXT NOT NULL UNIQUE,
  secret_key TEXT NOT NULL,
  company_id INTEGER REFERENCES companies(id),
  channel TEXT,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entities (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS units (
  id INTEGER PRIMARY KEY,
  entity_id INTEGER NOT NULL REFERENCES entities(id),
  company_id INTEGER NOT NULL REFERENCES companies(id),
  name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pools (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS channels (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  value TEXT NOT NULL,
  name TEXT NOT NULL,
  entity_id INTEGER REFERENCES entities(id),
  UNIQUE (company_id, value)
);
CREATE INDEX IF NOT EXISTS channels_value ON channels (value);
CREATE TABLE IF NOT EXISTS campaigns (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  manage_name TEXT NOT NULL,
  name TEXT,
  description TEXT,
  profile TEXT,
  job_type TEXT,
  contract_duration INTEGER,
  job_start_date TEXT,
  date_end TEXT,
  working_time TEXT,
  salary_min INTEGER,
  salary_max INTEGER,
  unit_id INTEGER REFERENCES units(id),
  status TEXT NOT NULL,
  address TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_activation_at TEXT
);
CREATE INDEX IF NOT EXISTS campaigns_company_created ON campaigns (company_id, created_at, id);
-- A job board's list walks every company's campaigns in these orders: read in index order, not sorted per page.
CREATE INDEX IF NOT EXISTS campaigns_created ON campaigns (created_at, id);
CREATE INDEX IF NOT EXISTS campaigns_activated ON campaigns (last_activation_at, id);
CREATE INDEX IF NOT EXISTS campaigns_online_date_end ON campaigns (date_end) WHERE status = 'online' AND date_end IS NOT NULL;
CREATE TABLE IF NOT EXISTS campaign_channels (
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
  channel_id INTEGER NOT NULL REFERENCES channels(id),
  PRIMARY KEY (campaign_id, channel_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS campaign_channels_channel ON campaign_channels (channel_id, campaign_id);
CREATE TABLE IF NOT EXISTS campaign_tags (
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
  name TEXT NOT NULL,
  PRIMARY KEY (campaign_id, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS applicants (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  created_by_client INTEGER,
  email TEXT NOT NULL,
  first_name TEXT,
  last_name TEXT,
  locale TEXT,
  phone_code TEXT,
  phone_number TEXT,
  avatar_url TEXT,
  iso_country TEXT,
  is_partner_newsletter_active INTEGER NOT NULL DEFAULT 0,
  is_campaign_alert_active INTEGER NOT NULL DEFAULT 0,
  is_legals_accepted_by_manager INTEGER NOT NULL DEFAULT 0,
  bio_url TEXT,
  address TEXT,
  resume_path TEXT,
  legals_token TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS applicants_company_email ON applicants (company_id, email COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS applicants_company_created ON applicants (company_id, created_at, id);
CREATE INDEX IF NOT EXISTS applicants_client_created ON applicants (created_by_client, created_at, id);
CREATE TABLE IF NOT EXISTS applicant_pools (
  applicant_id INTEGER NOT NULL REFERENCES applicants(id),
  pool_id INTEGER NOT NULL REFERENCES pools(id),
  PRIMARY KEY (applicant_id, pool_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS applications (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
  applicant_id INTEGER NOT NULL REFERENCES applicants(id),
  created_by_client INTEGER,
  source TEXT,
  status TEXT NOT NULL,
  status_changed_at TEXT NOT NULL,
  is_complete INTEGER NOT NULL DEFAULT 0,
  resume_path TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- Not unique: a company set to duplicate_applications 'accept' holds two (the rule is checked in create.ts).
CREATE INDEX IF NOT EXISTS applications_applicant_campaign ON applications (applicant_id, campaign_id);
CREATE INDEX IF NOT EXISTS applications_company_created ON applications (company_id, created_at, id);
CREATE INDEX IF NOT EXISTS applications_campaign_created ON applications (campaign_id, created_at, id);
-- status[value] (with or without status[date]): walk newest first and test the date inside the
-- index, with no sort; a range index on status_changed_at made SQLite sort thousands of rows instead.
-- Counting status[value] + status[date] matches: a narrow range of this index.
CREATE INDEX IF NOT EXISTS applications_company_status ON applications (company_id, status, status_changed_at);
CREATE INDEX IF NOT EXISTS applications_company_status_created ON applications (company_id, status, created_at, id, status_changed_at);
CREATE INDEX IF NOT EXISTS applications_company_source ON applications (company_id, source, created_at, id);
CREATE INDEX IF NOT EXISTS applications_company_source_complete ON applications (company_id, source, is_complete, created_at, id);
CREATE INDEX IF NOT EXISTS applications_company_complete ON applications (company_id, is_complete, created_at, id);
CREATE INDEX IF NOT EXISTS applications_client_created ON applications (created_by_client, created_at, id);
-- Applications per company and status, kept by triggers: the total of an unfiltered (or
-- status-only) list without counting 100k index entries after every write.
CREATE TABLE IF NOT EXISTS application_counts (
  company_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (company_id, status)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS application_counts_insert AFTER INSERT ON applications BEGIN
  INSERT INTO application_counts (company_id, status, n) VALUES (NEW.company_id, NEW.status, 1)
    ON CONFLICT (company_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS application_counts_delete AFTER DELETE ON applications BEGIN
  UPDATE application_counts SET n = n - 1 WHERE company_id = OLD.company_id AND status = OLD.status;
END;
CREATE TRIGGER IF NOT EXISTS application_counts_update AFTER UPDATE OF status, company_id ON applications BEGIN
  UPDATE application_counts SET n = n - 1 WHERE company_id = OLD.company_id AND status = OLD.status;
  INSERT INTO application_counts (company_id, status, n) VALUES (NEW.company_id, NEW.status, 1)
    ON CONFLICT (company_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TABLE IF NOT EXISTS application_tags (
  application_id INTEGER NOT NULL REFERENCES applications(id),
  name TEXT NOT NULL,
  PRIMARY KEY (application_id, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS comments (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications(id),
  content TEXT,
  attachment_path TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS comments_application ON comments (application_id, id);
CREATE TABLE IF NOT EXISTS skills (
  application_id INTEGER NOT NULL REFERENCES applications(id),
  name TEXT NOT NULL,
  PRIMARY KEY (application_id, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS status_changes (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications(id),
  value TEXT NOT NULL,
  changed_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS status_changes_application ON status_changes (application_id, changed_at, id);
CREATE TABLE IF NOT EXISTS files (
  token TEXT PRIMARY KEY,
  company_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  mime TEXT NOT NULL,
  size INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS emails (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL,
  applicant_id INTEGER,
  kind TEXT NOT NULL,
  "to" TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  sent_at TEXT NOT NULL
);
`;

const TABLES = [
  'emails',
  'files',
  'status_changes',
  'skills',
  'comments',
  'application_tags',
  'applications',
  'applicant_pools',
  'applicants',
  'campaign_tags',
  'campaign_channels',
  'campaigns',
  'channels',
  'pools',
  'units',
  'entities',
  'api_clients',
  'companies',
  'application_counts',
];

export type Row = Record<string, SQLInputValue>;

/** A DatabaseSync with a cache of prepared statements and a transaction helper. */
export class Database {
  readonly raw: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #counts = new Map<string, { generation: number; n: number }>();
  #depth = 0;
  /** Bumped by every write, so cached counts are never stale. */
  #generation = 0;

  /**
   * A --db file made before duplicate_applications has UNIQUE (applicant_id,
   * campaign_id) in its applications table: SQLite drops a table constraint
   * only by rebuilding the table (its indexes and triggers come back with SCHEMA).
   */
  private dropApplicationsUniqueConstraint(): void {
    const table = this.raw
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'applications'")
      .get() as { sql: string } | undefined;
    const constraint = /,\s*UNIQUE \(applicant_id, campaign_id\)/;
    if (table === undefined || !constraint.test(table.sql)) return;
    this.raw.exec('PRAGMA foreign_keys = OFF; BEGIN');
    this.raw.exec(
      table.sql.replace('CREATE TABLE applications', 'CREATE TABLE applications_rebuilt').replace(constraint, ''),
    );
    this.raw.exec(
      'INSERT INTO applications_rebuilt SELECT * FROM applications; DROP TABLE applications; ALTER TABLE applications_rebuilt RENAME TO applications; COMMIT; PRAGMA foreign_keys = ON;',
    );
  }

  constructor(path: string) {
    // What the sandbox stores (applicants, resumes) is readable by its owner only, in a file made by an older version too.
    createOwnerOnlyDatabaseFile(path);
    restrictDatabaseFile(path);
    this.raw = new DatabaseSync(path);
    this.raw.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;',
    );
    this.dropApplicationsUniqueConstraint();
    this.raw.exec(SCHEMA);
    // A --db file made before the column: the service's default behaviour.
    const columns = (this.raw.prepare('PRAGMA table_info(companies)').all() as { name: string }[]).map((c) => c.name);
    if (!columns.includes('duplicate_applications')) {
      this.raw.exec(
        "ALTER TABLE companies ADD COLUMN duplicate_applications TEXT NOT NULL DEFAULT 'refuse' CHECK (duplicate_applications IN ('refuse', 'accept'))",
      );
    }
  }

  statement(sql: string): StatementSync {
    let stmt = this.#statements.get(sql);
    if (stmt === undefined) {
      stmt = this.raw.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  all<T = Row>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  get<T = Row>(sql: string, ...params: SQLInputValue[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  run(sql: string, ...params: SQLInputValue[]): { changes: number; lastInsertRowid: number } {
    const r = this.statement(sql).run(...params);
    if (Number(r.changes) > 0) this.#generation++;
    return { changes: Number(r.changes), lastInsertRowid: Number(r.lastInsertRowid) };
  }

  insert(sql: string, ...params: SQLInputValue[]): number {
    return this.run(sql, ...params).lastInsertRowid;
  }

  /**
   * COUNT(*) of a list query, remembered until the next write. Counting 100k
   * index entries costs milliseconds on every page of a list; pages of an
   * unchanged list then only pay for their 50 rows.
   */
  count(sql: string, ...params: SQLInputValue[]): number {
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    const cached = this.#counts.get(key);
    if (cached !== undefined && cached.generation === this.#generation) return cached.n;
    const n = Number((this.statement(sql).get(...params) as { n: number }).n);
    if (this.#counts.size >= 1000) this.#counts.clear();
    this.#counts.set(key, { generation: this.#generation, n });
    return n;
  }

  /** Marks the data as changed (writes made through `raw`). */
  touch(): void {
    this.#generation++;
  }

  #afterCommit: (() => void)[] = [];

  /** Runs fn in one transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    if (this.#depth > 0) return fn();
    this.raw.exec('BEGIN IMMEDIATE');
    this.#depth++;
    try {
      const result = fn();
      this.raw.exec('COMMIT');
      this.#generation++;
      const committed = this.#afterCommit;
      this.#afterCommit = [];
      for (const run of committed) run();
      return result;
    } catch (error) {
      this.raw.exec('ROLLBACK');
      this.#afterCommit = [];
      throw error;
    } finally {
      this.#depth--;
    }
  }

  /** Runs fn once the current transaction commits (now when there is none); never when it rolls back. */
  afterCommit(fn: () => void): void {
    if (this.#depth > 0) this.#afterCommit.push(fn);
    else fn();
  }

  /** Empties every table (POST /_sandbox/reset). */
  reset(): void {
    this.transaction(() => {
      this.raw.exec('PRAGMA defer_foreign_keys = ON');
      for (const table of TABLES) this.raw.exec(`DELETE FROM ${table}`);
    });
    this.#counts.clear();
  }

  close(): void {
    this.raw.close();
  }
}
