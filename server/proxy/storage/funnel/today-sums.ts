// Each offer's counts from today to a period's end, for the reports that
// include today. Today's counts move with every beacon, and re-reading them
// for every report costs a row per offer counted today (tens of thousands on
// a big board, a second a report). So while today holds few offers they are
// re-read whenever the day's totals change (exact, as for past days); once
// it holds more, the offers kept are answered as they are for up to
// TODAY_FRESH_MS, re-read in the background after that (answered as kept
// until that read is done), and waited for only when older than
// TODAY_STALE_MS with no read under way (a report after a quiet while). The days,
// totals and sources of a report are always read afresh: only its offers'
// counts of today may be a few seconds behind them.
import type { OfferSums } from './offer-sums.ts';

/** Today's offers kept as read for this long (ms), however their counts move. */
export const TODAY_FRESH_MS = 2000;
/** Older than this (ms), today's offers are re-read before the report answers. */
export const TODAY_STALE_MS = 5000;
/** Up to this many offers counted today, today is re-read whenever its totals change. */
export const TODAY_EXACT_UP_TO = 2000;

export interface TodayPolicy {
  freshMs: number;
  staleMs: number;
  exactUpTo: number;
}

const DEFAULT_POLICY: TodayPolicy = { freshMs: TODAY_FRESH_MS, staleMs: TODAY_STALE_MS, exactUpTo: TODAY_EXACT_UP_TO };

interface Reading {
  /** The totals of the days when the reading started. */
  fingerprint: string;
  /** When it started (the store's clock). */
  at: number;
  value: Promise<OfferSums>;
  /** How many offers it holds, once read. */
  size?: number;
  /** How many the reading before it held: while it is under way, what tells a big day. */
  before?: number;
}

export class TodaySums {
  readonly #read: (first: number, last: number) => Promise<OfferSums>;
  readonly #now: () => number;
  readonly #policy: TodayPolicy;
  /** The last reading of each part (first:last), at most a few. */
  readonly #kept = new Map<string, Reading>();
  /** The readings under way in the background, by part. */
  readonly #refreshing = new Set<string>();

  constructor(read: (first: number, last: number) => Promise<OfferSums>, now: () => number, policy?: TodayPolicy) {
    this.#read = read;
    this.#now = now;
    this.#policy = policy ?? DEFAULT_POLICY;
  }

  /** The offers' sums of the days `first` to `last` (today on), whose totals are now `fingerprint`. */
  get(first: number, last: number, fingerprint: string): Promise<OfferSums> {
    const key = `${first}:${last}`;
    const kept = this.#kept.get(key);
    if (kept === undefined || kept.fingerprint === fingerprint) return (kept ?? this.#start(key, fingerprint)).value;
    const age = this.#now() - kept.at;
    // Few offers: read again, exactly.
    if ((kept.size ?? kept.before ?? 0) <= this.#policy.exactUpTo) return this.#start(key, fingerprint).value;
    // Many, and a reading under way: answered by it (or the one kept until it is done), never read twice at once.
    if (kept.size === undefined || this.#refreshing.has(key)) return kept.value;
    // Too old, after a quiet while: read before answering.
    if (age >= this.#policy.staleMs) return this.#start(key, fingerprint).value;
    if (age >= this.#policy.freshMs) {
      this.#refreshing.add(key);
      const next = this.#reading(key, fingerprint);
      // Replaces the kept reading only once read: reports meanwhile answer the one before.
      void next.value
        .then(
          () => this.#keep(key, next),
          () => {},
        )
        .finally(() => this.#refreshing.delete(key));
    }
    return kept.value;
  }

  /** A reading of the part `key` from now, its size noted once read. */
  #reading(key: string, fingerprint: string): Reading {
    const [first, last] = key.split(':').map(Number) as [number, number];
    const reading: Reading = { fingerprint, at: this.#now(), value: this.#read(first, last) };
    reading.value.then(
      (sums) => (reading.size = sums.ids.length),
      () => {},
    );
    return reading;
  }

  /** A reading kept at once: the reports asking meanwhile share it; forgotten if it fails. */
  #start(key: string, fingerprint: string): Reading {
    const reading = this.#reading(key, fingerprint);
    const previous = this.#kept.get(key);
    reading.before = previous?.size ?? previous?.before;
    reading.value.catch(() => {
      if (this.#kept.get(key) === reading) this.#kept.delete(key);
    });
    this.#keep(key, reading);
    return reading;
  }

  #keep(key: string, reading: Reading): void {
    this.#kept.delete(key);
    this.#kept.set(key, reading);
    // A few periods' parts at most: the least recently read go first.
    for (const old of this.#kept.keys()) {
      if (this.#kept.size <= 4) break;
      this.#kept.delete(old);
    }
  }
}
