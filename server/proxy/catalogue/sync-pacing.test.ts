// The catalogue's syncs within SYNC_BUDGET_SHARE, against the sandbox over
// real HTTP with 1,000 broadcast offers (20 pages): the requests are counted
// where they leave for the service, on a fake clock that the pacer's waits
// move forward (no wall-time waits), and a new offer is listed by one read of
// the newest offers, without a full walk.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { createClient } from '../../client/index.ts';
import { RATE_LIMIT_PER_MINUTE } from '../../contract/values.ts';
import { broadcastNewOffer, seedBroadcastOffers } from '../../sandbox/bulk-seed.ts';
import type { BulkSeed } from '../../sandbox/bulk-seed.ts';
import { startSandbox } from '../../sandbox/index.ts';
import type { RunningSandbox } from '../../sandbox/index.ts';
import { openCatalogueStore } from '../storage/catalogue/catalogue-sqlite.ts';
import { createCatalogue } from './catalogue.ts';
import { ownCatalogueCopy } from './own-copy.ts';

const CHANNEL = 'board_scale';
const OFFERS = 1_000;
const silent = pino({ level: 'silent' });

interface WireRequest {
  at: number;
  search: URLSearchParams;
}

describe('catalogue syncs within SYNC_BUDGET_SHARE, at the wire', () => {
  let sandbox: RunningSandbox;
  let seed: BulkSeed;

  before(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    seed = seedBroadcastOffers(sandbox.context, { count: OFFERS, channel: CHANNEL });
  });
  after(() => sandbox?.close());

  /** A catalogue on a fake clock whose pacer waits move the clock, and the list requests it sent, stamped with that clock. */
  function setup(share: number) {
    const clock = { t: Date.parse('2026-11-26T08:00:00.000Z') };
    const wire: WireRequest[] = [];
    const client = createClient({
      baseUrl: sandbox.url,
      privateKey: seed.keys.private_key,
      secretKey: seed.keys.secret_key,
      fetch: (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        const url = new URL(request.url);
        if (request.method === 'GET' && url.pathname === '/v2/campaigns')
          wire.push({ at: clock.t, search: url.searchParams });
        return fetch(request);
      },
    });
    const store = openCatalogueStore(':memory:');
    const catalogue = createCatalogue({
      config: { channel: CHANNEL, syncIntervalSeconds: 300, syncBudgetShare: share },
      client,
      copy: ownCatalogueCopy(store),
      logger: silent,
      now: () => clock.t,
      sleep: async (ms) => {
        clock.t += ms;
      },
    });
    return { clock, wire, store, catalogue };
  }

  /** The most requests sent within any 60 s of the fake clock. */
  const mostInAMinute = (requests: WireRequest[]) =>
    Math.max(...requests.map((r) => requests.filter((o) => o.at >= r.at && o.at < r.at + 60_000).length));

  it('a full sync of a catalogue held before is spread out: never more than the share of 120 in any minute', async () => {
    const share = 0.05;
    const { clock, wire, catalogue, store } = setup(share);
    // The first walk fills an empty catalogue at the budget's own pace.
    assert.equal(await catalogue.syncNow(), OFFERS);
    const pages = wire.length;
    assert.equal(pages, OFFERS / 50);
    const startedAt = clock.t;

    assert.equal(await catalogue.syncNow(), OFFERS);

    const paced = wire.slice(pages);
    assert.equal(paced.length, pages, 'one request a page');
    const allowed = share * RATE_LIMIT_PER_MINUTE;
    assert.ok(
      mostInAMinute(paced) <= allowed,
      `${mostInAMinute(paced)} sync requests within one minute, more than the share's ${allowed}`,
    );
    // 20 pages at 5 a window (one of the 6 kept for the newest offers): the walk spans at least three windows.
    assert.ok(clock.t - startedAt >= 3 * 62_000, `the walk took ${clock.t - startedAt} ms of the clock`);
    assert.equal(store.count(), OFFERS);
  });

  it('a read of the newest offers lists a new offer with one request, without a full walk', async () => {
    const { wire, catalogue, store } = setup(0.25);
    await catalogue.syncNow();
    const walked = wire.length;
    const added = broadcastNewOffer(sandbox.context, seed, 'Brand new offer');

    await catalogue.syncNewest();

    assert.equal(store.get(added)?.name, 'Brand new offer');
    assert.equal(store.search({ page: 1, per_page: 1 }).items[0]?.id, added, 'listed first, as the newest');
    const sent = wire.slice(walked);
    assert.deepEqual(
      sent.map((r) => [r.search.get('order'), r.search.get('sort'), r.search.get('page'), r.search.get('per_page')]),
      [['last_activation_at', 'desc', '1', '50']],
    );
  });
});
