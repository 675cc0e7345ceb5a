// The shared request budget: never more than perMinute tokens per window,
// high priority first, a reserve low priority cannot touch, a server pause
// that holds everybody. Driven by a hand-moved clock: the assertions are about
// order and counts, never durations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { RequestBudget } from '../index.ts';

function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/** Lets the budget look at the clock again (it does at least every 250 ms) and the resolved promises run. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  await tick();
}

/** Asserts that `acquire` is held while the clock stands still, and served once it moves on by `ms`. */
async function assertHeldUntil(clock: ReturnType<typeof manualClock>, ms: number, acquire: () => Promise<unknown>) {
  let served = false;
  void acquire().then(() => (served = true));
  await settle();
  assert.equal(served, false, 'held before the clock moves on');
  clock.advance(ms);
  await settle();
  assert.equal(served, true, 'served once it has');
}

describe('RequestBudget', () => {
  it('hands out at most perMinute tokens in one window, then one per token that comes back', async () => {
    const clock = manualClock();
    const budget = new RequestBudget({ perMinute: 3, windowMs: 60_000, reservedForHigh: 0, clock });
    for (let i = 0; i < 3; i++) await budget.acquire('low');
    await assertHeldUntil(clock, 60_000, () => budget.acquire('low'));
  });

  it('when tokens are scarce, serves waiting high-priority requests before low ones', async () => {
    const clock = manualClock();
    const budget = new RequestBudget({ perMinute: 2, windowMs: 60_000, reservedForHigh: 0, clock });
    await budget.acquire('low');
    await budget.acquire('low');
    const order: string[] = [];
    const cleanup = new AbortController();
    const first = budget.acquire('low').then(() => order.push('sync page 1'));
    const second = budget.acquire('low', cleanup.signal).then(
      () => order.push('sync page 2'),
      () => undefined,
    );
    const high = budget.acquire('high').then(() => order.push('application'));
    clock.advance(60_000);
    await Promise.all([first, high]);
    cleanup.abort();
    await second;
    assert.deepEqual(order, ['application', 'sync page 1']);
  });

  it('keeps reservedForHigh tokens that a background sync cannot spend', async () => {
    const clock = manualClock();
    const budget = new RequestBudget({ perMinute: 10, reservedForHigh: 2, clock });
    for (let i = 0; i < 8; i++) await budget.acquire('low');
    assert.equal(budget.available('low'), 0);
    assert.equal(budget.available('high'), 2);
    let lowGot = false;
    const cleanup = new AbortController();
    const low = budget.acquire('low', cleanup.signal).then(
      () => (lowGot = true),
      () => undefined,
    );
    await budget.acquire('high');
    await budget.acquire('high');
    await settle();
    assert.equal(lowGot, false);
    assert.equal(budget.waiting, 1);
    cleanup.abort();
    await low;
  });

  it('when the server asks to pause, holds every caller until the pause ends', async () => {
    const clock = manualClock();
    const budget = new RequestBudget({ perMinute: 100, clock });
    budget.pauseFor(5_000);
    await assertHeldUntil(clock, 5_000, () => budget.acquire('high'));
  });

  it('when a waiting caller aborts, rejects it and leaves the queue', async () => {
    const clock = manualClock();
    const budget = new RequestBudget({ perMinute: 1, clock });
    await budget.acquire('low');
    const controller = new AbortController();
    const waiting = budget.acquire('low', controller.signal);
    controller.abort(new Error('gave up'));
    await assert.rejects(waiting, /gave up/);
    assert.equal(budget.waiting, 0);
  });

  it('defaults to the service limit of 120 with 12 tokens reserved for high priority', () => {
    const budget = new RequestBudget();
    assert.equal(budget.perMinute, 120);
    assert.equal(budget.reservedForHigh, 12);
    assert.equal(budget.available('low'), 108);
  });

  it('refuses a budget below one request per window', () => {
    assert.throws(() => new RequestBudget({ perMinute: 0 }), RangeError);
  });
});
