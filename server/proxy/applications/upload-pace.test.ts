// The slowest pace a body may arrive at, on a mocked clock: the grace is not
// judged, each period after it is, and a period the proxy paused is excused.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { watchPace } from './upload-pace.ts';

/** 1,000 bytes a second over periods of 2 s: each period must bring 2,000 bytes. */
const RULE = { minBytesPerSecond: 1_000, periodMs: 2_000 };

describe('watchPace', () => {
  let received: number;
  let slow: number;

  beforeEach(() => {
    mock.timers.enable({ apis: ['setInterval'] });
    received = 0;
    slow = 0;
  });
  afterEach(() => mock.timers.reset());

  const watch = (rule = RULE) =>
    watchPace(
      rule,
      () => received,
      () => {
        slow += 1;
      },
    );
  /** One period of RULE passes (the grace lasts one too), in which `bytes` arrive. */
  const period = (bytes: number) => {
    received += bytes;
    mock.timers.tick(RULE.periodMs);
  };

  it('judges nothing during the grace, however little arrives', () => {
    watch();
    mock.timers.tick(1_999);
    assert.equal(slow, 0);
    mock.timers.tick(1);
    assert.equal(slow, 0, 'the grace ended with no byte: not judged');
  });

  it('after the grace, closes an upload whose period brought less than the pace, once', () => {
    watch();
    mock.timers.tick(2_000);
    period(1_999);
    assert.equal(slow, 1);
    received += 1;
    mock.timers.tick(10_000);
    assert.equal(slow, 1, 'said once, then the watch ends');
  });

  it('keeps an upload whose every period brings at least the pace, however slow its grace', () => {
    watch();
    mock.timers.tick(2_000);
    for (let i = 0; i < 5; i += 1) period(2_000);
    assert.equal(slow, 0);
  });

  it('judges each period on its own bytes, not on what earlier ones brought', () => {
    watch();
    period(100_000);
    period(3_000);
    assert.equal(slow, 0);
    period(1_000);
    assert.equal(slow, 1, 'a fast start does not pay for a trickle after');
  });

  it('does not judge a period the proxy paused, and judges the next one', () => {
    const pace = watch();
    mock.timers.tick(2_000);
    pace.excuse();
    mock.timers.tick(2_000);
    assert.equal(slow, 0, "paused by the proxy: not the candidate's pace");
    mock.timers.tick(2_000);
    assert.equal(slow, 1);
  });

  it('judges nothing once stopped', () => {
    const pace = watch();
    mock.timers.tick(2_000);
    pace.stop();
    mock.timers.tick(10_000);
    assert.equal(slow, 0);
  });

  it('with a minimum of 0, never judges', () => {
    watch({ minBytesPerSecond: 0, periodMs: 2_000 });
    mock.timers.tick(60_000);
    assert.equal(slow, 0);
  });
});
