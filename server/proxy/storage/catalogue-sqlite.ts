// The catalogue's SQLite store (DATA_DIR/catalogue.db, or in memory for the
// copy of a shared catalogue, node:sqlite): its table, index and statements.
// One row per campaign: the record as JSON plus the columns search and
// filters use. The catalogue reads and writes it through CatalogueStore
// (catalogue/types.ts); a new column or search table is an edit here.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createOwnerOnlyDatabaseFile, makeOwnerOnlyFolder } from '../../owner-only.ts';
import { foldForSearch, searchText } from '../catalogue/search-text.ts';
import { withTombstones } from '../catalogue/tombstones.ts';
import type { CatalogueCampaign, CatalogueStore } from '../catalogue/types.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL,
    listed_at TEXT NOT NULL,
    company_id INTEGER NOT NULL,
    job_type TEXT,
    working_time TEXT,
    city TEXT,
    search_text TEXT NOT NULL,
    record TEXT NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS campaigns_listing ON campaigns (status, listed_at DESC, id DESC);
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
`;

/** Opens (creating if needed) the store at DATA_DIR/catalogue.db, or in memory for ':memory:'. */
export function openCatalogueStore(dataDir: string | ':memory:'): CatalogueStore {
  let path = ':memory:';
  if (dataDir !== ':memory:') {
    makeOwnerOnlyFolder(dataDir);
    path = join(dataDir, 'catalogue.db');
    createOwnerOnlyDatabaseFile(path);
  }
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  db.exec(SCHEMA);

  const insert = db.prepare(
    `INSERT INTO campaigns (id, status, listed_at, company_id, job_type, working_time, city, search_text, record)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, listed_at = excluded.listed_at,
       company_id = excluded.company_id, job_type = excluded.job_type, working_time = excluded.working_time,
       city = excluded.city, search_text = excluded.search_text, record = excluded.record`,
  );
  const getOne = db.prepare('SELECT record FROM campaigns WHERE id = ?');
  const deleteOne = db.prepare('DELETE FROM campaigns WHERE id = ?');
  const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const countOnline = db.prepare("SELECT count(*) AS n FROM campaigns WHERE status = 'online'");

  let version = 1;

  const write = (c: CatalogueCampaign) => {
    insert.run(c.id, c.status, c.listed_at, c.company_id, c.job_type, c.working_time, c.city, searchText(c), JSON.stringify(c));
  };

  const inTransaction = (work: () => void) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      work();
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    version += 1;
  };

  const distinct = (column: 'job_type' | 'working_time' | 'city'): string[] =>
    (db.prepare(`SELECT DISTINCT ${column} AS v FROM campaigns WHERE status = 'online' AND ${column} IS NOT NULL ORDER BY ${column}`).all() as { v: string }[]).map((r) => r.v);

  return withTombstones({
    replaceAll(campaigns, syncedAt) {
      inTransaction(() => {
        db.exec('DELETE FROM campaigns');
        for (const c of campaigns) write(c);
        setMeta.run('last_synced_at', syncedAt.toISOString());
      });
    },
    upsert(campaign) {
      inTransaction(() => write(campaign));
    },
    remove(id) {
      inTransaction(() => deleteOne.run(id));
    },
    get(id) {
      const row = getOne.get(id) as { record: string } | undefined;
      return row === undefined ? undefined : (JSON.parse(row.record) as CatalogueCampaign);
    },
    search(f) {
      const where: string[] = ["status = 'online'"];
      const params: (string | number)[] = [];
      if (f.company_id !== undefined) {
        where.push('company_id = ?');
        params.push(f.company_id);
      }
      if (f.job_type !== undefined) {
        where.push('job_type = ?');
        params.push(f.job_type);
      }
      if (f.working_time !== undefined) {
        where.push('working_time = ?');
        params.push(f.working_time);
      }
      if (f.city !== undefined) {
        where.push('city = ? COLLATE NOCASE');
        params.push(f.city);
      }
      // Every word of q must appear somewhere (name, company, city, description).
      const terms = foldForSearch(f.q ?? '').split(/\s+/).filter((t) => t !== '').slice(0, 10);
      for (const term of terms) {
        where.push("search_text LIKE ? ESCAPE '\\'");
        params.push(`%${term.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
      }
      const clause = where.join(' AND ');
      const total = (db.prepare(`SELECT count(*) AS n FROM campaigns WHERE ${clause}`).get(...params) as { n: number }).n;
      const rows = db
        .prepare(`SELECT record FROM campaigns WHERE ${clause} ORDER BY listed_at DESC, id DESC LIMIT ? OFFSET ?`)
        .all(...params, f.per_page, (f.page - 1) * f.per_page) as { record: string }[];
      return { items: rows.map((r) => JSON.parse(r.record) as CatalogueCampaign), total };
    },
    facets() {
      const companies = (
        db.prepare("SELECT company_id AS id, record FROM campaigns WHERE status = 'online' GROUP BY company_id ORDER BY company_id").all() as { id: number; record: string }[]
      ).map((r) => ({ id: r.id, name: (JSON.parse(r.record) as CatalogueCampaign).company_name }));
      companies.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.id - b.id);
      return { job_types: distinct('job_type'), working_times: distinct('working_time'), cities: distinct('city'), companies };
    },
    count() {
      return (countOnline.get() as { n: number }).n;
    },
    lastSyncedAt() {
      const row = getMeta.get('last_synced_at') as { value: string } | undefined;
      return row === undefined ? null : new Date(row.value);
    },
    version() {
      return version;
    },
    close() {
      if (db.isOpen) db.close();
    },
  });
}
