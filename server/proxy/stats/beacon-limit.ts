// The beacons' limit: one address adds at most BEACON_DAILY_LIMIT_PER_ADDRESS
// a day to any one count of one offer (one stage of it); what goes beyond is
// answered as any beacon is, and not counted. The address is never kept: its
// counters are named by an HMAC of the UTC day and the address (by /64 for
// IPv6, as the apply limit counts), keyed by a secret every instance derives
// from the same API secret key, so instances count one address together and
// tomorrow's names cannot be linked to today's. Counted in this process's
// memory with one instance (SQLite), in the rate counters the instances share
// with several (PostgreSQL), as the apply limit does.
import { createHmac } from 'node:crypto';
import { BEACON_DAILY_LIMIT_PER_ADDRESS } from '../../public-api/funnel.ts';
import type { BeaconStage } from '../../public-api/funnel.ts';
import { addressGroup } from '../applications/spam.ts';
import type { RateCounterStore } from '../storage/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Counters of a day: each bucket named counts one more, and its new count is answered. */
export interface BeaconCounts {
  hit(buckets: readonly string[]): Promise<number[]>;
}

/**
 * Most counters kept in memory in a day: a flood from ever new addresses
 * stops being counted (its beacons dropped as over the limit) rather than
 * filling the memory. 500,000 is 25,000 addresses naming 20 offers each.
 */
export const MEMORY_BEACON_COUNTERS = 500_000;

/** Counters in this process (one instance), forgotten at the end of the UTC day and at restart. */
export function memoryBeaconCounts(now: () => number, most = MEMORY_BEACON_COUNTERS): BeaconCounts {
  let day = -1;
  let counts = new Map<string, number>();
  return {
    async hit(buckets) {
      const today = Math.floor(now() / DAY_MS);
      if (today !== day) [day, counts] = [today, new Map()];
      return buckets.map((bucket) => {
        if (!counts.has(bucket) && counts.size >= most) return Number.POSITIVE_INFINITY;
        const count = (counts.get(bucket) ?? 0) + 1;
        counts.set(bucket, count);
        return count;
      });
    },
  };
}

/** Counters in the rate counters every instance shares (pruned with the others once their day is over). */
export function databaseBeaconCounts(rates: () => Promise<Pick<RateCounterStore, 'hitRates'>>): BeaconCounts {
  return {
    async hit(buckets) {
      return (await (await rates()).hitRates(buckets, DAY_MS)).map((count) => count.count);
    },
  };
}

export class BeaconLimiter {
  readonly #key: Buffer;
  readonly #counts: BeaconCounts;
  readonly #now: () => number;
  readonly #limit: number;

  /** `secret`: the API secret key (UPSTREAM_SECRET_KEY), from which the key naming the counters is derived. */
  constructor(secret: string, counts: BeaconCounts, now: () => number, limit = BEACON_DAILY_LIMIT_PER_ADDRESS) {
    this.#key = createHmac('sha256', secret).update('jobboard-connector funnel beacon limit').digest();
    this.#counts = counts;
    this.#now = now;
    this.#limit = limit;
  }

  /** The name of an address's counters today: not the address, and another one tomorrow. */
  nameOf(address: string): string {
    const day = new Date(this.#now()).toISOString().slice(0, 10);
    return createHmac('sha256', this.#key)
      .update(`${day}\n${addressGroup(address)}`)
      .digest('base64url')
      .slice(0, 22);
  }

  /** Counts one more of `stage` for each offer (each once) from `address`; answers those still within the limit. */
  async allowed(address: string, stage: BeaconStage, offers: readonly number[]): Promise<number[]> {
    const name = this.nameOf(address);
    const distinct = [...new Set(offers)];
    const counts = await this.#counts.hit(distinct.map((offer) => `beacon:${name}:${stage}:${offer}`));
    return distinct.filter((_, i) => counts[i]! <= this.#limit);
  }
}
