// GET /api/campaigns's search parameters over real HTTP: near (a point or a
// city), radius_km, salary_min and sort, their errors, and the presets of
// GET /embed/campaigns (the fragment comes from the built renderer, npm run build).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toCatalogueCampaign } from '../catalogue.ts';
import { cityInFrance, upstreamCampaign } from '../fixtures.test-support.ts';
import { openCatalogueStore } from '../../storage/catalogue/catalogue-sqlite.ts';
import type { CampaignList } from '../../../public-api/schemas.ts';
import { fetch, listen } from '../../test-support.ts';
import { catalogueApp } from '../../test/catalogue-app.ts';

const offers = [
  upstreamCampaign({
    id: 1,
    name: 'Nurse',
    company_id: 1,
    company_name: 'Acme',
    job_type: 'Permanent contract',
    address: cityInFrance('Lyon', { lat: 45.764, lon: 4.8357 }),
    salary_max: 40000,
    last_activation_at: '2026-11-01T00:00:00.000Z',
  }),
  upstreamCampaign({
    id: 2,
    name: 'Nurse assistant',
    company_id: 2,
    company_name: 'Globex',
    job_type: 'Internship',
    address: cityInFrance('Villeurbanne', { lat: 45.7719, lon: 4.8902 }),
    salary_max: 1200,
    last_activation_at: '2026-11-02T00:00:00.000Z',
  }),
  upstreamCampaign({
    id: 3,
    name: 'Driver',
    company_id: 1,
    company_name: 'Acme',
    job_type: 'Internship',
    description: '<p>Drive nurses around.</p>',
    address: cityInFrance('Paris', { lat: 48.8566, lon: 2.3522 }),
    salary_max: 60000,
    last_activation_at: '2026-11-03T00:00:00.000Z',
  }),
  upstreamCampaign({
    id: 4,
    name: 'Courier',
    company_id: 2,
    company_name: 'Globex',
    address: cityInFrance('Marseille'),
    salary_min: null,
    salary_max: null,
    last_activation_at: '2026-11-04T00:00:00.000Z',
  }),
];

describe('GET /api/campaigns: near, radius_km, salary_min, sort', () => {
  let url: string;
  let close: () => Promise<void>;
  before(async () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll(offers.map(toCatalogueCampaign), new Date());
    const server = await listen(catalogueApp(store));
    url = server.url;
    close = () => server.close().then(() => store.close());
  });
  after(() => close());

  const list = async (search: string) => {
    const res = await fetch(`${url}/api/campaigns?${search}`);
    assert.equal(res.status, 200, `?${search}: ${res.status}`);
    return ((await res.json()) as CampaignList).items.map((c) => c.id);
  };
  const problem = async (search: string) => {
    const res = await fetch(`${url}/api/campaigns?${search}`);
    assert.equal(res.status, 422, `?${search}`);
    return (await res.json()) as { code: string; errors: { field: string; message: string; reason?: string }[] };
  };

  it('finds offers near coordinates or near a city, within radius_km, nearest first with sort=distance', async () => {
    assert.deepEqual(await list('near=45.764,4.8357'), [2, 1]);
    assert.deepEqual(await list('near=45.764, 4.8357&radius_km=500&sort=distance'), [1, 2, 3]);
    assert.deepEqual(await list('near=villeurbanne&radius_km=3'), [2]);
    assert.deepEqual(await list('near=PARIS&radius_km=400&sort=distance'), [3, 1, 2]);
  });

  it('filters on salary_min, and sorts by relevance or date', async () => {
    assert.deepEqual(await list('salary_min=40000'), [3, 1]);
    assert.deepEqual(await list('q=nurse'), [2, 1, 3], 'the names first (the newer first among equals), then the text');
    assert.deepEqual(await list('q=nurse&sort=relevance'), [2, 1, 3]);
    assert.deepEqual(await list('q=nurse&sort=date'), [3, 2, 1]);
  });

  it("renders the fragment with the board's presets: the element's attributes, the list they filter (over the candidate's own), their filters hidden", async () => {
    const res = await fetch(
      `${url}/embed/campaigns?preset_company_id=1&preset_job_type=Internship&job_type=Permanent%20contract&q=driver`,
    );
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<jobboard-campaigns\b[^>]*\bcompany-id="1"[^>]*\bjob-type="Internship"/);
    assert.doesNotMatch(html, /<jobboard-campaigns\b[^>]*\bcity=/, 'no city attribute without its preset');
    const state = JSON.parse(
      /<script type="application\/json" data-jobboard-state>(.*?)<\/script>/s.exec(html)![1]!,
    ) as { list: CampaignList; query: object };
    assert.deepEqual(
      state.list.items.map((c) => c.id),
      [3],
    );
    assert.deepEqual(
      state.list,
      await (await fetch(`${url}/api/campaigns?company_id=1&job_type=Internship&q=driver`)).json(),
    );
    assert.deepEqual(state.query, { q: 'driver' }, "a preset is the element's, not the URL's");
    assert.doesNotMatch(html, /id="filter-job_type"/, 'the fixed filter is not shown');
    assert.match(html, /id="filter-city"/);

    const inLyon = await (await fetch(`${url}/embed/campaigns?preset_city=lyon`)).text();
    assert.match(inLyon, /<jobboard-campaigns\b[^>]*\bcity="lyon"/);
    assert.doesNotMatch(inLyon, /id="filter-city"/);
    assert.match(inLyon, /id="filter-job_type"/);
    const lyonState = JSON.parse(/data-jobboard-state>(.*?)<\/script>/s.exec(inLyon)![1]!) as { list: CampaignList };
    assert.deepEqual(
      lyonState.list.items.map((c) => c.id),
      [1],
    );
  });

  it('answers 422 naming the parameter, and what to do, for a sort or radius without near, bad coordinates or a city with no position', async () => {
    const cases: [string, string, RegExp][] = [
      ['sort=distance', 'sort', /give near/],
      ['radius_km=10', 'radius_km', /give near/],
      ['near=Lyon&radius_km=0', 'radius_km', /from 1 to 500/],
      ['near=Lyon&radius_km=501', 'radius_km', /from 1 to 500/],
      ['near=Lyon&radius_km=far', 'radius_km', /number of kilometres/],
      ['near=91,4', 'near', /latitude from -90 to 90/],
      ['near=45,181', 'near', /longitude from -180 to 180/],
      ['near=Marseille', 'near', /no offer in this city has a known position/],
      ['near=Atlantis', 'near', /give another city, or LATITUDE,LONGITUDE/],
      ['salary_min=-1', 'salary_min', /whole amount from 0/],
      ['sort=cheapest', 'sort', /relevance, date, distance/],
    ];
    for (const [search, field, message] of cases) {
      const body = await problem(search);
      assert.equal(body.code, 'validation_failed');
      assert.equal(body.errors[0]?.field, field, search);
      assert.match(body.errors[0]?.message ?? '', message, search);
    }
  });

  it("gives a city it cannot place the reason place_unknown, which the widget says in the page's language; bad coordinates none", async () => {
    for (const near of ['Marseille', 'Atlantis']) {
      const body = await problem(`near=${near}`);
      assert.deepEqual([body.errors[0]?.field, body.errors[0]?.reason], ['near', 'place_unknown'], near);
    }
    assert.equal((await problem('near=91,4')).errors[0]?.reason, undefined);
  });
});
