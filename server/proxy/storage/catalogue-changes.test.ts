// The shared catalogue hands the other instances changes, not copies, on
// PostgreSQL: after the syncing instance writes 3 changed campaigns among
// 2,000, another instance reads those 3 records only (counted where its pool
// answers) and serves them; removed campaigns are removed there too; and an
// instance that was away while the removals it missed were pruned reloads
// the whole copy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import { eventually } from '../../test/poll.ts';
import { freshMigratedDatabase, skipWithoutPostgres } from '../../test/postgres.ts';
import { toCatalogueCampaign } from '../catalogue/catalogue.ts';
import { upstreamCampaign } from '../catalogue/fixtures.ts';
import type { CatalogueCampaign } from '../catalogue/types.ts';
import { openSharedCatalogueStore } from './catalogue-shared.ts';
import type { SharedCatalogue } from './catalogue-shared.ts';

const skip = skipWithoutPostgres();
const url = skip ? '' : await freshMigratedDatabase();
const silent = pino({ level: 'silent' });
const MANY = 2_000;
/** What the syncing instance keeps of removals, in versions: small, so that an instance away for a few writes is too far behind. */
const KEEP = 5;

const campaign = (id: number, name = `Offer ${id}`): CatalogueCampaign => toCatalogueCampaign(upstreamCampaign({ id, name }));

/** A pool that counts the campaign records its queries returned: what the instance read of the copy. */
function countingPool(name: string) {
  const pool = new pg.Pool({ connectionString: url, max: 3, application_name: name });
  pool.on('error', () => undefined);
  const read = { records: 0 };
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  pool.query = (async (...args: unknown[]) => {
    const result = await query(...args);
    for (const row of result.rows as { record?: unknown }[]) if (row.record !== null && row.record !== undefined) read.records += 1;
    return result;
  }) as unknown as typeof pool.query;
  return { pool, read };
}

/** Cuts every connection of the instance: its listening one too, so it hears no announcement until it looks again (once an hour here). */
async function cutConnections(name: string): Promise<void> {
  const killer = new pg.Client({ connectionString: url });
  await killer.connect();
  try {
    await killer.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
    // Gone from the server: no announcement reaches them any more.
    await eventually(
      async () => (await killer.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [name])).rows[0]?.n === '0',
      { timeoutMs: 10_000, what: `the connections of ${name} to close` },
    );
  } finally {
    await killer.end();
  }
}

describe('shared catalogue: changes, not copies (PostgreSQL)', { skip }, () => {
  const pools: pg.Pool[] = [];
  const copies: SharedCatalogue[] = [];
  let leader: SharedCatalogue;

  async function open(name: string, options: { checkEveryMs?: number } = {}) {
    const { pool, read } = countingPool(name);
    pools.push(pool);
    const copy = await openSharedCatalogueStore(pool, { logger: silent, keepRemovalsForVersions: KEEP, checkEveryMs: options.checkEveryMs ?? 3_600_000 });
    copies.push(copy);
    return { copy, read };
  }

  before(async () => {
    if (skip) return;
    ({ copy: leader } = await open('leader'));
    assert.equal(await leader.lead(), true);
    await leader.applyChanges({ upserts: Array.from({ length: MANY }, (_, i) => campaign(i + 1)), deletes: [] }, new Date());
  });

  after(async () => {
    for (const copy of copies) await copy.close();
    for (const pool of pools) await pool.end().catch(() => undefined);
  });

  it('an instance starting loads the whole copy; after 3 campaigns change, it reads those 3 records only and serves them', async () => {
    const { copy: follower, read } = await open('follower');
    assert.equal(read.records, MANY, 'the whole copy at start');
    assert.equal(follower.store.count(), MANY);
    read.records = 0;

    await leader.applyChanges({ upserts: [campaign(7, 'Changed 7'), campaign(700, 'Changed 700'), campaign(1_999, 'Changed 1999')], deletes: [] });
    await eventually(() => follower.version() === leader.version(), { timeoutMs: 10_000, what: 'the follower to catch up (NOTIFY)' });

    assert.equal(read.records, 3, 'only the changed records were read');
    assert.deepEqual(follower.lastCatchUp()?.kind, 'changes');
    assert.deepEqual([7, 700, 1_999].map((id) => follower.store.get(id)?.name), ['Changed 7', 'Changed 700', 'Changed 1999']);
    assert.equal(follower.store.get(8)?.name, 'Offer 8');
    assert.equal(follower.store.count(), MANY);
  });

  it('removals reach the other instances as removals, with no record read', async () => {
    const { copy: follower, read } = await open('follower-removals');
    read.records = 0;
    await leader.applyChanges({ upserts: [], deletes: [11, 12] });
    await eventually(() => follower.version() === leader.version(), { timeoutMs: 10_000, what: 'the follower to catch up' });
    assert.equal(read.records, 0);
    assert.equal(follower.store.get(11), undefined);
    assert.equal(follower.store.get(12), undefined);
    assert.equal(follower.store.count(), MANY - 2);
  });

  it('an instance further behind than the removals kept reloads the whole copy, and drops what was removed meanwhile', async () => {
    const { copy: away, read } = await open('away');
    // The instance stops hearing the announcements (its listening connection is cut, and it checks the version once an hour).
    await cutConnections('away');
    const held = away.version();
    await leader.applyChanges({ upserts: [], deletes: [21] });
    for (let i = 0; i < KEEP + 1; i++) await leader.applyChanges({ upserts: [campaign(30 + i, `Later ${i}`)], deletes: [] });
    assert.equal(away.version(), held, 'it heard nothing meanwhile');
    read.records = 0;

    await away.refresh();

    assert.equal(away.version(), leader.version());
    assert.equal(away.lastCatchUp()?.kind, 'whole');
    assert.equal(read.records, MANY - 3);
    assert.equal(away.store.get(21), undefined, 'removed although its removal was pruned');
    assert.equal(away.store.get(30)?.name, 'Later 0');
    assert.deepEqual(away.store.ids().sort((a, b) => a - b), leader.store.ids().sort((a, b) => a - b));
  });

  it('an instance behind by fewer versions than the removals kept reads only the changes it missed', async () => {
    const { copy: behind, read } = await open('behind');
    await cutConnections('behind');
    const held = behind.version();
    await leader.applyChanges({ upserts: [], deletes: [41] });
    await leader.applyChanges({ upserts: [campaign(42, 'Changed 42')], deletes: [] });
    assert.equal(behind.version(), held, 'it heard nothing meanwhile');
    read.records = 0;

    await behind.refresh();

    assert.equal(behind.lastCatchUp()?.kind, 'changes');
    assert.equal(read.records, 1);
    assert.equal(behind.store.get(41), undefined);
    assert.equal(behind.store.get(42)?.name, 'Changed 42');
  });
});
