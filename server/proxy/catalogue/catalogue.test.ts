import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { Campaign } from '../../contract/index.ts';
import { ConnectionError, NotFoundError, RateLimitError } from '../../client/errors.ts';
import { fakeApi, json, pagination } from '../../client/test/fake-api.ts';
import { NEWEST_SYNC_EVERY_MS, createCatalogue, toCatalogueCampaign } from './catalogue.ts';
import { STORE_FAILURE } from './store-failures.ts';
import type { CatalogueClient, CatalogueDeps } from './catalogue.ts';
import type { CatalogueCopy, CatalogueStore } from './types.ts';
import { upstreamCampaign } from './fixtures.test-support.ts';
import { openCatalogueStore } from '../storage/catalogue/catalogue-sqlite.ts';
import { ownCatalogueCopy } from './own-copy.ts';
import { captureLogs } from '../../test/logs.ts';
import { eventually } from '../../test/poll.ts';

const silent = pino({ level: 'silent' });

interface Call {
  kind: 'list' | 'get';
  query: { page?: number; order?: string; sort?: string; embed?: readonly string[] };
  options: { priority: string; signal?: AbortSignal };
}

interface State {
  campaigns: Campaign[];
  /** The page whose request fails (a connection refused). */
  failOnPage?: number;
  getError?: Error;
  listError?: Error;
  gate?: Promise<void>;
}

/** A client whose answers the test sets, pages of per_page as the service cuts them; records every call. */
function fakeClient(state: State) {
  const calls: Call[] = [];
  const client: CatalogueClient = {
    campaigns: {
      async list(query, options) {
        calls.push({ kind: 'list', query, options });
        if (state.listError) throw state.listError;
        if (state.gate) await state.gate;
        if (options.signal?.aborted) throw new Error('aborted');
        if (state.failOnPage === query.page) {
          throw new ConnectionError({
            method: 'GET',
            url: 'http://upstream/v2/campaigns',
            code: 'connection_failed',
            message: 'connection refused',
            mayHaveReachedServer: false,
          });
        }
        const ordered =
          query.order === 'last_activation_at'
            ? [...state.campaigns].sort((a, b) =>
                (b.last_activation_at ?? '').localeCompare(a.last_activation_at ?? ''),
              )
            : state.campaigns;
        const data = ordered.slice((query.page - 1) * query.per_page, query.page * query.per_page);
        const last = Math.max(1, Math.ceil(ordered.length / query.per_page));
        return { data, pagination: { 'next-page': query.page < last ? query.page + 1 : null } };
      },
      async get(id, query, options) {
        calls.push({ kind: 'get', query, options });
        await new Promise((r) => setTimeout(r, 5));
        if (state.getError) throw state.getError;
        const found = state.campaigns.find((c) => c.id === id);
        if (found === undefined)
          throw new NotFoundError({
            method: 'GET',
            url: `http://upstream/v2/campaigns/${id}`,
            status: 404,
            code: 'not_found',
            message: 'not found',
          });
        return found;
      },
    },
  };
  return { client, calls };
}

interface SetupOptions extends Partial<Pick<CatalogueDeps, 'logger' | 'registry' | 'now' | 'newestEveryMs'>> {
  syncBudgetShare?: number;
  /** The copy the catalogue writes to, over the test's store (by default the store's own copy). */
  copy?: (store: CatalogueStore) => CatalogueCopy;
}

/** A catalogue over the fake client serving `campaigns` and an in-memory store, silent and with a full sync budget unless told. */
function setup(campaigns: Campaign[], options: SetupOptions = {}) {
  const { syncBudgetShare = 1, copy = ownCatalogueCopy, ...deps } = options;
  const state: State = { campaigns };
  const { client, calls } = fakeClient(state);
  const store = openCatalogueStore(':memory:');
  const catalogue = createCatalogue({
    config: { channel: 'jobboard_test', syncIntervalSeconds: 300, syncBudgetShare },
    client,
    copy: copy(store),
    logger: silent,
    ...deps,
  });
  return { state, calls, store, catalogue };
}

describe('catalogue sync', () => {
  it('asks upstream, at low priority, for the online campaigns of the board channel with address and channels', async () => {
    const { catalogue, calls } = setup([upstreamCampaign()]);
    await catalogue.syncNow();
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0]?.query, {
      channels: ['jobboard_test'],
      status: ['online'],
      embed: ['address', 'channels'],
      page: 1,
      per_page: 50,
    });
    assert.equal(calls[0]?.options.priority, 'low');
  });

  it('keeps only campaigns that are online and broadcast on the board channel', async () => {
    const other = [{ id: 9, value: 'jobboard_other', name: 'Other', entity_id: null }];
    const { catalogue } = setup([
      upstreamCampaign({ id: 1 }),
      upstreamCampaign({ id: 2, status: 'standby' }),
      upstreamCampaign({ id: 3, channels: other }),
    ]);
    assert.equal(await catalogue.syncNow(), 1);
    assert.equal(catalogue.getCampaign(1)?.id, 1);
    assert.equal(catalogue.getCampaign(2), undefined);
    assert.equal(catalogue.getCampaign(3), undefined);
  });

  it('stores descriptions sanitised and flattens the address for the list', async () => {
    const { catalogue } = setup([
      upstreamCampaign({ id: 1, description: '<p onclick="x()">Hi<script>alert(1)</script></p>' }),
    ]);
    await catalogue.syncNow();
    const c = catalogue.getCampaign(1);
    assert.equal(c?.description, '<p>Hi</p>');
    assert.equal(c?.city, 'Lyon');
    assert.equal(c?.address?.postal_code, '69002');
  });

  it('lets other work run between the records of a page it reads, rather than holding the requests that arrive meanwhile', async () => {
    const { catalogue, store } = setup([1, 2, 3].map((id) => upstreamCampaign({ id })));
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const turnsSeen: number[] = [];
    const get = store.get.bind(store);
    store.get = (id) => {
      turnsSeen.push(turns);
      return get(id);
    };
    await catalogue.syncNow();
    counting = false;
    assert.equal(turnsSeen.length, 3);
    assert.equal(
      new Set(turnsSeen).size,
      3,
      `each record read in a turn of its own (turns seen: ${turnsSeen.join(', ')})`,
    );
  });

  it('when a campaign is no longer broadcast, it disappears at the next sync', async () => {
    const { catalogue, state } = setup([upstreamCampaign({ id: 1 }), upstreamCampaign({ id: 2 })]);
    await catalogue.syncNow();
    state.campaigns = [state.campaigns[1]!];
    await catalogue.syncNow();
    assert.equal(catalogue.getCampaign(1), undefined);
    assert.equal(catalogue.getCampaign(2)?.id, 2);
  });

  it('when the sync fails halfway, keeps every campaign held and records the error', async () => {
    const { catalogue, state } = setup(Array.from({ length: 60 }, (_, i) => upstreamCampaign({ id: i + 1 })));
    await catalogue.syncNow();
    const syncedAt = catalogue.lastSyncedAt();
    // Page 1 (ids 1-50) no longer holds 1; page 2 fails.
    state.campaigns = state.campaigns.slice(1);
    state.failOnPage = 2;
    await assert.rejects(catalogue.syncNow(), ConnectionError);
    assert.equal(catalogue.getCampaign(1)?.id, 1, 'the half-read walk removed nothing');
    assert.equal(catalogue.getCampaign(60)?.id, 60);
    assert.deepEqual(catalogue.lastSyncedAt(), syncedAt);
    assert.equal(catalogue.status().lastError?.code, 'connection_failed');
  });

  it('joins a sync already running instead of starting a second walk', async () => {
    const { catalogue, calls } = setup([upstreamCampaign()]);
    await Promise.all([catalogue.syncNow(), catalogue.syncNow()]);
    assert.equal(calls.length, 1);
  });

  it('is stale before the first sync and once the interval has passed', async () => {
    let now = Date.parse('2026-11-22T08:00:00.000Z');
    const { catalogue } = setup([upstreamCampaign()], { now: () => now });
    assert.equal(catalogue.isStale(), true);
    await catalogue.syncNow();
    assert.equal(catalogue.isStale(), false);
    now += 301_000;
    assert.equal(catalogue.isStale(), true);
  });

  it('runs a sync now asked during a scheduled sync once that one ends, so it lists what changed upstream meanwhile', async () => {
    let open!: () => void;
    const { catalogue, state, calls } = setup([upstreamCampaign({ id: 1 })]);
    state.gate = new Promise((resolve) => (open = resolve));
    catalogue.start();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(catalogue.status().running, true, 'the scheduled sync waits at its first page');
    state.campaigns = [upstreamCampaign({ id: 1 }), upstreamCampaign({ id: 2 })];
    const now = catalogue.syncNow();
    open();
    assert.equal(await now, 2);
    assert.equal(catalogue.getCampaign(2)?.id, 2);
    assert.equal(
      calls.filter((c) => c.query.order === undefined).length,
      2,
      'one walk after the other, never two at once',
    );
    await catalogue.stop();
  });

  it('stop() aborts a running sync and waits for it', async () => {
    let open!: () => void;
    const { catalogue, state, calls } = setup([upstreamCampaign({ id: 1 }), upstreamCampaign({ id: 2 })]);
    state.gate = new Promise((resolve) => (open = resolve));
    catalogue.start();
    const stopped = catalogue.stop();
    open();
    await stopped;
    assert.equal(calls[0]?.options.signal?.aborted, true);
    assert.equal(catalogue.status().running, false);
    assert.equal(catalogue.lastSyncedAt(), null);
  });

  it('reports the catalogue age and size, and syncs by result, in the metrics', async () => {
    let now = Date.parse('2026-11-22T08:00:00.000Z');
    const registry = new Registry();
    const { catalogue } = setup([upstreamCampaign(), upstreamCampaign()], { now: () => now, registry });
    assert.match(await registry.metrics(), /catalogue_age_seconds \+Inf/);
    await catalogue.syncNow();
    now += 42_000;
    const text = await registry.metrics();
    assert.match(text, /catalogue_age_seconds 42\b/);
    assert.match(text, /catalogue_campaigns 2\b/);
    assert.match(text, /catalogue_syncs_total\{result="success"\} 1\b/);
  });

  it("an instance's own catalogue walks upstream at start even when its file was synced moments ago, and has no sync-leader gauge", async () => {
    const registry = new Registry();
    const { catalogue, calls, store } = setup([upstreamCampaign()], { registry });
    // What the previous run of this instance left in DATA_DIR/catalogue.db a moment ago.
    store.replaceAll([], new Date());
    catalogue.start();
    await eventually(() => catalogue.status().lastAttemptAt, { timeoutMs: 5_000, what: 'the first sync' });
    await catalogue.stop();
    assert.deepEqual(
      calls.map((c) => c.kind),
      ['list'],
    );
    assert.equal(store.count(), 1);
    assert.doesNotMatch(await registry.metrics(), /catalogue_sync_leader/);
  });
});

describe('catalogue read of the newest offers', () => {
  it('runs on its own schedule after start, lists a campaign activated since the last walk, and walks no more for it', async () => {
    const { catalogue, state, calls, store } = setup(
      [upstreamCampaign({ id: 1, last_activation_at: '2026-11-20T08:00:00.000Z' })],
      { syncBudgetShare: 0.25, newestEveryMs: 10 },
    );
    catalogue.start();
    try {
      await eventually(() => catalogue.lastSyncedAt(), { timeoutMs: 5_000, what: 'the first walk' });
      state.campaigns = [
        ...state.campaigns,
        upstreamCampaign({ id: 2, last_activation_at: '2026-11-26T08:00:00.000Z' }),
      ];
      await eventually(() => store.get(2), { timeoutMs: 5_000, what: 'the new campaign to be listed' });
      await eventually(() => calls.filter((c) => c.query.order === 'last_activation_at').length >= 3, {
        timeoutMs: 5_000,
        what: 'three reads of the newest offers',
      });
    } finally {
      await catalogue.stop();
    }
    assert.equal(
      calls.filter((c) => c.kind === 'list' && c.query.order === undefined).length,
      1,
      'one full walk, at start',
    );
    assert.ok(
      calls
        .filter((c) => c.query.order === 'last_activation_at')
        .every((c) => c.query.sort === 'desc' && c.query.page === 1 && c.options.priority === 'low'),
    );
  });

  it('reads once a minute by default', async () => {
    assert.equal(NEWEST_SYNC_EVERY_MS, 60_000);
  });
});

describe('catalogue refreshCampaign', () => {
  it('re-reads the campaign upstream at high priority and updates the store', async () => {
    const { catalogue, state, calls } = setup([upstreamCampaign({ id: 1, name: 'Old name' })]);
    await catalogue.syncNow();
    state.campaigns = [upstreamCampaign({ id: 1, name: 'New name' })];
    const fresh = await catalogue.refreshCampaign(1);
    assert.equal(fresh?.name, 'New name');
    assert.equal(catalogue.getCampaign(1)?.name, 'New name');
    assert.equal(calls.at(-1)?.options.priority, 'high');
  });

  it('keeps an open campaign in standby for applications but out of the listing', async () => {
    const { catalogue, state, store } = setup([upstreamCampaign({ id: 1 })]);
    await catalogue.syncNow();
    state.campaigns = [upstreamCampaign({ id: 1, status: 'standby' })];
    assert.equal((await catalogue.refreshCampaign(1))?.status, 'standby');
    assert.equal(store.search({ page: 1, per_page: 50 }).total, 0);
  });

  it('when the campaign is archived, answers undefined and removes it', async () => {
    const { catalogue, state } = setup([upstreamCampaign({ id: 1 })]);
    await catalogue.syncNow();
    state.campaigns = [upstreamCampaign({ id: 1, status: 'archived' })];
    assert.equal(await catalogue.refreshCampaign(1), undefined);
    assert.equal(catalogue.getCampaign(1), undefined);
  });

  it('when the campaign is no longer broadcast on the board channel, answers undefined and removes it', async () => {
    const { catalogue, state } = setup([upstreamCampaign({ id: 1 })]);
    await catalogue.syncNow();
    state.campaigns = [upstreamCampaign({ id: 1, channels: [] })];
    assert.equal(await catalogue.refreshCampaign(1), undefined);
    assert.equal(catalogue.getCampaign(1), undefined);
  });

  it('when upstream answers 404, answers undefined', async () => {
    const { catalogue } = setup([]);
    assert.equal(await catalogue.refreshCampaign(77), undefined);
  });

  it('when upstream cannot be reached, rejects with the client error and keeps the local copy', async () => {
    const { catalogue, state } = setup([upstreamCampaign({ id: 1 })]);
    await catalogue.syncNow();
    state.getError = new ConnectionError({
      method: 'GET',
      url: 'http://upstream/v2/campaigns/1',
      code: 'connection_failed',
      message: 'refused',
      mayHaveReachedServer: false,
    });
    await assert.rejects(catalogue.refreshCampaign(1), ConnectionError);
    assert.equal(catalogue.getCampaign(1)?.id, 1);
  });

  it('shares one upstream call between concurrent refreshes of one campaign', async () => {
    const { catalogue, calls } = setup([upstreamCampaign({ id: 1 })]);
    await Promise.all([catalogue.refreshCampaign(1), catalogue.refreshCampaign(1), catalogue.refreshCampaign(1)]);
    assert.equal(calls.filter((c) => c.kind === 'get').length, 1);
  });
});

describe('catalogue sync through the client, when one upstream campaign breaks the contract', () => {
  it('keeps the other campaigns, leaves the bad one out and reports its id in the log, the status and the metrics', async () => {
    const pages: Record<string, unknown[]> = {
      '1': [
        upstreamCampaign({ id: 1 }),
        { ...upstreamCampaign({ id: 2 }), job_type: 'Freelance (new upstream value)' },
      ],
      '2': [upstreamCampaign({ id: 3 })],
    };
    const api = fakeApi((request) => {
      const page = new URL(request.url).searchParams.get('page') ?? '1';
      return json(pages[page], 200, pagination(Number(page), 2, 3));
    });
    const { logger, lines } = captureLogs();
    const registry = new Registry();
    const catalogue = createCatalogue({
      config: { channel: 'jobboard_test', syncIntervalSeconds: 300, syncBudgetShare: 1 },
      client: api.client,
      copy: ownCatalogueCopy(openCatalogueStore(':memory:')),
      logger,
      registry,
    });

    assert.equal(await catalogue.syncNow(), 2);

    assert.equal(catalogue.getCampaign(1)?.id, 1);
    assert.equal(catalogue.getCampaign(2), undefined);
    assert.equal(catalogue.getCampaign(3)?.id, 3, 'the page after the bad record was read too');
    assert.deepEqual(catalogue.status().skippedIds, [2]);
    const warning = lines.find((l) => l.event === 'campaign_skipped');
    assert.deepEqual({ id: warning?.campaign_id, fields: warning?.fields }, { id: 2, fields: ['job_type'] });
    assert.match(await registry.metrics(), /catalogue_skipped_campaigns 1\b/);
  });
});

describe('catalogue schedule after a rate-limited sync', () => {
  it('waits what the service asks, but never longer than the sync interval', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { catalogue, calls, state } = setup([upstreamCampaign({ id: 1 })]);
    state.listError = new RateLimitError({
      method: 'GET',
      url: 'http://upstream/v2/campaigns',
      status: 403,
      code: 'rate_limited',
      message: 'slow down',
      retryAfterMs: 86_400_000,
    });
    catalogue.start();
    await catalogue.syncNow().catch(() => undefined);
    delete state.listError;
    t.mock.timers.tick(299_000);
    assert.equal(catalogue.status().running, false);
    t.mock.timers.tick(1_000);
    assert.equal(catalogue.status().running, true, 'the next sync started after the 300 s interval, not after a day');
    // A sync now waits for the scheduled one running, then walks again: the full walks are the calls without an order
    // (the newest offers were read meanwhile, once a minute): started, asked now, scheduled, asked now.
    await catalogue.syncNow();
    assert.equal(calls.filter((c) => c.query.order === undefined).length, 4);
    assert.equal(catalogue.getCampaign(1)?.id, 1);
    await catalogue.stop();
  });
});

describe("the service's text as data", () => {
  it('maps every string of a campaign, nested ones included, without control characters; tabs kept, line breaks as LF', () => {
    const record = toCatalogueCampaign(
      upstreamCampaign({
        id: 7,
        name: 'Nurse\u0000',
        company_name: 'Ac\u0007me\u0085',
        description: '<p>Night\u0000 shifts&#1;\r\nweekends\roff\tpaid</p>',
        profile: null,
        address: {
          latitude: 45.7,
          longitude: 4.8,
          street_number: '1\u001b',
          street: 'rue\u0000 Neuve',
          postal_code: '69002\u007f',
          city: 'Lyon\u0000',
          country: 'France',
          name: null,
        },
      }),
    );
    assert.equal(record.name, 'Nurse');
    assert.equal(record.company_name, 'Acme');
    assert.equal(record.description, '<p>Night shifts\nweekends\noff\tpaid</p>');
    assert.deepEqual(record.address, {
      street_number: '1',
      street: 'rue Neuve',
      postal_code: '69002',
      city: 'Lyon',
      country: 'France',
      name: null,
      latitude: 45.7,
      longitude: 4.8,
    });
    assert.equal(record.city, 'Lyon');
    assert.doesNotMatch(JSON.stringify(record), /\\u00/, 'no control character left in any string');
  });
});

describe('catalogue sync, when its store refuses a record or fails', () => {
  it('leaves the refused record out, logs and counts it, lists the others and drops the copy held before; the sync succeeds', async () => {
    const registry = new Registry();
    const { logger, lines } = captureLogs();
    const { catalogue, state } = setup(
      [
        upstreamCampaign({ id: 1, name: 'Nurse' }),
        upstreamCampaign({ id: 2, name: 'Geologist' }),
        upstreamCampaign({ id: 3, company_id: 2, name: 'Baker' }),
      ],
      { logger, registry },
    );
    assert.equal(await catalogue.syncNow(), 3);
    // A salary the service should never send (the contract takes integers): the store's integer column refuses it.
    state.campaigns[1] = upstreamCampaign({ id: 2, name: 'Geologist', salary_min: 1.5, salary_max: null });
    state.campaigns[2] = upstreamCampaign({ id: 3, company_id: 2, name: 'Master baker' });

    assert.equal(await catalogue.syncNow(), 2);

    assert.deepEqual(
      [1, 2, 3].map((id) => catalogue.getCampaign(id)?.name ?? null),
      ['Nurse', null, 'Master baker'],
    );
    assert.equal(catalogue.status().lastError, null);
    const warning = lines.find((l) => l.event === 'campaign_not_stored');
    assert.deepEqual(
      [warning?.campaign_id, warning?.msg],
      [2, "campaign 2 skipped: the catalogue's store cannot keep it"],
    );
    assert.match(String(warning?.reason), /INTEGER/);
    assert.match(await registry.metrics(), /^catalogue_skipped_campaigns_total 1$/m);
    await catalogue.syncNow();
    assert.match(
      await registry.metrics(),
      /^catalogue_skipped_campaigns_total 2$/m,
      'counted at every write that meets it',
    );
  });

  it("a store that fails fails the sync under the store's name, not the service's", async () => {
    const { catalogue } = setup([upstreamCampaign({ id: 1 })], {
      copy: (store) => ({
        ...ownCatalogueCopy(store),
        applyChanges: async () => Promise.reject(new Error('database gone')),
      }),
    });
    await assert.rejects(catalogue.syncNow(), /the catalogue's store failed: database gone/);
    assert.deepEqual(
      [catalogue.status().lastError?.name, catalogue.status().lastError?.code],
      [STORE_FAILURE, 'store_failed'],
    );
  });
});
