// A file catalogue's searches for the routes run on a thread of their own
// (catalogue-search-worker.ts): the same answers as on the event loop's
// thread, the same time budget, and the event loop free meanwhile.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import { addressOf, upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import { SearchOverBudgetError } from '../../catalogue/search-text.ts';
import type { CampaignFilters, CatalogueStore } from '../../catalogue/types.ts';
import { createSearchWorker } from './catalogue-search-worker.ts';
import { openCatalogueStore } from './catalogue-sqlite.ts';

const OFFERS = 3_000;
const LYON = { lat: 45.764, lon: 4.8357 };
const all = (extra: Partial<CampaignFilters> = {}): CampaignFilters => ({ page: 1, per_page: 20, ...extra });
const ids = (r: { items: { id: number }[] }) => r.items.map((c) => c.id);

function seed(store: CatalogueStore): void {
  store.replaceAll(
    Array.from({ length: OFFERS }, (_, i) =>
      toCatalogueCampaign(
        upstreamCampaign({
          id: i + 1,
          name: i % 3 === 0 ? 'Nurse' : 'Driver',
          description: `<p>Night shifts, ward ${i % 7}, nursing care and driving.</p>`,
          profile: null,
          last_activation_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
          address: addressOf({ city: 'Lyon', country: 'FR', latitude: LYON.lat + (i % 10) / 100, longitude: LYON.lon }),
        }),
      ),
    ),
    new Date(),
  );
}

describe('catalogue search on its own thread', () => {
  const dirs: string[] = [];
  const open = (budgetMs?: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'jc-search-thread-'));
    dirs.push(dir);
    const store = openCatalogueStore(dir, budgetMs === undefined ? {} : { searchBudgetMs: budgetMs });
    seed(store);
    return store;
  };
  let store: CatalogueStore;
  before(() => {
    store = open();
  });
  after(() => {
    store.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('answers what a search on the event loop answers, for words, places, filters and orders', async () => {
    const searches: Partial<CampaignFilters>[] = [
      {},
      { q: 'nurse' },
      { q: 'nurs ward', sort: 'date' },
      { q: 'driving', page: 3 },
      { near: LYON, radius_km: 5, sort: 'distance' },
      { near: LYON, radius_km: 50, q: 'nurse', page: 2 },
      { city: 'lyon', job_type: 'Permanent contract' },
      { q: 'welder' },
    ];
    for (const search of searches) {
      const onThread = await store.searchAsync(all(search));
      const onLoop = store.search(all(search));
      assert.deepEqual([ids(onThread), onThread.total], [ids(onLoop), onLoop.total], JSON.stringify(search));
    }
  });

  it('leaves the event loop free while a search runs', async () => {
    await store.searchAsync(all({ q: 'nurse' }));
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    const cpuBefore = process.threadCpuUsage();
    // Ranked by relevance over a thousand matches: milliseconds of SQLite work.
    const searches = await Promise.all([1, 2, 3].map((page) => store.searchAsync(all({ q: 'nurs driv', page }))));
    const cpu = process.threadCpuUsage(cpuBefore);
    clearInterval(counting);
    const onLoopBefore = process.threadCpuUsage();
    const onLoopSearches = [1, 2, 3].map((page) => store.search(all({ q: 'nurs driv', page })));
    const onLoop = process.threadCpuUsage(onLoopBefore);
    assert.deepEqual(
      searches.map(ids),
      onLoopSearches.map(ids),
      'each search answered with its own page, in the order asked',
    );
    assert.ok(turns >= 1, 'the loop turned while the searches ran');
    assert.ok(
      cpu.user + cpu.system < (onLoop.user + onLoop.system) / 2,
      `this thread spent ${cpu.user + cpu.system} µs on searches that cost ${onLoop.user + onLoop.system} µs here`,
    );
  });

  it('stops a search at its time budget on the thread too, naming what made it costly', async () => {
    const tight = open(0);
    try {
      await assert.rejects(
        tight.searchAsync(all({ q: 'nurs driv' })),
        (error) => error instanceof SearchOverBudgetError && error.field === 'q' && error.budgetMs === 0,
      );
      await assert.rejects(
        tight.searchAsync(all({ near: LYON, radius_km: 50 })),
        (error) => error instanceof SearchOverBudgetError && error.field === 'near',
      );
      assert.equal(
        (await tight.searchAsync(all({ city: 'Lyon' }))).total,
        OFFERS,
        'a search of neither runs without a budget',
      );
    } finally {
      tight.close();
    }
  });

  it("searches an in-memory store on the event loop's thread (no other connection sees it)", async () => {
    const memory = openCatalogueStore(':memory:');
    try {
      seed(memory);
      const found = await memory.searchAsync(all({ q: 'nurse', page: 2 }));
      assert.deepEqual(
        [ids(found), found.total],
        [ids(memory.search(all({ q: 'nurse', page: 2 }))), memory.search(all({ q: 'nurse' })).total],
      );
    } finally {
      memory.close();
    }
  });

  it('refuses a search the thread could not run, naming why, and starts another thread for the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jc-search-thread-'));
    dirs.push(dir);
    const path = join(dir, 'catalogue.db');
    const worker = createSearchWorker({ path, budgetMs: undefined });
    try {
      await assert.rejects(
        worker.search(all({ q: 'nurse' })),
        /^Error: the catalogue's search thread failed: unable to open database file$/,
      );
      // A file with the records' table alone: the thread opens, its search fails.
      const bare = new DatabaseSync(path);
      bare.exec('CREATE TABLE campaign_records (id INTEGER PRIMARY KEY, record TEXT NOT NULL)');
      bare.close();
      await assert.rejects(
        worker.search(all({ q: 'nurse' })),
        /^Error: the catalogue's search failed: no such table: campaigns$/,
      );
      const store = openCatalogueStore(dir);
      seed(store);
      store.close();
      assert.equal((await worker.search(all({ q: 'nurse' }))).total, OFFERS / 3);
    } finally {
      worker.close();
    }
  });

  it('refuses the searches still waiting when the store closes', async () => {
    const closing = open();
    const waiting = closing.searchAsync(all({ q: 'nurs driv' }));
    closing.close();
    await assert.rejects(waiting, /the catalogue is closed/);
  });
});
