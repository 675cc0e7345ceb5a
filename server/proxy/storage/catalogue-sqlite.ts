// The catalogue's SQLite store (DATA_DIR/catalogue.db, or in memory for the
// copy of a shared catalogue, node:sqlite): its tables, indexes and statements.
// One narrow row per campaign with the columns search, filters and orders
// use (searches read them alone), its record as JSON in a table of its own
// (read for the page's offers only), and its texts in a full-text index (FTS5,
// contentless: the texts are read from the records, never from the index). The catalogue reads
// and writes it through CatalogueStore (catalogue/types.ts); a new column or
// search table is an edit here, and a new SCHEMA_VERSION.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createOwnerOnlyDatabaseFile, makeOwnerOnlyFolder } from '../../owner-only.ts';
import { foldForSearch, searchColumns } from '../catalogue/search-text.ts';
import { withTombstones } from '../catalogue/tombstones.ts';
import type {
  CampaignFilters,
  CatalogueCampaign,
  CatalogueStore,
  Facets,
  GeoPoint,
  SkippedRecord,
} from '../catalogue/types.ts';
import { createCatalogueSearch } from './catalogue-search-sqlite.ts';
import { createSearchWorker } from './catalogue-search-worker.ts';
import { COUNTED, FacetCounts, sameFacets } from './catalogue-facet-counts.ts';
import { sqliteRefusesRecord } from './catalogue-refused-records.ts';
import type { FacetColumns } from './catalogue-facet-counts.ts';

/**
 * The tables' shape, in the file's user_version. The store holds nothing but
 * copies of records: a file of another version is rebuilt from its records.
 */
const SCHEMA_VERSION = 4;

const SCHEMA = `
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

/**
 * Pages of the full-text index one merge step writes (about a millisecond:
 * a request waits behind one step at most). FTS5 writes each transaction's
 * terms as a new segment, and by default merges segments within the write:
 * most of a small change's time, and for one write in many, hundreds of
 * milliseconds. Writes here leave segments unmerged (automerge 0); the
 * merging runs after, a step at a time, between other work.
 */
const MERGE_PAGES = 16;
/**
 * How long the store goes without a write before its full-text index is
 * merged. A burst of writes (a sync's pages, changes applied on every
 * instance sharing a catalogue) is applied first, with no merge taking the
 * processor from it: merging right after each write took longer than the
 * write itself. A few more segments in the meantime cost a search little,
 * and FTS5 still merges within a write if a level reaches 16 segments.
 */
const MERGE_WHEN_QUIET_MS = 250;
/** The online offers per non-null value of a column (from the column's index alone). */
const facetCounts = (column: 'job_type' | 'working_time' | 'city' | 'company_id') =>
  `SELECT ${column} AS v, count(*) AS n FROM campaigns WHERE status = 'online' AND ${column} IS NOT NULL GROUP BY ${column}`;
/** The order of the companies in the facets: by name (the default locale's), then id. */
const byName = new Intl.Collator().compare;

/** Brings a file of another schema to this one, keeping its records (a new file has none). */
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

export interface CatalogueStoreOptions {
  /** The time budget of a search with words or a place, in milliseconds (default SEARCH_BUDGET_MS). */
  searchBudgetMs?: number;
}

/** Opens (creating if needed) the store at DATA_DIR/catalogue.db, or in memory for ':memory:'. */
export function openCatalogueStore(dataDir: string | ':memory:', options: CatalogueStoreOptions = {}): CatalogueStore {
  let path = ':memory:';
  if (dataDir !== ':memory:') {
    makeOwnerOnlyFolder(dataDir);
    path = join(dataDir, 'catalogue.db');
    createOwnerOnlyDatabaseFile(path);
  }
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  const kept = migrate(db);
  db.exec(SCHEMA);
  db.exec("INSERT INTO campaigns_text (campaigns_text, rank) VALUES ('automerge', 0)");

  const insert = db.prepare(
    `INSERT INTO campaigns (id, status, listed_at, company_id, company_name, job_type, working_time, city, city_key, lat, lon, pay)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, listed_at = excluded.listed_at,
       company_id = excluded.company_id, company_name = excluded.company_name, job_type = excluded.job_type, working_time = excluded.working_time,
       city = excluded.city, city_key = excluded.city_key, lat = excluded.lat, lon = excluded.lon, pay = excluded.pay
     -- A change to what no column holds (a title, a text) rewrites none of the row's four index entries.
     WHERE (status, listed_at, company_id, company_name, job_type, working_time, city, city_key, lat, lon, pay)
       IS NOT (excluded.status, excluded.listed_at, excluded.company_id, excluded.company_name, excluded.job_type, excluded.working_time, excluded.city,
         excluded.city_key, excluded.lat, excluded.lon, excluded.pay)`,
  );
  const insertRecord = db.prepare(
    'INSERT INTO campaign_records (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record',
  );
  const deleteText = db.prepare('DELETE FROM campaigns_text WHERE rowid = ?');
  const insertText = db.prepare('INSERT INTO campaigns_text (rowid, title, company, body) VALUES (?, ?, ?, ?)');
  const getOne = db.prepare('SELECT record FROM campaign_records WHERE id = ?');
  const allIds = db.prepare('SELECT id FROM campaigns');
  const onlineIds = db.prepare("SELECT id FROM campaigns WHERE status = 'online'");
  const deleteOne = db.prepare('DELETE FROM campaigns WHERE id = ?');
  const deleteRecord = db.prepare('DELETE FROM campaign_records WHERE id = ?');
  const setMeta = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const countOnline = db.prepare("SELECT count(*) AS n FROM campaigns WHERE status = 'online'");
  const cityCentre = db.prepare(
    "SELECT avg(lat) AS lat, avg(lon) AS lon FROM campaigns WHERE city_key = ? AND status = 'online' AND lat IS NOT NULL",
  );
  const mergeText = db.prepare("INSERT INTO campaigns_text (campaigns_text, rank) VALUES ('merge', ?)");
  const totalChanges = db.prepare('SELECT total_changes() AS n');
  const facetColumns = db.prepare(
    'SELECT status, job_type, working_time, city, company_id, company_name FROM campaigns WHERE id = ?',
  );
  // A company's name from one of its online offers (the first in the index, the lowest id: the same at every read).
  const companyName = db.prepare(
    "SELECT company_name AS name FROM campaigns WHERE status = 'online' AND company_id = ? LIMIT 1",
  );

  let version = 1;
  const search = createCatalogueSearch(db, options.searchBudgetMs);
  // A file's searches for the routes run on a thread of their own; an in-memory store's cannot (no other connection sees it).
  const worker = path === ':memory:' ? undefined : createSearchWorker({ path, budgetMs: options.searchBudgetMs });
  const recordsOf = (ids: number[]) =>
    ids.map((id) => JSON.parse((getOne.get(id) as { record: string }).record) as CatalogueCampaign);
  const searchHere = (f: CampaignFilters) => {
    const { ids, total } = search(f);
    return { items: recordsOf(ids), total };
  };
  /** The facets, until a write changes what they show (a new title or text changes nothing there: most changes keep them). */
  let facets: Facets | undefined;
  /** The online offers per facet value, once read: then each write moves them (undefined: read them at the next facets()). */
  let counts: FacetCounts | undefined;
  /** The companies' names in the facets, read again for a company whose offers changed. */
  const companyNames = new Map<number, string | null>();
  /** Every write of a row's columns goes through here: its old values out of the counts, its new ones in. */
  const recount = (before: FacetColumns | undefined, after: FacetColumns | undefined) => {
    if (before !== undefined && after !== undefined && sameFacets(before, after)) return;
    facets = undefined;
    if (before !== undefined) companyNames.delete(before.company_id);
    if (after !== undefined) companyNames.delete(after.company_id);
    if (counts === undefined) return;
    if (before !== undefined) counts.count(before, -1);
    if (after !== undefined) counts.count(after, 1);
  };
  const forgetFacets = () => {
    facets = undefined;
    counts = undefined;
    companyNames.clear();
  };

  /**
   * The one write of a campaign (a sync's, a refresh's): its row and its
   * texts. A record held already as it is is not written again: false then,
   * and the version (readers' caches) stays.
   */
  const write = (c: CatalogueCampaign, held: 'compare' | 'none' = 'compare'): boolean => {
    const record = JSON.stringify(c);
    if (held === 'compare' && (getOne.get(c.id) as { record: string } | undefined)?.record === record) return false;
    // Records kept before coordinates were have no latitude: none until the next sync.
    const lat = c.address?.latitude ?? null;
    const lon = c.address?.longitude ?? null;
    const located = lat !== null && lon !== null;
    const pay = c.salary_max ?? c.salary_min;
    const before = held === 'none' ? undefined : (facetColumns.get(c.id) as FacetColumns | undefined);
    insert.run(
      c.id,
      c.status,
      c.listed_at,
      c.company_id,
      c.company_name,
      c.job_type,
      c.working_time,
      c.city,
      c.city === null ? null : foldForSearch(c.city),
      located ? lat : null,
      located ? lon : null,
      pay,
    );
    recount(before, c);
    insertRecord.run(c.id, record);
    // Only listed offers are searched: the index holds no other.
    deleteText.run(c.id);
    if (c.status !== 'online') return true;
    const text = searchColumns(c);
    insertText.run(c.id, text.title, text.company, text.body);
    return true;
  };

  /** False when the store held no such campaign. */
  const removeOne = (id: number): boolean => {
    const before = facetColumns.get(id) as FacetColumns | undefined;
    const removed = deleteOne.run(id).changes > 0;
    if (before !== undefined) recount(before, undefined);
    deleteRecord.run(id);
    deleteText.run(id);
    return removed;
  };

  let merging: NodeJS.Timeout | undefined;
  /** One merge step of the full-text index, then the next one on a later turn of the event loop, until FTS5 finds nothing to merge. */
  const mergeStep = () => {
    merging = undefined;
    if (!db.isOpen) return;
    const before = (totalChanges.get() as { n: number }).n;
    try {
      mergeText.run(MERGE_PAGES);
    } catch {
      // Unmerged segments slow searches a little, and lose nothing: the next write tries again.
      return;
    }
    // FTS5's own signal: a step that merged something changes two rows or more.
    if ((totalChanges.get() as { n: number }).n - before >= 2) merging = setTimeout(mergeStep, 0).unref();
  };
  /** Merging starts (or, after a write in between, starts again where FTS5 left off) once no write came for MERGE_WHEN_QUIET_MS. */
  const mergeWhenQuiet = () => {
    clearTimeout(merging);
    merging = setTimeout(mergeStep, MERGE_WHEN_QUIET_MS).unref();
  };

  /** Runs `work` in one transaction; a new version when it says it changed something. */
  const inTransaction = (work: () => boolean) => {
    let changed: boolean;
    db.exec('BEGIN IMMEDIATE');
    try {
      changed = work();
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      // The counts moved with writes now undone.
      forgetFacets();
      throw error;
    }
    if (!changed) return;
    version += 1;
    mergeWhenQuiet();
  };

  if (kept.length > 0) {
    inTransaction(() => {
      for (const c of kept) write(c, 'none');
      return true;
    });
  }

  /** The counts read from the table: once, and after a new copy. */
  const readCounts = (): FacetCounts => {
    const read = new FacetCounts();
    for (const [facet, column] of Object.entries(COUNTED) as [
      keyof typeof COUNTED,
      (typeof COUNTED)[keyof typeof COUNTED],
    ][]) {
      for (const r of db.prepare(facetCounts(column)).all() as { v: string; n: number }[])
        read.values[facet].set(r.v, r.n);
    }
    for (const r of db.prepare(facetCounts('company_id')).all() as { v: number; n: number }[])
      read.companies.set(r.v, r.n);
    return read;
  };

  return withTombstones({
    replaceAll(campaigns, syncedAt) {
      inTransaction(() => {
        db.exec('DELETE FROM campaigns; DELETE FROM campaign_records; DELETE FROM campaigns_text;');
        forgetFacets();
        for (const c of campaigns) write(c, 'none');
        setMeta.run('last_synced_at', syncedAt.toISOString());
        return true;
      });
    },
    upsert(campaign) {
      inTransaction(() => write(campaign));
    },
    remove(id) {
      inTransaction(() => removeOne(id));
    },
    applyChanges(upserts, deletes, syncedAt) {
      const skipped: SkippedRecord[] = [];
      // In rowid order: FTS5 writes its pending terms out as a new segment whenever a rowid is lower than the last (a stable sort: the last write of an id wins).
      let left = [...upserts].sort((a, b) => a.id - b.id);
      // A record the tables refuse undoes the batch, which is written again without it: no savepoint per record (FTS5 writes a segment at each).
      for (;;) {
        let writing: CatalogueCampaign | undefined;
        try {
          inTransaction(() => {
            let changed = false;
            for (const c of left) {
              writing = c;
              changed = write(c) || changed;
            }
            writing = undefined;
            for (const id of [...deletes].sort((a, b) => a - b)) changed = removeOne(id) || changed;
            // The sync time alone is in no reader's answer: it changes no version.
            if (syncedAt !== undefined) setMeta.run('last_synced_at', syncedAt.toISOString());
            return changed;
          });
          return skipped;
        } catch (error) {
          const refused = writing;
          if (refused === undefined || !sqliteRefusesRecord(error)) throw error;
          skipped.push({ id: refused.id, reason: (error as Error).message });
          left = left.filter((c) => c !== refused);
        }
      }
    },
    ids() {
      return (allIds.all() as { id: number }[]).map((r) => r.id);
    },
    listedIds() {
      return (onlineIds.all() as { id: number }[]).map((r) => r.id);
    },
    get(id) {
      const row = getOne.get(id) as { record: string } | undefined;
      return row === undefined ? undefined : (JSON.parse(row.record) as CatalogueCampaign);
    },
    search: searchHere,
    async searchAsync(f) {
      if (worker === undefined) return searchHere(f);
      const { records, total } = await worker.search(f);
      return { items: records.map((record) => JSON.parse(record) as CatalogueCampaign), total };
    },
    placeOf(city) {
      const row = cityCentre.get(foldForSearch(city.trim())) as { lat: number | null; lon: number | null };
      return row.lat === null || row.lon === null ? undefined : ({ lat: row.lat, lon: row.lon } satisfies GeoPoint);
    },
    facets() {
      if (facets !== undefined) return facets;
      counts ??= readCounts();
      const companies = [...counts.companies.keys()].map((id) => {
        let name = companyNames.get(id);
        if (name === undefined) companyNames.set(id, (name = (companyName.get(id) as { name: string | null }).name));
        return { id, name };
      });
      companies.sort((a, b) => byName(a.name ?? '', b.name ?? '') || a.id - b.id);
      facets = {
        job_types: counts.list('job_types'),
        working_times: counts.list('working_times'),
        cities: counts.list('cities'),
        companies,
      };
      return facets;
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
      clearTimeout(merging);
      worker?.close();
      if (db.isOpen) db.close();
    },
  });
}
