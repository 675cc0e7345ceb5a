// The hold on a claimed lease, on node:test's mocked timers: when renewals
// happen (every third of the lease, counted tick by tick, never timed), what a
// renewal that finds the lease gone does, and what a failed one does.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { LeaseLostError, holdLease, renewalIntervalMs } from './lease-renewal.ts';

/** Lets the renewals' promises settle. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('holding a lease while its work runs', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
  afterEach(() => mock.timers.reset());

  /** A lease whose renewals answer each with the next of `answers` (then true), counted. */
  function lease(leaseMs: number, answers: (boolean | Error)[] = []) {
    const seen = { renewals: 0, errors: [] as unknown[] };
    const hold = holdLease({
      leaseMs,
      renew: async () => {
        seen.renewals += 1;
        const answer = answers.shift() ?? true;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      onError: (error) => seen.errors.push(error),
    });
    return { hold, seen };
  }

  it('renews every third of the lease, again and again, until stopped', async () => {
    const { hold, seen } = lease(300);
    mock.timers.tick(99);
    assert.equal(seen.renewals, 0, 'not before a third of the lease');
    mock.timers.tick(1);
    assert.equal(seen.renewals, 1, 'at a third of the lease');
    mock.timers.tick(200);
    assert.equal(seen.renewals, 3, "at two thirds, and at the lease's first end");
    await settled();
    assert.equal(hold.lost(), false);
    assert.equal(hold.signal.aborted, false);
    hold.stop();
    mock.timers.tick(1_000);
    assert.equal(seen.renewals, 3, 'no renewal once stopped');
  });

  it('renews a lease of the default minute every 20 seconds, and a lease of a few milliseconds every millisecond at most', () => {
    assert.equal(renewalIntervalMs(60_000), 20_000);
    assert.equal(renewalIntervalMs(301), 100);
    assert.equal(renewalIntervalMs(2), 1);
    assert.equal(renewalIntervalMs(0), 1);
  });

  it('says the lease is lost once a renewal finds it gone, aborts its signal, and stays lost', async () => {
    const { hold, seen } = lease(30, [true, false, true]);
    mock.timers.tick(10);
    await settled();
    assert.equal(hold.lost(), false, 'still held after a renewal that found it held');
    mock.timers.tick(10);
    await settled();
    assert.equal(hold.lost(), true);
    assert.equal(hold.signal.aborted, true);
    assert.match(String((hold.signal.reason as Error).message), /lease was lost/);
    mock.timers.tick(10);
    await settled();
    assert.equal(seen.renewals, 3);
    assert.equal(hold.lost(), true, 'a later renewal does not give it back');
    hold.stop();
  });

  it('hands a renewal the database did not answer to onError, and keeps the lease held', async () => {
    const failure = new Error('connection lost');
    const { hold, seen } = lease(30, [failure]);
    mock.timers.tick(10);
    await settled();
    assert.deepEqual(seen.errors, [failure]);
    assert.equal(hold.lost(), false, 'a write under the lease will tell');
    hold.stop();
  });
});

describe('a lost lease', () => {
  it("names in its message whose lease it was, an application's unless told, for the operator reading the log", () => {
    const application = new LeaseLostError('APP-1');
    assert.equal(application.reference, 'APP-1');
    assert.match(application.message, /^The lease on application APP-1 is no longer this attempt's: another claimer/);
    assert.match(
      new LeaseLostError('evt_9', 'webhook event').message,
      /^The lease on webhook event evt_9 is no longer/,
    );
  });
});
