// The catalogue's SQLite store (DATA_DIR/catalogue.db, or in memory for the
// copy of a shared catalogue, node:sqlite), its tables, indexes and statements
// in catalogue-schema-sqlite.ts, its writes in catalogue-writes-sqlite.ts.
// One narrow row per campaign with the columns search, filters and orders
// use (searches read them alone), its record as JSON in a table of its own
// (read for the page's offers only), and its texts in a full-text index (FTS5,
// contentless: the texts are read from the records, never from the index). The catalogue reads
// and writes it through CatalogueStore (catalogue/types.ts); a new column or
// search table is an edit of the schema, and a new SCHEMA_VERSION.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createOwnerOnlyDatabaseFile, makeOwnerOnlyFolder } from '../../../owner-only.ts';
import { foldForSearch } from '../../catalogue/search-text.ts';
import { withTombstones } from '../../catalogue/tombstones.ts';
import type { CampaignFilters, CatalogueCampaign, CatalogueStore, GeoPoint } from '../../catalogue/types.ts';
import { FacetCache } from './catalogue-facets-sqlite.ts';
import { SCHEMA, migrate, prepareStatements } from './catalogue-schema-sqlite.ts';
import { createCatalogueSearch } from './catalogue-search-sqlite.ts';
import { createSearchWorker } from './catalogue-search-worker.ts';
import { CatalogueWrites } from './catalogue-writes-sqlite.ts';

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

  const statements = prepareStatements(db);
  const { getOne, allIds, onlineIds, getMeta, countOnline, cityCentre } = statements;
  const facets = new FacetCache(db, statements.companyName);
  const writes = new CatalogueWrites(db, statements, facets);

  const search = createCatalogueSearch(db, options.searchBudgetMs);
  // A file's searches for the routes run on a thread of their own; an in-memory store's cannot (no other connection sees it).
  const worker = path === ':memory:' ? undefined : createSearchWorker({ path, budgetMs: options.searchBudgetMs });
  const recordsOf = (ids: number[]) =>
    ids.map((id) => JSON.parse((getOne.get(id) as { record: string }).record) as CatalogueCampaign);
  const searchHere = (f: CampaignFilters) => {
    const { ids, total } = search(f);
    return { items: recordsOf(ids), total };
  };

  if (kept.length > 0) {
    writes.inTransaction(() => {
      for (const c of kept) writes.write(c, 'none');
      return true;
    });
  }

  return withTombstones({
    replaceAll: (campaigns, syncedAt) => writes.replaceAll(campaigns, syncedAt),
    upsert(campaign) {
      writes.inTransaction(() => writes.write(campaign));
    },
    remove(id) {
      writes.inTransaction(() => writes.removeOne(id));
    },
    applyChanges: (upserts, deletes, syncedAt) => writes.applyChanges(upserts, deletes, syncedAt),
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
    facets: () => facets.read(),
    count() {
      return (countOnline.get() as { n: number }).n;
    },
    lastSyncedAt() {
      const row = getMeta.get('last_synced_at') as { value: string } | undefined;
      return row === undefined ? null : new Date(row.value);
    },
    version() {
      return writes.version;
    },
    close() {
      writes.stop();
      worker?.close();
      if (db.isOpen) db.close();
    },
  });
}
