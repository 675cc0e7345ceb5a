// The funnel's store on either database, over the seam (Sql): add() sums what
// it is given and writes each of its grains (funnel-sql.ts) with a few
// statements, in one transaction; the application store counts a change in
// the transaction that makes it, as a row waiting to be folded into the
// grains a moment later (or before a report, which reads the small grains
// only). Nothing here identifies a person: a count is a day, an
// offer, a source and a number.
import { FUNNEL_STAGES } from '../../../public-api/funnel.ts';
import type { FunnelCounts, FunnelSource, FunnelStage } from '../../../public-api/funnel.ts';
import type { Utm } from '../../../public-api/campaign-tracking.ts';
import { parseUtm } from '../sql.ts';
import type { Raw, Sql, SqlValue } from '../sql.ts';
import type { FunnelCounting, FunnelEntry, FunnelPeriod, FunnelReport, FunnelStore } from './funnel-store.ts';
import {
  FUNNEL_SQL,
  FUNNEL_TABLES,
  countedChangeText,
  dayNumber,
  dayOf,
  dayText,
  insertSizes,
  offerOutcomesText,
  offerSumsText,
  spanChunkText,
  spansHolding,
  spansOf,
  upsertText,
} from './funnel-sql.ts';
import { DaysCache, joined, merged, offerSumsOf, topOffers } from './offer-sums.ts';
import type { OfferSums } from './offer-sums.ts';
import { TodaySums } from './today-sums.ts';
import type { TodayPolicy } from './today-sums.ts';
import type { FunnelTable } from './funnel-sql.ts';

/** The offers read at once from a span of today's. */
const SPAN_CHUNK = 4096;

/** The waiting counts one fold's transaction takes at most. */
const FOLD_BATCH = 4096;

/** How long the proxy's counts wait for a fold unless told (ms): the day's rows are then written once for all the changes of that moment. */
export const DEFAULT_FOLD_AFTER_MS = 1000;

/** The offers a report lists unless told. */
export const DEFAULT_REPORT_LIMIT = 100;

/** The counts of nothing: every stage 0, no outcome. */
export function zeroCounts(): FunnelCounts {
  return { ...Object.fromEntries(FUNNEL_STAGES.map((stage) => [stage, 0])), outcomes: {} } as FunnelCounts;
}

/** Adds `more` into `into`. */
function addCounts(into: FunnelCounts, more: FunnelCounts): void {
  for (const stage of FUNNEL_STAGES) into[stage] += more[stage];
  for (const [outcome, n] of Object.entries(more.outcomes)) into.outcomes[outcome] = (into.outcomes[outcome] ?? 0) + n;
}

/** A row's stage sums (pg answers sums as text). */
function stagesOf(raw: Raw): FunnelCounts {
  const counts = zeroCounts();
  for (const stage of FUNNEL_STAGES) counts[stage] = Number(raw[stage] ?? 0);
  return counts;
}

/** The source of an application: the board's channel and the campaign parameters it came with. */
export function sourceOf(channel: string, utm: Utm | null): FunnelSource {
  return { channel, utm_source: utm?.utm_source ?? null, utm_campaign: utm?.utm_campaign ?? null };
}

/** What one key of one table adds up to, while add() sums its entries. */
interface Pending {
  key: SqlValue[];
  added: number[];
}

/** The sums of add()'s entries, per table and key. */
class Additions {
  readonly tables = new Map<FunnelTable, Map<string, Pending>>();

  /** Adds `n` at `index` of the added columns (none: the row is only made to exist). */
  add(table: FunnelTable, key: SqlValue[], width: number, index?: number, n = 0): void {
    let rows = this.tables.get(table);
    if (rows === undefined) this.tables.set(table, (rows = new Map()));
    const id = JSON.stringify(key);
    let row = rows.get(id);
    if (row === undefined) rows.set(id, (row = { key, added: new Array<number>(width).fill(0) }));
    if (index !== undefined) row.added[index]! += n;
  }
}

/** Orders keys the same way in every transaction, so two that add to the same rows take their locks in one order. */
function compareKeys(a: Pending, b: Pending): number {
  for (let i = 0; i < a.key.length; i += 1) {
    const x = a.key[i]!;
    const y = b.key[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The entry a waiting count (FUNNEL_SQL.take) adds. */
function waitingEntry(row: Raw): FunnelEntry {
  return {
    day: dayText(Number(row.day)),
    campaign_id: Number(row.campaign_id),
    source: sourceOf(String(row.channel), parseUtm(row.utm)),
    count: row.stage === null ? { outcome: String(row.outcome) } : { stage: row.stage as FunnelStage },
    n: 1,
  };
}

function checkEntry(entry: FunnelEntry): void {
  if (!Number.isSafeInteger(entry.n) || entry.n < 1)
    throw new RangeError(`a funnel count adds a positive integer, not ${entry.n}`);
  if (!Number.isSafeInteger(entry.campaign_id)) throw new RangeError(`not an offer id: ${entry.campaign_id}`);
  if ('stage' in entry.count && !FUNNEL_STAGES.includes(entry.count.stage))
    throw new RangeError(`not a funnel stage: ${String(entry.count.stage)}`);
}

export class SqlFunnelStore implements FunnelStore {
  private readonly sql: Sql;
  private readonly now: () => number;
  private readonly channel: string | undefined;
  private readonly foldAfterMs: number;
  private readonly writesInWith: boolean;
  private foldTimer: NodeJS.Timeout | undefined;
  private folding: Promise<void> | undefined;
  /** The offer sums of the days before today of the last periods reported, exact. */
  private readonly offerSums = new DaysCache<OfferSums>(8);
  /** The offer sums from today of the last periods reported, a few seconds behind at most once today holds many offers. */
  private readonly todaySums: TodaySums;
  /** The last offers ranked: kept while the same sums are ranked by the same sort and limit. */
  private ranked: { parts: readonly OfferSums[]; key: string; top: ReturnType<typeof topOffers> } | undefined;
  /** The offers of the last reports (period, sort and limit), while nothing is added to their days. */
  private readonly reported = new DaysCache<{ offers: FunnelReport['offers']; total: number }>(8);

  /**
   * `writesInWith`: the database runs a write inside WITH (PostgreSQL), so a
   * change and its count go in one statement (changeCounted).
   */
  constructor(
    sql: Sql,
    now: () => number,
    counting: FunnelCounting | undefined,
    options: { writesInWith: boolean; today?: TodayPolicy },
  ) {
    this.sql = sql;
    this.now = now;
    this.channel = counting?.channel;
    this.foldAfterMs = counting?.foldAfterMs ?? DEFAULT_FOLD_AFTER_MS;
    this.writesInWith = options.writesInWith;
    this.todaySums = new TodaySums((first, last) => this.readInChunks(first, last), now, options.today);
  }

  async add(entries: readonly FunnelEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.sql.transaction((sql) => this.addIn(sql, entries));
  }

  /** add() on `sql`, the transaction of the caller. */
  async addIn(sql: Sql, entries: readonly FunnelEntry[]): Promise<void> {
    const additions = new Additions();
    const stages = FUNNEL_STAGES.length;
    for (const entry of entries) {
      checkEntry(entry);
      const day = dayNumber(entry.day);
      const { campaign_id: offer, n } = entry;
      const source = [entry.source.channel, entry.source.utm_source ?? '', entry.source.utm_campaign ?? ''];
      if ('stage' in entry.count) {
        const at = FUNNEL_STAGES.indexOf(entry.count.stage);
        additions.add('funnel_counts', [day, offer, ...source], stages, at, n);
        additions.add('funnel_source_days', [day, ...source], stages, at, n);
        for (const span of spansHolding(day))
          additions.add('funnel_offer_spans', [span.level, span.first, offer], stages, at, n);
      } else {
        additions.add('funnel_outcomes', [offer, day, ...source, entry.count.outcome], 1, 0, n);
        additions.add('funnel_source_outcomes', [day, ...source, entry.count.outcome], 1, 0, n);
        // The offer has a count in the spans of that day: a report of them lists it.
        for (const span of spansHolding(day))
          additions.add('funnel_offer_spans', [span.level, span.first, offer], stages);
      }
    }
    // Always in the order of FUNNEL_TABLES, each table's rows in key order: no two transactions wait on each other.
    for (const table of Object.keys(FUNNEL_TABLES) as FunnelTable[]) {
      const rows = [...(additions.tables.get(table)?.values() ?? [])].sort(compareKeys);
      let at = 0;
      for (const size of insertSizes(rows.length)) {
        const chunk = rows.slice(at, (at += size));
        await sql.run(
          upsertText(table, size),
          chunk.flatMap((row) => [...row.key, ...row.added]),
        );
      }
    }
  }

  /**
   * Counts one of the proxy's stages, or a company's outcome, for the
   * application `reference` (its offer and campaign parameters), today, on
   * `sql`: the transaction of the change it counts. The count waits for the
   * next fold. Nothing when not counting.
   */
  async countApplication(sql: Sql, reference: string, count: FunnelEntry['count']): Promise<void> {
    if (this.channel === undefined) return;
    const [stage, outcome] = 'stage' in count ? [count.stage, null] : [null, count.outcome];
    await sql.run(FUNNEL_SQL.wait, [this.today(), this.channel, stage, outcome, reference]);
    this.foldSoon();
  }

  /**
   * Runs `change`, a write of the outbox row `reference` (`params` its
   * parameters), on `sql`, the transaction it is part of, and counts `stage`
   * of that application when it changed the row (when counting): in the
   * change's own statement where the database allows it. Answers the rows
   * changed.
   */
  async changeCounted(
    sql: Sql,
    change: string,
    params: readonly SqlValue[],
    reference: string,
    stage: FunnelStage,
  ): Promise<number> {
    if (this.channel === undefined) return sql.run(change, params);
    if (!this.writesInWith) {
      const changed = await sql.run(change, params);
      if (changed > 0) await this.countApplication(sql, reference, { stage });
      return changed;
    }
    const changed = await sql.run(countedChangeText(change, params.length + 1), [
      ...params,
      this.today(),
      this.channel,
      stage,
    ]);
    this.foldSoon();
    return changed;
  }

  /**
   * Adds the counts waiting to the grains, each in the transaction that
   * deletes it: once, whichever store of the database folds it. Counts of
   * changes committed before the call are all added when it resolves.
   */
  async fold(): Promise<void> {
    while ((await this.sql.all(FUNNEL_SQL.anyWaiting)).length > 0) await this.foldBatch(FUNNEL_SQL.take);
  }

  /**
   * The fold a moment after a count: the counts another instance is folding
   * are left to it rather than waited for (instances counting at once would
   * otherwise queue behind each other's folds), so it stops at a batch that
   * is not full.
   */
  private async foldInBackground(): Promise<void> {
    if ((await this.sql.all(FUNNEL_SQL.anyWaiting)).length === 0) return;
    let taken: number;
    do taken = await this.foldBatch(FUNNEL_SQL.takeFree);
    while (taken === FOLD_BATCH);
  }

  /** Takes a batch of waiting counts with `take` and adds them, in one transaction; answers how many it took. */
  private foldBatch(take: string): Promise<number> {
    return this.sql.transaction(async (sql) => {
      const taken = await sql.all(take, [FOLD_BATCH]);
      await this.addIn(sql, taken.map(waitingEntry));
      return taken.length;
    });
  }

  /** The number of today (UTC, the store's clock): the day a count made now goes to. */
  private today(): number {
    return dayNumber(dayOf(this.now()));
  }

  /** A fold foldAfterMs from now, unless one is due already. */
  private foldSoon(): void {
    this.foldTimer ??= setTimeout(() => {
      this.foldTimer = undefined;
      // One that fails leaves its counts waiting, for the next fold or report.
      this.folding = this.foldInBackground().catch(() => {});
    }, this.foldAfterMs).unref();
  }

  /** Cancels the fold due and waits for one under way (the store closes its database next). */
  async close(): Promise<void> {
    clearTimeout(this.foldTimer);
    await this.folding;
  }

  async report(period: FunnelPeriod, options: { sort?: FunnelStage; limit?: number } = {}): Promise<FunnelReport> {
    const from = dayNumber(period.from);
    const to = dayNumber(period.to);
    if (from > to) throw new RangeError(`a period ends on or after its first day: ${period.from} to ${period.to}`);
    const sort = options.sort ?? 'listed';
    if (!FUNNEL_STAGES.includes(sort)) throw new RangeError(`not a funnel stage: ${String(sort)}`);
    const limit = options.limit ?? DEFAULT_REPORT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a report's limit is 0 or more, not ${limit}`);
    await this.fold();
    // The days first: their totals tell whether the offer sums kept of them still hold (DaysCache.get).
    const days = await this.days(from, to);
    const offers = this.reported.get(`${from}:${to}:${sort}:${limit}`, JSON.stringify(days), () =>
      this.offers(days, from, to, sort, limit),
    );
    const sources = await this.sources(from, to, sort);
    const totals = zeroCounts();
    for (const day of days) addCounts(totals, day.counts);
    const { offers: listed, total } = await offers;
    // A copy: the offers kept are the next report's too.
    return { totals, offers: structuredClone(listed), offers_total: total, sources, days };
  }

  /** Every day from `from` to `to`, zeros included. */
  private async days(from: number, to: number): Promise<FunnelReport['days']> {
    const [rows, outcomes] = await Promise.all([
      this.sql.all(FUNNEL_SQL.days, [from, to]),
      this.sql.all(FUNNEL_SQL.dayOutcomes, [from, to]),
    ]);
    const days = Array.from({ length: to - from + 1 }, (_, i) => ({ day: dayText(from + i), counts: zeroCounts() }));
    for (const row of rows) days[Number(row.day) - from]!.counts = stagesOf(row);
    for (const row of outcomes) days[Number(row.day) - from]!.counts.outcomes[String(row.outcome)] = Number(row.n);
    return days;
  }

  /** Each source with a count in the period, the most of `sort` first. */
  private async sources(from: number, to: number, sort: FunnelStage): Promise<FunnelReport['sources']> {
    const [rows, outcomes] = await Promise.all([
      this.sql.all(FUNNEL_SQL.sources, [from, to]),
      this.sql.all(FUNNEL_SQL.sourceOutcomes, [from, to]),
    ]);
    const sources = new Map<string, FunnelReport['sources'][number]>();
    const sourceAt = (row: Raw) => {
      const id = JSON.stringify([row.channel, row.utm_source, row.utm_campaign]);
      let source = sources.get(id);
      if (source === undefined) {
        const [utmSource, utmCampaign] = [String(row.utm_source), String(row.utm_campaign)];
        source = {
          channel: String(row.channel),
          utm_source: utmSource === '' ? null : utmSource,
          utm_campaign: utmCampaign === '' ? null : utmCampaign,
          counts: zeroCounts(),
        };
        sources.set(id, source);
      }
      return source;
    };
    for (const row of rows) sourceAt(row).counts = stagesOf(row);
    for (const row of outcomes) sourceAt(row).counts.outcomes[String(row.outcome)] = Number(row.n);
    const name = (s: FunnelSource) => [s.channel, s.utm_source ?? '', s.utm_campaign ?? ''].join('\u0000');
    return [...sources.values()].sort((a, b) => b.counts[sort] - a.counts[sort] || name(a).localeCompare(name(b)));
  }

  /**
   * The offers with a count in the period, the most of `sort` first, at most
   * `limit`, and how many there are. The days before today and the days from
   * today are two parts, each read once while its days' totals stay the same.
   */
  private async offers(
    days: FunnelReport['days'],
    from: number,
    to: number,
    sort: FunnelStage,
    limit: number,
  ): Promise<{ offers: FunnelReport['offers']; total: number }> {
    const today = this.today();
    const parts = [
      [from, Math.min(to, today - 1)],
      [Math.max(from, today), to],
    ].filter(([first, last]) => first! <= last!) as [number, number][];
    const sums = await Promise.all(
      parts.map(([first, last]) => {
        const fingerprint = JSON.stringify(days.slice(first - from, last - from + 1));
        if (first >= today) return this.todaySums.get(first, last, fingerprint);
        return this.offerSums.get(`${first}:${last}`, fingerprint, async () => {
          const spans = spansOf(first, last);
          const params = spans.flatMap((span) => [span.level, span.first]);
          return offerSumsOf(await this.sql.all(offerSumsText(spans.length), params));
        });
      }),
    );
    const top = this.rank(sums, sort, limit);
    const offers = top.offers.map(({ campaign_id, stages }) => {
      const counts = zeroCounts();
      FUNNEL_STAGES.forEach((stage, s) => (counts[stage] = stages[s]!));
      return { campaign_id, counts };
    });
    if (offers.length > 0) {
      const byId = new Map(offers.map((offer) => [offer.campaign_id, offer]));
      // As many ids as the next power of two, the last one repeated: a few statement texts for any limit.
      const ids = [...byId.keys()];
      while (ids.length & (ids.length - 1)) ids.push(ids.at(-1)!);
      const outcomes = await this.sql.all(offerOutcomesText(ids.length), [from, to, ...ids]);
      for (const row of outcomes)
        byId.get(Number(row.campaign_id))!.counts.outcomes[String(row.outcome)] = Number(row.n);
    }
    return { offers, total: top.total };
  }

  /** topOffers(), or what it gave for the same sums, sort and limit: today's sums are kept a few seconds, and ranking 50,000 offers takes milliseconds. */
  private rank(parts: readonly OfferSums[], sort: FunnelStage, limit: number): ReturnType<typeof topOffers> {
    const key = `${sort}:${limit}`;
    const last = this.ranked;
    if (last?.key === key && last.parts.length === parts.length && last.parts.every((part, i) => part === parts[i]))
      return last.top;
    const top = topOffers(parts, sort, limit);
    this.ranked = { parts, key, top };
    return top;
  }

  /**
   * Each offer's sums over the days `first` to `last`, read span by span a
   * few thousand offers at a time, letting other requests run in between: on
   * SQLite a statement holds the thread, and today may hold every offer.
   */
  private async readInChunks(first: number, last: number): Promise<OfferSums> {
    const parts: OfferSums[] = [];
    for (const span of spansOf(first, last)) {
      const chunks: OfferSums[] = [];
      for (let after = Number.MIN_SAFE_INTEGER; ;) {
        const rows = await this.sql.all(spanChunkText, [span.level, span.first, after, SPAN_CHUNK]);
        chunks.push(offerSumsOf(rows));
        if (rows.length < SPAN_CHUNK) break;
        after = Number(rows.at(-1)!.campaign_id);
        await new Promise((resolve) => setImmediate(resolve));
      }
      parts.push(joined(chunks));
    }
    return merged(parts);
  }
}
