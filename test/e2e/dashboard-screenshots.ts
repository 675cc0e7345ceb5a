// The dashboard's pictures in the proxy's README ("Measure your board"):
// `npm run docs:screenshots` starts the sandbox and a proxy with a month of
// made-up counts (the same at every run, to the day it runs), opens the
// dashboard in Chromium signed in, and writes PNGs to
// server/proxy/docs-images/. Run it again when the page changes.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../../server/package-root.ts';
import { TEST_DASHBOARD_TOKEN, monthOfCounts, startStatsWorld } from '../../server/proxy/stats/stats.test-support.ts';
import { launchChromium } from '../chromium.ts';

const OUT = packagePath('server', 'proxy', 'docs-images');

const world = await startStatsWorld();
const browser = await launchChromium();
try {
  await world.proxy.applications.whenReady();
  await world.proxy.applications.outbox.funnel.add(monthOfCounts(world.listedIds.slice(0, 4), Date.now()));
  const context = await browser.newContext({
    httpCredentials: { username: 'board', password: TEST_DASHBOARD_TOKEN },
    viewport: { width: 1100, height: 900 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  await page.goto(`${world.proxy.url}/dashboard?lang=en`);
  await page.waitForFunction(() => {
    const chart = (window as unknown as { Chart?: { getChart(c: HTMLCanvasElement): unknown } }).Chart;
    return [...document.querySelectorAll('canvas')].every((canvas) => chart?.getChart(canvas) !== undefined);
  });
  mkdirSync(OUT, { recursive: true });
  const shots = {
    'dashboard-funnel.png': 'section[aria-labelledby="funnel-heading"]',
    'dashboard-days.png': 'section[aria-labelledby="days-heading"]',
    'dashboard-offers.png': 'section[aria-labelledby="offers-heading"]',
    'dashboard-checks.png': 'section[aria-labelledby="checks-heading"]',
  };
  // The top of the page: its title, languages, period and downloads.
  const funnelTop = (await page.locator('#funnel-heading').boundingBox())?.y ?? 300;
  await page.screenshot({ path: join(OUT, 'dashboard.png'), clip: { x: 0, y: 0, width: 1100, height: funnelTop - 8 } });
  for (const [file, selector] of Object.entries(shots))
    await page.locator(selector).screenshot({ path: join(OUT, file) });
  console.log(`Wrote ${['dashboard.png', ...Object.keys(shots)].join(', ')} to ${OUT}`);
} finally {
  await browser.close();
  await world.close();
}
