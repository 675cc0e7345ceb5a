// The catalogue store's search: full-text ranking (title above company above
// texts), accents, prefixes and hostile input; distance to a point or a city,
// within a radius; minimum salary; the orders. Against the real SQLite store.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import type { Campaign } from '../../../contract/index.ts';
import { toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import { addressOf, cityInFrance, upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import type { CampaignFilters } from '../../catalogue/types.ts';
import { openCatalogueStore } from './catalogue-sqlite.ts';

const all = (extra: Partial<CampaignFilters> = {}): CampaignFilters => ({ page: 1, per_page: 50, ...extra });
const ids = (r: { items: { id: number }[] }) => r.items.map((c) => c.id);

/** Known places (degrees) and their great-circle distances from Lyon. */
const LYON = { lat: 45.764, lon: 4.8357 };
const VILLEURBANNE = { lat: 45.7719, lon: 4.8902 }; // 4.3 km
const VIENNE = { lat: 45.5255, lon: 4.8743 }; // 26.7 km
const PARIS = { lat: 48.8566, lon: 2.3522 }; // 391.5 km

function storeOf(...campaigns: Campaign[]) {
  const store = openCatalogueStore(':memory:');
  store.replaceAll(campaigns.map(toCatalogueCampaign), new Date('2026-11-22T00:00:00.000Z'));
  return store;
}

const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}T00:00:00.000Z`;

/** An online offer whose only texts are its title, company and one paragraph of description, listed on day `listed`. */
function textOffer(id: number, name: string, company_name: string, description: string, listed = id): Campaign {
  return upstreamCampaign({
    id,
    name,
    company_name,
    description: `<p>${description}</p>`,
    profile: null,
    last_activation_at: day(listed),
  });
}

describe('catalogue search: words', () => {
  // The oldest offer has the word in its title, the newest in its description: relevance must beat date.
  const store = storeOf(
    textOffer(1, 'Nurse', 'Hôpital Nord', 'Care.'),
    textOffer(2, 'Accountant', 'Nurse & Co', 'Books.'),
    textOffer(3, 'Driver', 'Globex', 'Drive the nurse team around.'),
    textOffer(4, 'Développeur backend', 'Acme', 'Node.'),
    upstreamCampaign({
      id: 5,
      name: 'Nurse',
      company_name: 'Hôpital Sud',
      status: 'standby',
      last_activation_at: day(5),
    }),
  );

  it('ranks a match in the title above one in the company, above one in the texts', () => {
    assert.deepEqual(ids(store.search(all({ q: 'nurse' }))), [1, 2, 3]);
    assert.equal(store.search(all({ q: 'nurse' })).total, 3, 'an offer not online is neither listed nor counted');
    assert.deepEqual(ids(store.search(all({ q: 'nurse', sort: 'relevance' }))), [1, 2, 3]);
  });

  it('breaks ties of rank by date on every page, and counts the matches on a page past the last', () => {
    // The same texts rank the same: the date alone orders them, across the pages' boundaries.
    const welders = storeOf(...[3, 5, 1, 4, 2].map((d) => textOffer(10 + d, 'Welder', 'Forge', 'Steel.', d)));
    const page = (n: number) => welders.search({ q: 'welder', page: n, per_page: 2 });
    assert.deepEqual(
      [1, 2, 3].map((n) => ids(page(n))),
      [[15, 14], [13, 12], [11]],
    );
    assert.deepEqual(page(4), { items: [], total: 5 });
  });

  it('ranks the matches the same way, and counts them, when a filter narrows them', () => {
    const narrowed = store.search(all({ q: 'nurse', working_time: 'Full time' }));
    assert.deepEqual(ids(narrowed), [1, 2, 3]);
    assert.equal(narrowed.total, 3);
    assert.deepEqual(ids(store.search(all({ q: 'nurse', company_id: 999 }))), []);
  });

  it('orders by date when sort=distance comes without a point to measure from', () => {
    assert.deepEqual(ids(store.search(all({ sort: 'distance' }))), [4, 3, 2, 1]);
    assert.deepEqual(ids(store.search(all({ q: 'nurse', sort: 'distance' }))), [3, 2, 1]);
  });

  it('orders the same matches newest first with sort=date, and lists newest first without q', () => {
    assert.deepEqual(ids(store.search(all({ q: 'nurse', sort: 'date' }))), [3, 2, 1]);
    assert.deepEqual(ids(store.search(all())), [4, 3, 2, 1]);
    assert.deepEqual(ids(store.search(all({ sort: 'relevance' }))), [4, 3, 2, 1], 'relevance without words is by date');
  });

  it('ignores accents and case, and finds words by their beginning', () => {
    for (const q of ['dev', 'DÉV', 'developpeur', 'Développeur BACK', 'hopital', 'nor']) {
      assert.ok(store.search(all({ q })).total > 0, q);
    }
    assert.deepEqual(ids(store.search(all({ q: 'dev' }))), [4]);
    assert.deepEqual(
      ids(store.search(all({ q: 'De\u0301veloppeur' }))),
      [4],
      'an accent typed as a combining mark (NFD) is no word break',
    );
    assert.deepEqual(ids(store.search(all({ q: 'HÔPITAL nurse' }))), [1], 'every word must match');
    assert.deepEqual(ids(store.search(all({ q: 'velo' }))), [], 'a word is found by its beginning only');
  });

  it('finds the words of every text of an offer, each text apart from the next', () => {
    const texts = storeOf(
      upstreamCampaign({
        id: 1,
        name: 'Alpha',
        company_name: 'Bravo',
        job_type: 'Internship',
        working_time: 'Part time',
        description: '<p>Echo</p>',
        profile: '<p>Foxtrot</p>',
        address: addressOf({ city: 'Charlie', country: 'Deltaland' }),
      }),
    );
    for (const q of ['alpha', 'bravo', 'charlie', 'deltaland', 'internship', 'part', 'echo', 'foxtrot'])
      assert.deepEqual(ids(texts.search(all({ q }))), [1], q);
    for (const q of ['charliedeltaland', 'echofoxtrot', 'timeecho'])
      assert.deepEqual(ids(texts.search(all({ q }))), [], q);
  });

  it('turns any input into words: quotes, operators and column names are no FTS5 syntax', () => {
    const hostile = [
      '"',
      '""',
      '"nurse',
      'nurse"',
      '*',
      'nurse*',
      'NEAR(',
      'NEAR(nurse care, 2)',
      '-',
      '-nurse',
      ':',
      'title:nurse',
      'nurse OR driver',
      'NOT nurse',
      'AND',
      '(',
      ')',
      '^nurse',
      '{title company}: nurse',
      "l'hôpital",
      '\\',
      '\u0000',
      '🙂',
    ];
    for (const q of hostile) assert.doesNotThrow(() => store.search(all({ q })), q);
    assert.deepEqual(ids(store.search(all({ q: 'title:nurse' }))), [], '"title" is a word to find, not a column');
    assert.deepEqual(ids(store.search(all({ q: 'nurse OR driver' }))), [], 'OR is a word to find');
    assert.deepEqual(ids(store.search(all({ q: '"nurse' }))), [1, 2, 3]);
    assert.deepEqual(ids(store.search(all({ q: 'NEAR(nurse' }))), [], 'NEAR is a word to find');
  });
});

describe('catalogue search: places and salaries', () => {
  const store = storeOf(
    upstreamCampaign({
      id: 1,
      address: cityInFrance('Lyon', LYON),
      salary_min: 30000,
      salary_max: 38000,
      last_activation_at: day(1),
    }),
    upstreamCampaign({
      id: 2,
      address: cityInFrance('Villeurbanne', VILLEURBANNE),
      salary_min: 45000,
      salary_max: null,
      last_activation_at: day(2),
    }),
    upstreamCampaign({
      id: 3,
      address: cityInFrance('Vienne', VIENNE),
      salary_min: null,
      salary_max: null,
      last_activation_at: day(3),
    }),
    upstreamCampaign({
      id: 4,
      address: cityInFrance('Paris', PARIS),
      salary_min: 50000,
      salary_max: 60000,
      last_activation_at: day(4),
    }),
    upstreamCampaign({
      id: 5,
      address: cityInFrance('Lyon', null),
      salary_min: null,
      salary_max: 52000,
      last_activation_at: day(5),
    }),
    upstreamCampaign({
      id: 6,
      address: cityInFrance('Lyon', { lat: LYON.lat + 0.01, lon: LYON.lon + 0.01 }),
      last_activation_at: day(6),
      status: 'standby',
    }),
  );

  it('keeps the offers within the radius of a point (great-circle distance), leaving out those without coordinates', () => {
    assert.deepEqual(ids(store.search(all({ near: LYON, radius_km: 10 }))), [2, 1]);
    assert.deepEqual(ids(store.search(all({ near: LYON }))), [2, 1], '25 km by default: Vienne, 26.7 km away, is out');
    assert.deepEqual(ids(store.search(all({ near: LYON, radius_km: 27 }))), [3, 2, 1]);
    assert.deepEqual(ids(store.search(all({ near: LYON, radius_km: 391 }))), [3, 2, 1]);
    assert.deepEqual(ids(store.search(all({ near: LYON, radius_km: 393 }))), [4, 3, 2, 1]);
    assert.deepEqual(ids(store.search(all({ near: PARIS, radius_km: 1 }))), [4]);
  });

  it('orders by distance with sort=distance, nearest first', () => {
    assert.deepEqual(ids(store.search(all({ near: VIENNE, radius_km: 500, sort: 'distance' }))), [3, 1, 2, 4]);
    assert.deepEqual(ids(store.search(all({ near: PARIS, radius_km: 500, sort: 'distance' }))), [4, 1, 2, 3]);
  });

  it("finds a city's position as the average of its online offers' coordinates, case and accents ignored", () => {
    assert.deepEqual(store.placeOf('LYON'), LYON, 'the offer without coordinates and the one not online do not count');
    assert.deepEqual(store.placeOf(' villeurbânne '), VILLEURBANNE);
    assert.equal(store.placeOf('Marseille'), undefined);
    assert.deepEqual(ids(store.search(all({ city: 'LYÔN' }))), [5, 1], 'the city filter ignores accents too');
  });

  it('keeps the offers that pay at least salary_min (their maximum, else their minimum), leaving out those without salary', () => {
    assert.deepEqual(ids(store.search(all({ salary_min: 38000 }))), [5, 4, 2, 1]);
    assert.deepEqual(ids(store.search(all({ salary_min: 38001 }))), [5, 4, 2]);
    assert.deepEqual(ids(store.search(all({ salary_min: 52001 }))), [4]);
    assert.deepEqual(ids(store.search(all({ salary_min: 60001 }))), []);
    assert.deepEqual(ids(store.search(all({ salary_min: 0 }))), [5, 4, 2, 1], 'no salary is left out even at 0');
    assert.deepEqual(ids(store.search(all({ salary_min: 40000, near: LYON }))), [2]);
  });
});

describe('catalogue store file from before the full-text index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-old-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is rebuilt from its records on opening, and searched as a new one', () => {
    const record = { ...toCatalogueCampaign(upstreamCampaign({ id: 9, name: 'Électricien' })) };
    // The first version's table, and a record without coordinates in its address.
    const old = new DatabaseSync(join(dir, 'catalogue.db'));
    old.exec(`CREATE TABLE campaigns (id INTEGER PRIMARY KEY, status TEXT NOT NULL, listed_at TEXT NOT NULL, company_id INTEGER NOT NULL,
      job_type TEXT, working_time TEXT, city TEXT, search_text TEXT NOT NULL, record TEXT NOT NULL) STRICT;`);
    const { latitude: _lat, longitude: _lon, ...address } = record.address!;
    old
      .prepare("INSERT INTO campaigns VALUES (9, 'online', ?, 1, NULL, NULL, 'Lyon', 'electricien', ?)")
      .run(record.listed_at, JSON.stringify({ ...record, address }));
    old.close();
    const store = openCatalogueStore(dir);
    assert.deepEqual(ids(store.search(all({ q: 'elec' }))), [9]);
    assert.equal(store.placeOf('Lyon'), undefined);
    store.close();
  });
});
