// Each offer's counts over some days, as a report adds them up: read once
// per part of its period and kept while that part's days do not change. A
// day's totals change with every count added to it (each adds 1 or more), so
// the totals a report reads anyway tell, exactly, whether what was kept of
// those days still holds: no clock, no message between instances. The days
// before today rarely change; a report over 90 days reads them once, then
// only today's counts while they move.
import { FUNNEL_STAGES } from '../../../public-api/funnel.ts';
import type { FunnelStage } from '../../../public-api/funnel.ts';
import type { Raw } from '../sql.ts';

const STAGES = FUNNEL_STAGES.length;

/** Each offer's stage counts over some days: offer i's stage s at sums[i * STAGES + s]. */
export interface OfferSums {
  ids: readonly number[];
  sums: Float64Array;
}

/** The rows of offerSumsText (pg answers sums as text). */
export function offerSumsOf(rows: readonly Raw[]): OfferSums {
  const sums = new Float64Array(rows.length * STAGES);
  rows.forEach((row, i) => FUNNEL_STAGES.forEach((stage, s) => (sums[i * STAGES + s] = Number(row[stage] ?? 0))));
  return { ids: rows.map((row) => Number(row.campaign_id)), sums };
}

/** Two sums as one, both in the order of their ids (as read): an offer in both has their counts added. */
function mergeTwo(a: OfferSums, b: OfferSums): OfferSums {
  const ids: number[] = [];
  const sums = new Float64Array((a.ids.length + b.ids.length) * STAGES);
  let i = 0;
  let j = 0;
  while (i < a.ids.length || j < b.ids.length) {
    const x = i < a.ids.length ? a.ids[i]! : Infinity;
    const y = j < b.ids.length ? b.ids[j]! : Infinity;
    const at = ids.length * STAGES;
    if (x <= y) {
      ids.push(x);
      sums.set(a.sums.subarray(i * STAGES, (i += 1) * STAGES), at);
      if (x === y) {
        for (let s = 0; s < STAGES; s += 1) sums[at + s]! += b.sums[j * STAGES + s]!;
        j += 1;
      }
    } else {
      ids.push(y);
      sums.set(b.sums.subarray(j * STAGES, (j += 1) * STAGES), at);
    }
  }
  return { ids, sums: sums.subarray(0, ids.length * STAGES) };
}

/** Chunks read in the order of their ids, each after the one before: one sums, in that order. */
export function joined(chunks: readonly OfferSums[]): OfferSums {
  const sums = new Float64Array(chunks.reduce((n, chunk) => n + chunk.sums.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    sums.set(chunk.sums, at);
    at += chunk.sums.length;
  }
  return { ids: chunks.flatMap((chunk) => chunk.ids), sums };
}

/** The parts as one, each in the order of its ids (as read): an offer in several has their counts added. */
export function merged(parts: readonly OfferSums[]): OfferSums {
  if (parts.length === 0) return { ids: [], sums: new Float64Array(0) };
  return parts.reduce(mergeTwo);
}

/** The offers of the parts, the most of `sort` first (then by id), at most `limit`, each with its stage counts; and how many offers there are. */
export function topOffers(
  parts: readonly OfferSums[],
  sort: FunnelStage,
  limit: number,
): { offers: { campaign_id: number; stages: number[] }[]; total: number } {
  const { ids, sums } = merged(parts);
  const s = FUNNEL_STAGES.indexOf(sort);
  /** Whether offer i comes before offer j. */
  const before = (i: number, j: number) =>
    sums[i * STAGES + s]! > sums[j * STAGES + s]! ||
    (sums[i * STAGES + s] === sums[j * STAGES + s] && ids[i]! < ids[j]!);
  // The first `limit` kept in order as the offers are read: a few comparisons each once it is full.
  const top: number[] = [];
  for (let i = 0; i < ids.length && limit > 0; i += 1) {
    if (top.length === limit && !before(i, top.at(-1)!)) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (before(top[middle]!, i)) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, i);
    if (top.length > limit) top.pop();
  }
  const offers = top.map((i) => ({
    campaign_id: ids[i]!,
    stages: Array.from(sums.subarray(i * STAGES, (i + 1) * STAGES)),
  }));
  return { offers, total: ids.length };
}

/**
 * What was read of some days (offer sums, a report's offers), for the last
 * few keys read, each kept with the totals of its days (`fingerprint`) when
 * it was read; asked again with other totals, it is read again. Two reports
 * asking at once share one reading.
 */
export class DaysCache<T> {
  readonly #size: number;
  readonly #entries = new Map<string, { fingerprint: string; value: Promise<T> }>();

  constructor(size: number) {
    this.#size = size;
  }

  /**
   * The value of the days `key` names, read by `read` unless kept with the
   * same fingerprint. The fingerprint must be read before `read` runs: counts
   * added in between are then in the value but not in it, and the next ask
   * reads again, never the other way round.
   */
  get(key: string, fingerprint: string, read: () => Promise<T>): Promise<T> {
    const kept = this.#entries.get(key);
    this.#entries.delete(key);
    if (kept?.fingerprint === fingerprint) {
      this.#entries.set(key, kept);
      return kept.value;
    }
    const entry = { fingerprint, value: read() };
    this.#entries.set(key, entry);
    entry.value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    // The least recently used go first.
    for (const old of this.#entries.keys()) {
      if (this.#entries.size <= this.#size) break;
      this.#entries.delete(old);
    }
    return entry.value;
  }
}
