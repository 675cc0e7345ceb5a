// The shared catalogue hands the other instances changes, not copies, on
// PostgreSQL: after the syncing instance writes 3 changed campaigns among
// 2,000, another instance reads those 3 records only (counted where its pool
// answers) and serves them; removed campaigns are removed there too; an
// instance that was away while the removals it missed were pruned reloads
// the whole copy, one behind by no more than the removals kept reads the
// changes; a writer does not read back its own writes, but does read what
// another wrote before it; the time of the last complete sync travels with
// the changes; and a record the copy holds unreadable is left out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { captureLogs } from '../../../test/logs.ts';
import { eventually } from '../../../test/poll.ts';
import { cutConnectionsOf, freshMigratedDatabase, skipWithoutPostgres } from '../../../test/postgres.ts';
import { toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import { upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import type { CatalogueCampaign } from '../../catalogue/types.ts';
import { openSharedCatalogueStore } from './catalogue-shared.ts';
import type { SharedCatalogue } from './catalogue-shared.ts';

const skip = skipWithoutPostgres();
const url = skip ? '' : await freshMigratedDatabase();
const silent = pino({ level: 'silent' });
const MANY = 2_000;
/** What the syncing instance keeps of removals, in versions: small, so that an instance away for a few writes is too far behind. */
const KEEP = 5;
/** Each test's bound: a mutant that hangs a wait fails here instead of at the mutation run's timeout. */
const BOUND = { timeout: 60_000 };
/** The hooks' bound: writing the 2,000 records takes a while on a busy machine. */
const HOOK_BOUND = { timeout: 120_000 };
/** The time of the syncing instance's first complete sync. */
const FIRST_SYNC = new Date('2026-01-02T03:04:05.000Z');

const campaign = (id: number, name = `Offer ${id}`): CatalogueCampaign =>
  toCatalogueCampaign(upstreamCampaign({ id, name }));

/** A pool that counts the campaign records its queries returned: what the instance read of the copy. */
function countingPool(name: string) {
  const pool = new pg.Pool({ connectionString: url, max: 3, application_name: name });
  pool.on('error', () => undefined);
  const read = { records: 0 };
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  pool.query = (async (...args: unknown[]) => {
    const result = await query(...args);
    for (const row of result.rows as { record?: unknown }[])
      if (row.record !== null && row.record !== undefined) read.records += 1;
    return result;
  }) as unknown as typeof pool.query;
  return { pool, read };
}

describe('shared catalogue: changes, not copies (PostgreSQL)', { skip }, () => {
  const pools: pg.Pool[] = [];
  const copies: SharedCatalogue[] = [];
  let leader: SharedCatalogue;

  async function open(name: string, options: { checkEveryMs?: number; logger?: Logger } = {}) {
    const { pool, read } = countingPool(name);
    pools.push(pool);
    const copy = await openSharedCatalogueStore(pool, {
      logger: options.logger ?? silent,
      keepRemovalsForVersions: KEEP,
      checkEveryMs: options.checkEveryMs ?? 3_600_000,
    });
    copies.push(copy);
    return { copy, read };
  }

  /**
   * An instance whose every connection is then cut, its listening one too: it hears no announcement until it looks
   * again (once an hour here). With the version it held then.
   */
  async function openCutOff(name: string) {
    const opened = await open(name);
    await cutConnectionsOf(url, name);
    return { ...opened, held: opened.copy.version() };
  }

  /** A cut-off instance that missed what `meanwhile` wrote, once refreshed; `read` counts the records that refresh read. */
  async function refreshedAfterMissing(name: string, meanwhile: () => Promise<void>) {
    const { copy, read, held } = await openCutOff(name);
    await meanwhile();
    assert.equal(copy.version(), held, 'it heard nothing meanwhile');
    read.records = 0;
    await copy.refresh();
    return { copy, read };
  }

  before(async () => {
    if (skip) return;
    ({ copy: leader } = await open('leader'));
    assert.equal(await leader.lead(), true);
    await leader.applyChanges(
      { upserts: Array.from({ length: MANY }, (_, i) => campaign(i + 1)), deletes: [] },
      FIRST_SYNC,
    );
  }, HOOK_BOUND);

  after(async () => {
    for (const copy of copies) await copy.close();
    for (const pool of pools) await pool.end().catch(() => undefined);
  }, HOOK_BOUND);

  it(
    'an instance starting loads the whole copy; after 3 campaigns change, it reads those 3 records only and serves them',
    BOUND,
    async () => {
      const { copy: follower, read } = await open('follower');
      assert.equal(read.records, MANY, 'the whole copy at start');
      assert.equal(follower.store.count(), MANY);
      assert.deepEqual(follower.lastCatchUp(), { kind: 'whole', from: 0, to: leader.version() });
      assert.equal(
        follower.store.lastSyncedAt()?.toISOString(),
        FIRST_SYNC.toISOString(),
        'with the time of the last complete sync',
      );
      read.records = 0;
      const held = follower.version();

      await leader.applyChanges({
        upserts: [campaign(7, 'Changed 7'), campaign(700, 'Changed 700'), campaign(1_999, 'Changed 1999')],
        deletes: [],
      });
      await eventually(() => follower.version() === leader.version(), {
        timeoutMs: 10_000,
        what: 'the follower to catch up (NOTIFY)',
      });

      assert.equal(read.records, 3, 'only the changed records were read');
      assert.deepEqual(follower.lastCatchUp(), { kind: 'changes', from: held, to: leader.version() });
      assert.deepEqual(
        [7, 700, 1_999].map((id) => follower.store.get(id)?.name),
        ['Changed 7', 'Changed 700', 'Changed 1999'],
      );
      assert.equal(follower.store.get(8)?.name, 'Offer 8');
      assert.equal(follower.store.count(), MANY);

      // Nothing changed since: a refresh reads the version alone and applies nothing.
      const caughtUp = follower.lastCatchUp();
      await follower.refresh();
      assert.equal(follower.lastCatchUp(), caughtUp);
      assert.equal(read.records, 3);
    },
  );

  it('the time of a complete sync reaches the other instances with its changes', BOUND, async () => {
    const { copy: follower } = await open('follower-synced');
    const syncedAt = new Date('2026-02-03T04:05:06.000Z');
    await leader.applyChanges({ upserts: [campaign(5, 'Synced 5')], deletes: [] }, syncedAt);
    await eventually(() => follower.version() === leader.version(), {
      timeoutMs: 10_000,
      what: 'the follower to catch up',
    });
    assert.equal(follower.store.lastSyncedAt()?.toISOString(), syncedAt.toISOString());
  });

  it('removals reach the other instances as removals, with no record read', BOUND, async () => {
    const { copy: follower, read } = await open('follower-removals');
    read.records = 0;
    await leader.applyChanges({ upserts: [], deletes: [11, 12] });
    await eventually(() => follower.version() === leader.version(), {
      timeoutMs: 10_000,
      what: 'the follower to catch up',
    });
    assert.equal(read.records, 0);
    assert.equal(follower.store.get(11), undefined);
    assert.equal(follower.store.get(12), undefined);
    assert.equal(follower.store.count(), MANY - 2);
  });

  it(
    'an instance further behind than the removals kept reloads the whole copy, and drops what was removed meanwhile',
    BOUND,
    async () => {
      const { copy: away, read } = await refreshedAfterMissing('away', async () => {
        await leader.applyChanges({ upserts: [], deletes: [21] });
        for (let i = 0; i < KEEP + 1; i++)
          await leader.applyChanges({ upserts: [campaign(30 + i, `Later ${i}`)], deletes: [] });
      });

      assert.equal(away.version(), leader.version());
      assert.equal(away.lastCatchUp()?.kind, 'whole');
      assert.equal(read.records, MANY - 3);
      assert.equal(away.store.get(21), undefined, 'removed although its removal was pruned');
      assert.equal(away.store.get(30)?.name, 'Later 0');
      assert.deepEqual(
        away.store.ids().sort((a, b) => a - b),
        leader.store.ids().sort((a, b) => a - b),
      );
    },
  );

  it(
    'an instance behind by fewer versions than the removals kept reads only the changes it missed',
    BOUND,
    async () => {
      const { copy: behind, read } = await refreshedAfterMissing('behind', async () => {
        await leader.applyChanges({ upserts: [], deletes: [41] });
        await leader.applyChanges({ upserts: [campaign(42, 'Changed 42')], deletes: [] });
      });

      assert.equal(behind.lastCatchUp()?.kind, 'changes');
      assert.equal(read.records, 1);
      assert.equal(behind.store.get(41), undefined);
      assert.equal(behind.store.get(42)?.name, 'Changed 42');
    },
  );

  it(
    'an instance behind by exactly the versions removals are kept reads only the changes, removals included',
    BOUND,
    async () => {
      const { copy: behind, read, held } = await openCutOff('behind-by-keep');
      assert.equal(read.records, leader.store.ids().length, 'the whole copy at start, read once');
      await leader.applyChanges({ upserts: [], deletes: [51] });
      for (let i = 1; i < KEEP; i++)
        await leader.applyChanges({ upserts: [campaign(52, `Changed 52 (${i})`)], deletes: [] });
      assert.equal(leader.version(), held + KEEP);
      read.records = 0;

      await behind.refresh();

      assert.deepEqual(behind.lastCatchUp(), { kind: 'changes', from: held, to: held + KEEP });
      assert.equal(read.records, 1);
      assert.equal(behind.store.get(51), undefined);
      assert.equal(behind.store.get(52)?.name, `Changed 52 (${KEEP - 1})`);
    },
  );

  it('an instance writing after another wrote, before hearing of it, still reads that write', BOUND, async () => {
    // It hears no announcement: the leader's write is unknown to it when it writes its own.
    const { copy: late, read, held } = await openCutOff('interleaved');
    // Its own write alone: applied as it was made, not read back.
    const caughtUp = late.lastCatchUp();
    await late.upsert(campaign(60, 'Written alone'));
    read.records = 0;
    await late.refresh();
    assert.equal(late.lastCatchUp(), caughtUp);
    assert.equal(read.records, 0);
    assert.equal(late.version(), held + 1);

    await leader.applyChanges({ upserts: [campaign(61, 'By the leader')], deletes: [] });
    await late.upsert(campaign(62, 'By the other'));
    await eventually(() => leader.version() === late.version() + 2, {
      timeoutMs: 10_000,
      what: "the leader to hear the other's write",
    });
    assert.equal(late.version(), leader.version() - 2, 'its own write does not pass for the one it missed');

    await late.refresh();

    assert.equal(late.store.get(61)?.name, 'By the leader');
    assert.equal(late.store.get(62)?.name, 'By the other');
    assert.equal(late.version(), leader.version());
  });

  it(
    'a record PostgreSQL cannot store (a NUL, a lone surrogate) is left out and answered; the rest of its write reaches every instance',
    BOUND,
    async () => {
      const { copy: follower } = await open('refused');
      const refused = [{ ...campaign(5071), name: 'Nurse\u0000' }, campaign(5073, 'Broken \uD800 title')];
      const skipped = await leader.applyChanges({
        upserts: [campaign(5070, 'Stored'), refused[0]!, campaign(5072, 'Stored too'), refused[1]!],
        deletes: [],
      });
      assert.deepEqual(
        skipped.map((s) => s.id),
        [5071, 5073],
      );
      assert.deepEqual(
        skipped.map((s) => s.reason),
        ['unsupported Unicode escape sequence', 'invalid input syntax for type json'],
      );
      await follower.refresh();
      for (const instance of [leader, follower]) {
        assert.deepEqual(
          [5070, 5071, 5072, 5073].map((id) => instance.store.get(id)?.name),
          ['Stored', undefined, 'Stored too', undefined],
        );
      }
    },
  );

  it(
    'a record the copy holds unreadable is left out, its older form too, and logged with the fields at fault',
    BOUND,
    async () => {
      const logs = captureLogs();
      const { copy: follower } = await open('unreadable', { logger: logs.logger });
      assert.equal(follower.store.get(8)?.name, 'Offer 8');
      const unreadable = (id: number) => ({ ...campaign(id), address: { ...campaign(id).address!, city: 5 } });
      const writer = new pg.Client({ connectionString: url });
      await writer.connect();
      try {
        // As a writer of another version of the proxy might leave them: one record replaced, one new.
        await writer.query(
          `WITH v AS (UPDATE catalogue_version SET version = version + 1 RETURNING version)
         INSERT INTO catalogue_campaigns (id, record, changed_version) SELECT x.id, x.record, v.version FROM v, (VALUES (8::bigint, $1::jsonb), (3001, $2)) AS x(id, record)
         ON CONFLICT (id) DO UPDATE SET record = excluded.record, changed_version = excluded.changed_version`,
          [JSON.stringify(unreadable(8)), JSON.stringify(unreadable(3001))],
        );
      } finally {
        await writer.end();
      }

      await follower.refresh();

      assert.equal(follower.store.get(8), undefined, 'not served in its older form');
      assert.equal(follower.store.get(3001), undefined);
      assert.equal(follower.store.get(9)?.name, 'Offer 9');
      const warnings = logs.lines.filter((l) => l.event === 'shared_campaign_unreadable');
      assert.deepEqual(
        warnings.map((l) => [l.module, l.fields, l.msg]),
        [1, 2].map(() => [
          'catalogue',
          ['address.city'],
          'a campaign of the shared catalogue copy is unreadable; left out',
        ]),
      );
    },
  );
});
