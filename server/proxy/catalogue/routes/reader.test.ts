// The catalogue's reader over a real in-memory store: the list's page and
// counts, its answers cached per catalogue version and per query (every
// parameter of the query schema telling two queries apart), `near`
// resolved, the detail and the JobPosting of listed offers only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CampaignListQuery } from '../../../public-api/schemas.ts';
import { ProblemError } from '../../http/problem.ts';
import { openCatalogueStore } from '../../storage/catalogue/catalogue-sqlite.ts';
import { toCatalogueCampaign } from '../catalogue.ts';
import { cityInFrance, upstreamCampaign } from '../fixtures.test-support.ts';
import { createCatalogueReader, listKey, searchOverBudgetProblem } from './reader.ts';
import { SearchOverBudgetError } from '../search-text.ts';

function seeded() {
  const store = openCatalogueStore(':memory:');
  store.replaceAll(
    [
      upstreamCampaign({
        id: 1,
        name: 'Nurse',
        company_id: 1,
        job_type: 'Permanent contract',
        working_time: 'Full time',
        address: cityInFrance('Lyon', { lat: 45.76, lon: 4.84 }),
        salary_max: 40000,
        last_activation_at: '2026-11-01T00:00:00.000Z',
      }),
      upstreamCampaign({
        id: 2,
        name: 'Nurse',
        company_id: 2,
        company_name: 'Globex',
        job_type: 'Internship',
        working_time: 'Part time',
        address: cityInFrance('Paris', { lat: 48.86, lon: 2.35 }),
        salary_max: 1200,
        last_activation_at: '2026-11-02T00:00:00.000Z',
      }),
      upstreamCampaign({
        id: 3,
        name: 'Driver',
        company_id: 1,
        description: '<p>Drive the nurse team.</p>',
        address: cityInFrance('Lyon', { lat: 45.77, lon: 4.85 }),
        salary_max: 60000,
        last_activation_at: '2026-11-03T00:00:00.000Z',
      }),
      upstreamCampaign({
        id: 4,
        name: 'Courier',
        company_id: 1,
        address: null,
        last_activation_at: '2026-11-04T00:00:00.000Z',
      }),
      upstreamCampaign({ id: 5, name: 'Nurse', status: 'standby', last_activation_at: '2026-11-05T00:00:00.000Z' }),
    ].map(toCatalogueCampaign),
    new Date(),
  );
  return store;
}

const query = (extra: Partial<CampaignListQuery> = {}): CampaignListQuery =>
  ({ page: 1, per_page: 20, ...extra }) as CampaignListQuery;
const idsOf = (list: { value: { items: { id: number }[] } }) => list.value.items.map((c) => c.id);

describe('catalogue reader', () => {
  it("answers a page of the list with its counts, its last page and the whole catalogue's facets", async () => {
    const reader = createCatalogueReader(seeded());
    const list = (await reader.list(query({ per_page: 3 }))).value;
    assert.deepEqual(
      list.items.map((c) => c.id),
      [4, 3, 2],
    );
    assert.deepEqual([list.page, list.per_page, list.total, list.last_page], [1, 3, 4, 2]);
    assert.deepEqual(list.facets.job_types, ['Internship', 'Permanent contract']);
    assert.deepEqual(list.items[0], { ...list.items[0], company_id: 1, name: 'Courier', city: null });
    assert.equal('description' in list.items[0]!, false, 'a summary, without the texts');
    const empty = (await reader.list(query({ q: 'welder' }))).value;
    assert.deepEqual([empty.total, empty.last_page], [0, 1], 'an empty list has one page');
  });

  it('keys its cache on every parameter of the list query schema, and on nothing else', () => {
    for (const name of CampaignListQuery.keyof().options) {
      const changed = { ...query(), [name]: 'another value' } as CampaignListQuery;
      assert.notEqual(listKey(changed), listKey(query()), `${name} tells two lists apart`);
    }
    assert.equal(
      listKey({ ...query(), lang: 'fr' } as CampaignListQuery),
      listKey(query()),
      "a route's own parameter is not the list's",
    );
    assert.equal(
      listKey(query({ near: 'Saint-ÉTIENNE' })),
      listKey(query({ near: 'saint-etienne' })),
      'near: case and accents ignored',
    );
    assert.equal(
      listKey(query({ city: 'Saint-ÉTIENNE' })),
      listKey(query({ city: 'saint-etienne' })),
      'city: case and accents ignored',
    );
    assert.notEqual(
      listKey(query({ q: 'Nurse' })),
      listKey(query({ near: 'nurse' })),
      'a value is keyed under its parameter',
    );
  });

  it('answers the same query from its cache until the catalogue changes, keeping at most maxCachedAnswers', async () => {
    const store = seeded();
    const reader = createCatalogueReader(store, { maxCachedAnswers: 2 });
    const first = reader.list(query({ q: 'nurse' }));
    assert.equal(
      reader.list(query({ q: 'nurse' })),
      first,
      'the same answer, by another parsed query of the same text',
    );
    assert.equal(
      reader.list(query({ city: 'LYON' })),
      reader.list(query({ city: 'lyon' })),
      'a city is one key, case ignored',
    );
    reader.list(query({ q: 'driver' }));
    assert.notEqual(reader.list(query({ q: 'nurse' })), first, 'the oldest answer was let go past two');
    const kept = reader.list(query({ q: 'nurse' }));
    store.remove(2);
    const after = await reader.list(query({ q: 'nurse' }));
    assert.notEqual(after, await kept);
    assert.deepEqual(idsOf(after), [1, 3]);
    assert.deepEqual(after.value.facets.job_types, ['Permanent contract'], 'the facets read again');
  });

  it('resolves near from coordinates or a city, and refuses a city none of whose offers has a position', async () => {
    const reader = createCatalogueReader(seeded());
    assert.deepEqual(reader.filtersOf(query({ near: '48.86,2.35' })).near, { lat: 48.86, lon: 2.35 });
    assert.deepEqual(reader.filtersOf(query({ near: 'paris' })).near, { lat: 48.86, lon: 2.35 });
    assert.equal(reader.filtersOf(query()).near, undefined);
    assert.deepEqual(idsOf(await reader.list(query({ near: 'Lyon', radius_km: 5 }))), [3, 1]);
    await assert.rejects(
      reader.list(query({ near: 'Atlantis' })),
      (error) =>
        error instanceof ProblemError &&
        error.status === 422 &&
        error.errors?.[0]?.field === 'near' &&
        error.errors[0].code === 'invalid_value' &&
        error.errors[0].reason === 'place_unknown' &&
        /LATITUDE,LONGITUDE/.test(error.errors[0].message),
    );
  });

  it("answers the detail and the JobPosting of a listed offer only, the company's address for an offer without one", () => {
    const store = seeded();
    const reader = createCatalogueReader(store, {
      boardOfferUrl: 'https://jobs.example/offres?offer={id}',
      now: () => new Date('2026-11-10T00:00:00.000Z'),
    });
    assert.equal(reader.detail(1)?.value.description, '<p>Build <strong>things</strong>.</p>');
    assert.deepEqual(
      [reader.detail(5), reader.detail(99), reader.jobPosting(5), reader.jobPosting(99)],
      [undefined, undefined, undefined, undefined],
    );
    const posting = reader.jobPosting(4)!.value as {
      url?: string;
      jobLocation?: { address: { addressLocality?: string } };
    };
    assert.equal(posting.url, 'https://jobs.example/offres?offer=4');
    assert.equal(posting.jobLocation?.address.addressLocality, 'Lyon', 'from another offer of the company');
    assert.equal(reader.jobPosting(4), reader.jobPosting(4), 'cached');
    store.upsert(toCatalogueCampaign(upstreamCampaign({ id: 6, company_id: 3, address: null })));
    assert.equal(
      (reader.jobPosting(6)?.value as { jobLocation?: unknown }).jobLocation,
      undefined,
      'a company with no address anywhere',
    );
    assert.equal(reader.detail(1), reader.detail(1), 'cached');
  });

  it('calls closed an offer it holds not online, never one it lists or does not hold', () => {
    const reader = createCatalogueReader(seeded());
    assert.deepEqual(
      [1, 5, 99].map((id) => reader.closed(id)),
      [false, true, false],
    );
  });

  it('keeps at most 1,000 answers by default, and answers the same query from its cache meanwhile', async () => {
    const reader = createCatalogueReader(seeded());
    const first = reader.list(query({ q: 'nurse' }));
    for (let page = 2; page <= 999; page++) reader.list(query({ page }));
    assert.equal(reader.list(query({ q: 'nurse' })), first, 'still held among 1,000');
    reader.list(query({ page: 1000 }));
    reader.list(query({ page: 1001 }));
    assert.notEqual(reader.list(query({ q: 'nurse' })), first, 'let go past 1,000');
  });

  it('words the 422 of a search stopped at its time budget by what made it costly, without the words searched', () => {
    const words = searchOverBudgetProblem(new SearchOverBudgetError(50, 'q'));
    assert.equal(words.status, 422);
    assert.deepEqual(words.errors, [
      {
        field: 'q',
        code: 'invalid_value',
        reason: 'search_too_long',
        message:
          'this search took too long: search fewer or longer words, or add a filter such as a city or a job type',
      },
    ]);
    const place = searchOverBudgetProblem(new SearchOverBudgetError(50, 'near'));
    assert.deepEqual(place.errors, [
      {
        field: 'near',
        code: 'invalid_value',
        reason: 'search_too_long',
        message:
          'this search near a place took too long: give a smaller radius_km, or add a filter such as a city or a job type',
      },
    ]);
    const error = new SearchOverBudgetError(50, 'near');
    assert.deepEqual(
      [error.name, error.message, error.budgetMs],
      ['SearchOverBudgetError', 'the search took more than its 50 ms budget and was stopped', 50],
    );
  });
});
