// GET /api/campaigns's bounds on searches over real HTTP: a search past its
// time budget answers 422 naming q (or near) without its words, and the
// searches from one address are limited per minute, each address counted
// apart (the requests sent from 127.0.0.2, 127.0.0.3…).
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { toCatalogueCampaign } from '../catalogue.ts';
import { cityInFrance, upstreamCampaign } from '../fixtures.test-support.ts';
import type { CatalogueStore } from '../types.ts';
import { openCatalogueStore } from '../../storage/catalogue/catalogue-sqlite.ts';
import type { CatalogueStoreOptions } from '../../storage/catalogue/catalogue-sqlite.ts';
import { fetch, listen, problemNaming } from '../../test-support.ts';
import { catalogueApp } from '../../test/catalogue-app.ts';

/** Offer 64 is one the budget is checked at (one row in 64, by id). */
const OFFERS = [1, 64].map((id) =>
  upstreamCampaign({
    id,
    name: 'Nurse',
    address: cityInFrance('Lyon', { lat: 45.764, lon: 4.8357 }),
  }),
);

async function startProxy(env: Record<string, string>, options: CatalogueStoreOptions) {
  const store: CatalogueStore = openCatalogueStore(':memory:', options);
  store.replaceAll(OFFERS.map(toCatalogueCampaign), new Date());
  const server = await listen(catalogueApp(store, { env }));
  return { url: server.url, close: () => server.close().then(() => store.close()) };
}

/** GET from a given loopback address: the status, the Retry-After header and the body. */
function getFrom(
  localAddress: string,
  url: string,
): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { localAddress }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
    }).on('error', reject);
  });
}

describe('GET /api/campaigns: a search past its time budget', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  before(async () => (proxy = await startProxy({}, { searchBudgetMs: 0 })));
  after(() => proxy.close());

  it('answers 422 naming q and what to do, never the words searched', async () => {
    const res = await fetch(`${proxy.url}/api/campaigns?q=NURSE`);
    assert.equal(res.status, 422);
    const body = await res.text();
    const problem = JSON.parse(body) as { code: string; errors: { field: string; message: string }[] };
    assert.equal(problem.code, 'validation_failed');
    assert.deepEqual(
      problem.errors.map((e) => e.field),
      ['q'],
    );
    assert.match(problem.errors[0]!.message, /took too long: search fewer or longer words/);
    assert.doesNotMatch(body, /nurse/i);
  });

  it('answers 422 naming near for a search near a place alone, and lists without words as ever', async () => {
    const problem = await problemNaming(await fetch(`${proxy.url}/api/campaigns?near=45.76,4.83&sort=distance`), 422, [
      'near',
    ]);
    assert.match(problem.errors[0]!.message, /give a smaller radius_km/);
    assert.equal((await fetch(`${proxy.url}/api/campaigns?city=Lyon`)).status, 200);
  });
});

describe('GET /api/campaigns: searches per address', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  before(async () => (proxy = await startProxy({ SEARCH_RATE_LIMIT_PER_MINUTE: '2' }, {})));
  after(() => proxy.close());

  it('answers 429 rate_limited with Retry-After past SEARCH_RATE_LIMIT_PER_MINUTE searches from one address, and counts each address apart', async () => {
    const search = (from: string, q: string) => getFrom(from, `${proxy.url}/api/campaigns?q=${q}`);
    assert.deepEqual(
      [(await search('127.0.0.2', 'nurse')).status, (await search('127.0.0.2', 'lyon')).status],
      [200, 200],
    );
    const refused = await search('127.0.0.2', 'nurse%20lyon');
    assert.equal(refused.status, 429);
    const seconds = Number(refused.retryAfter);
    assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `Retry-After: ${refused.retryAfter}`);
    assert.equal((JSON.parse(refused.body) as { code: string }).code, 'rate_limited');
    assert.match(refused.body, /Too many searches from this network; search again in \d+ seconds/);
    assert.equal((await search('127.0.0.3', 'nurse')).status, 200, 'another address has its own count');
    assert.equal(
      (await getFrom('127.0.0.2', `${proxy.url}/api/campaigns?city=Lyon`)).status,
      200,
      'the list without words is not counted',
    );
    assert.equal((await getFrom('127.0.0.2', `${proxy.url}/api/campaigns?q=%20`)).status, 200, 'nor is a blank q');
  });
});
