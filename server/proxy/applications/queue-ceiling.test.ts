import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueueCeiling } from './queue-ceiling.ts';

describe('QueueCeiling', () => {
  function ceiling(
    state: { queued: number; free: number; now: number },
    limits = { maxQueuedBytes: 1_000, minFreeDiskBytes: 500 },
  ) {
    const reads = { store: 0, disk: 0 };
    const queue = new QueueCeiling({
      ...limits,
      dataDir: '/data',
      ttlMs: 1_000,
      now: () => state.now,
      queuedBytes: async () => {
        reads.store += 1;
        return state.queued;
      },
      freeSpace: async () => {
        reads.disk += 1;
        return state.free;
      },
    });
    return { queue, reads };
  }

  it('reads the store and the disk once per second however many applications ask', async () => {
    const state = { queued: 0, free: 10_000, now: 0 };
    const { queue, reads } = ceiling(state);
    const answers = await Promise.all(Array.from({ length: 100 }, () => queue.reached()));
    assert.ok(answers.every((a) => a === undefined));
    state.now = 999;
    await queue.reached();
    assert.deepEqual(reads, { store: 1, disk: 1 });
    state.now = 1_000;
    await queue.reached();
    assert.deepEqual(reads, { store: 2, disk: 2 });
  });

  it('trusts a reading for a second from the time it was taken, whatever the clock reads', async () => {
    const state = { queued: 0, free: 10_000, now: 5_000 };
    const { queue, reads } = ceiling(state);
    await queue.reached();
    state.now = 5_999;
    await queue.reached();
    assert.equal(reads.store, 1);
    state.now = 6_000;
    await queue.reached();
    assert.equal(reads.store, 2);
  });

  it('counts the resumes stored between two readings at once, against both ceilings', async () => {
    const state = { queued: 600, free: 10_000, now: 0 };
    const { queue } = ceiling(state);
    assert.equal(await queue.reached(), undefined);
    queue.noteStored(400);
    assert.equal(await queue.reached(), 'queued_bytes');
    // The next reading includes them: they are not counted twice.
    state.now = 2_000;
    state.queued = 600;
    assert.equal(await queue.reached(), undefined);
    const low = ceiling({ queued: 0, free: 800, now: 0 });
    assert.equal(await low.queue.reached(), undefined);
    low.queue.noteStored(301);
    assert.equal(await low.queue.reached(), 'free_disk');
  });

  it('admits while the free space is exactly the floor, and refuses from one byte below it', async () => {
    const state = { queued: 0, free: 800, now: 0 };
    const { queue } = ceiling(state);
    assert.equal(await queue.reached(), undefined);
    queue.noteStored(300);
    assert.equal(await queue.reached(), undefined, '800 - 300 = 500: at the floor, not below it');
    queue.noteStored(1);
    assert.equal(await queue.reached(), 'free_disk');
  });

  it('with MIN_FREE_DISK_BYTES 0, never reads the disk', async () => {
    const { queue, reads } = ceiling({ queued: 0, free: 0, now: 0 }, { maxQueuedBytes: 1_000, minFreeDiskBytes: 0 });
    assert.equal(await queue.reached(), undefined);
    assert.equal(reads.disk, 0);
  });

  it('rejects when the store cannot be read, and reads again at the next ask', async () => {
    let fail = true;
    const queue = new QueueCeiling({
      maxQueuedBytes: 1_000,
      minFreeDiskBytes: 0,
      dataDir: '/data',
      queuedBytes: async () => {
        if (fail) throw new Error('connection refused');
        return 0;
      },
    });
    await assert.rejects(queue.reached(), /connection refused/);
    fail = false;
    assert.equal(await queue.reached(), undefined);
  });
});
