// One catalogue copy for several proxy instances on one PostgreSQL database,
// against the sandbox over real HTTP: three instances (each its own pool, its
// own client) of which exactly one syncs from the service while the others
// serve the same list; a change synced by it reaches every instance before
// its next sync, with no list call of their own; a refresh on any instance is written through; a new instance serves
// the copy at once without calling upstream; and when the syncing instance's
// connection dies, another takes the sync over.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import { createClient } from '../../../client/index.ts';
import { startSandbox } from '../../../sandbox/index.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { eventually } from '../../../test/poll.ts';
import { freshDatabase, freshMigratedDatabase, skipWithoutPostgres } from '../../../test/postgres.ts';
import { admin } from '../../../test/sandbox-admin.ts';
import { createCatalogue, toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import type { LiveCatalogue } from '../../catalogue/catalogue.ts';
import { upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import { openSharedCatalogueStore } from './catalogue-shared.ts';
import type { SharedCatalogue } from './catalogue-shared.ts';

const skip = skipWithoutPostgres();
const url = skip ? '' : await freshMigratedDatabase();
/** A database of its own for the test no instance syncs into. */
const quietUrl = skip ? '' : await freshMigratedDatabase();
/** A database holding a copy written by an earlier version. */
const olderUrl = skip ? '' : await freshMigratedDatabase();
/** A database where the migrations never ran. */
const bareUrl = skip ? '' : await freshDatabase();
const silent = pino({ level: 'silent' });
const CHANNEL = 'board_test';
/** Each test's bound: a mutant that hangs a wait (an instance that never opens) fails here instead of at the mutation run's timeout. */
const BOUND = { timeout: 60_000 };
/** The hooks' bound: starting the sandbox takes a while on a busy machine. */
const HOOK_BOUND = { timeout: 120_000 };

interface Instance {
  name: string;
  pool: pg.Pool;
  shared: SharedCatalogue;
  catalogue: LiveCatalogue;
  /** GET /v2/campaigns (the list a sync walks) sent by this instance. */
  listCalls: number;
  ids(): number[];
}

describe('shared catalogue on PostgreSQL, with the sandbox over HTTP', { skip }, () => {
  let sandbox: RunningSandbox;
  let boardKeys: { private_key: string; secret_key: string };
  let companyToken: string;
  const instances: Instance[] = [];

  async function createCampaign(name: string): Promise<number> {
    const response = await fetch(`${sandbox.url}/campaigns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${companyToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ campaign: { manage_name: name, name } }),
    });
    assert.equal(response.status, 201);
    const { id } = (await response.json()) as { id: number };
    await admin(sandbox, 'PATCH', `/campaigns/${id}`, { status: 'online', channels: [CHANNEL] });
    return id;
  }

  async function startInstance(name: string, options: { start?: boolean } = {}): Promise<Instance> {
    const pool = new pg.Pool({ connectionString: url, max: 3, application_name: name });
    // Idle connections cut by the server (the instance that dies) report here, as on any pool.
    pool.on('error', () => undefined);
    // No periodic version check (its own test is below): a change reaches the others by its announcement only.
    const shared = await openSharedCatalogueStore(pool, { logger: silent, checkEveryMs: 3_600_000 });
    const instance: Instance = {
      name,
      pool,
      shared,
      catalogue: undefined as unknown as LiveCatalogue,
      listCalls: 0,
      ids: () =>
        shared.store
          .search({ page: 1, per_page: 100 })
          .items.map((c) => c.id)
          .sort((a, b) => a - b),
    };
    const client = createClient({
      baseUrl: sandbox.url,
      privateKey: boardKeys.private_key,
      secretKey: boardKeys.secret_key,
      fetch: (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        if (request.method === 'GET' && new URL(request.url).pathname === '/v2/campaigns') instance.listCalls += 1;
        return fetch(request);
      },
    });
    // A 1 s interval: the syncing instance syncs every second, the others try to take over as often.
    instance.catalogue = createCatalogue({
      config: { channel: CHANNEL, syncIntervalSeconds: 1, syncBudgetShare: 1 },
      client,
      copy: shared,
      logger: silent,
    });
    if (options.start !== false) instance.catalogue.start();
    instances.push(instance);
    return instance;
  }

  before(async () => {
    if (skip) return;
    sandbox = await startSandbox({ admin: true, rateLimitPerMinute: 0 });
    const company = await admin<{ id: number }>(sandbox, 'POST', '/companies', {
      name: 'Acme',
      sources: ['carriere', 'board'],
    });
    const companyKeys = await admin<{ private_key: string; secret_key: string }>(sandbox, 'POST', '/clients', {
      company_id: company.id,
    });
    boardKeys = await admin(sandbox, 'POST', '/clients', { channel: CHANNEL });
    const jwt = await fetch(`${sandbox.url}/jwt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ private_key: companyKeys.private_key, secret_key: companyKeys.secret_key }),
    });
    assert.equal(jwt.status, 200);
    companyToken = ((await jwt.json()) as { token: string }).token;
    await createCampaign('First job');
    await createCampaign('Second job');
  }, HOOK_BOUND);

  after(async () => {
    for (const instance of instances) {
      await instance.catalogue.stop();
      await instance.shared.close();
      await instance.pool.end().catch(() => undefined);
    }
    await sandbox?.close();
  }, HOOK_BOUND);

  const syncing = () => instances.filter((i) => i.listCalls > 0);
  const alive = () => instances.filter((i) => !i.pool.ended);

  it('exactly one of three instances syncs from the service; the others serve the same list', BOUND, async () => {
    await Promise.all(['a', 'b', 'c'].map((name) => startInstance(name)));
    const [first] = await eventually(() => syncing().length > 0 && syncing(), {
      timeoutMs: 5_000,
      what: 'a first sync',
    });
    await eventually(() => instances.every((i) => i.ids().length === 2), {
      timeoutMs: 2_000,
      what: 'every instance to serve the two campaigns',
    });
    // Several more turns of the 1 s schedule: still one instance calling upstream.
    await eventually(() => first!.listCalls >= 3, { timeoutMs: 6_000, what: 'three syncs by the syncing instance' });
    assert.deepEqual(
      syncing().map((i) => i.name),
      [first!.name],
    );
    const expected = first!.ids();
    for (const instance of instances)
      assert.deepEqual(instance.ids(), expected, `${instance.name} serves the same list`);
  });

  // Counted in the syncing instance's turns (one a second) rather than timed: a loaded machine runs late, not fewer turns.
  it(
    'after a change in the service and a sync, every instance answers the new version before the next sync, without listing the service',
    BOUND,
    async () => {
      const [leader] = syncing();
      const followers = instances.filter((i) => i !== leader);
      const added = await createCampaign('Third job');
      // syncNow joins a sync already running, which may have listed before the change: sync until it is seen.
      await eventually(async () => (await leader!.catalogue.syncNow()) && leader!.ids().includes(added), {
        timeoutMs: 5_000,
        what: 'the syncing instance to see the new campaign',
      });
      const turns = leader!.listCalls;
      await eventually(() => instances.every((i) => i.ids().includes(added)), {
        timeoutMs: 30_000,
        what: 'every instance to list the new campaign',
      });
      assert.ok(
        leader!.listCalls <= turns + 1,
        `the syncing instance listed ${leader!.listCalls - turns} more times meanwhile`,
      );
      assert.deepEqual(
        followers.map((i) => i.listCalls),
        followers.map(() => 0),
        'the others listed nothing',
      );
    },
  );

  it(
    'a campaign one instance re-reads upstream (an application checking it) is written through to the others',
    BOUND,
    async () => {
      const [leader] = syncing();
      const follower = instances.find((i) => i !== leader)!;
      const [gone, kept] = follower.ids();
      // A re-read that finds the record unchanged writes nothing: no reload anywhere. (A new
      // version with a new sync time is the syncing instance's turn, which may come meanwhile.)
      const version = follower.shared.version();
      const syncedAt = follower.catalogue.lastSyncedAt();
      assert.equal((await follower.catalogue.refreshCampaign(kept!))?.id, kept);
      await follower.shared.refresh();
      const wroteThrough =
        follower.shared.version() !== version && follower.catalogue.lastSyncedAt()?.getTime() === syncedAt?.getTime();
      assert.equal(wroteThrough, false, 'an unchanged campaign was written through');
      await admin(sandbox, 'PATCH', `/campaigns/${gone}`, { status: 'archived' });
      assert.equal(await follower.catalogue.refreshCampaign(gone!), undefined);
      // Before the syncing instance's next turn but one: written through, not found by a sync.
      const turns = leader!.listCalls;
      await eventually(() => instances.every((i) => !i.ids().includes(gone!)), {
        timeoutMs: 30_000,
        what: 'every instance to drop the archived campaign',
      });
      assert.ok(
        leader!.listCalls <= turns + 1,
        `the syncing instance listed ${leader!.listCalls - turns} more times meanwhile`,
      );
    },
  );

  it(
    'a new instance starting while another syncs serves the shared copy at once, without calling the service',
    BOUND,
    async () => {
      const late = await startInstance('late', { start: false });
      const [leader] = syncing();
      assert.deepEqual(late.ids(), leader!.ids(), 'served before its first turn');
      late.catalogue.start();
      assert.equal(await late.catalogue.syncNow(), leader!.ids().length);
      assert.equal(late.listCalls, 0);
      assert.equal(late.catalogue.isStale(), false);
    },
  );

  it(
    'when the syncing instance dies (its connections cut), another takes the sync over; the dead one still answers from memory',
    BOUND,
    async () => {
      const [leader] = syncing();
      const before = leader!.ids();
      // The process dies: its timers stop and the server cuts its connections, which frees the lock.
      await leader!.catalogue.stop();
      const killer = new pg.Client({ connectionString: url });
      await killer.connect();
      // On this file's database only: another run of this file at the same time names its instances alike.
      await killer.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [leader!.name],
      );
      await killer.end();
      await leader!.pool.end();

      const others = alive();
      const callsBefore = new Map(others.map((i) => [i, i.listCalls]));
      const next = await eventually(() => others.find((i) => i.listCalls > callsBefore.get(i)!), {
        timeoutMs: 5_000,
        what: 'another instance to sync',
      });
      assert.notEqual(next.name, leader!.name);
      assert.equal(others.filter((i) => i.listCalls > callsBefore.get(i)!).length, 1, 'one instance took over');
      assert.equal(next.shared.leading(), true);
      // Answers come from memory: the dead instance's database is gone, its list is not.
      assert.deepEqual(leader!.ids(), before);
    },
  );
});

describe('shared catalogue copy on a database without its tables', { skip }, () => {
  it('fails to open, saying to run the migrations', BOUND, async () => {
    const pool = new pg.Pool({ connectionString: bareUrl, max: 2 });
    try {
      await assert.rejects(openSharedCatalogueStore(pool, { logger: silent }), (error: Error) => {
        assert.match(error.message, /shared catalogue's tables are missing.*run the database migrations/);
        assert.equal((error.cause as { code?: unknown } | undefined)?.code, '42P01', "with the database's error");
        return true;
      });
    } finally {
      await pool.end();
    }
  });

  it("fails to open with the database's own error when it is something else", BOUND, async () => {
    const missing = new URL(bareUrl);
    missing.pathname = '/no_such_database_for_the_catalogue';
    const pool = new pg.Pool({ connectionString: missing.href, max: 2 });
    try {
      await assert.rejects(openSharedCatalogueStore(pool, { logger: silent }), (error: Error) => {
        assert.doesNotMatch(error.message, /tables are missing/);
        assert.equal((error as { code?: unknown }).code, '3D000', 'no such database');
        return true;
      });
    } finally {
      await pool.end();
    }
  });
});

/** Writes `record` as version 1 straight into the shared tables at `databaseUrl`, as a sync would but announcing nothing. */
async function writeUnannounced<R extends { id: number }>(databaseUrl: string, record: R): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('INSERT INTO catalogue_campaigns (id, record) VALUES ($1, $2)', [
      record.id,
      JSON.stringify(record),
    ]);
    await client.query('INSERT INTO catalogue_version (version, synced_at) VALUES (1, now())');
  } finally {
    await client.end();
  }
}

describe('shared catalogue copy, when a notification is lost', { skip }, () => {
  it(
    'a new version written without NOTIFY still reaches every instance at its next look at the version (every second)',
    BOUND,
    async () => {
      const pools = [1, 2].map(() => new pg.Pool({ connectionString: quietUrl, max: 2 }));
      const copies = await Promise.all(pools.map((pool) => openSharedCatalogueStore(pool, { logger: silent })));
      try {
        const campaign = toCatalogueCampaign(upstreamCampaign({ id: 41 }));
        // What a sync publishes, minus the announcement (as when the listening connection was away).
        await writeUnannounced(quietUrl, campaign);
        // A bound, not a timing: nothing else than the version check can load it (no NOTIFY was sent).
        await eventually(() => copies.every((copy) => copy.store.get(41)?.name === campaign.name), {
          timeoutMs: 30_000,
          what: 'both instances to load the quiet change',
        });
        assert.deepEqual(
          copies.map((copy) => copy.version()),
          [1, 1],
        );
      } finally {
        await Promise.all(copies.map((copy) => copy.close()));
        await Promise.all(pools.map((pool) => pool.end()));
      }
    },
  );

  it(
    'loads records an earlier version wrote, without coordinates in their addresses, as offers without a position',
    BOUND,
    async () => {
      const pool = new pg.Pool({ connectionString: olderUrl, max: 2 });
      try {
        const campaign = toCatalogueCampaign(upstreamCampaign({ id: 42 }));
        const { latitude: _latitude, longitude: _longitude, ...address } = campaign.address!;
        await writeUnannounced(olderUrl, { ...campaign, address });
        const copy = await openSharedCatalogueStore(pool, { logger: silent });
        try {
          assert.deepEqual(copy.store.get(42)?.address, { ...address, latitude: null, longitude: null });
          assert.deepEqual(
            copy.store.search({ q: 'backend', page: 1, per_page: 10 }).items.map((c) => c.id),
            [42],
          );
        } finally {
          await copy.close();
        }
      } finally {
        await pool.end();
      }
    },
  );
});
