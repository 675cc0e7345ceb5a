// The shared catalogue's connections on PostgreSQL. Its dedicated one
// (LISTEN, and the sync lock while leading): when it is cut, the instance
// stops leading and its sync writes are refused until it takes the lock
// again; it reconnects (at its next try to lead, or at its version check) and
// hears the announcements again; a leader whose lock went without its knowing
// is refused by the database; closing releases the lock at once and leaves
// no connection behind, even when closed while loading. Its writes: one
// transaction each, rolled back whole when a statement fails. Its reads:
// refreshes asked meanwhile are joined, and an outage is logged once.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { pino } from 'pino';
import { captureLogs } from '../../../test/logs.ts';
import { eventually } from '../../../test/poll.ts';
import { cutConnectionsOf, freshMigratedDatabase, skipWithoutPostgres } from '../../../test/postgres.ts';
import { toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import { upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import type { CatalogueCampaign } from '../../catalogue/types.ts';
import { NEXT_VERSION, REMOVE_RECORDS, WRITE_RECORDS } from './catalogue-changes-sql.ts';
import { CATALOGUE_SYNC_LOCK, createSharedCatalogue, openSharedCatalogueStore } from './catalogue-shared.ts';
import type { SharedCatalogue, SharedCatalogueOptions } from './catalogue-shared.ts';

const skip = skipWithoutPostgres();
const url = skip ? '' : await freshMigratedDatabase();
const silent = pino({ level: 'silent' });
/** Each test's bound: a mutant that hangs a wait fails here instead of at the mutation run's timeout. */
const BOUND = { timeout: 30_000 };

const campaign = (id: number, name = `Offer ${id}`): CatalogueCampaign =>
  toCatalogueCampaign(upstreamCampaign({ id, name }));

interface Counted {
  pool: pg.Pool;
  /** Connections the instance checked out itself (its dedicated one, its writes), in order; the pool's own queries are not counted. */
  checkedOut: pg.PoolClient[];
  /** Queries sent through pool.query (the reads of the copy). */
  reads: { count: number };
  /** The statements sent on the connections it checked out, in order. */
  statements: string[];
  /** How late each COMMIT on those connections is answered (0: as the server answers), as in a busy process. */
  commitDelay: { ms: number };
}

const pools: pg.Pool[] = [];
const copies: SharedCatalogue[] = [];

/** A pool for one instance, named so its connections can be cut, counting what the instance asks of it. */
function countedPool(name: string): Counted {
  const pool = new pg.Pool({ connectionString: url, max: 3, application_name: name });
  pool.on('error', () => undefined);
  pools.push(pool);
  const checkedOut: pg.PoolClient[] = [];
  const reads = { count: 0 };
  const statements: string[] = [];
  const commitDelay = { ms: 0 };
  const recording = new WeakSet<pg.PoolClient>();
  const record = (client: pg.PoolClient) => {
    if (recording.has(client)) return client;
    recording.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      statements.push(String(args[0]));
      const answer = query(...args);
      if (args[0] !== 'COMMIT' || commitDelay.ms === 0) return answer;
      return (answer as Promise<unknown>).then(async (result) => {
        await sleep(commitDelay.ms);
        return result;
      });
    }) as typeof client.query;
    return client;
  };
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  // pool.query checks out through connect(callback): only the argument-less calls are the instance's own.
  pool.connect = ((...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      checkedOut.push(client);
      return record(client);
    });
  }) as typeof pool.connect;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    reads.count += 1;
    return query(...args);
  }) as typeof pool.query;
  return { pool, checkedOut, reads, statements, commitDelay };
}

async function open(name: string, options: Partial<SharedCatalogueOptions> = {}) {
  const counted = countedPool(name);
  const copy = await openSharedCatalogueStore(counted.pool, { logger: silent, checkEveryMs: 3_600_000, ...options });
  copies.push(copy);
  return { copy, ...counted };
}

/** Connections the pool has handed out and not had back. */
const held = (pool: pg.Pool) => pool.totalCount - pool.idleCount;

/** Cuts every connection of the instance named `name`, as when the database restarts or the network drops. */
const cutConnections = (name: string) => cutConnectionsOf(url, name);

async function sharedVersion(): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('SELECT version FROM catalogue_version');
    return Number(rows[0]?.version ?? 0);
  } finally {
    await client.end();
  }
}

/** Tries to lead until the try itself succeeds (a try on a connection whose cut is not yet noticed fails), answering whether it leads. */
const leadOnceConnected = (copy: SharedCatalogue) =>
  eventually(
    async () =>
      await copy.lead().then(
        (leads) => ({ leads }),
        () => undefined,
      ),
    { timeoutMs: 10_000, what: 'a try to lead that reaches the database' },
  );

describe('shared catalogue: its dedicated connection and the sync lock (PostgreSQL)', { skip }, () => {
  after(async () => {
    for (const copy of copies) await copy.close();
    for (const pool of pools) await pool.end().catch(() => undefined);
  });

  it(
    'a leader whose connection is cut stops leading, says so, has its sync writes refused, and leads again once it retakes the lock',
    BOUND,
    async () => {
      const logs = captureLogs();
      const followerLogs = captureLogs();
      const { copy: leader } = await open('cut-leader', { logger: logs.logger });
      const { copy: follower } = await open('cut-follower', { logger: followerLogs.logger });
      assert.equal(await leader.lead(), true);
      assert.equal(await follower.lead(), false, 'the lock is held');
      assert.equal(await leader.lead(), true, 'still leading at its next turn');
      const syncs = (lines: Record<string, unknown>[]) =>
        lines.filter((l) => l.msg === 'this instance syncs the shared catalogue' && l.module === 'catalogue').length;
      assert.equal(syncs(logs.lines), 1, 'said once that it syncs');
      assert.equal(syncs(followerLogs.lines), 0);

      await cutConnections('cut-leader');
      await eventually(() => !leader.leading(), {
        timeoutMs: 10_000,
        what: 'the leader to notice its connection is gone',
      });
      const lost = logs.lines.filter((l) => /sync lock lost with its connection/.test(String(l.msg)));
      assert.equal(lost.length, 1, 'the lost lock is logged');
      assert.ok(lost[0]!.err !== undefined, 'with the error');
      const version = await sharedVersion();
      await assert.rejects(
        leader.applyChanges({ upserts: [campaign(1)], deletes: [] }, new Date()),
        /not the syncing instance/,
      );
      assert.equal(await sharedVersion(), version, 'nothing written');

      // Its session is gone, so is the lock: its next try reconnects and takes it.
      assert.deepEqual(await leadOnceConnected(leader), { leads: true });
      await leader.applyChanges({ upserts: [campaign(1)], deletes: [] }, new Date());
      assert.equal(leader.store.get(1)?.id, 1, 'applied here at once');
      await eventually(() => follower.store.get(1) !== undefined, {
        timeoutMs: 10_000,
        what: 'the follower to hear the write',
      });
      await leader.close();
      await follower.close();
    },
  );

  it(
    'a follower whose connection is cut hears the announcements again once it reconnects at its next try to lead',
    BOUND,
    async () => {
      const logs = captureLogs();
      const { copy: leader } = await open('deaf-leader');
      const { copy: follower } = await open('deaf-follower', { logger: logs.logger });
      assert.equal(await leader.lead(), true);
      await cutConnections('deaf-follower');
      assert.equal(follower.leading(), false);
      assert.deepEqual(await leadOnceConnected(follower), { leads: false });
      assert.deepEqual(
        logs.lines.filter((l) => l.level === 'warn' || l.level === 40),
        [],
        'it held no lock to lose',
      );
      // Its version check runs once an hour here: only the announcement can bring this.
      await leader.applyChanges({ upserts: [campaign(2, 'Heard again')], deletes: [] });
      await eventually(() => follower.store.get(2)?.name === 'Heard again', {
        timeoutMs: 10_000,
        what: 'the follower to hear the announcement',
      });
      await leader.close();
      await follower.close();
    },
  );

  it('the version check reconnects a cut connection, and opens none while connected', BOUND, async () => {
    const { copy, checkedOut, reads } = await open('checking', { checkEveryMs: 50 });
    assert.equal(checkedOut.length, 1, 'its dedicated connection');
    const checks = reads.count;
    await eventually(() => reads.count >= checks + 5, { timeoutMs: 10_000, what: 'five version checks' });
    assert.equal(checkedOut.length, 1, 'no other connection while connected');

    await cutConnections('checking');
    // A try may get a pooled connection that was cut too and not yet noticed as such: it fails, and the next check tries again.
    await eventually(
      async () => {
        if (checkedOut.length < 2) return false;
        return checkedOut
          .at(-1)!
          .query('SELECT 1')
          .then(
            () => true,
            () => false,
          );
      },
      { timeoutMs: 10_000, what: 'the version check to reconnect' },
    );
    const reconnected = checkedOut.length;
    const after = reads.count;
    await eventually(() => reads.count >= after + 5, { timeoutMs: 10_000, what: 'five more version checks' });
    assert.equal(checkedOut.length, reconnected, 'no other connection once reconnected');
    assert.equal(copy.leading(), false);
  });

  it(
    'a leader that lost the lock without noticing has its sync write refused by the database, which keeps the version',
    BOUND,
    async () => {
      const { copy: leader, checkedOut } = await open('stale-leader');
      const { copy: other } = await open('stale-other');
      assert.equal(await leader.lead(), true);
      // Released under it on its own session (as when the lock went and the connection survived): it still believes it leads.
      const [dedicated] = checkedOut;
      await dedicated!.query('SELECT pg_advisory_unlock($1::bigint)', [CATALOGUE_SYNC_LOCK]);
      assert.equal(leader.leading(), true);
      assert.equal(await other.lead(), true, 'another instance took the lock');

      const version = await sharedVersion();
      await assert.rejects(
        leader.applyChanges({ upserts: [campaign(3)], deletes: [] }, new Date()),
        /sync lock was lost during the sync: its result is not published/,
      );
      assert.equal(await sharedVersion(), version);
      assert.equal(leader.store.get(3), undefined, 'not applied here either');
      // The new holder writes.
      await other.applyChanges({ upserts: [campaign(3)], deletes: [] }, new Date());
      assert.equal(await sharedVersion(), version + 1);
      await other.close();
      await leader.close();
    },
  );

  it('closing the leader releases the lock: another instance takes it at its next try', BOUND, async () => {
    const { copy: leader, pool, checkedOut } = await open('closing-leader');
    const { copy: other } = await open('closing-other');
    assert.equal(await leader.lead(), true);
    // Its goodbye leaves 300 ms late, as from a busy process: the session, and the lock, end only then.
    const [dedicated] = checkedOut;
    const end = dedicated!.end.bind(dedicated) as (...args: unknown[]) => unknown;
    dedicated!.end = ((...args: unknown[]) => void setTimeout(() => end(...args), 300)) as pg.PoolClient['end'];
    assert.equal(await other.lead(), false);
    await leader.close();
    assert.equal(held(pool), 0, 'no connection kept');
    assert.equal(await leader.lead(), false, 'a closed instance does not lead');
    assert.equal(await other.lead(), true, 'the lock is free once close() has resolved');
    assert.throws(() => leader.store.count(), 'its local store is closed');
    await leader.close();
    await other.close();
  });

  it('checks the version at the interval asked, once a second by default', BOUND, async () => {
    const hourly = await open('hourly', { checkEveryMs: 3_600_000 });
    const byDefault = countedPool('by-default');
    copies.push(await openSharedCatalogueStore(byDefault.pool, { logger: silent }));
    const [fromHourly, fromDefault] = [hourly.reads.count, byDefault.reads.count];
    // A bound on counts, not a timing: a busy machine runs timers late, never early.
    await sleep(1_500);
    assert.equal(hourly.reads.count, fromHourly, 'no check within the first hour');
    assert.ok(
      byDefault.reads.count - fromDefault <= 2,
      `${byDefault.reads.count - fromDefault} checks in a second and a half by default`,
    );
  });

  it('closed, it checks the version no more', BOUND, async () => {
    const { copy, pool, checkedOut, reads } = await open('closing-checks', { checkEveryMs: 20 });
    const checks = reads.count;
    await eventually(() => reads.count >= checks + 2, { timeoutMs: 10_000, what: 'two version checks' });
    await copy.close();
    const queries = reads.count;
    // Long enough for several version checks, were any still scheduled.
    await sleep(300);
    assert.deepEqual([checkedOut.length, reads.count, held(pool)], [1, queries, 0]);
  });

  it('closes after its connection was cut', BOUND, async () => {
    const { copy, pool } = await open('closing-cut');
    await cutConnections('closing-cut');
    await leadOnceConnected(copy);
    await cutConnections('closing-cut');
    await copy.close();
    assert.equal(held(pool), 0);
  });

  it(
    'closed while loading, it finishes the load, keeps no connection and checks the version no more',
    BOUND,
    async () => {
      const writer = await open('loading-writer');
      await writer.copy.upsert(campaign(4));
      const { pool, checkedOut, reads } = countedPool('loading');
      const copy = createSharedCatalogue(pool, { logger: silent, checkEveryMs: 20 });
      const loading = copy.load();
      await copy.close();
      await loading;
      assert.equal(held(pool), 0, 'no connection kept');
      const connections = checkedOut.length;
      const queries = reads.count;
      // Long enough for several version checks, were any still scheduled.
      await sleep(300);
      assert.deepEqual([checkedOut.length, reads.count, held(pool)], [connections, queries, 0]);
    },
  );

  it('fails to open when its connection cannot listen, and gives that connection up', BOUND, async () => {
    const { pool } = countedPool('deaf');
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    const refusingListen = (client: pg.PoolClient) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((...args: unknown[]) =>
        typeof args[0] === 'string' && args[0].startsWith('LISTEN')
          ? Promise.reject(new Error('LISTEN refused'))
          : query(...args)) as typeof client.query;
      return client;
    };
    // The instance's own checkouts (no callback) refuse LISTEN; pool.query's are left alone.
    pool.connect = ((...args: unknown[]) =>
      args.length > 0
        ? connect(...args)
        : (connect() as Promise<pg.PoolClient>).then(refusingListen)) as typeof pool.connect;
    await assert.rejects(openSharedCatalogueStore(pool, { logger: silent }), /LISTEN refused/);
    assert.equal(held(pool), 0);
    assert.equal(pool.idleCount, 0, 'destroyed, not handed back to the pool');
  });

  it('a write is one transaction of the statements it needs, and gives its connection back', BOUND, async () => {
    const { copy, pool, statements } = await open('statements');
    let from = statements.length;
    await copy.upsert(campaign(8));
    assert.deepEqual(statements.slice(from), ['BEGIN', NEXT_VERSION, WRITE_RECORDS, 'COMMIT']);
    from = statements.length;
    await copy.remove(8);
    assert.deepEqual(statements.slice(from), ['BEGIN', NEXT_VERSION, REMOVE_RECORDS, 'COMMIT']);
    // Its dedicated connection only (a reload its own announcement starts may hold another for a moment).
    await eventually(() => held(pool) === 1, { timeoutMs: 5_000, what: 'the writes to give their connection back' });
    await copy.close();
  });

  it(
    "its own writes' announcements start no read, heard before or after the write returns: it applied those changes itself",
    BOUND,
    async () => {
      const { copy: writer, reads, checkedOut, commitDelay } = await open('own-announcements');
      const { copy: other } = await open('own-announcements-other');
      // Its announcements heard 100 ms late (as over a slow network): they come after its write returned.
      let lateAnnouncements = false;
      const listening = checkedOut[0]!;
      const emit = listening.emit.bind(listening) as (...args: unknown[]) => boolean;
      let heardLate = 0;
      listening.emit = ((event: unknown, ...args: unknown[]) => {
        if (event !== 'notification' || !lateAnnouncements) return emit(event, ...args);
        setTimeout(() => {
          emit(event, ...args);
          heardLate += 1;
        }, 100);
        return true;
      }) as typeof listening.emit;
      const from = reads.count;

      // Its COMMITs answered 100 ms late: each announcement comes before its write returns.
      commitDelay.ms = 100;
      for (let id = 70; id < 73; id++) await writer.upsert(campaign(id));
      commitDelay.ms = 0;
      lateAnnouncements = true;
      for (let id = 73; id < 76; id++) {
        const heard = heardLate;
        await writer.upsert(campaign(id));
        // Handled one at a time: a read it started is counted by then.
        await eventually(() => heardLate > heard, { timeoutMs: 10_000, what: 'the announcement, late' });
      }
      lateAnnouncements = false;
      // Another instance's write, heard after the writer's own announcements (one connection hears them in order): that one alone is read.
      await other.upsert(campaign(80));
      await eventually(() => writer.store.get(80) !== undefined, {
        timeoutMs: 10_000,
        what: "the writer to hear the other's write",
      });

      assert.equal(reads.count - from, 1);
      assert.equal(writer.version(), other.version());
    },
  );

  it(
    'a write whose statement fails is rolled back whole: no new version, the next write at that version is heard, and its own next write goes through',
    BOUND,
    async () => {
      const { copy, pool, statements } = await open('failing-write');
      const version = await sharedVersion();
      const from = statements.length;
      // A record without an id: the database refuses it after the version was taken.
      await assert.rejects(copy.upsert({ ...campaign(9), id: null as unknown as number }), /null value/);
      assert.deepEqual(statements.slice(from), ['BEGIN', NEXT_VERSION, WRITE_RECORDS, 'ROLLBACK']);
      assert.equal(await sharedVersion(), version);
      assert.equal(held(pool), 1, 'its dedicated connection only');
      // The version it took and gave up is another instance's next: that write is heard here.
      const { copy: other } = await open('failing-write-other');
      await other.upsert(campaign(10));
      assert.equal(await sharedVersion(), version + 1);
      await eventually(() => copy.store.get(10) !== undefined, {
        timeoutMs: 10_000,
        what: "the other instance's write, at the version given up",
      });
      // On the connection the failed write gave back (the pool hands out the last one returned).
      await copy.upsert(campaign(9));
      assert.equal(await sharedVersion(), version + 2);
      await copy.close();
    },
  );

  it('refreshes asked while one runs are joined: one more read after it, however many were asked', BOUND, async () => {
    const { copy, reads } = await open('joining');
    const before = reads.count;
    await Promise.all([copy.refresh(), copy.refresh(), copy.refresh()]);
    assert.equal(reads.count - before, 2);
    await copy.close();
  });

  it(
    'says once that the shared copy is unreachable and keeps serving what it holds, then once that it is back',
    BOUND,
    async () => {
      const logs = captureLogs();
      const writer = await open('outage-writer');
      await writer.copy.upsert(campaign(10));
      const counted = countedPool('outage');
      const outage = { on: false, reads: 0 };
      const query = counted.pool.query.bind(counted.pool) as (...args: unknown[]) => unknown;
      counted.pool.query = ((...args: unknown[]) => {
        outage.reads += 1;
        return outage.on ? Promise.reject(new Error('the database is unreachable')) : query(...args);
      }) as typeof counted.pool.query;
      const copy = await openSharedCatalogueStore(counted.pool, { logger: logs.logger, checkEveryMs: 20 });
      copies.push(copy);
      const lines = (message: string) => logs.lines.filter((l) => l.msg === message);
      const checks = async (n: number) => {
        const from = outage.reads;
        await eventually(() => outage.reads >= from + n, { timeoutMs: 10_000, what: `${n} version checks` });
      };
      await checks(3);
      assert.equal(lines('shared catalogue reachable again').length, 0, 'nothing to say while it was never lost');

      outage.on = true;
      // Announced while its reads fail: the reload it starts fails too.
      await writer.copy.upsert(campaign(11));
      await checks(5);
      const unreachable = lines('shared catalogue unreachable; serving the copy held in memory');
      assert.equal(unreachable.length, 1, 'said once, not at every check');
      assert.equal((unreachable[0]!.err as { message?: string } | undefined)?.message, 'the database is unreachable');
      await eventually(() => lines('catalogue reload failed').length > 0, {
        timeoutMs: 10_000,
        what: 'the failed reload to be logged',
      });
      assert.equal(
        (lines('catalogue reload failed')[0]!.err as { message?: string } | undefined)?.message,
        'the database is unreachable',
      );
      assert.equal(copy.store.get(10)?.id, 10, 'still serving');

      outage.on = false;
      await eventually(() => copy.store.get(11) !== undefined, {
        timeoutMs: 10_000,
        what: 'the change made during the outage',
      });
      await checks(3);
      assert.equal(lines('shared catalogue reachable again').length, 1, 'said once');
      assert.equal(lines('shared catalogue unreachable; serving the copy held in memory').length, 1);
    },
  );
});
