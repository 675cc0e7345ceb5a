// The board pages as a search engine and a phone meet them: Lighthouse
// (mobile, its default simulated throttling) on a page of each of the
// README's recipes: the demo's script-tag page (the static page), its
// server-rendered one (Express), the Next.js recipe built and served by
// Next.js (test/nextjs-app.test-support.ts), the WordPress plugin's page and
// the plain PHP and plain Node pages (./lighthouse-recipes.ts), each as the
// list and with an offer open; then page start → the first offer visible, or
// the open offer's description, on the first three, side by side, on the
// local network and on a throttled one; and the widget's gzipped sizes. Needs
// `npm run build`, and MariaDB for WordPress (TEST_MARIADB_URL, .ci/mariadb).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_LAUNCH_OPTIONS, disableFeatures, launchChromium } from '../chromium.ts';
import { freePort } from '../cli-processes.ts';
import { prepareNextApp } from '../nextjs-app.test-support.ts';
import type { NextServer } from '../nextjs-app.test-support.ts';
import { startDemo } from '../../server/demo.ts';
import { packagePath } from '../../server/package-root.ts';
import { recipeBoards } from './lighthouse-recipes.ts';
import { median } from './stats.ts';
import { applyBudget, languageBudget, mainBudget, quickApplyBudget } from '../widget-budgets.ts';

/** A budget in KB and bytes: "20 KB = 20,480 bytes". */
const kb = (bytes: number) => `${bytes / 1024} KB = ${bytes.toLocaleString('en')} bytes`;

/** The demo's pages, by the recipe they are. */
const SCRIPT_TAG = "static page (the demo's script-tag page)";
const SERVER_RENDERED = "server-rendered (the demo's Express page)";

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const VISIBLE_RUNS = Number(process.env.BENCH_VISIBLE_RUNS ?? 15);
/** The tests' Chromium flags, its `--disable-features` keeping chrome-launcher's own (which come first). */
const CHROME_FLAGS = [
  ...CHROMIUM_LAUNCH_OPTIONS.args.filter((arg) => !arg.startsWith('--disable-features=')),
  disableFeatures(chromeLauncher.Launcher.defaultFlags()),
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  cls: 'cumulative-layout-shift',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  si: 'speed-index',
} as const;

interface Report {
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: Record<keyof typeof METRICS, number>;
  failing: string[];
  /** Why Lighthouse gave no value of a metric, when it did not: such a run is not counted. */
  missing?: string;
}

async function audit(url: string, port: number): Promise<Report> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
  if (result === undefined) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits } = result.lhr;
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, categories[c]?.score ?? 0])) as Report['scores'];
  const metrics = Object.fromEntries(
    Object.entries(METRICS).map(([k, id]) => [k, audits[id]?.numericValue ?? Number.NaN]),
  ) as Report['metrics'];
  const missing = Object.values(METRICS).find((id) => audits[id]?.numericValue === undefined);
  // The audits that cost points outside performance (whose metrics are reported apart).
  const failing = CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
    (categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${c}: ${ref.id}`),
  );
  return { scores, metrics, failing, missing: missing && `${missing}: ${audits[missing]?.errorMessage ?? 'no value'}` };
}

/** What the page logs, followed by the time, once what it shows first is visible. */
const VISIBLE = 'jobboard-bench-visible ';
/** What a page shows first, inside the catalogue's shadow root: the first offer's title in the list, the open offer's description. */
const SHOWN_FIRST = { list: '[data-offer]', offer: '[part=description]' } as const;

/** Page start → `shown` visible, in ms, read in the page by a rAF loop that looks through the shadow root. */
async function visibleAt(
  url: string,
  shown: string,
  throttled: boolean,
  browser: Awaited<ReturnType<typeof launchChromium>>,
): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (throttled) {
    const cdp = await context.newCDPSession(page);
    // Lighthouse's mobile network: 150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
  }
  // Page code as text: this file is type-checked for Node, without the DOM's types. It tells the time
  // through the console: polling for it from here (waitForFunction) would run Playwright's own script
  // in the page, on the main thread, while the widget is still at work.
  await page.addInitScript({
    content: `(function loop() {
      const shown = document.querySelector('jobboard-campaigns')?.shadowRoot?.querySelector('${shown}');
      if (shown && shown.getBoundingClientRect().height > 0) console.log('${VISIBLE}' + performance.now());
      else requestAnimationFrame(loop);
    })();`,
  });
  const logged = page.waitForEvent('console', {
    predicate: (message) => message.text().startsWith(VISIBLE),
    timeout: 30_000,
  });
  await page.goto(url);
  const ms = Number((await logged).text().slice(VISIBLE.length));
  await context.close();
  return ms;
}

function gzipped(file: string): number {
  return gzipSync(readFileSync(file)).length;
}

export default async function bench(): Promise<string> {
  for (const built of [packagePath('dist', 'widget', 'widget.js'), packagePath('dist', 'ssr', 'render.js')]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first.`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'jobboard-bench-lighthouse-'));
  // The Next.js page is on an origin of its own: the proxy allows it, and names itself in the fragment.
  const [proxyPort, nextPort] = [await freePort(), await freePort()];
  const nextOrigin = `http://127.0.0.1:${nextPort}`;
  const recipes = await recipeBoards(join(dir, 'recipes'));
  const demo = await startDemo({
    sandboxPort: 0,
    proxyPort,
    dataDir: join(dir, 'proxy'),
    env: {
      LOG_LEVEL: 'silent',
      METRICS_PORT: '0',
      ALLOWED_ORIGINS: [nextOrigin, ...recipes.origins].join(','),
      PUBLIC_ORIGIN: `http://localhost:${proxyPort}`,
    },
  });
  const nextApp = await prepareNextApp();
  let nextServer: NextServer | undefined;
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_LAUNCH_OPTIONS.executablePath,
    chromeFlags: CHROME_FLAGS,
  });
  const browser = await launchChromium();
  try {
    const base = demo.proxy.url;
    await nextApp.build();
    nextServer = await nextApp.serve('start', nextPort, { JOBBOARD_PROXY_URL: base, JOBBOARD_PUBLIC_URL: base });
    const list = (await (await fetch(`${base}/api/campaigns`)).json()) as { items: { id: number }[] };
    const offer = list.items[0]!.id;
    const pages = [
      { name: `${SCRIPT_TAG}, list`, url: `${base}/` },
      { name: `${SCRIPT_TAG}, offer open`, url: `${base}/?offer=${offer}` },
      { name: `${SERVER_RENDERED}, list`, url: `${base}/server-rendered/` },
      { name: `${SERVER_RENDERED}, offer open`, url: `${base}/server-rendered/?offer=${offer}` },
      { name: 'Next.js, list', url: `${nextOrigin}/jobs` },
      { name: 'Next.js, offer open', url: `${nextOrigin}/jobs?offer=${offer}` },
    ];
    const recipePages = (await recipes.start(base)).flatMap(({ recipe, url }) => [
      { name: `${recipe}, list`, url },
      { name: `${recipe}, offer open`, url: `${url}?offer=${offer}` },
    ]);

    const audited: { name: string; reports: Report[]; missing: string[] }[] = [];
    for (const page of [...pages, ...recipePages]) {
      const reports: Report[] = [];
      const missing: string[] = [];
      // A run without a metric's value is run again, a run's worth of times at most.
      for (let i = 0; reports.length < RUNS && i < 2 * RUNS; i += 1) {
        const report = await audit(page.url, chrome.port);
        if (report.missing === undefined) reports.push(report);
        else missing.push(report.missing);
      }
      if (reports.length === 0)
        throw new Error(`Lighthouse gave no complete run of ${page.url}: ${missing.join('; ')}`);
      audited.push({ name: page.name, reports, missing });
      // As it goes: the audits take minutes.
      console.error(`${page.name}: ${JSON.stringify(reports.map((r) => [r.scores, r.failing]))}`);
    }

    // Interleaved: each run measures the script-tag, the server-rendered and the Next.js page alike, so all see the same machine state.
    const visible: Record<string, number[]> = {};
    for (const throttled of [false, true]) {
      for (const [view, shown] of Object.entries(SHOWN_FIRST)) {
        for (let i = 0; i < VISIBLE_RUNS; i += 1) {
          for (const page of pages.filter((p) => p.name.endsWith(view === 'list' ? 'list' : 'offer open'))) {
            const key = `${page.name.split(',')[0]}|${view}|${throttled}`;
            (visible[key] ??= []).push(await visibleAt(page.url, shown, throttled, browser));
          }
        }
      }
    }

    const fmt = (n: number, digits = 2) => n.toFixed(digits);
    const rows = audited.map(({ name, reports }) => {
      const score = (c: (typeof CATEGORIES)[number]) => median(reports.map((r) => r.scores[c]));
      const metric = (m: keyof typeof METRICS) => median(reports.map((r) => r.metrics[m]));
      return {
        name,
        perf: score('performance'),
        a11y: score('accessibility'),
        bp: score('best-practices'),
        seo: score('seo'),
        cls: metric('cls'),
        lcp: metric('lcp'),
        tbt: metric('tbt'),
        si: metric('si'),
        failing: [...new Set(reports.flatMap((r) => r.failing))],
      };
    });
    const met = (ok: boolean) => (ok ? 'yes' : '**no**');
    const widgetDir = packagePath('dist', 'widget');
    const modules = readdirSync(widgetDir)
      .filter((n) => n !== 'widget.js')
      .sort();
    const main = gzipped(join(widgetDir, 'widget.js'));
    const vis = (page: string, view: string, throttled: boolean) => median(visible[`${page}|${view}|${throttled}`]!);

    return [
      "## Lighthouse: the demo board pages and the README's recipes",
      '',
      `\`npm run build && npm run bench -- lighthouse\`: Lighthouse ${lighthouseVersion()} (mobile, simulated throttling) in Debian's Chromium on both demo pages (the script-tag page is the static page recipe; the server-rendered one is built by Express) and on the README's Next.js (\`next build\`, \`next start\`), WordPress (the plugin in Debian's WordPress, its default theme), plain PHP (\`php -S\`) and plain Node recipes, as the list and with an offer open; median of ${RUNS} runs each (\`BENCH_LIGHTHOUSE_RUNS\`).`,
      'Targets: performance, accessibility, best practices and SEO 1.0; cumulative layout shift at most 0.02.',
      '',
      '| page | performance | accessibility | best practices | SEO | CLS | LCP (ms) | TBT (ms) | speed index (ms) | targets met |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${fmt(r.perf)} | ${fmt(r.a11y)} | ${fmt(r.bp)} | ${fmt(r.seo)} | ${fmt(r.cls, 3)} | ${Math.round(r.lcp)} | ${Math.round(r.tbt)} | ${Math.round(r.si)} | ${met(r.perf === 1 && r.a11y === 1 && r.bp === 1 && r.seo === 1 && r.cls <= 0.02)} |`,
      ),
      '',
      ...audited
        .filter((a) => a.missing.length > 0)
        .map(
          (a) =>
            `${a.name}: ${a.missing.length} run(s) without a metric's value, run again and not counted (${[...new Set(a.missing)].join('; ')}).\n`,
        ),
      rows.some((r) => r.failing.length > 0)
        ? `Audits below their full score: ${rows
            .map((r) => (r.failing.length === 0 ? '' : `${r.name}: ${r.failing.join(', ')}`))
            .filter(Boolean)
            .join('; ')}.`
        : 'No accessibility, best-practice or SEO audit below its full score.',
      '',
      `Page start → the list's first offer title, or the open offer's description, visible (median of ${VISIBLE_RUNS} runs per page, interleaved, fresh browser context each run, playwright-core):`,
      '',
      '| network | page | script tag (ms) | server-rendered (ms) | Next.js (ms) | server-rendered vs script tag |',
      '|---|---|---:|---:|---:|---:|',
      ...[false, true].flatMap((t) =>
        Object.keys(SHOWN_FIRST).map(
          (view) =>
            `| ${t ? '150 ms round trips, 1.6 Mbit/s (Lighthouse mobile)' : 'local'} | ${view === 'list' ? 'list' : 'offer open'} | ${fmt(vis(SCRIPT_TAG, view, t), 0)} | ${fmt(vis(SERVER_RENDERED, view, t), 0)} | ${fmt(vis('Next.js', view, t), 0)} | ${fmt(vis(SERVER_RENDERED, view, t) / vis(SCRIPT_TAG, view, t))} |`,
        ),
      ),
      '',
      `Sizes, gzipped: widget.js ${main.toLocaleString('en')} bytes (Lit, its hydration support, the offers and their English texts; budget ${kb(mainBudget)}; ${kb(languageBudget)} with a language module, ${kb(applyBudget)} with the apply form's module, which every page loads, ${kb(quickApplyBudget)} with quick apply's too, which the form loads)${modules.map((m) => `; with ${m} ${(main + gzipped(join(widgetDir, m))).toLocaleString('en')}`).join('')}.`,
    ].join('\n');
  } finally {
    await recipes.stop();
    await nextServer?.stop();
    nextApp.remove();
    await browser.close();
    chrome.kill();
    await demo.proxy.close();
    await demo.sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function lighthouseVersion(): string {
  return (
    JSON.parse(readFileSync(packagePath('node_modules', 'lighthouse', 'package.json'), 'utf8')) as { version: string }
  ).version;
}
