import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { SqliteApplicationStore } from '../storage/outbox/sqlite-store.ts';
import { claimed, newApplication, storeEachTest } from '../storage/test-support.ts';
import { eventually } from '../../test/poll.ts';
import { DEFAULT_RETENTION_INTERVAL_MS, RetentionSweeper, retentionMsOf } from './retention.ts';
import type { RetentionEvents, SweepResult, SweptStore } from './retention.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('RetentionSweeper', () => {
  const test = storeEachTest(
    'jbc-retention-',
    (dir, now) => new SqliteApplicationStore({ dataDir: dir, owner: 'test', now }),
  );

  it('makes a pass as it starts and then every interval, until stopped', async () => {
    await test.store.enqueue(newApplication('r1'), { deadLetterAfterMs: 1 });
    const r1Lease = await claimed(test.store, 'r1');
    await test.store.markDead(r1Lease, 'expired', 'server_error (503)');
    await test.store.hitRate('ip:1', 1000);
    test.now += 30 * DAY;
    const passes: SweepResult[] = [];
    const sweeper = new RetentionSweeper(
      test.store,
      { retentionMs: 30 * DAY, intervalMs: 20 },
      { onSwept: (result) => passes.push(result) },
    );
    sweeper.start();
    await eventually(() => passes.length > 0, { timeoutMs: 2000, what: 'the first pass' });
    assert.deepEqual(
      passes[0],
      { erased: ['r1'], webhookEvents: 0, rateCounters: 1, idempotencyKeys: 0 },
      'the first pass runs at start',
    );
    await eventually(() => passes.length >= 3, { timeoutMs: 10_000, what: 'two passes after the first' });
    await sweeper.stop();
    const count = passes.length;
    // Five intervals without a pass: a loaded machine runs timers late, never early.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(passes.length, count, 'no pass after stop');
    assert.equal((await test.store.get('r1'))?.payload, null);
  });

  it('erases a dead-lettered row PERSONAL_DATA_RETENTION_DAYS (30) after its dead-letter time, not after its creation', async () => {
    const created = test.now;
    await test.store.enqueue(newApplication('late'), { deadLetterAfterMs: 29 * DAY });
    test.now = created + 29 * DAY;
    await test.store.markDead(await claimed(test.store, 'late'), 'expired', 'server_error (503)');
    const sweeper = new RetentionSweeper(test.store, { retentionMs: retentionMsOf(30), intervalMs: DAY });
    const erasedAt = async (at: number) => {
      test.now = at;
      return (await sweeper.sweep()).erased;
    };
    assert.deepEqual(
      await erasedAt(created + 30 * DAY + HOUR),
      [],
      '30 days after creation, 1 day after the dead letter: kept',
    );
    assert.deepEqual(
      await erasedAt(created + 29 * DAY + 29 * DAY + 23 * HOUR),
      [],
      '29 days 23 hours after the dead letter: kept',
    );
    assert.notEqual((await test.store.get('late'))?.payload, null);
    assert.deepEqual(
      await erasedAt(created + 29 * DAY + 30 * DAY + HOUR),
      ['late'],
      '30 days and an hour after the dead letter: erased',
    );
    assert.equal((await test.store.get('late'))?.payload, null);
  });

  it('erases the candidate from a webhook event still waiting PERSONAL_DATA_RETENTION_DAYS after it was recorded (a receiver down), and says how many', async () => {
    await test.store.close();
    test.store = new SqliteApplicationStore({
      dataDir: test.dir,
      owner: 'test',
      now: () => test.now,
      webhookEvents: { includeCandidate: true },
    });
    await test.store.enqueue(newApplication('sent'), { deadLetterAfterMs: DAY });
    // Delivered at once: the row holds nothing personal, its two events (received, delivered) still do.
    await test.store.markDelivered(await claimed(test.store, 'sent'), 'created_applicant', { applicationId: 5 });
    const sweeper = new RetentionSweeper(test.store, { retentionMs: 2 * DAY, intervalMs: DAY });
    test.now += 2 * DAY - HOUR;
    assert.deepEqual(
      await sweeper.sweep(),
      { erased: [], webhookEvents: 0, rateCounters: 0, idempotencyKeys: 0 },
      'within the period: kept',
    );
    test.now += HOUR;
    assert.deepEqual(await sweeper.sweep(), { erased: [], webhookEvents: 2, rateCounters: 0, idempotencyKeys: 0 });
    const events = await test.store.webhooks.list();
    assert.deepEqual(
      events.map((e) => [e.type, e.status, e.has_candidate]),
      [
        ['application.received', 'pending', false],
        ['application.delivered', 'pending', false],
      ],
    );
    const [claim] = await test.store.webhooks.claimDue(10, 60_000);
    assert.equal(JSON.parse(claim!.body).data.candidate, undefined, 'still sent, without the candidate');
  });
});

/** A store that counts what the sweeper asks of it; `gate` holds each erasure until the test opens it. */
function countingStore(
  erases: string[][] = [],
  eventErasures: number[] = [],
): SweptStore & { erasures: number; compactions: number; isOpen: boolean; failWith?: Error; gate?: Promise<void> } {
  const store = {
    isOpen: true,
    erasures: 0,
    compactions: 0,
    failWith: undefined as Error | undefined,
    gate: undefined as Promise<void> | undefined,
    async eraseExpiredPersonalData(): Promise<string[]> {
      store.erasures += 1;
      await store.gate;
      if (store.failWith !== undefined) throw store.failWith;
      return erases.shift() ?? [];
    },
    async compact(): Promise<void> {
      store.compactions += 1;
    },
    async pruneExpired() {
      return { rateCounters: 0, idempotencyKeys: 0 };
    },
    webhooks: {
      async eraseExpiredCandidates(): Promise<number> {
        return eventErasures.shift() ?? 0;
      },
    },
  };
  return store;
}

/** An hourly sweeper of a day's retention on `store`, started under mocked timers (its first pass is under way). */
function startedSweeper(store: ReturnType<typeof countingStore>, events?: RetentionEvents): RetentionSweeper {
  mock.timers.enable({ apis: ['setInterval'] });
  const sweeper = new RetentionSweeper(store, { retentionMs: DAY, intervalMs: HOUR }, events);
  sweeper.start();
  return sweeper;
}

/** Lets the promise callbacks queued by a pass run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("RetentionSweeper's passes", () => {
  afterEach(() => mock.timers.reset());

  it('by default, makes a pass every hour', () => {
    assert.equal(DEFAULT_RETENTION_INTERVAL_MS, HOUR);
  });

  it('makes its first pass as it starts, before the first interval', async () => {
    const store = countingStore();
    const sweeper = startedSweeper(store);
    await settle();
    assert.equal(store.erasures, 1);
    await sweeper.stop();
  });

  it('started twice, keeps one timer, which stop clears', async () => {
    const store = countingStore();
    const sweeper = startedSweeper(store);
    await settle();
    sweeper.start();
    await settle();
    await sweeper.stop();
    const passes = store.erasures;
    mock.timers.tick(3 * HOUR);
    await settle();
    assert.equal(store.erasures, passes, 'no pass after stop');
  });

  it("compacts the store after a pass that erased only webhook events' candidates", async () => {
    const store = countingStore([], [2]);
    const sweeper = new RetentionSweeper(store, { retentionMs: DAY, intervalMs: HOUR });
    assert.equal((await sweeper.sweep()).webhookEvents, 2);
    assert.equal(store.compactions, 1);
  });

  it('compacts the store after a pass that erased something, and only then', async () => {
    const store = countingStore([['r1'], []]);
    const sweeper = new RetentionSweeper(store, { retentionMs: DAY, intervalMs: HOUR });
    await sweeper.sweep();
    assert.equal(store.compactions, 1, 'after erasing r1');
    await sweeper.sweep();
    assert.equal(store.compactions, 1, 'nothing erased: nothing to compact');
  });

  it('makes no pass while the store is closed', async () => {
    const store = countingStore();
    store.isOpen = false;
    const sweeper = startedSweeper(store);
    mock.timers.tick(HOUR);
    await settle();
    await sweeper.stop();
    assert.equal(store.erasures, 0);
  });

  it('never starts a pass while the previous one runs', async () => {
    const store = countingStore();
    let open = (): void => {};
    store.gate = new Promise((resolve) => {
      open = resolve;
    });
    const sweeper = startedSweeper(store);
    mock.timers.tick(3 * HOUR);
    await settle();
    assert.equal(store.erasures, 1, 'the first pass still runs');
    open();
    await sweeper.stop();
  });

  it('reports a failed pass to onError, and the next interval tries again', async () => {
    const store = countingStore();
    store.failWith = new Error('database is locked');
    const errors: unknown[] = [];
    const sweeper = startedSweeper(store, { onError: (error) => errors.push(error) });
    await settle();
    mock.timers.tick(HOUR);
    await settle();
    await sweeper.stop();
    assert.deepEqual(errors, [store.failWith, store.failWith]);
  });

  it('without event listeners, passes and failed passes go quietly', async () => {
    const store = countingStore([['r1']]);
    const sweeper = startedSweeper(store);
    await settle();
    store.failWith = new Error('database is locked');
    mock.timers.tick(HOUR);
    await settle();
    // Calling a listener that is not there would reject the pass, unhandled: the test would fail.
    await sweeper.stop();
    assert.equal(store.erasures, 2);
  });
});
