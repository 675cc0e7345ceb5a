// Where the per-address apply limit counts: in this process's memory (one
// instance: no disk write per post), or in the rate counters of the database
// every instance shares, so instances behind a balancer count the same posts
// (one small write each). The backend chooses; the limit receives a Store.
import { MemoryStore } from 'express-rate-limit';
import type { Store } from 'express-rate-limit';
import type { RateCounterStore } from '../outbox/application-store.ts';

/** Counts in this process, forgotten at restart. */
export function memoryAddressCounts(): Store {
  return new MemoryStore();
}

/** Counts in the shared rate counters (windows of `windowMs`, pruned with the others); rejects when the database cannot count. */
export function databaseAddressCounts(rates: () => Promise<RateCounterStore>, windowMs: number): Store {
  return {
    localKeys: false,
    prefix: 'ip:',
    async increment(key) {
      const count = await (await rates()).hitRate(`ip:${key}`, windowMs);
      return { totalHits: count.count, resetTime: new Date(count.resetAt) };
    },
    // Only called with skipFailedRequests or skipSuccessfulRequests, which this limit does not set.
    decrement() {},
    resetKey() {},
  };
}
