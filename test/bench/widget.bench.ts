// The widget in headless Chromium: time from page start to the apply form
// being interactive (and to the offer list being shown), side by side with a
// baseline page holding the same form in plain HTML, plus the bundle size.
// A small node:http server serves the built bundle and the apply form's module
// it imports (gzipped, as a proxy would)
// and a fixed /api/config, /api/campaigns and /api/campaigns/1 (the apply
// form checks its offer is open before it shows), so the figures are the widget's,
// not the proxy's. Needs `npm run build` first.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { DEFAULT_FIELD_MODES } from '../../server/public-api/application-form.ts';
import { launchChromium } from '../chromium.ts';
import { median } from './stats.ts';

const RUNS = Number(process.env.BENCH_WIDGET_RUNS ?? 15);

const config = {
  locales: ['fr', 'en', 'es'],
  resume: { types: ['pdf', 'jpg', 'png', 'doc', 'docx'], max_bytes: 10485760 },
  // What a proxy with no field settings answers.
  fields: { email: 'required', ...DEFAULT_FIELD_MODES },
  consent_url: 'https://board.example/privacy',
  captcha: null,
};

const campaigns = {
  items: Array.from({ length: 10 }, (_, i) => ({
    id: i + 1,
    company_id: 1,
    company_name: 'Acme',
    name: `Backend developer ${i + 1}`,
    job_type: 'Permanent contract',
    working_time: 'Full time',
    city: 'Lyon',
    country: 'France',
    salary_min: 42000,
    salary_max: 52000,
    job_start_date: '2027-01-05',
    contract_duration: null,
    updated_at: '2026-11-20T10:00:00.000Z',
  })),
  page: 1,
  per_page: 10,
  total: 10,
  last_page: 1,
  facets: {
    job_types: ['Permanent contract'],
    working_times: ['Full time'],
    cities: ['Lyon'],
    companies: [{ id: 1, name: 'Acme' }],
  },
};

/** The offer <jobboard-apply campaign-id="1"> checks before it shows its form. */
const offer = {
  ...campaigns.items[0]!,
  description: '<p>Build our APIs.</p>',
  profile: null,
  address: null,
  date_end: null,
};

/** What the probe logs, followed by the time, when the page is ready. */
const READY = 'jobboard-bench-ready ';

// Same probe on every page: a rAF loop that notes when `ready()` first holds.
// It tells the bench through the console, whose messages reach it with no
// script of the bench's run in the page: polling for it from the bench
// (waitForFunction) evaluated Playwright's own script in the page, about 8 ms
// of the main thread, while the widget was still getting ready.
const probe = (ready: string) => `<script>
  (function loop() {
    if (${ready}) { console.log('${READY}' + performance.now()); return; }
    requestAnimationFrame(loop);
  })();
</script>`;

const pages: Record<string, string> = {
  '/apply.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>apply</title>
<script type="module" src="/widget.js"></script></head><body>
<jobboard-apply endpoint="" campaign-id="1"></jobboard-apply>
${probe("document.querySelector('jobboard-apply')?.shadowRoot?.querySelector('button[type=submit]')")}</body></html>`,
  '/campaigns.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>campaigns</title>
<script type="module" src="/widget.js"></script></head><body>
<jobboard-campaigns endpoint=""></jobboard-campaigns>
${probe("document.querySelector('jobboard-campaigns')?.shadowRoot?.querySelector('[part=offer-title]')")}</body></html>`,
  '/baseline.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>baseline</title></head><body>
<form method="post" action="/api/applications" enctype="multipart/form-data">
<label for="email">Email</label><input id="email" name="email" type="email" required>
<label for="first_name">First name</label><input id="first_name" name="first_name" required>
<label for="last_name">Last name</label><input id="last_name" name="last_name" required>
<label for="phone_code">Country code</label><input id="phone_code" name="phone_code">
<label for="phone_number">Phone number</label><input id="phone_number" name="phone_number" type="tel">
<label for="resume">Resume</label><input id="resume" name="resume" type="file" required>
<label for="cover_letter">Cover letter</label><textarea id="cover_letter" name="cover_letter"></textarea>
<label for="bio_url">Portfolio</label><input id="bio_url" name="bio_url" type="url">
<input id="consent" name="is_legals_accepted_by_manager" type="checkbox" required><label for="consent">I agree</label>
<button type="submit">Send my application</button></form>
${probe("document.querySelector('form button[type=submit]')")}</body></html>`,
};

export default async function bench(): Promise<string> {
  const dist = new URL('../../dist/widget/', import.meta.url);
  let bundle: Buffer;
  try {
    bundle = await readFile(new URL('widget.js', dist));
  } catch {
    throw new Error('dist/widget/widget.js is missing: run `npm run build` first.');
  }
  const gzipped = gzipSync(bundle);
  // widget.js and the modules beside it, by path: these English pages load the apply form's.
  const files = new Map<string, Buffer>();
  for (const name of await readdir(dist))
    if (name.endsWith('.js')) files.set(`/${name}`, gzipSync(await readFile(new URL(name, dist))));
  const applyName = [...files.keys()].find((path) => path.startsWith('/widget-apply-'));
  const apply = applyName === undefined ? 0 : files.get(applyName)!.length;

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const file = files.get(path);
    if (file) {
      res.writeHead(200, {
        'content-type': 'text/javascript',
        'content-encoding': 'gzip',
        'cache-control': 'no-store',
      });
      return res.end(file);
    }
    const answers: Record<string, object> = {
      '/api/config': config,
      '/api/campaigns': campaigns,
      '/api/campaigns/1': offer,
    };
    if (answers[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(answers[path]));
    }
    const page = pages[path];
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(page);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const browser = await launchChromium();
  const samples: Record<string, { ready: number[]; afterScript: number[] }> = {};
  try {
    const measure = async (path: string) => {
      // A fresh context per run: cold HTTP cache, no module cache.
      const context = await browser.newContext();
      const page = await context.newPage();
      const logged = page.waitForEvent('console', {
        predicate: (message) => message.text().startsWith(READY),
        timeout: 10_000,
      });
      await page.goto(`${base}${path}`);
      const ready = Number((await logged).text().slice(READY.length));
      // Read once the page is ready: nothing the bench runs in the page comes before.
      const scriptEnd = await page.evaluate(() => {
        const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/widget.js')) as
          PerformanceResourceTiming | undefined;
        return script?.responseEnd ?? null;
      });
      await context.close();
      const entry = (samples[path] ??= { ready: [], afterScript: [] });
      entry.ready.push(ready);
      if (scriptEnd !== null) entry.afterScript.push(ready - scriptEnd);
    };
    // Warm-up (browser process, JIT), not recorded.
    for (const path of Object.keys(pages)) await measure(path);
    for (const key of Object.keys(samples)) delete samples[key];
    // Interleaved so every variant sees the same machine state.
    for (let run = 0; run < RUNS; run++) {
      for (const path of Object.keys(pages)) await measure(path);
    }
  } finally {
    await browser.close();
    server.close();
  }

  const baseline = median(samples['/baseline.html']!.ready);
  const row = (label: string, path: string) => {
    const s = samples[path]!;
    const ready = median(s.ready);
    const after = s.afterScript.length ? `${median(s.afterScript).toFixed(1)} ms` : '–';
    return `| ${label} | ${ready.toFixed(1)} ms | ${after} | ${(ready / baseline).toFixed(2)}× |`;
  };
  return [
    '## Widget',
    '',
    `\`npm run build && npm run bench -- widget\` (${RUNS} runs per page, interleaved, fresh browser context each run, headless Chromium, local server; \`BENCH_WIDGET_RUNS\` changes the count).`,
    '',
    '| page | page start → interactive (median) | widget.js received → interactive (median) | vs plain HTML form |',
    '|---|---|---|---|',
    row('plain HTML form (baseline)', '/baseline.html'),
    row('`<jobboard-apply>` (form with fields from /api/config)', '/apply.html'),
    row('`<jobboard-campaigns>` (first offers listed)', '/campaigns.html'),
    '',
    `Bundle \`dist/widget/widget.js\`: ${(bundle.length / 1024).toFixed(1)} KB minified, ${(gzipped.length / 1024).toFixed(1)} KB gzipped (budget 20 KB): Lit, its hydration support, the offers and their English texts; it imports the apply form's module, ${(apply / 1024).toFixed(1)} KB gzipped, which every page here loads. French and Spanish are modules of their own beside it, which these English pages do not load.`,
  ].join('\n');
}
