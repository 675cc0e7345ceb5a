// The funnel's stages the proxy counts itself, on both stores (PostgreSQL
// skipped without a server): each change of an application (received,
// delivered, rejected, dead) and each status the company gives it counts
// once, in the transaction of the change, under the board's channel and the
// application's campaign parameters, waiting there for a fold into the day's
// rows; nothing when the funnel is off.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, afterEach, before, beforeEach, it } from 'node:test';
import { eventually } from '../../../test/poll.ts';
import type { FunnelCounts, FunnelStage } from '../../../public-api/funnel.ts';
import type { ApplicationStore, StoreOptions } from '../outbox/application-store.ts';
import { attemptEnds, claimed, endedTwice, forEachStore, newApplication } from '../test-support.ts';
import { zeroCounts } from './sql-funnel-store.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const FUNNEL = { channel: 'board' };

function counts(stages: Partial<Record<FunnelStage, number>>, outcomes: Record<string, number> = {}): FunnelCounts {
  return { ...zeroCounts(), ...stages, outcomes };
}

forEachStore("the proxy's funnel counts", (harness) => {
  let dir: string;
  let now: number;
  let store: ApplicationStore;
  const open = (options: Pick<StoreOptions, 'funnel' | 'webhookEvents'> = { funnel: FUNNEL }) =>
    harness.open('instance-1', dir, () => now, options.webhookEvents, options.funnel);
  /** The counts of 2026-01-01 to 2026-01-03, all offers and sources. */
  const totals = async () => (await store.funnel.report({ from: '2026-01-01', to: '2026-01-03' })).totals;
  const enqueue = (reference: string) =>
    store.enqueue(newApplication(reference, { email: `${reference}@example.org` }), { deadLetterAfterMs: DAY });
  /** One number read from outside the store: the counts waiting, or the day's rows' sum of a stage. */
  const readOutside = async (text: string): Promise<number> => {
    const pool = harness.pool();
    if (pool !== undefined) return Number((await pool.query<{ n: unknown }>(text)).rows[0]!.n ?? 0);
    const db = new DatabaseSync(join(dir, 'outbox.db'), { readOnly: true });
    try {
      return Number((db.prepare(text).get() as { n: unknown }).n ?? 0);
    } finally {
      db.close();
    }
  };
  const waiting = () => readOutside('SELECT count(*) AS n FROM funnel_waiting');
  const receivedInDaysRows = () => readOutside('SELECT sum(received) AS n FROM funnel_source_days');

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-funnel-counts-'));
  });
  beforeEach(async () => {
    await harness.reset(dir);
    now = Date.UTC(2026, 0, 1, 12);
    store = await open();
  });
  afterEach(() => store.close());
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("counts an application received on its day, for its offer, under the board's channel and its campaign parameters", async () => {
    const utm = { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' };
    await store.enqueue(newApplication('r1', { utm }), { deadLetterAfterMs: DAY });
    now += DAY;
    await enqueue('r2');
    const report = await store.funnel.report({ from: '2026-01-01', to: '2026-01-02' });
    assert.deepEqual(
      report.days.map((d) => d.counts.received),
      [1, 1],
    );
    assert.deepEqual(report.offers, [{ campaign_id: 12, counts: counts({ received: 2 }) }]);
    assert.deepEqual(
      report.sources.map(({ counts: c, ...source }) => [source, c.received]),
      [
        [{ channel: 'board', utm_source: null, utm_campaign: null }, 1],
        [{ channel: 'board', utm_source: 'newsletter', utm_campaign: 'spring' }, 1],
      ],
    );
  });

  it("keeps each change's count waiting until a fold adds it to the day's rows, once", async () => {
    await store.close();
    store = await open({ funnel: { ...FUNNEL, foldAfterMs: 60_000 } });
    await enqueue('r1');
    await store.markDelivered(await claimed(store, 'r1'), 'created_applicant', { applicantId: 1, applicationId: 2 });
    assert.equal(await waiting(), 2);
    assert.equal(await receivedInDaysRows(), 0);
    await store.funnel.fold();
    assert.equal(await waiting(), 0);
    assert.equal(await receivedInDaysRows(), 1);
    await store.funnel.fold();
    assert.deepEqual(await totals(), counts({ received: 1, delivered: 1 }));
  });

  it('folds the counts waiting by itself a moment after they are made, each time', async () => {
    await store.close();
    store = await open({ funnel: { ...FUNNEL, foldAfterMs: 20 } });
    for (const [reference, received] of [
      ['r1', 1],
      ['r2', 2],
    ] as const) {
      await enqueue(reference);
      await eventually(async () => (await waiting()) === 0, { timeoutMs: 5_000, what: `${reference}'s count folded` });
      assert.equal(await receivedInDaysRows(), received);
    }
  });

  it('leaves the counts of a store closed before its fold waiting, and the next store adds them', async () => {
    await store.close();
    store = await open({ funnel: { ...FUNNEL, foldAfterMs: 20 } });
    await enqueue('r1');
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await waiting(), 1, 'no fold after the store closed');
    store = await open();
    assert.deepEqual(await totals(), counts({ received: 1 }));
  });

  it('adds each count once when several stores fold at the same time', async () => {
    await store.close();
    store = await open({ funnel: { ...FUNNEL, foldAfterMs: 60_000 } });
    const other = await harness.open('instance-2', dir, () => now, undefined, { ...FUNNEL, foldAfterMs: 60_000 });
    try {
      for (let i = 0; i < 300; i += 1)
        await (i % 2 === 0 ? store : other).enqueue(newApplication(`r${i}`), { deadLetterAfterMs: DAY });
      await Promise.all([store.funnel.fold(), other.funnel.fold(), store.funnel.fold(), other.funnel.fold()]);
      assert.equal(await waiting(), 0);
      assert.equal(await receivedInDaysRows(), 300);
    } finally {
      await other.close();
    }
  });

  it('counts nothing of an application whose storing failed', async () => {
    await enqueue('r1');
    await assert.rejects(enqueue('r1'), 'the same reference twice');
    assert.deepEqual(await totals(), counts({ received: 1 }));
  });

  it('counts a delivery once: a second write of the attempt, or of a stale attempt, adds nothing', async () => {
    await enqueue('r1');
    const first = await claimed(store, 'r1');
    await store.markRetry(first, now, 'server_error (503)', true);
    const lease = await claimed(store, 'r1');
    await store.markDelivered(lease, 'found_delivered', { applicantId: 1, applicationId: 2 });
    await store.markDelivered(lease, 'found_delivered', { applicantId: 1, applicationId: 2 });
    await assert.rejects(store.markDelivered(first, 'created_applicant', {}));
    assert.deepEqual(await totals(), counts({ received: 1, delivered: 1 }));
  });

  it('counts a refusal as rejected (the candidate told why) or dead (told it was received), and a dead letter as dead', async () => {
    for (const reference of ['rejected', 'refused-unanswered', 'refused-answered', 'dead']) await enqueue(reference);
    await store.setAnswered('refused-answered', 202);
    // Each end written twice by its attempt: counted once.
    const { rejected, refused, dead } = attemptEnds(store);
    await endedTwice(store, { rejected, 'refused-unanswered': refused, 'refused-answered': refused, dead });
    assert.equal((await store.get('refused-unanswered'))?.status, 'rejected');
    assert.equal((await store.get('refused-answered'))?.status, 'dead');
    assert.deepEqual(await totals(), counts({ received: 4, rejected: 2, dead: 2 }));
  });

  it('counts the same with or without webhook events recorded', async () => {
    await store.close();
    store = await open({ funnel: FUNNEL, webhookEvents: { includeCandidate: false } });
    await enqueue('r1');
    await store.markDelivered(await claimed(store, 'r1'), 'created_applicant', { applicantId: 1, applicationId: 2 });
    assert.equal((await store.webhooks.list()).length, 2, 'events recorded');
    assert.deepEqual(await totals(), counts({ received: 1, delivered: 1 }));
  });

  it('counts each status the company gives an application once, the first one read too, on the day it is read', async () => {
    await enqueue('r1');
    await store.markDelivered(await claimed(store, 'r1'), 'created_applicant', { applicantId: 1, applicationId: 7 });
    const check = async () => {
      const [claim] = await store.claimStatusChecks(now, now - 30 * DAY, now - 6 * HOUR, 10);
      assert.ok(claim, 'an application due for a check');
      return claim;
    };
    const first = await check();
    assert.equal(await store.recordStatus(first, 'new'), true);
    now += DAY;
    assert.equal(await store.recordStatus(await check(), 'new'), true, 'read again, the same');
    assert.equal(await store.recordStatus(first, 'interview'), false, 'a stale claim records nothing');
    now += 7 * HOUR;
    assert.equal(await store.recordStatus(await check(), 'interview'), true);
    const report = await store.funnel.report({ from: '2026-01-01', to: '2026-01-03' });
    assert.deepEqual(
      report.days.map((d) => d.counts.outcomes),
      [{ new: 1 }, { interview: 1 }, {}],
    );
    assert.deepEqual(report.offers, [
      { campaign_id: 12, counts: counts({ received: 1, delivered: 1 }, { new: 1, interview: 1 }) },
    ]);
  });

  it('counts nothing when the funnel is off', async () => {
    await store.close();
    store = await open({});
    await enqueue('r1');
    await store.markDelivered(await claimed(store, 'r1'), 'created_applicant', { applicantId: 1, applicationId: 7 });
    const [check] = await store.claimStatusChecks(now, now - 30 * DAY, now - 6 * HOUR, 10);
    assert.equal(await store.recordStatus(check!, 'new'), true);
    await enqueue('r2');
    await store.markDead(await claimed(store, 'r2'), 'expired', 'x');
    assert.deepEqual(await totals(), zeroCounts());
  });
});
