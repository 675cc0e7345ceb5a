// The contract of the funnel's store (FunnelStore), run against SQLite and
// PostgreSQL (skipped without a server): what add() counts and report()
// answers, per day, source and offer, for any period (the offers are read
// from spans of days, checked here against a plain sum of every entry).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, it } from 'node:test';
import { FUNNEL_STAGES } from '../../../public-api/funnel.ts';
import type { FunnelCounts, FunnelSource, FunnelStage } from '../../../public-api/funnel.ts';
import type { ApplicationStore } from '../outbox/application-store.ts';
import { forEachStore } from '../test-support.ts';
import type { FunnelEntry } from './funnel-store.ts';
import { dayNumber, dayText } from './funnel-sql.ts';
import { zeroCounts } from './sql-funnel-store.ts';
import { seededRandom } from '../../../test/seeded-random.ts';

const BOARD: FunnelSource = { channel: 'board', utm_source: null, utm_campaign: null };
const NEWSLETTER: FunnelSource = { channel: 'board', utm_source: 'newsletter', utm_campaign: 'spring' };

function stage(day: string, offer: number, name: FunnelStage, n = 1, source = BOARD): FunnelEntry {
  return { day, campaign_id: offer, source, count: { stage: name }, n };
}

function outcome(day: string, offer: number, name: string, n = 1, source = BOARD): FunnelEntry {
  return { day, campaign_id: offer, source, count: { outcome: name }, n };
}

/** Counts with the stages given, the others 0. */
function counts(stages: Partial<Record<FunnelStage, number>>, outcomes: Record<string, number> = {}): FunnelCounts {
  return { ...zeroCounts(), ...stages, outcomes };
}

forEachStore('funnel store contract', (harness) => {
  let dir: string;
  let store: ApplicationStore;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-funnel-'));
  });
  beforeEach(async () => {
    await harness.reset(dir);
    store = await harness.open('instance-1', dir, () => Date.UTC(2026, 0, 1));
  });
  afterEach(() => store.close());
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports every day of a period with nothing counted as zeros, and no offer or source', async () => {
    const report = await store.funnel.report({ from: '2026-02-27', to: '2026-03-02' });
    assert.deepEqual(report, {
      totals: zeroCounts(),
      offers: [],
      offers_total: 0,
      sources: [],
      days: ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'].map((day) => ({ day, counts: zeroCounts() })),
    });
  });

  it('adds each entry to its count, per day, source and offer, with the totals of the period', async () => {
    await store.funnel.add([
      stage('2026-03-01', 7, 'listed', 3),
      stage('2026-03-01', 7, 'listed', 2),
      stage('2026-03-01', 7, 'opened'),
      stage('2026-03-02', 7, 'listed', 1, NEWSLETTER),
      stage('2026-03-02', 9, 'received', 1, NEWSLETTER),
      outcome('2026-03-02', 9, 'interview'),
    ]);
    await store.funnel.add([stage('2026-03-01', 7, 'listed', 4), outcome('2026-03-02', 9, 'interview', 2)]);
    const report = await store.funnel.report({ from: '2026-03-01', to: '2026-03-02' });
    assert.deepEqual(report.days, [
      { day: '2026-03-01', counts: counts({ listed: 9, opened: 1 }) },
      { day: '2026-03-02', counts: counts({ listed: 1, received: 1 }, { interview: 3 }) },
    ]);
    assert.deepEqual(report.totals, counts({ listed: 10, opened: 1, received: 1 }, { interview: 3 }));
    assert.deepEqual(report.sources, [
      { ...BOARD, counts: counts({ listed: 9, opened: 1 }, { interview: 3 }) },
      { ...NEWSLETTER, counts: counts({ listed: 1, received: 1 }) },
    ]);
    assert.deepEqual(report.offers, [
      { campaign_id: 7, counts: counts({ listed: 10, opened: 1 }) },
      { campaign_id: 9, counts: counts({ received: 1 }, { interview: 3 }) },
    ]);
    assert.equal(report.offers_total, 2);
  });

  it('lists the offers by the stage asked, most first (then by id), at most `limit`, and tells how many there are', async () => {
    await store.funnel.add([
      stage('2026-03-01', 1, 'listed', 5),
      stage('2026-03-01', 2, 'listed', 9),
      stage('2026-03-01', 3, 'listed', 5),
      stage('2026-03-01', 3, 'opened', 4),
      stage('2026-03-01', 4, 'opened', 1),
    ]);
    const period = { from: '2026-03-01', to: '2026-03-01' };
    const ids = async (options: { sort?: FunnelStage; limit?: number }) => {
      const report = await store.funnel.report(period, options);
      return { ids: report.offers.map((o) => o.campaign_id), total: report.offers_total };
    };
    assert.deepEqual(await ids({}), { ids: [2, 1, 3, 4], total: 4 }, 'listed unless told');
    assert.deepEqual(await ids({ sort: 'opened' }), { ids: [3, 4, 1, 2], total: 4 });
    assert.deepEqual(await ids({ sort: 'listed', limit: 2 }), { ids: [2, 1], total: 4 });
    assert.deepEqual(await ids({ limit: 0 }), { ids: [], total: 4 }, 'no offer asked: still how many');
  });

  // A source with outcomes only is read last: its place among the ties is the order's, not the reading's.
  it('lists the sources by the stage asked, most first, then by channel and campaign parameters', async () => {
    const ADS: FunnelSource = { channel: 'board', utm_source: 'ads', utm_campaign: null };
    const OTHER: FunnelSource = { channel: 'another', utm_source: null, utm_campaign: null };
    await store.funnel.add([
      stage('2026-03-01', 1, 'listed', 4, NEWSLETTER),
      stage('2026-03-01', 1, 'listed', 4, BOARD),
      stage('2026-03-02', 2, 'listed', 1, OTHER),
      stage('2026-03-02', 2, 'opened', 3, BOARD),
      stage('2026-03-02', 2, 'opened', 1, OTHER),
      outcome('2026-03-02', 2, 'hired', 2, ADS),
      outcome('2026-03-01', 2, 'hired', 1, ADS),
    ]);
    const period = { from: '2026-03-01', to: '2026-03-02' };
    const sources = async (sort?: FunnelStage) =>
      (await store.funnel.report(period, { sort })).sources.map(({ counts, ...source }) => [
        source,
        counts.listed,
        counts.opened,
        counts.outcomes,
      ]);
    assert.deepEqual(await sources(), [
      [BOARD, 4, 3, {}],
      [NEWSLETTER, 4, 0, {}],
      [OTHER, 1, 1, {}],
      [ADS, 0, 0, { hired: 3 }],
    ]);
    assert.deepEqual(await sources('opened'), [
      [BOARD, 4, 3, {}],
      [OTHER, 1, 1, {}],
      [ADS, 0, 0, { hired: 3 }],
      [NEWSLETTER, 4, 0, {}],
    ]);
  });

  it("gives each report offers of its own: changing one report's changes no other", async () => {
    await store.funnel.add([stage('2026-03-01', 1, 'listed', 2), outcome('2026-03-01', 1, 'hired')]);
    const period = { from: '2026-03-01', to: '2026-03-01' };
    const first = await store.funnel.report(period);
    first.offers[0]!.counts.listed = 99;
    first.offers[0]!.counts.outcomes.hired = 99;
    first.offers.pop();
    assert.deepEqual((await store.funnel.report(period)).offers, [
      { campaign_id: 1, counts: counts({ listed: 2 }, { hired: 1 }) },
    ]);
  });

  it('lists an offer whose only count in the period is an outcome, with zeros for the stages', async () => {
    await store.funnel.add([stage('2026-02-20', 5, 'delivered'), outcome('2026-03-03', 5, 'hired')]);
    const report = await store.funnel.report({ from: '2026-03-01', to: '2026-03-31' });
    assert.deepEqual(report.offers, [{ campaign_id: 5, counts: counts({}, { hired: 1 }) }]);
    assert.equal(report.offers_total, 1);
    assert.deepEqual(report.totals, counts({}, { hired: 1 }));
  });

  it('counts in a period exactly what was added on its days, whatever days it starts and ends on', async () => {
    const random = seededRandom(7);
    const first = dayNumber('2025-11-20');
    const entries: FunnelEntry[] = [];
    for (let i = 0; i < 400; i += 1) {
      const day = dayText(first + Math.floor(random() * 200));
      const offer = 1 + Math.floor(random() * 12);
      const name = FUNNEL_STAGES[Math.floor(random() * FUNNEL_STAGES.length)]!;
      entries.push(random() < 0.1 ? outcome(day, offer, 'interview') : stage(day, offer, name, 1 + (i % 3)));
    }
    await store.funnel.add(entries);
    for (let p = 0; p < 12; p += 1) {
      const from = first - 5 + Math.floor(random() * 150);
      const to = from + Math.floor(random() * 120);
      const expected = new Map<number, FunnelCounts>();
      for (const entry of entries) {
        const day = dayNumber(entry.day);
        if (day < from || day > to) continue;
        const sums = expected.get(entry.campaign_id) ?? zeroCounts();
        if ('stage' in entry.count) sums[entry.count.stage] += entry.n;
        else sums.outcomes.interview = (sums.outcomes.interview ?? 0) + entry.n;
        expected.set(entry.campaign_id, sums);
      }
      const report = await store.funnel.report({ from: dayText(from), to: dayText(to) }, { limit: 100 });
      const got = new Map(report.offers.map((o) => [o.campaign_id, o.counts]));
      assert.deepEqual(got, expected, `${dayText(from)} to ${dayText(to)}`);
      assert.equal(report.offers_total, expected.size);
    }
  });

  it('adds nothing of a batch holding an entry it refuses, and says what is wrong', async () => {
    const refused: [FunnelEntry, RegExp][] = [
      [stage('2026-03-01', 1, 'listed', 0), /positive integer, not 0/],
      [stage('2026-03-01', 1, 'listed', 1.5), /positive integer/],
      [stage('2026-3-1', 1, 'listed'), /not a day \(YYYY-MM-DD\): 2026-3-1/],
      [stage('2026-02-30', 1, 'listed'), /not a day/],
      [stage('2026-03-01', 1, 'clicked' as FunnelStage), /not a funnel stage: clicked/],
      [stage('2026-03-01', 1.5, 'listed'), /not an offer id: 1.5/],
    ];
    for (const [entry, message] of refused) {
      await assert.rejects(store.funnel.add([stage('2026-03-01', 1, 'listed'), entry]), message);
    }
    assert.deepEqual((await store.funnel.report({ from: '2026-03-01', to: '2026-03-01' })).totals, zeroCounts());
  });

  it('refuses a period that ends before it starts, and a sort that is not a stage', async () => {
    await assert.rejects(
      store.funnel.report({ from: '2026-03-02', to: '2026-03-01' }),
      /ends on or after its first day/,
    );
    await assert.rejects(
      store.funnel.report({ from: '2026-03-01', to: '2026-03-01' }, { sort: 'listed; DROP TABLE x' as FunnelStage }),
      /not a funnel stage/,
    );
    for (const limit of [-1, 1.5])
      await assert.rejects(
        store.funnel.report({ from: '2026-03-01', to: '2026-03-01' }, { limit }),
        new RegExp(`limit is 0 or more, not ${limit}`),
      );
  });

  it('reports the counts added since its last report of the same days, by any instance, on past days as on today', async () => {
    const period = { from: '2026-03-01', to: '2026-03-10' };
    const other = await harness.open('instance-2', dir, () => Date.now());
    try {
      await store.close();
      store = await harness.open('instance-1', dir, () => Date.UTC(2026, 2, 10, 12));
      await store.funnel.add([stage('2026-03-02', 1, 'listed', 5), stage('2026-03-10', 2, 'listed', 3)]);
      const offers = async () =>
        (await store.funnel.report(period)).offers.map((o) => [o.campaign_id, o.counts.listed]);
      assert.deepEqual(await offers(), [
        [1, 5],
        [2, 3],
      ]);
      await other.funnel.add([stage('2026-03-10', 2, 'listed', 3)]);
      assert.deepEqual(await offers(), [
        [2, 6],
        [1, 5],
      ]);
      await other.funnel.add([stage('2026-03-05', 1, 'listed', 2), outcome('2026-03-04', 3, 'hired')]);
      assert.deepEqual(await offers(), [
        [1, 7],
        [2, 6],
        [3, 0],
      ]);
      // The last day before today, and the first of the period: the ends of the part read before today.
      await other.funnel.add([stage('2026-03-09', 3, 'listed', 8), stage('2026-03-01', 4, 'listed', 1)]);
      assert.deepEqual(await offers(), [
        [3, 8],
        [1, 7],
        [2, 6],
        [4, 1],
      ]);
    } finally {
      await other.close();
    }
  });

  it('loses no count when instances add to the same counts at once', async () => {
    const others = await Promise.all([2, 3, 4].map((n) => harness.open(`instance-${n}`, dir, () => Date.now())));
    try {
      const batch = [stage('2026-03-01', 1, 'listed'), stage('2026-03-01', 2, 'listed'), outcome('2026-03-01', 2, 'x')];
      const reversed = [...batch].reverse();
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => [store, ...others][i % 4]!.funnel.add(i % 2 === 0 ? batch : reversed)),
      );
      const report = await store.funnel.report({ from: '2026-03-01', to: '2026-03-01' });
      assert.deepEqual(report.totals, counts({ listed: 80 }, { x: 40 }));
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
  });
});
