// Property: whatever query string a browser, a crawler or an attacker sends
// to GET /api/campaigns, the proxy answers 200 or 422 problem+json, never a 5xx,
// and answers it alike every time it is asked.
import assert from 'node:assert/strict';
import { parse } from 'node:querystring';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { toCatalogueCampaign } from '../catalogue.ts';
import { upstreamCampaign } from '../fixtures.test-support.ts';
import { openCatalogueStore } from '../../storage/catalogue/catalogue-sqlite.ts';
import { CampaignListQuery, coordinatesOf } from '../../../public-api/schemas.ts';
import { fetch, listen } from '../../test-support.ts';
import { catalogueApp } from '../../test/catalogue-app.ts';

/** Every parameter of the list's query, and keys meant to trip a query parser up. */
const KEYS = [...Object.keys(CampaignListQuery.shape), 'q[]', '__proto__', 'constructor', ''];
/** Broken percent escapes, sent as they are (any other value is encoded, so a "#" never cuts the query short). */
const MALFORMED = ['%', '%E0%A4%A'];
const value = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.integer().map(String),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '51',
    '1e3',
    'NaN',
    'Infinity',
    'Full time',
    'distance',
    'relevance',
    '45.76,4.84',
    '91,0',
    'Lyon',
    ...MALFORMED,
  ),
);
/** A query string, without its "?". */
const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string()), value), { maxLength: 8 })
  .map((pairs) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k)}=${MALFORMED.includes(v) ? v : encodeURIComponent(v)}`).join('&'),
  );

describe('GET /api/campaigns with arbitrary query strings', () => {
  let url: string;
  let close: () => Promise<void>;
  before(async () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll(
      Array.from({ length: 30 }, (_, i) =>
        toCatalogueCampaign(upstreamCampaign({ id: i + 1, name: `Offer ${i} développeur %_` })),
      ),
      new Date(),
    );
    // Hundreds of searches from one address: the per-address search limit (its own tests) would answer 429 past 60 a minute.
    const server = await listen(catalogueApp(store, { env: { SEARCH_RATE_LIMIT_PER_MINUTE: '1000000' } }));
    url = server.url;
    close = () => server.close().then(() => store.close());
  });
  after(() => close());

  it('answers only 200 or 422 problem+json', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (search) => {
        const response = await fetch(`${url}/api/campaigns?${search}`);
        const text = await response.text();
        assert.ok([200, 422].includes(response.status), `${response.status} for ?${search}: ${text}`);
        if (response.status === 422) {
          assert.equal(response.headers.get('content-type'), 'application/problem+json; charset=utf-8');
          const problem = JSON.parse(text) as { code: string; errors: unknown[] };
          assert.equal(problem.code, 'validation_failed');
          assert.ok(problem.errors.length > 0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('answers a query string asked again, after another, exactly as the first time, and as its own parse says', async () => {
    const answer = async (search: string) => {
      const response = await fetch(`${url}/api/campaigns?${search}`);
      return `${response.status} ${await response.text()}`;
    };
    // Express's "simple" query parser is node:querystring.
    // A city named by near is found among the offers' positions, and none has one here.
    const expectedStatus = (search: string) => {
      const parsed = CampaignListQuery.safeParse(parse(search));
      return parsed.success && (parsed.data.near === undefined || coordinatesOf(parsed.data.near) !== null)
        ? '200'
        : '422';
    };
    await fc.assert(
      fc.asyncProperty(query, query, async (first, other) => {
        const before = await answer(first);
        assert.equal(before.slice(0, 3), expectedStatus(first), `?${first}`);
        assert.equal((await answer(other)).slice(0, 3), expectedStatus(other), `?${other} after ?${first}`);
        assert.equal(await answer(first), before, `?${first} after ?${other}`);
      }),
      // A blank near is no filter, as an empty one: once found by a run of this property.
      { numRuns: 100, examples: [['near=%20', '']] },
    );
  });
});
