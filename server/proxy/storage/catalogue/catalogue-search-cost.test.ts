// The bounds on a search's cost, against the real SQLite store: one-letter
// words dropped, the words read capped, the matches ranked capped, and the
// time budget that stops a search of words or a place.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import { cityInFrance, upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import { MAX_SEARCH_WORDS, SearchOverBudgetError } from '../../catalogue/search-text.ts';
import type { CampaignFilters } from '../../catalogue/types.ts';
import { MAX_RANKED_MATCHES } from './catalogue-search-sqlite.ts';
import { openCatalogueStore } from './catalogue-sqlite.ts';
import type { CatalogueStoreOptions } from './catalogue-sqlite.ts';

const all = (extra: Partial<CampaignFilters> = {}): CampaignFilters => ({ page: 1, per_page: 50, ...extra });
const ids = (r: { items: { id: number }[] }) => r.items.map((c) => c.id);
const day = (d: number) => new Date(Date.UTC(2026, 0, 1) + d * 60_000).toISOString();
const LYON = { lat: 45.764, lon: 4.8357 };

function storeOf(campaigns: Parameters<typeof upstreamCampaign>[0][], options: CatalogueStoreOptions = {}) {
  const store = openCatalogueStore(':memory:', options);
  store.replaceAll(
    campaigns.map((c) => toCatalogueCampaign(upstreamCampaign(c))),
    new Date(),
  );
  return store;
}

describe('catalogue search: words and their number', () => {
  const store = storeOf([
    {
      id: 1,
      name: 'Nurse',
      description: '<p>alpha bravo charlie delta echo</p>',
      profile: null,
      last_activation_at: day(1),
    },
    { id: 2, name: 'Driver', description: '<p>A van, a route.</p>', profile: null, last_activation_at: day(2) },
  ]);

  it('drops words shorter than two characters: they neither narrow a search nor find anything', () => {
    assert.deepEqual(
      ids(store.search(all({ q: 'nurse a' }))),
      [1],
      '"a" is in no text of offer 1, yet it still matches',
    );
    assert.deepEqual(ids(store.search(all({ q: 'a' }))), [], 'a search of one-letter words alone finds nothing');
    assert.equal(store.search(all({ q: 'a e i o u d l p s t' })).total, 0);
    assert.deepEqual(ids(store.search(all({ q: 'É nurse' }))), [1], 'one letter with its accent is one letter');
    assert.deepEqual(ids(store.search(all({ q: 'va' }))), [2], 'two letters are a word');
  });

  it(`reads the first ${MAX_SEARCH_WORDS} words: a word after them changes nothing, one among them does`, () => {
    assert.equal(MAX_SEARCH_WORDS, 5);
    assert.deepEqual(ids(store.search(all({ q: 'alpha bravo charlie delta echo zulu' }))), [1]);
    assert.deepEqual(ids(store.search(all({ q: 'alpha bravo charlie delta zulu echo' }))), []);
    assert.deepEqual(
      ids(store.search(all({ q: 'a alpha b bravo c charlie d delta e echo zulu' }))),
      [1],
      'dropped words are not counted',
    );
  });
});

describe('catalogue search: the matches ranked', () => {
  /** MAX_RANKED_MATCHES, written out: the catalogue below is built from it, whatever the constant says. */
  const RANKED = 5_000;
  // One more match than are ranked: the oldest has the word in its title, the others in their texts. Built when the suite runs, not when the file loads.
  let store: ReturnType<typeof storeOf>;
  before(() => {
    store = storeOf(
      Array.from({ length: RANKED + 1 }, (_, i) => ({
        id: i + 1,
        name: i === 0 ? 'Welder' : 'Driver',
        description: i === 0 ? '<p>Steel.</p>' : '<p>Welder wanted.</p>',
        profile: null,
        last_activation_at: day(i),
      })),
    );
  });

  it(`ranks by relevance up to ${RANKED} matches, and shows a broader search newest first, counting every match`, () => {
    assert.equal(MAX_RANKED_MATCHES, RANKED);
    const broad = store.search({ q: 'welder', page: 1, per_page: 2 });
    assert.deepEqual(ids(broad), [RANKED + 1, RANKED]);
    assert.equal(broad.total, RANKED + 1);
    store.remove(RANKED + 1);
    assert.deepEqual(ids(store.search({ q: 'welder', page: 1, per_page: 2 })), [1, RANKED], 'ranked: the title first');
    assert.deepEqual(
      ids(store.search({ q: 'welder', job_type: 'Permanent contract', page: 1, per_page: 2 })),
      [1, RANKED],
      'ranked with a filter too',
    );
  });
});

describe('catalogue search: the time budget', () => {
  // Offer 64 is one the budget is checked at (one row in 64, by id).
  const offers = [1, 2, 64].map((id) => ({
    id,
    name: 'Nurse',
    address: cityInFrance('Lyon', LYON),
    last_activation_at: day(id),
  }));

  it('stops a search of words past its budget, naming q, in every order', () => {
    const spent = storeOf(offers, { searchBudgetMs: 0 });
    for (const sort of ['relevance', 'date'] as const) {
      assert.throws(
        () => spent.search(all({ q: 'nurse', sort })),
        (error) => error instanceof SearchOverBudgetError && error.field === 'q',
        sort,
      );
    }
    assert.throws(
      () => spent.search(all({ q: 'nurse', city: 'Lyon' })),
      (error) => error instanceof SearchOverBudgetError && error.field === 'q',
    );
  });

  it('stops a search near a place past its budget, naming near, and never budgets the list without words or a place', () => {
    const spent = storeOf(offers, { searchBudgetMs: 0 });
    assert.throws(
      () => spent.search(all({ near: LYON, sort: 'distance' })),
      (error) => error instanceof SearchOverBudgetError && error.field === 'near',
    );
    assert.deepEqual(ids(spent.search(all({ city: 'Lyon' }))), [64, 2, 1]);
  });

  it('answers the same searches within a budget they fit in', () => {
    const store = storeOf(offers, { searchBudgetMs: 10_000 });
    assert.deepEqual(ids(store.search(all({ q: 'nurse' }))), [64, 2, 1]);
    assert.deepEqual(ids(store.search(all({ near: LYON, sort: 'distance' }))), [64, 2, 1]);
  });
});
