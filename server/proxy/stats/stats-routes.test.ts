// GET /api/stats and GET /dashboard on a proxy started against the sandbox,
// over real HTTP, with counts added through the proxy's own funnel store:
// absent without DASHBOARD_TOKEN, answered only to it, never cached, read by
// no other origin; the report by its contract, in JSON and in CSV; a wrong
// period refused; the page in three languages, escaped; the metrics.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_KEYS } from '../../sandbox/index.ts';
import { createClient } from '../../client/index.ts';
import { STATS_CSV_COLUMNS, StatsReport } from '../../public-api/funnel.ts';
import { admin } from '../../test/sandbox-admin.ts';
import { offerProblems } from '../catalogue/offer-checks/index.ts';
import { TEST_BOARD_ORIGIN, fetch } from '../test-support.ts';
import { DASHBOARD_CSP } from './dashboard-page.ts';
import { DASHBOARD_TEXTS } from './dashboard-texts.ts';
import { addDays, utcDay } from './stats-period.ts';
import { TEST_DASHBOARD_TOKEN, basic, sourceOf, startStatsWorld } from './stats.test-support.ts';
import type { StatsWorld } from './stats.test-support.ts';

const CHALLENGE = 'Basic realm="jobboard-connector dashboard", charset="UTF-8"';
const bearer = { Authorization: `Bearer ${TEST_DASHBOARD_TOKEN}` };
/** A title a spreadsheet would run and a browser would render, were it not written as text. */
const HOSTILE_TITLE = '=HYPERLINK("https://evil.example","Apply, now") <img src=x onerror=alert(1)>';
const UNKNOWN_OFFER = 987_654;

describe('the board stats without DASHBOARD_TOKEN', () => {
  let world: StatsWorld;
  before(async () => {
    world = await startStatsWorld({ token: null });
  });
  after(() => world?.close());

  it('are absent: /dashboard, /api/stats and the dashboard scripts answer 404 not_found, even to a token', async () => {
    for (const path of ['/dashboard', '/api/stats', '/dashboard/chart-abc.js']) {
      for (const headers of [{}, bearer]) {
        const response = await fetch(`${world.proxy.url}${path}`, { headers });
        assert.equal(response.status, 404, path);
        assert.equal(((await response.json()) as { code: string }).code, 'not_found', path);
      }
    }
  });
});

describe('the board stats with DASHBOARD_TOKEN', () => {
  let world: StatsWorld;
  let offer: number;
  let hostile: number;
  const today = utcDay(Date.now());
  const url = (path: string) => `${world.proxy.url}${path}`;
  const get = (path: string, headers: Record<string, string> = bearer) => fetch(url(path), { headers });

  before(async () => {
    world = await startStatsWorld();
    const company = createClient({
      baseUrl: world.sandbox.url,
      privateKey: DEMO_KEYS.company.private_key,
      secretKey: DEMO_KEYS.company.secret_key,
    });
    hostile = (await company.campaigns.create({ manage_name: 'hostile', name: HOSTILE_TITLE })).id;
    await admin(world.sandbox, 'PATCH', `/campaigns/${hostile}`, {
      status: 'online',
      channels: [DEMO_KEYS.jobboard.channel],
    });
    await world.proxy.catalogue.syncNow();
    offer = world.listedIds[0]!;
    const plain = sourceOf();
    const newsletter = sourceOf('newsletter', 'spring');
    const stage = (day: string, campaign_id: number, source: typeof plain, counts: Record<string, number>) =>
      Object.entries(counts).map(([name, n]) => ({
        day,
        campaign_id,
        source,
        count: name.startsWith('outcome:') ? { outcome: name.slice(8) } : { stage: name as 'listed' },
        n,
      }));
    await (
      await world.proxy.applications.whenReady().then(() => world.proxy.applications.outbox.funnel)
    ).add([
      ...stage(today, offer, plain, {
        listed: 10,
        opened: 5,
        started: 3,
        submitted: 2,
        received: 2,
        delivered: 1,
        'outcome:interview': 1,
      }),
      ...stage(today, hostile, newsletter, { listed: 4, opened: 6, 'outcome:=cmd|calc': 1 }),
      ...stage(addDays(today, -1), offer, plain, { listed: 7 }),
      ...stage(addDays(today, -10), UNKNOWN_OFFER, plain, { listed: 2 }),
      ...stage(addDays(today, -40), offer, plain, { listed: 100 }),
    ]);
  });
  after(() => world?.close());

  it('answer 401 with a Basic challenge, never cached, without the token, with another, or with it as the user name', async () => {
    const refused: Record<string, string>[] = [
      {},
      { Authorization: basic('board', 'not-the-token-0123456789') },
      { Authorization: `Bearer not-the-token-0123456789` },
      { Authorization: basic(TEST_DASHBOARD_TOKEN, '') },
      { Authorization: `Bearer ${TEST_DASHBOARD_TOKEN}x` },
      { Authorization: 'Basic !!!' },
      { Authorization: `Token ${TEST_DASHBOARD_TOKEN}` },
    ];
    for (const path of ['/dashboard', '/api/stats']) {
      for (const headers of refused) {
        const response = await get(path, headers);
        const what = `${path} ${JSON.stringify(headers)}`;
        assert.equal(response.status, 401, what);
        assert.equal(response.headers.get('www-authenticate'), CHALLENGE, what);
        assert.equal(response.headers.get('cache-control'), 'no-store', what);
        assert.equal(((await response.json()) as { code: string }).code, 'unauthorized', what);
      }
    }
  });

  it('answer the token as the Basic password with any user name, or as a Bearer token, never cached', async () => {
    for (const path of ['/dashboard', '/api/stats']) {
      for (const authorization of [
        basic('', TEST_DASHBOARD_TOKEN),
        basic('anyone', TEST_DASHBOARD_TOKEN),
        `bearer ${TEST_DASHBOARD_TOKEN}`,
        bearer.Authorization,
      ]) {
        const response = await get(path, { Authorization: authorization });
        assert.equal(response.status, 200, `${path} ${authorization}`);
        assert.equal(response.headers.get('cache-control'), 'no-store');
        await response.arrayBuffer();
      }
    }
  });

  it("let no other origin read them: no CORS header, even for the widget's allowed origin", async () => {
    for (const origin of [TEST_BOARD_ORIGIN, 'https://elsewhere.example']) {
      for (const path of ['/dashboard', '/api/stats']) {
        const response = await get(path, { ...bearer, Origin: origin });
        assert.equal(response.headers.get('access-control-allow-origin'), null, `${path} from ${origin}`);
        await response.arrayBuffer();
      }
    }
  });

  it('GET /api/stats answers the last 30 days by its contract: offers named by the catalogue (null when gone), sources, and every day, zeros included', async () => {
    const response = await get('/api/stats');
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const report = StatsReport.parse(await response.json());
    assert.deepEqual([report.from, report.to], [addDays(today, -29), today]);
    assert.equal(report.days.length, 30);
    assert.equal(report.days.at(-1)?.counts.listed, 14);
    assert.equal(report.days.at(-2)?.counts.listed, 7);
    assert.equal(report.days[0]?.counts.listed, 0);
    assert.equal(report.totals.listed, 23, 'the count of 40 days ago is outside the period');
    assert.deepEqual(report.totals.outcomes, { interview: 1, '=cmd|calc': 1 });
    const title = world.proxy.catalogue.store.get(offer)?.name;
    assert.ok(title);
    assert.deepEqual(
      report.offers.map((o) => [o.campaign_id, o.title, o.counts.listed]),
      [
        [offer, title, 17],
        [hostile, HOSTILE_TITLE, 4],
        [UNKNOWN_OFFER, null, 2],
      ],
    );
    assert.equal(report.offers_total, 3);
    assert.deepEqual(report.sources.map((s) => [s.utm_source, s.counts.listed]).sort(), [
      [null, 19],
      ['newsletter', 4],
    ]);
  });

  it('GET /api/stats sorts the offers by the stage asked, lists at most limit, and reads the period asked', async () => {
    const sorted = StatsReport.parse(await (await get('/api/stats?sort=opened&limit=1')).json());
    assert.deepEqual(
      sorted.offers.map((o) => o.campaign_id),
      [hostile],
    );
    assert.equal(sorted.offers_total, 3);
    const past = addDays(today, -40);
    const then = StatsReport.parse(await (await get(`/api/stats?from=${past}&to=${past}`)).json());
    assert.equal(then.totals.listed, 100);
    assert.equal(then.days.length, 1);
  });

  it('GET /api/stats answers CSV for Accept: text/csv or format=csv: one row per offer, quoted, formulas kept as text', async () => {
    for (const [path, headers] of [
      ['/api/stats', { ...bearer, Accept: 'text/csv' }],
      ['/api/stats?format=csv', bearer],
    ] as const) {
      const response = await get(path, headers);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
      assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="funnel-.*\.csv"$/);
      const lines = (await response.text()).split('\r\n');
      assert.equal(lines[0], [...STATS_CSV_COLUMNS, 'outcome:=cmd|calc', 'outcome:interview'].join(','));
      assert.equal(
        lines[2],
        `${hostile},"'=HYPERLINK(""https://evil.example"",""Apply, now"") <img src=x onerror=alert(1)>",4,6,0,0,0,0,0,0,1,0`,
      );
      assert.equal(lines[3], `${UNKNOWN_OFFER},,2,0,0,0,0,0,0,0,0,0`);
      assert.equal(lines.length, 5, 'a header, three offers, and the last line ended');
    }
  });

  it('GET /api/stats answers 422 validation_failed naming the parameter of a period it cannot read', async () => {
    const cases: [string, string][] = [
      ['from=2026-02-30', 'from'],
      ['to=tomorrow', 'to'],
      [`from=${today}&to=${addDays(today, -1)}`, 'from'],
      [`from=${addDays(today, -366)}&to=${today}`, 'from'],
      ['sort=hired', 'sort'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['format=xml', 'format'],
    ];
    for (const [query, field] of cases) {
      const response = await get(`/api/stats?${query}`);
      assert.equal(response.status, 422, query);
      const problem = (await response.json()) as { code: string; errors: { field: string }[] };
      assert.equal(problem.code, 'validation_failed', query);
      assert.deepEqual(
        problem.errors.map((e) => e.field),
        [field],
        query,
      );
    }
    const longest = await get(`/api/stats?from=${addDays(today, -365)}&to=${today}`);
    assert.equal(longest.status, 200, '366 days, both included, are allowed');
    await longest.arrayBuffer();
  });

  it("GET /dashboard answers the page in the language of ?lang=, else of Accept-Language, else the board's (French unless BOARD_LANG says), under its own policy", async () => {
    const cases: [string, Record<string, string>, 'en' | 'fr' | 'es'][] = [
      ['/dashboard', {}, 'fr'],
      ['/dashboard', { 'Accept-Language': 'en-GB,en;q=0.9' }, 'en'],
      ['/dashboard?lang=fr', { 'Accept-Language': 'es' }, 'fr'],
      ['/dashboard', { 'Accept-Language': 'es-MX,es;q=0.9' }, 'es'],
      ['/dashboard?lang=de', { 'Accept-Language': 'fr' }, 'fr'],
    ];
    for (const [path, headers, lang] of cases) {
      const response = await get(path, { ...bearer, ...headers });
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(response.headers.get('content-security-policy'), DASHBOARD_CSP);
      assert.equal(response.headers.get('content-language'), lang);
      const html = await response.text();
      const t = DASHBOARD_TEXTS[lang];
      assert.ok(html.includes(`<html lang="${lang}">`), `${path}: ${lang}`);
      for (const words of [t.title, t.funnel.heading, t.offers.heading, t.sources.heading, t.stages.opened])
        assert.ok(html.includes(words.replaceAll("'", '&#39;')), `${lang}: ${words}`);
    }
  });

  it("GET /dashboard writes an offer's title as text, in the tables and in the charts' data", async () => {
    const html = await (await get('/dashboard')).text();
    assert.ok(!html.includes('<img'), 'no markup of a title reaches the page');
    assert.ok(html.includes('&#60;img src=x onerror=alert(1)&#62;'));
    const block = /<script type="application\/json" id="dashboard-data">(.*?)<\/script>/s.exec(html)?.[1];
    assert.ok(block !== undefined, "the page carries its charts' data");
    assert.ok(!/[<>&]/.test(block), 'no character of the data block could end it');
    const data = JSON.parse(block) as { funnel: { values: number[] }; days: { labels: string[] } };
    assert.equal(data.funnel.values[0], 23);
    assert.equal(data.days.labels.length, 30);
  });

  it('GET /dashboard sorts the offers and the sources by the stage of their links, the column marked with aria-sort', async () => {
    const html = await (await get('/dashboard?sort=opened&sources_sort=delivered&lang=en')).text();
    const sorted = [
      ...html.matchAll(/<th scope="col" class="n" aria-sort="descending"><a href="([^"]*)"[^>]*>([^<]*)<\/a>/g),
    ];
    assert.deepEqual(
      sorted.map((m) => m[2]),
      ['Opened', 'Delivered'],
    );
    assert.match(sorted[0]![1]!.replaceAll('&#38;', '&'), /[?&]sort=opened(&|$)/);
    const offers = html.slice(html.indexOf('id="offers-heading"'), html.indexOf('id="sources-heading"'));
    assert.ok(offers.indexOf(`#${hostile}`) < offers.indexOf(`#${offer}`), 'the most opened offer first');
    assert.match(offers, /href="\/dashboard\?[^"]*sort=listed/);
  });

  it("GET /dashboard lists the offer checks' problems of the offers listed now, each rule in the page's language", async () => {
    const expected = offerProblems(world.proxy.catalogue.store).filter((o) => o.problems.length > 0);
    assert.ok(
      expected.some((o) => o.id === hostile),
      'the offer without pay, text or place has problems',
    );
    const html = await (await get('/dashboard?lang=fr')).text();
    const checks = html.slice(html.indexOf('id="checks-heading"'));
    const listed = [...checks.matchAll(/<span class="id">#(\d+)<\/span><\/th>/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      listed,
      expected.map((o) => o.id),
    );
    assert.ok(checks.includes(`<strong>${DASHBOARD_TEXTS.fr.checks.rules.pay_range_missing}</strong>`));
    assert.ok(checks.includes('&#60;img src=x'), "the offer's title as text");
  });

  it('GET /dashboard answers a period it cannot show 422, with the page of the last 30 days saying so', async () => {
    const response = await get(`/dashboard?from=${today}&to=${addDays(today, -3)}&lang=es`);
    assert.equal(response.status, 422);
    const html = await response.text();
    assert.match(html, /<p role="alert">Ese periodo no se puede mostrar/);
    assert.ok(html.includes(`value="${addDays(today, -29)}"`), 'the form shows the period shown');
  });

  it('serves the dashboard scripts it names under hashed names, cached for good, without the token; no other name', async () => {
    const html = await (await get('/dashboard')).text();
    const sources = [...html.matchAll(/<script src="([^"]+)" defer><\/script>/g)].map((m) => m[1]!);
    assert.equal(sources.length, 2);
    assert.match(sources[0]!, /^\/dashboard\/chart-[\w-]{12}\.js$/);
    assert.match(sources[1]!, /^\/dashboard\/dashboard-[\w-]{12}\.js$/);
    for (const source of sources) {
      const response = await fetch(url(source));
      assert.equal(response.status, 200, source);
      assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.ok((await response.text()).length > 1000);
    }
    const other = await fetch(url('/dashboard/chart-AAAAAAAAAAAA.js'));
    assert.equal(other.status, 404);
    await other.arrayBuffer();
  });

  it("counts today's funnel by stage in the metrics, funnel_today{stage}, and no offer", async () => {
    const metrics = await (await globalThis.fetch(world.proxy.metricsUrl)).text();
    const today = Object.fromEntries(
      [...metrics.matchAll(/^funnel_today\{stage="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
    );
    assert.deepEqual(today, {
      listed: 14,
      opened: 11,
      started: 3,
      submitted: 2,
      received: 2,
      delivered: 1,
      rejected: 0,
      dead: 0,
    });
    assert.doesNotMatch(metrics, /^funnel_\w+\{[^}]*campaign/m);
  });
});

describe('the board stats of a board in another language (BOARD_LANG)', () => {
  let world: StatsWorld;
  before(async () => {
    world = await startStatsWorld({ env: { BOARD_LANG: 'es' } });
  });
  after(() => world?.close());
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${world.proxy.url}${path}`, { headers: { ...bearer, ...headers } });

  it("GET /dashboard answers in the board's language when neither ?lang= nor the browser names one of its languages", async () => {
    const cases: [string, Record<string, string>, 'en' | 'fr' | 'es'][] = [
      ['/dashboard', {}, 'es'],
      ['/dashboard', { 'Accept-Language': '*' }, 'es'],
      ['/dashboard', { 'Accept-Language': 'de' }, 'es'],
      ['/dashboard', { 'Accept-Language': 'fr-FR,fr;q=0.9' }, 'fr'],
      ['/dashboard?lang=en', {}, 'en'],
    ];
    for (const [path, headers, lang] of cases) {
      const response = await get(path, headers);
      assert.equal(response.headers.get('content-language'), lang, `${path} ${JSON.stringify(headers)}`);
      assert.ok((await response.text()).includes(`<html lang="${lang}">`));
    }
  });

  it("GET /dashboard checks the offers' text against the board's language: not_in_board_language, no not_in_french", async () => {
    const expected = offerProblems(world.proxy.catalogue.store, { lang: 'es' }).filter((o) =>
      o.problems.some((p) => p.rule === 'not_in_board_language'),
    );
    assert.ok(expected.length > 0, 'the demo board has offers in French and in English');
    const html = await (await get('/dashboard')).text();
    const checks = html.slice(html.indexOf('id="checks-heading"'));
    const t = DASHBOARD_TEXTS.es.checks.rules;
    assert.ok(checks.includes(`<strong>${t.not_in_board_language}</strong>`));
    assert.ok(!checks.includes(`<strong>${t.not_in_french}</strong>`));
    const listed = new Set([...checks.matchAll(/<span class="id">#(\d+)<\/span><\/th>/g)].map((m) => Number(m[1])));
    for (const offer of expected) assert.ok(listed.has(offer.id), `offer ${offer.id} is listed`);
  });
});
