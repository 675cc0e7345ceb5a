// The catalogue's SQLite tables (catalogue-sqlite.ts): their schema, the
// migration of a file of another version, and the statements the store runs.
import type { DatabaseSync } from 'node:sqlite';
import type { CatalogueCampaign } from '../../catalogue/types.ts';

/**
 * The tables' shape, in the file's user_version. The store holds nothing but
 * copies of records: a file of another version is rebuilt from its records.
 */
const SCHEMA_VERSION = 4;

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL,
    listed_at TEXT NOT NULL,
    company_id INTEGER NOT NULL,
    company_name TEXT,
    job_type TEXT,
    working_time TEXT,
    city TEXT,
    city_key TEXT,
    lat REAL,
    lon REAL,
    pay INTEGER
  ) STRICT;
  -- The list newest first, with what a filter on a place or a salary reads: a walk of it never reads the table.
  CREATE INDEX IF NOT EXISTS campaigns_listing ON campaigns (status, listed_at DESC, id DESC, lat, lon, pay);
  -- What counts and distance orders read (the date breaks ties): the offers in a latitude band, the offers paying at least an amount.
  CREATE INDEX IF NOT EXISTS campaigns_near ON campaigns (status, lat, lon, listed_at);
  CREATE INDEX IF NOT EXISTS campaigns_pay ON campaigns (status, pay);
  CREATE INDEX IF NOT EXISTS campaigns_city ON campaigns (city_key);
  -- The facets' counts (read once, then kept up to date from each change: catalogue-facet-counts.ts).
  CREATE INDEX IF NOT EXISTS campaigns_job_types ON campaigns (status, job_type);
  CREATE INDEX IF NOT EXISTS campaigns_working_times ON campaigns (status, working_time);
  CREATE INDEX IF NOT EXISTS campaigns_cities ON campaigns (status, city);
  CREATE INDEX IF NOT EXISTS campaigns_companies ON campaigns (status, company_id);
  CREATE TABLE IF NOT EXISTS campaign_records (id INTEGER PRIMARY KEY, record TEXT NOT NULL) STRICT;
  CREATE VIRTUAL TABLE IF NOT EXISTS campaigns_text USING fts5 (
    title, company, body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  );
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
`;

export /** Brings a file of another schema to this one, keeping its records (a new file has none). */
function migrate(db: DatabaseSync): CatalogueCampaign[] {
  const { user_version: found } = db.prepare('PRAGMA user_version').get() as { user_version: number };
  if (found === SCHEMA_VERSION) return [];
  const old =
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'campaigns'").get() === undefined
      ? []
      : (
          db.prepare(found < 3 ? 'SELECT record FROM campaigns' : 'SELECT record FROM campaign_records').all() as {
            record: string;
          }[]
        ).map((r) => JSON.parse(r.record) as CatalogueCampaign);
  db.exec(
    'DROP TABLE IF EXISTS campaigns; DROP TABLE IF EXISTS campaign_records; DROP TABLE IF EXISTS campaigns_text;',
  );
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  return old;
}

/** The statements the store runs, prepared once. */
export function prepareStatements(db: DatabaseSync) {
  return {
    insert: db.prepare(
      `INSERT INTO campaigns (id, status, listed_at, company_id, company_name, job_type, working_time, city, city_key, lat, lon, pay)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, listed_at = excluded.listed_at,
       company_id = excluded.company_id, company_name = excluded.company_name, job_type = excluded.job_type, working_time = excluded.working_time,
       city = excluded.city, city_key = excluded.city_key, lat = excluded.lat, lon = excluded.lon, pay = excluded.pay
     -- A change to what no column holds (a title, a text) rewrites none of the row's four index entries.
     WHERE (status, listed_at, company_id, company_name, job_type, working_time, city, city_key, lat, lon, pay)
       IS NOT (excluded.status, excluded.listed_at, excluded.company_id, excluded.company_name, excluded.job_type, excluded.working_time, excluded.city,
         excluded.city_key, excluded.lat, excluded.lon, excluded.pay)`,
    ),
    insertRecord: db.prepare(
      'INSERT INTO campaign_records (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record',
    ),
    deleteText: db.prepare('DELETE FROM campaigns_text WHERE rowid = ?'),
    insertText: db.prepare('INSERT INTO campaigns_text (rowid, title, company, body) VALUES (?, ?, ?, ?)'),
    getOne: db.prepare('SELECT record FROM campaign_records WHERE id = ?'),
    allIds: db.prepare('SELECT id FROM campaigns'),
    onlineIds: db.prepare("SELECT id FROM campaigns WHERE status = 'online'"),
    deleteOne: db.prepare('DELETE FROM campaigns WHERE id = ?'),
    deleteRecord: db.prepare('DELETE FROM campaign_records WHERE id = ?'),
    setMeta: db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ),
    getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
    countOnline: db.prepare("SELECT count(*) AS n FROM campaigns WHERE status = 'online'"),
    cityCentre: db.prepare(
      "SELECT avg(lat) AS lat, avg(lon) AS lon FROM campaigns WHERE city_key = ? AND status = 'online' AND lat IS NOT NULL",
    ),
    mergeText: db.prepare("INSERT INTO campaigns_text (campaigns_text, rank) VALUES ('merge', ?)"),
    totalChanges: db.prepare('SELECT total_changes() AS n'),
    facetColumns: db.prepare(
      'SELECT status, job_type, working_time, city, company_id, company_name FROM campaigns WHERE id = ?',
    ),
    // A company's name from one of its online offers (the first in the index, the lowest id: the same at every read).
    companyName: db.prepare(
      "SELECT company_name AS name FROM campaigns WHERE status = 'online' AND company_id = ? LIMIT 1",
    ),
  };
}

export type CatalogueStatements = ReturnType<typeof prepareStatements>;
