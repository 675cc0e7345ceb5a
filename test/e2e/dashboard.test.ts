// The board's dashboard in real Chromium, signed in as a browser does (HTTP
// Basic, its prompt answered), against a proxy started on the sandbox with a
// month of counts in its store: both charts drawn under the page's own strict
// policy, their tables beside them, the sort links working without script,
// axe finding nothing, and every word in English, French and Spanish.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { FUNNEL_STAGES } from '../../server/public-api/funnel.ts';
import { DASHBOARD_TEXTS } from '../../server/proxy/stats/dashboard-texts.ts';
import { TEST_DASHBOARD_TOKEN, monthOfCounts, startStatsWorld } from '../../server/proxy/stats/stats.test-support.ts';
import type { StatsWorld } from '../../server/proxy/stats/stats.test-support.ts';
import { launchChromium } from '../chromium.ts';
import { axeViolations } from './axe.ts';
import { consoleMessages } from './console-messages.ts';

const SIGNED_IN: BrowserContextOptions = {
  httpCredentials: { username: 'board', password: TEST_DASHBOARD_TOKEN },
  viewport: { width: 1280, height: 900 },
};

/** True once the canvas has a pixel drawn, by a chart Chart.js knows. */
async function drawn(page: Page, id: string): Promise<boolean> {
  return page.evaluate((canvasId) => {
    const canvas = document.getElementById(canvasId) as HTMLCanvasElement | null;
    const chart = (window as unknown as { Chart?: { getChart(c: HTMLCanvasElement): unknown } }).Chart;
    if (canvas === null || chart?.getChart(canvas) === undefined || canvas.width === 0) return false;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    return data.some((value, i) => i % 4 === 3 && value !== 0);
  }, id);
}

/** Waits until Chart.js holds a chart on both canvases. */
async function chartsMade(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const chart = (window as unknown as { Chart?: { getChart(c: HTMLCanvasElement): unknown } }).Chart;
    const canvases = [...document.querySelectorAll('canvas')];
    return canvases.length === 2 && canvases.every((canvas) => chart?.getChart(canvas) !== undefined);
  });
}

describe("the board's dashboard in Chromium", () => {
  let world: StatsWorld;
  let browser: Browser;
  const dashboard = (query = '') => `${world.proxy.url}/dashboard${query}`;

  before(async () => {
    world = await startStatsWorld();
    await world.proxy.applications.whenReady();
    await world.proxy.applications.outbox.funnel.add(monthOfCounts(world.listedIds.slice(0, 4), Date.now()));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  it('asks a browser without the token, or with another, to sign in: 401 with a Basic challenge', async () => {
    for (const options of [{}, { httpCredentials: { username: 'board', password: 'not-the-token-0123456789' } }]) {
      const context = await browser.newContext(options);
      try {
        const page = await context.newPage();
        const answered = page.waitForResponse((response) => response.url() === dashboard());
        // Headless Chromium has no one to answer its prompt: the navigation fails once the challenge is seen.
        await page.goto(dashboard()).catch(() => undefined);
        const response = await answered;
        assert.equal(response.status(), 401);
        assert.match(
          (await response.headerValue('www-authenticate')) ?? '',
          /^Basic realm="jobboard-connector dashboard"/,
        );
      } finally {
        await context.close();
      }
    }
  });

  it("draws both charts under the page's own policy, each with its table, and sorts the offers by a header's link", async () => {
    const context = await browser.newContext(SIGNED_IN);
    try {
      const page = await context.newPage();
      const errors = consoleMessages(page, 'error');
      const response = await page.goto(dashboard());
      assert.equal(response?.status(), 200);
      await chartsMade(page);
      assert.ok(await drawn(page, 'funnel-chart'), 'the funnel is drawn');
      assert.ok(await drawn(page, 'days-chart'), 'the days are drawn');
      for (const id of ['funnel-chart', 'days-chart']) {
        const canvas = page.locator(`#${id}`);
        assert.equal(await canvas.getAttribute('role'), 'img');
        assert.ok(((await canvas.getAttribute('aria-label')) ?? '').length > 20, `${id} is summarised`);
        assert.ok(
          await canvas.evaluate((el) => el.closest('section')?.querySelector('table') !== null),
          `${id} has its table beside it`,
        );
      }
      const offerRows = page.locator('#offers-heading ~ .scroll tbody tr');
      assert.equal(await offerRows.count(), 4);

      await page.locator('#offers-heading ~ .scroll th a', { hasText: /^Opened$/ }).click();
      await page.waitForURL(/[?&]sort=opened/);
      assert.equal(await page.locator('#offers-heading ~ .scroll th[aria-sort="descending"]').textContent(), 'Opened');
      const opened = await page.$$eval('#offers-heading ~ .scroll tbody tr', (rows) =>
        rows.map((row) => Number((row.children[2]?.textContent ?? '').replace(/\D/g, ''))),
      );
      assert.deepEqual(
        opened,
        [...opened].sort((a, b) => b - a),
        'most opened first',
      );
      assert.deepEqual(errors, [], 'nothing refused by the policy, no script error');
    } finally {
      await context.close();
    }
  });

  for (const lang of ['en', 'fr', 'es'] as const) {
    it(`has no axe violation, and every word in ${lang}`, async () => {
      // CSP bypassed for axe's script only; the page's own policy is held in the test above.
      const context = await browser.newContext({ ...SIGNED_IN, bypassCSP: true });
      try {
        const page = await context.newPage();
        await page.goto(dashboard(`?lang=${lang}`));
        await chartsMade(page);
        const t = DASHBOARD_TEXTS[lang];
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        assert.equal(await page.textContent('h1'), t.title);
        assert.deepEqual(await page.$$eval('h2', (hs) => hs.map((h) => h.textContent)), [
          t.funnel.heading,
          t.days.heading,
          t.offers.heading,
          t.sources.heading,
          t.checks.heading,
        ]);
        const headers = await page.$$eval('#offers-heading ~ .scroll thead th', (ths) =>
          ths.map((th) => th.textContent),
        );
        assert.deepEqual(headers, [t.offers.offer, ...FUNNEL_STAGES.map((stage) => t.stages[stage])]);
        assert.equal(await page.getAttribute('label[for="from"]', 'for'), 'from');
        assert.match((await page.textContent('label[for="from"]')) ?? '', new RegExp(`^${t.period.from}`));
        assert.deepEqual(await axeViolations(page), []);
      } finally {
        await context.close();
      }
    });
  }
});
