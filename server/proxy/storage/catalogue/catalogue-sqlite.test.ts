import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { eventually } from '../../../test/poll.ts';
import { toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import { cityInFrance, upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import type { CampaignFilters, CatalogueCampaign, CatalogueStore } from '../../catalogue/types.ts';
import { openCatalogueStore } from './catalogue-sqlite.ts';

const all = (extra: Partial<CampaignFilters> = {}): CampaignFilters => ({ page: 1, per_page: 50, ...extra });
const ids = (r: { items: { id: number }[] }) => r.items.map((c) => c.id);

function seededStore() {
  const store = openCatalogueStore(':memory:');
  store.replaceAll(
    [
      upstreamCampaign({
        id: 1,
        name: 'Développeur backend',
        company_id: 1,
        company_name: 'Acme',
        last_activation_at: '2026-11-01T00:00:00.000Z',
      }),
      upstreamCampaign({
        id: 2,
        name: 'Product designer',
        company_id: 2,
        company_name: 'Globex',
        job_type: 'Freelance',
        working_time: 'Part time',
        description: '<p>Figma &amp; <strong>research</strong> 100% remote</p>',
        last_activation_at: '2026-11-03T00:00:00.000Z',
        address: cityInFrance('Paris'),
      }),
      upstreamCampaign({
        id: 3,
        name: 'Data engineer',
        company_id: 1,
        company_name: 'Acme',
        last_activation_at: '2026-11-02T00:00:00.000Z',
      }),
    ].map(toCatalogueCampaign),
    new Date('2026-11-22T00:00:00.000Z'),
  );
  return store;
}

/**
 * Runs `use` on a store in `folder`, given the number of segments its full-text index holds (read from a connection of
 * its own); closes both after.
 */
async function withStoreOnDisk(
  folder: string,
  use: (store: CatalogueStore, segments: () => number) => void | Promise<void>,
): Promise<void> {
  const store = openCatalogueStore(folder);
  const reader = new DatabaseSync(join(folder, 'catalogue.db'), { readOnly: true });
  const segments = () =>
    (reader.prepare('SELECT count(DISTINCT segid) AS n FROM campaigns_text_idx').get() as { n: number }).n;
  try {
    await use(store, segments);
  } finally {
    reader.close();
    store.close();
  }
}

describe('catalogue store', () => {
  it('lists online campaigns newest first (last activation), with the total', () => {
    const store = seededStore();
    const result = store.search(all());
    assert.deepEqual(ids(result), [2, 3, 1]);
    assert.equal(result.total, 3);
  });

  it('pages with page and per_page, the total counting every match', () => {
    const store = seededStore();
    const second = store.search(all({ page: 2, per_page: 2 }));
    assert.deepEqual(ids(second), [1]);
    assert.equal(second.total, 3);
    assert.deepEqual(ids(store.search(all({ page: 3, per_page: 2 }))), []);
  });

  it('finds words in name, company, city and description, ignoring case and accents', () => {
    const store = seededStore();
    assert.deepEqual(ids(store.search(all({ q: 'developpeur' }))), [1]);
    assert.deepEqual(ids(store.search(all({ q: 'GLOBEX' }))), [2]);
    assert.deepEqual(ids(store.search(all({ q: 'paris' }))), [2]);
    assert.deepEqual(ids(store.search(all({ q: 'figma research' }))), [2], 'every word must match');
    assert.deepEqual(ids(store.search(all({ q: 'figma backend' }))), []);
  });

  it('searches words, not characters: punctuation alone finds nothing, and % or _ match no other character', () => {
    const store = seededStore();
    assert.deepEqual(ids(store.search(all({ q: '100%' }))), [2]);
    assert.deepEqual(ids(store.search(all({ q: '%' }))), []);
    assert.deepEqual(ids(store.search(all({ q: '_' }))), []);
    assert.deepEqual(ids(store.search(all({ q: 'fig_zz' }))), [], 'fig and zz are two words, zz is in no text');
  });

  it('filters by company, job type, working time and city (city case ignored)', () => {
    const store = seededStore();
    assert.deepEqual(ids(store.search(all({ company_id: 1 }))), [3, 1]);
    assert.deepEqual(ids(store.search(all({ job_type: 'Freelance' }))), [2]);
    assert.deepEqual(ids(store.search(all({ working_time: 'Full time' }))), [3, 1]);
    assert.deepEqual(ids(store.search(all({ city: 'lyon' }))), [3, 1]);
    assert.deepEqual(ids(store.search(all({ city: 'lyon', job_type: 'Freelance' }))), []);
  });

  it('gives facets over the whole catalogue, companies by name', () => {
    const facets = seededStore().facets();
    assert.deepEqual(facets, {
      job_types: ['Freelance', 'Permanent contract'],
      working_times: ['Full time', 'Part time'],
      cities: ['Lyon', 'Paris'],
      companies: [
        { id: 1, name: 'Acme' },
        { id: 2, name: 'Globex' },
      ],
    });
  });

  it('keeps its facets across a change that leaves them (a new title), and follows one that does not (a company renamed, an offer removed, a new copy)', () => {
    const store = seededStore();
    const facets = store.facets();
    store.applyChanges([{ ...store.get(1)!, name: 'Renamed' }], []);
    assert.equal(store.facets(), facets, 'the same facets, not read again');
    store.applyChanges(
      [1, 3].map((id) => ({ ...store.get(id)!, company_name: 'Acme Renamed' })),
      [],
    );
    assert.deepEqual(store.facets().companies, [
      { id: 1, name: 'Acme Renamed' },
      { id: 2, name: 'Globex' },
    ]);
    store.applyChanges([], [2]);
    assert.deepEqual(store.facets().cities, ['Lyon']);
    store.facets();
    store.replaceAll([], new Date());
    assert.deepEqual(store.facets(), { job_types: [], working_times: [], cities: [], companies: [] });
  });

  it('replaceAll removes campaigns that are no longer broadcast', () => {
    const store = seededStore();
    store.replaceAll([toCatalogueCampaign(upstreamCampaign({ id: 3 }))], new Date());
    assert.deepEqual(ids(store.search(all())), [3]);
    assert.equal(store.get(1), undefined);
  });

  it('keeps a campaign upserted with another open status out of the list but readable by id', () => {
    const store = seededStore();
    store.upsert(toCatalogueCampaign(upstreamCampaign({ id: 1, status: 'standby' })));
    assert.deepEqual(ids(store.search(all())), [2, 3]);
    assert.equal(store.get(1)?.status, 'standby');
    assert.equal(store.count(), 2);
  });

  it('changes its version on every write (replaceAll, upsert, remove) and on no read, so readers drop their caches when, and only when, needed', () => {
    const store = seededStore();
    const writes: [string, () => void][] = [
      [
        'replaceAll',
        () =>
          store.replaceAll(
            [toCatalogueCampaign(upstreamCampaign({ id: 1 })), toCatalogueCampaign(upstreamCampaign({ id: 2 }))],
            new Date(),
          ),
      ],
      ['upsert', () => store.upsert(toCatalogueCampaign(upstreamCampaign({ id: 3 })))],
      ['remove', () => store.remove(2)],
    ];
    for (const [name, write] of writes) {
      const before = store.version();
      write();
      assert.ok(store.version() > before, `${name} changes the version`);
    }
    const before = store.version();
    store.search(all({ q: 'x' }));
    store.get(1);
    store.facets();
    store.count();
    store.lastSyncedAt();
    assert.equal(store.version(), before, 'reads keep it');
  });

  it('remembers the time of the last sync, from a whole copy and from changes alike', () => {
    const store = seededStore();
    const whole = new Date('2026-11-20T08:00:00Z');
    store.replaceAll([store.get(1)!], whole);
    assert.equal(store.lastSyncedAt()?.toISOString(), whole.toISOString());
    const later = new Date('2026-11-20T09:30:00Z');
    store.applyChanges([], [], later);
    assert.equal(store.lastSyncedAt()?.toISOString(), later.toISOString());
  });

  it('keeps its version when a write changes nothing: a record held as it is, a removal of an id not held, a sync time alone', () => {
    const store = seededStore();
    const held = store.get(2)!;
    const before = store.version();
    store.applyChanges([{ ...held }], [99], new Date('2026-11-23T00:00:00.000Z'));
    store.upsert({ ...held });
    store.remove(99);
    assert.equal(store.version(), before, 'readers keep their caches');
    assert.deepEqual(
      store.lastSyncedAt(),
      new Date('2026-11-23T00:00:00.000Z'),
      'the sync time is written all the same',
    );
    store.applyChanges([{ ...held, name: 'Product designer (remote)' }], []);
    assert.ok(store.version() > before, 'a record that differs is a change');
    assert.deepEqual(ids(store.search(all({ q: 'remote designer' }))), [2]);
  });

  describe('on disk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-store-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps campaigns and the last sync time across a restart', () => {
      const first = openCatalogueStore(dir);
      const syncedAt = new Date('2026-11-22T08:00:00.000Z');
      first.replaceAll([toCatalogueCampaign(upstreamCampaign({ id: 7 }))], syncedAt);
      first.close();
      const second = openCatalogueStore(dir);
      assert.equal(second.get(7)?.id, 7);
      assert.deepEqual(second.lastSyncedAt(), syncedAt);
      second.close();
    });

    it('leaves the merging of its full-text index out of the writes: each write adds a segment, merged after, between other work', () =>
      withStoreOnDisk(join(dir, 'merges'), async (store, segments) => {
        for (let id = 1; id <= 12; id++)
          store.upsert(toCatalogueCampaign(upstreamCampaign({ id, name: `Hydrologist ${id}` })));
        assert.equal(segments(), 12, 'no write merged');
        await eventually(() => segments() <= 3, { timeoutMs: 5_000, what: 'the segments to be merged' });
        assert.equal(store.search(all({ q: 'hydrologist' })).total, 12);
      }));

    it('merges its full-text index only once writes stop: a burst of writes is applied with no merge step between them', () =>
      withStoreOnDisk(join(dir, 'burst'), async (store, segments) => {
        for (let id = 1; id <= 12; id++) {
          store.upsert(toCatalogueCampaign(upstreamCampaign({ id, name: `Glaciologist ${id}` })));
          // The event loop turns between the writes, as between a sync's pages or another instance's changes.
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        assert.equal(segments(), 12, 'no merge step ran between the writes');
        await eventually(() => segments() <= 3, {
          timeoutMs: 5_000,
          what: 'the segments to be merged once the writes stopped',
        });
        assert.equal(store.search(all({ q: 'glaciologist' })).total, 12);
      }));
  });
});

describe('catalogue store: changes applied in place', () => {
  it('a change to any column searches filter or order on reaches them, alone or with others', () => {
    const store = openCatalogueStore(':memory:');
    const base = toCatalogueCampaign(upstreamCampaign({ id: 1, name: 'Offer 1' }));
    const other = toCatalogueCampaign(
      upstreamCampaign({ id: 2, name: 'Offer 2', last_activation_at: '2026-11-05T00:00:00.000Z' }),
    );
    store.replaceAll([base, other], new Date());
    const changes: [Partial<CatalogueCampaign>, Partial<CampaignFilters>][] = [
      [{ company_id: 9 }, { company_id: 9 }],
      [{ job_type: 'Freelance' }, { job_type: 'Freelance' }],
      [{ working_time: 'Part time' }, { working_time: 'Part time' }],
      [{ city: 'Brest' }, { city: 'brest' }],
      [{ salary_min: null, salary_max: 99_000 }, { salary_min: 90_000 }],
      [
        { address: { ...base.address!, latitude: 48.39, longitude: -4.49 } },
        { near: { lat: 48.39, lon: -4.49 }, radius_km: 1 },
      ],
      [
        { address: { ...base.address!, latitude: 48.5, longitude: -4.49 } },
        { near: { lat: 48.5, lon: -4.49 }, radius_km: 1 },
      ],
      [
        { address: { ...base.address!, latitude: 48.5, longitude: -4.6 } },
        { near: { lat: 48.5, lon: -4.6 }, radius_km: 1 },
      ],
    ];
    // One column more at each write, the others as the write before left them.
    let current = base;
    for (const [change, filter] of changes) {
      current = { ...current, ...change };
      store.applyChanges([current], []);
      assert.deepEqual(ids(store.search(all(filter))), [1], JSON.stringify(change));
    }
    current = { ...current, listed_at: '2026-11-09T00:00:00.000Z' };
    store.applyChanges([current], []);
    assert.deepEqual(ids(store.search(all())), [1, 2], 'listed_at orders the list');
    store.applyChanges([{ ...current, status: 'standby' }], []);
    assert.deepEqual(ids(store.search(all())), [2], 'the status lists it or not');
    store.close();
  });

  it('applyChanges writes and removes in one go, keeps the rest, is found by search at once, and records a sync time only when given one', () => {
    const store = openCatalogueStore(':memory:');
    const syncedAt = new Date('2026-11-20T08:00:00.000Z');
    store.replaceAll(
      [1, 2, 3].map((id) => toCatalogueCampaign(upstreamCampaign({ id, name: `Offer ${id}` }))),
      syncedAt,
    );
    const version = store.version();

    store.applyChanges(
      [
        toCatalogueCampaign(upstreamCampaign({ id: 2, name: 'Renamed hydrologist' })),
        toCatalogueCampaign(upstreamCampaign({ id: 4, name: 'Offer 4' })),
      ],
      [3],
    );

    assert.deepEqual(
      store.ids().sort((a, b) => a - b),
      [1, 2, 4],
    );
    assert.equal(store.get(1)?.name, 'Offer 1');
    assert.deepEqual(ids(store.search(all({ q: 'hydrologist' }))), [2]);
    assert.ok(store.version() > version, 'readers keyed on the version see the change');
    assert.deepEqual(store.lastSyncedAt(), syncedAt, 'not a complete sync: the sync time stays');
    const later = new Date('2026-11-20T09:00:00.000Z');
    store.applyChanges([], [], later);
    assert.deepEqual(store.lastSyncedAt(), later);
    store.close();
  });
});

describe('catalogue store: what each write leaves behind', () => {
  const offer = (id: number, extra: Partial<CatalogueCampaign> = {}): CatalogueCampaign => ({
    ...toCatalogueCampaign(
      upstreamCampaign({ id, name: `Offer ${id}`, company_id: id, company_name: `Company ${id}` }),
    ),
    ...extra,
  });

  it('forgets a removed offer entirely: not readable, not found or counted by its words', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1, { name: 'Hydrologist' }), offer(2, { name: 'Hydrologist' })], new Date());
    store.remove(1);
    assert.equal(store.get(1), undefined);
    assert.deepEqual(store.ids(), [2]);
    const found = store.search(all({ q: 'hydrologist' }));
    assert.deepEqual(ids(found), [2]);
    assert.equal(found.total, 1);
    store.close();
  });

  it('forgets the words an offer no longer has, and all its words once it is no longer listed (a new version each time)', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1, { name: 'Hydrologist' })], new Date());
    store.upsert(offer(1, { name: 'Geologist' }));
    assert.equal(store.search(all({ q: 'hydrologist' })).total, 0);
    assert.equal(store.search(all({ q: 'geologist' })).total, 1);
    const before = store.version();
    store.upsert(offer(1, { name: 'Geologist', status: 'standby' }));
    assert.ok(store.version() > before, 'an offer leaving the list is a change');
    assert.equal(store.search(all({ q: 'geologist' })).total, 0);
    assert.deepEqual(store.listedIds(), []);
    assert.deepEqual(store.ids(), [1]);
    store.close();
  });

  it('a record the tables refuse is left out and answered, its older copy kept; the rest of the batch is written, and found', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1), offer(3, { name: 'Held before' })], new Date());
    // The facets' counts are read before the write, and moved by it.
    store.facets();
    const broken = { ...offer(3), status: null } as unknown as CatalogueCampaign;
    const skipped = store.applyChanges([offer(2, { name: 'Nurse' }), broken, offer(4, { name: 'Geologist' })], [1]);
    assert.deepEqual(
      skipped.map((s) => s.id),
      [3],
    );
    assert.match(skipped[0]!.reason, /NOT NULL/);
    assert.deepEqual(store.ids().sort(), [2, 3, 4]);
    assert.equal(store.get(3)?.name, 'Held before');
    assert.deepEqual(ids(store.search(all({ q: 'nurse' }))), [2]);
    assert.equal(store.count(), 3);
    const same = openCatalogueStore(':memory:');
    same.replaceAll(
      [2, 3, 4].map((id) => store.get(id)!),
      new Date(),
    );
    assert.deepEqual(store.facets(), same.facets());
    same.close();
    store.close();
  });

  it('a batch that fails in the store, not on a record, leaves nothing of itself, and the next write goes through', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1)], new Date());
    const unwritable = {
      ...offer(3),
      toJSON: () => {
        throw new Error('disk gone');
      },
    } as unknown as CatalogueCampaign;
    assert.throws(() => store.applyChanges([offer(2), unwritable], [1]), /disk gone/);
    assert.deepEqual(store.ids(), [1]);
    store.upsert(offer(4));
    assert.deepEqual(store.ids().sort(), [1, 4]);
    store.close();
  });

  it('a batch of removals alone is a change: a new version', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1), offer(2)], new Date());
    const before = store.version();
    store.applyChanges([], [2]);
    assert.ok(store.version() > before);
    store.close();
  });

  it('within one batch, the last write of an id wins', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1), offer(2)], new Date());
    store.applyChanges([offer(2, { name: 'First' }), offer(1, { name: 'Other' }), offer(2, { name: 'Second' })], []);
    assert.equal(store.get(2)?.name, 'Second');
    assert.deepEqual(ids(store.search(all({ q: 'second' }))), [2]);
    store.close();
  });

  it('stores and finds offers without an address or a city', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1, { address: null, city: null }), offer(2)], new Date());
    assert.equal(store.get(1)?.address, null);
    assert.deepEqual(ids(store.search(all({ q: 'offer' }))).sort(), [1, 2]);
    assert.deepEqual(store.facets().cities, ['Lyon']);
    store.close();
  });

  it('places a city by its offers with both coordinates only: one with a latitude alone does not move it', () => {
    const store = openCatalogueStore(':memory:');
    const where = (latitude: number | null, longitude: number | null) => ({
      ...offer(0).address!,
      city: 'Brest',
      latitude,
      longitude,
    });
    store.replaceAll(
      [offer(1, { city: 'Brest', address: where(48, -4) }), offer(2, { city: 'Brest', address: where(50, null) })],
      new Date(),
    );
    assert.deepEqual(store.placeOf('Brest'), { lat: 48, lon: -4 });
    assert.equal(store.placeOf('Quimper'), undefined, 'a city without offers has no place');
    store.close();
  });

  it('filters on a city given with spaces around it', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1, { city: 'Brest' }), offer(2)], new Date());
    assert.deepEqual(ids(store.search(all({ city: '  brest ' }))), [1]);
    store.close();
  });

  it('lists the companies in the facets by name, companies of the same name (or none) by id', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll(
      [
        offer(1, { company_name: null }),
        offer(2, { company_name: 'Zeta' }),
        offer(3, { company_name: 'Alpha' }),
        offer(5, { company_name: 'Beta' }),
        offer(4, { company_name: 'Beta' }),
        offer(6, { company_name: null }),
      ],
      new Date(),
    );
    assert.deepEqual(store.facets().companies, [
      { id: 1, name: null },
      { id: 6, name: null },
      { id: 3, name: 'Alpha' },
      { id: 4, name: 'Beta' },
      { id: 5, name: 'Beta' },
      { id: 2, name: 'Zeta' },
    ]);
    store.close();
  });

  describe('on disk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-writes-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps its file readable by its owner alone, in WAL mode, and writes nothing at opening (version 1, new or reopened)', () => {
      const folder = join(dir, 'file');
      const store = openCatalogueStore(folder);
      assert.equal(store.version(), 1);
      store.replaceAll([offer(1)], new Date());
      store.close();
      assert.equal(statSync(join(folder, 'catalogue.db')).mode & 0o777, 0o600);
      const reader = new DatabaseSync(join(folder, 'catalogue.db'), { readOnly: true });
      assert.equal((reader.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
      reader.close();
      const reopened = openCatalogueStore(folder);
      assert.equal(reopened.version(), 1);
      assert.equal(reopened.get(1)?.id, 1);
      reopened.close();
    });

    it('has no sync time before its first sync, and closes once, leaving no write-ahead log behind', () => {
      const folder = join(dir, 'close');
      const store = openCatalogueStore(folder);
      assert.equal(store.lastSyncedAt(), null);
      store.upsert(offer(1));
      store.close();
      assert.throws(() => statSync(join(folder, 'catalogue.db-wal')), { code: 'ENOENT' });
      assert.doesNotThrow(() => store.close(), 'a second close is harmless');
    });

    it('writes a batch to its full-text index in id order, as one segment, whatever the order it came in', () =>
      withStoreOnDisk(join(dir, 'order'), (store, segments) => {
        store.applyChanges(
          [5, 4, 3, 2, 1].map((id) => offer(id)),
          [],
        );
        assert.equal(segments(), 1);
      }));

    it('merges its full-text index step after step until done, when one step is not enough', () =>
      withStoreOnDisk(join(dir, 'big'), async (store, segments) => {
        // Long texts of words found nowhere else: more pages than one merge step writes, in fewer segments than make FTS5 merge within a write.
        for (let id = 1; id <= 12; id++) {
          const words = Array.from({ length: 3_000 }, (_, w) => `w${id}x${w}`).join(' ');
          store.upsert(offer(id, { description: `<p>${words}</p>` }));
        }
        await eventually(() => segments() <= 3, { timeoutMs: 5_000, what: 'the segments to be merged' });
        assert.equal(store.search(all({ q: 'w12x2999' })).total, 1);
      }));
  });
});
