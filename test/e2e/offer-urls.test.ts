// Offers on the board's own URLs, as a candidate and a search engine meet
// them, on both demo pages: the script-tag page (/) and the page its server
// builds with the proxy's pre-rendered fragment (/server-rendered/). Real
// Chromium, the demo stack over real HTTP.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { demoWorldPerSuite } from './demo-world.ts';
import { adminCall } from '../../server/test/sandbox-admin.ts';

const PAGES = ['/', '/server-rendered/'] as const;

interface Posting {
  '@type': string;
  title: string;
  identifier: { value: string };
}

/** The JobPostings in the document's head. */
function postingsInHead(page: Page): Promise<Posting[]> {
  return page.evaluate(() =>
    [...document.head.querySelectorAll('script[type="application/ld+json"]')].map(
      (s) => JSON.parse(s.textContent ?? '') as Posting,
    ),
  );
}

/** Sums the layout shifts without recent input (the Layout Instability API), from the page's start. */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: number };
    w.__shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) w.__shifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __shifts: number }).__shifts);

const title = (page: Page) => page.locator('jobboard-campaigns #detail-title');
const offers = (page: Page) => page.locator('jobboard-campaigns [data-offer]');

describe('offers on the board page URLs', () => {
  const world = demoWorldPerSuite('urls');
  let base: string;

  before(() => {
    base = world.demo.proxy.url;
  });

  for (const path of PAGES) {
    describe(`on ${path}`, () => {
      it('an opened offer is in the URL; reload, Back (to the searched list), Forward and a copied link all show the right view', async () => {
        const context = await world.browser.newContext();
        const page = await context.newPage();
        await page.goto(base + path);
        await page.locator('jobboard-campaigns #filter-working_time').selectOption('Full time');
        await page.waitForURL(/working_time=Full\+time/);
        await page.locator('jobboard-campaigns #q').fill('développeur');
        await page.locator('jobboard-campaigns #q').press('Enter');
        await page.waitForURL(/q=d%C3%A9veloppeur/);
        // The searched list, settled: an offer of the list before the search would be replaced under the click.
        const first = page
          .locator('jobboard-campaigns [part=list][aria-busy="false"] [data-offer]', { hasText: /veloppeur/i })
          .first();
        await first.waitFor();
        const id = await first.getAttribute('data-offer');
        const name = (await first.innerText()).trim();

        await first.click();
        await page.waitForURL(new RegExp(`offer=${id}`));
        assert.equal((await title(page).innerText()).trim(), name);
        const link = page.url();

        await page.reload();
        assert.equal((await title(page).innerText()).trim(), name, 'a reload shows the same offer');

        await page.goBack();
        await offers(page).first().waitFor();
        assert.doesNotMatch(page.url(), /offer=/);
        assert.equal(await page.locator('jobboard-campaigns #q').inputValue(), 'développeur', 'Back keeps the search');
        assert.equal(
          await page.locator('jobboard-campaigns #filter-working_time').inputValue(),
          'Full time',
          'and the filter',
        );

        await page.goForward();
        assert.equal((await title(page).innerText()).trim(), name, 'Forward shows the offer again');
        await context.close();

        const other = await world.browser.newContext();
        const copied = await other.newPage();
        await copied.goto(link);
        assert.equal((await title(copied).innerText()).trim(), name, 'a copied link opens the offer in a new browser');
        await other.close();
      });

      it("puts the open offer's JobPosting in the head and takes it out on Back", async () => {
        const page = await world.browser.newPage();
        await page.goto(base + path);
        const first = offers(page).first();
        const id = await first.getAttribute('data-offer');
        const name = (await first.innerText()).trim();
        await first.click();
        await title(page).waitFor();
        await page.waitForFunction(() => document.head.querySelector('script[type="application/ld+json"]') !== null);
        const [posting, ...more] = await postingsInHead(page);
        assert.equal(more.length, 0, 'one JobPosting');
        assert.equal(posting!['@type'], 'JobPosting');
        assert.equal(posting!.title, name);
        assert.equal(posting!.identifier.value, id);

        await page.reload();
        await title(page).waitFor();
        await page.waitForFunction(
          () => document.head.querySelectorAll('script[type="application/ld+json"]').length === 1,
        );

        await page.goBack();
        await offers(page).first().waitFor();
        await page.waitForFunction(() => document.head.querySelector('script[type="application/ld+json"]') === null);
        await page.close();
      });

      it('an offer that was closed shows that it is no longer open, with the way back to the list', async () => {
        const list = (await (await fetch(`${base}/api/campaigns?per_page=50`)).json()) as { items: { id: number }[] };
        const closed = list.items.at(path === '/' ? -1 : -2)!.id;
        assert.equal(
          (await adminCall(world.demo.sandbox, 'PATCH', `/campaigns/${closed}`, { status: 'archived' })).status,
          200,
        );
        await world.demo.proxy.catalogue.syncNow();

        const page = await world.browser.newPage();
        const response = await page.goto(`${base}${path}?offer=${closed}`);
        // The board's server answers as the proxy did: 410 Gone, so search engines drop the page.
        if (path === '/server-rendered/') assert.equal(response?.status(), 410);
        const state = page.locator('jobboard-campaigns #detail-error');
        await state.waitFor();
        assert.match(await state.innerText(), /n’est plus ouverte/);
        await page.locator('jobboard-campaigns .back').click();
        await offers(page).first().waitFor();
        assert.doesNotMatch(page.url(), /offer=/);
        await page.close();
      });

      it('nothing moves while the list loads or when an offer opens (layout shift at most 0.05)', async () => {
        for (const viewport of [
          { width: 412, height: 823 },
          { width: 1350, height: 940 },
        ]) {
          const page = await world.browser.newPage({ viewport });
          await watchLayoutShifts(page);
          await page.goto(base + path);
          await offers(page).first().waitFor();
          // Late shifts count too: the facets, the fonts.
          await page.waitForTimeout(500);
          const onList = await layoutShift(page);
          assert.ok(onList <= 0.05, `the list at ${viewport.width} px shifted ${onList.toFixed(3)}`);
          await page.goto(`${base}${path}?offer=${await offers(page).first().getAttribute('data-offer')}`);
          await page.locator('jobboard-apply form').waitFor();
          await page.waitForTimeout(500);
          const onOffer = await layoutShift(page);
          assert.ok(onOffer <= 0.05, `the opened offer at ${viewport.width} px shifted ${onOffer.toFixed(3)}`);
          await page.close();
        }
      });
    });
  }

  it('the script takes over the server-rendered offer as it is: no request for the offers, the same elements, no Intl set-up before, then interactive', async () => {
    const page = await world.browser.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/campaigns')) asked.push(request.url());
    });
    // The script comes late, so the server's elements are surely there before it runs.
    await page.route('**/widget.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    await page.addInitScript({
      content: `(function mark() {
        const title = document.querySelector('jobboard-campaigns')?.shadowRoot?.querySelector('#detail-title');
        if (title && !customElements.get('jobboard-campaigns')) title.dataset.fromServer = 'yes';
        else if (!title) requestAnimationFrame(mark);
      })();
      // Each Intl formatter built, and whether the element had taken over the server's rendering then.
      window.__formatters = [];
      for (const kind of ['NumberFormat', 'DateTimeFormat']) {
        Intl[kind] = new Proxy(Intl[kind], {
          construct(target, args) {
            window.__formatters.push({ kind, hydrated: document.querySelector('jobboard-campaigns')?.hasUpdated === true });
            return Reflect.construct(target, args);
          },
        });
      }`,
    });
    const list = (await (await fetch(`${base}/api/campaigns`)).json()) as { items: { id: number }[] };
    await page.goto(`${base}/server-rendered/?offer=${list.items[0]!.id}`);
    await page.waitForFunction(() => customElements.get('jobboard-campaigns') !== undefined);
    await page.locator('jobboard-apply form').waitFor();
    assert.equal(
      await title(page).getAttribute('data-from-server'),
      'yes',
      'the title the server rendered is still the one shown',
    );
    assert.deepEqual(asked, [], 'the offer and the list were not fetched again');
    // Hydrated with the salary and dates the server formatted; the formatters are built after, for what opens next.
    await page.waitForFunction(() => (window as unknown as { __formatters: unknown[] }).__formatters.length >= 3);
    const formatters = await page.evaluate(
      () => (window as unknown as { __formatters: { kind: string; hydrated: boolean }[] }).__formatters,
    );
    assert.deepEqual(
      formatters.filter((f) => !f.hydrated),
      [],
      'no formatter built before the element took over',
    );
    await page.locator('jobboard-campaigns .back').click();
    await offers(page).first().waitFor();
    assert.doesNotMatch(page.url(), /offer=/);
    await page.close();
  });

  it('applies a filter the candidate chose in the server-rendered list before the script took it over', async () => {
    const page = await world.browser.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/campaigns') asked.push(url.search);
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/widget.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${base}/server-rendered/`, { waitUntil: 'commit' });
    await page.locator('jobboard-campaigns #filter-working_time').selectOption('Full time');
    assert.equal(
      await page.evaluate(() => customElements.get('jobboard-campaigns') === undefined),
      true,
      'chosen before the script ran',
    );
    release();
    await page.waitForURL(/working_time=Full\+time/);
    await page.locator('jobboard-campaigns [part=list][aria-busy="false"] [data-offer]').first().waitFor();
    assert.ok(
      asked.some((search) => new URLSearchParams(search).get('working_time') === 'Full time'),
      `the filtered list was asked for: ${asked.join(' ')}`,
    );
    await page.close();
  });

  it("with JavaScript off, the server-rendered page shows the list and an offer's text", async () => {
    const context = await world.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/server-rendered/`);
    const first = offers(page).first();
    const name = (await first.innerText()).trim();
    assert.ok(name.length > 0);
    assert.ok((await offers(page).count()) >= 5, 'the list is there');
    // A link like any other: the board's server renders the offer's page.
    await first.click();
    await page.waitForURL(/offer=\d+/);
    assert.equal((await title(page).innerText()).trim(), name);
    assert.ok(
      (await page.locator('jobboard-campaigns [part=description]').first().innerText()).trim().length > 50,
      'with its text',
    );
    // The head a shared link previews, from GET /embed/campaigns/head.
    const id = new URL(page.url()).searchParams.get('offer');
    assert.ok((await page.title()).startsWith(`${name} – `), await page.title());
    assert.equal(await page.locator('head meta[property="og:title"]').getAttribute('content'), await page.title());
    assert.equal(
      await page.locator('head link[rel="canonical"]').getAttribute('href'),
      `http://localhost:${new URL(base).port}/server-rendered/?offer=${id}`,
    );
    await context.close();
  });
});
