// The funnel counted end to end, as a candidate makes it: the demo board in
// Chromium shows its list, one offer is opened, its form started and sent
// with a resume, the application delivered to the sandbox; then GET
// /api/stats (with the DASHBOARD_TOKEN) and the dashboard's offers table
// hold exactly those counts. On SQLite with one proxy, and on PostgreSQL with
// two proxies of the board sharing the database (the list shown by one, the
// application sent through the other): the counts add up. Beacons go by
// navigator.sendBeacon: the test waits for their answers, then polls the
// report until it holds what was counted.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { FUNNEL_STAGES } from '../../server/public-api/funnel.ts';
import type { FunnelStage, StatsReport } from '../../server/public-api/funnel.ts';
import { startDemo } from '../../server/demo.ts';
import { eventually } from '../../server/test/poll.ts';
import { freshDatabase, skipWithoutPostgres } from '../../server/test/postgres.ts';
import { fillAndSend } from './apply-form.ts';
import { startDemoWorld, writeResume } from './demo-world.ts';
import type { DemoWorld } from './demo-world.ts';

const TOKEN = 'funnel-e2e-dashboard-token-5c1d';
type Stages = Record<FunnelStage, number>;

/** The stage counts of each offer, every stage present. */
function stagesOf(counts: Partial<Stages>): Stages {
  return Object.fromEntries(FUNNEL_STAGES.map((stage) => [stage, counts[stage] ?? 0])) as Stages;
}

/** A page whose beacons (POST /api/funnel) are followed: `settled()` resolves once each sent has its answer. */
async function boardPage(world: DemoWorld, proxyUrl: string) {
  const page = await world.browser.newPage();
  const pending = new Set<unknown>();
  let sent = 0;
  const isBeacon = (url: string, method: string) => method === 'POST' && new URL(url).pathname === '/api/funnel';
  page.on('request', (request) => {
    if (!isBeacon(request.url(), request.method())) return;
    sent += 1;
    pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  await page.goto(`${proxyUrl}/`);
  await page.locator('jobboard-campaigns [part="offer"] [data-offer]').first().waitFor();
  return {
    page,
    /** The offers the list shows. */
    listed: async () =>
      (await page
        .locator('jobboard-campaigns [part="offer"] [data-offer]')
        .evaluateAll((offers) => offers.map((offer) => Number(offer.getAttribute('data-offer'))))) as number[],
    settled: (what: string) =>
      eventually(() => pending.size === 0 && sent > 0, { timeoutMs: 15_000, what: `the answers to ${what}'s beacons` }),
  };
}

/** Opens the offer `id` on the page's list, types in its form (started) and sends it with a resume. */
async function applyTo(page: Page, id: number, resume: string, email: string): Promise<void> {
  await page.locator(`jobboard-campaigns [data-offer="${id}"]`).click();
  await page.locator('jobboard-apply form').waitFor();
  await fillAndSend(page, { email, firstName: 'Inès', lastName: 'Moreau', resume });
  await page.locator('jobboard-apply [part="outcome"].success').waitFor({ timeout: 30_000 });
}

/** The report of today from `proxyUrl`, read with the token. */
async function statsOf(proxyUrl: string): Promise<StatsReport> {
  const response = await fetch(`${proxyUrl}/api/stats?limit=1000`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as StatsReport;
}

/** Each offer's stage counts in a report (a spontaneous application's under null). */
function offersOf(report: StatsReport): Map<number | null, Stages> {
  return new Map(report.offers.map((offer) => [offer.campaign_id, stagesOf(offer.counts)]));
}

/** Polls GET /api/stats until its offers hold `expected` (delivery is asynchronous), then asserts them exactly. */
async function assertCounts(proxyUrl: string, expected: Map<number, Stages>): Promise<StatsReport> {
  let report: StatsReport | undefined;
  const same = () => assert.deepEqual(offersOf(report!), expected);
  await eventually(
    async () => {
      report = await statsOf(proxyUrl);
      try {
        same();
        return true;
      } catch {
        return false;
      }
    },
    { timeoutMs: 30_000, what: 'GET /api/stats to count every stage of the visit' },
  ).catch(() => undefined);
  same();
  return report!;
}

/** The offers table of the dashboard of `proxyUrl`, each row's id with its stage counts. */
async function dashboardOffers(world: DemoWorld, proxyUrl: string): Promise<Map<number, Stages>> {
  const context = await world.browser.newContext({ httpCredentials: { username: 'board', password: TOKEN } });
  try {
    const page = await context.newPage();
    assert.equal((await page.goto(`${proxyUrl}/dashboard?limit=1000`))?.status(), 200);
    const rows = await page.$$eval('#offers-heading ~ .scroll tbody tr', (trs) =>
      trs.map((tr) => ({
        id: Number((tr.querySelector('.id')?.textContent ?? '').replace(/\D/g, '')),
        cells: [...tr.querySelectorAll('td')].map((td) => Number((td.textContent ?? '').replace(/\D/g, ''))),
      })),
    );
    return new Map(
      rows.map(({ id, cells }) => [id, Object.fromEntries(FUNNEL_STAGES.map((s, i) => [s, cells[i]!])) as Stages]),
    );
  } finally {
    await context.close();
  }
}

/** What the visit counted: each offer listed once per list shown, the one applied to through every stage to delivered. */
function visitCounts(lists: number[][], applied?: number): Map<number, Stages> {
  const expected = new Map<number, Stages>();
  for (const id of lists.flat()) {
    const counts = expected.get(id) ?? stagesOf({});
    counts.listed += 1;
    expected.set(id, counts);
  }
  if (applied !== undefined)
    Object.assign(expected.get(applied)!, { opened: 1, started: 1, submitted: 1, received: 1, delivered: 1 });
  return expected;
}

describe('the funnel of a candidate visit, counted on SQLite with one proxy', () => {
  let world: DemoWorld;
  before(async () => {
    world = await startDemoWorld('funnel', { DASHBOARD_TOKEN: TOKEN });
  });
  after(() => world?.close());

  it('counts the list, the offer opened, the form started and sent, the application received and delivered, exactly, in GET /api/stats and on the dashboard', async () => {
    const board = await boardPage(world, world.demo.proxy.url);
    const listed = await board.listed();
    assert.ok(listed.length > 1, 'the list shows several offers');
    await board.settled('the list');
    // Read once before the application: a report's offers kept must not hide what comes next.
    await assertCounts(world.demo.proxy.url, visitCounts([listed]));
    await applyTo(board.page, listed[0]!, await writeResume(world.dir), 'ines.moreau@example.org');
    await board.settled('the visit');
    const expected = visitCounts([listed], listed[0]!);
    const report = await assertCounts(world.demo.proxy.url, expected);
    assert.equal(report.offers_total, listed.length);
    assert.deepEqual(await dashboardOffers(world, world.demo.proxy.url), expected);
    await board.page.close();
  });
});

describe(
  'the funnel of a candidate visit, counted on PostgreSQL by two proxies of one board',
  { skip: skipWithoutPostgres() },
  () => {
    let world: DemoWorld;
    let second: Awaited<ReturnType<typeof startDemo>>['proxy'];
    let secondDir: string;
    before(async () => {
      const database = await freshDatabase();
      const env = { DASHBOARD_TOKEN: TOKEN, DATABASE_URL: database, LOG_LEVEL: 'silent', METRICS_PORT: '0' };
      world = await startDemoWorld('funnel-pg', env);
      secondDir = await mkdtemp(join(tmpdir(), 'jobboard-e2e-funnel-pg-2-'));
      ({ proxy: second } = await startDemo({
        sandbox: world.demo.sandbox,
        sandboxPort: 0,
        proxyPort: 0,
        dataDir: secondDir,
        env,
      }));
    });
    after(async () => {
      await second?.close();
      await world?.close();
      if (secondDir !== undefined) await rm(secondDir, { recursive: true, force: true });
    });

    it('adds up, exactly, the list shown by one instance and the application sent through the other, read from either', async () => {
      const listing = await boardPage(world, world.demo.proxy.url);
      const firstList = await listing.listed();
      await listing.settled('the first instance');
      // Read by both before the application: neither may keep its offers past the other's counts.
      await assertCounts(world.demo.proxy.url, visitCounts([firstList]));
      await assertCounts(second.url, visitCounts([firstList]));
      const applying = await boardPage(world, second.url);
      const secondList = await applying.listed();
      const offer = firstList[0]!;
      await applyTo(applying.page, offer, await writeResume(world.dir), 'ines.moreau.pg@example.org');
      await applying.settled('the second instance');
      const expected = visitCounts([firstList, secondList], offer);
      await assertCounts(world.demo.proxy.url, expected);
      await assertCounts(second.url, expected);
      assert.deepEqual(await dashboardOffers(world, world.demo.proxy.url), expected);
      await listing.page.close();
      await applying.page.close();
    });
  },
);
