// A board page that fixes a filter (a contract type's page): the proxy renders
// the fragment with the preset (GET /embed/campaigns?preset_job_type=…), the
// script takes it over as it is, and the candidate's searches keep the preset.
// Real Chromium, the demo stack over real HTTP.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoWorldPerSuite } from './demo-world.ts';

describe('a board page with a preset filter, rendered on its server', () => {
  const world = demoWorldPerSuite('preset');

  it('hydrates the preset list without flipping it or asking again, hides the fixed filter, and keeps the preset in later searches', async () => {
    const base = world.demo.proxy.url;
    const { facets } = (await (await fetch(`${base}/api/campaigns`)).json()) as { facets: { job_types: string[] } };
    const jobType = facets.job_types[0]!;
    const fragment = await (
      await fetch(`${base}/embed/campaigns?preset_job_type=${encodeURIComponent(jobType)}`)
    ).text();
    const page = await world.browser.newPage();
    // The board's page, on the proxy's origin (as the demo's own pages are).
    await page.route(`${base}/preset-board/`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><body><script type="module" src="/widget.js"></script><main>${fragment}</main></body></html>`,
      }),
    );
    // The script comes late, so the server's elements are surely there before it runs.
    await page.route('**/widget.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    await page.addInitScript({
      content: `(function mark() {
        const offers = document.querySelector('jobboard-campaigns')?.shadowRoot?.querySelectorAll('[data-offer]') ?? [];
        if (offers.length > 0 && !customElements.get('jobboard-campaigns')) offers.forEach((o) => { o.dataset.fromServer = 'yes'; });
        else if (offers.length === 0) requestAnimationFrame(mark);
      })();`,
    });
    const asked: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/campaigns')) asked.push(url);
    });
    await page.goto(`${base}/preset-board/`);
    await page.waitForFunction(() => customElements.get('jobboard-campaigns') !== undefined);
    await page.evaluate(
      () =>
        (document.querySelector('jobboard-campaigns') as unknown as { updateComplete: Promise<boolean> })
          .updateComplete,
    );
    const offers = page.locator('jobboard-campaigns [data-offer]');
    const count = await offers.count();
    assert.ok(count > 0);
    assert.equal(
      await page.locator('jobboard-campaigns [data-offer][data-from-server="yes"]').count(),
      count,
      'the offers the server rendered are still the ones shown',
    );
    assert.equal(asked.length, 0, 'the list was not fetched again');
    assert.equal(await page.locator('jobboard-campaigns #filter-job_type').count(), 0, 'the fixed filter is not shown');
    assert.equal(await page.locator('jobboard-campaigns').getAttribute('job-type'), jobType);

    await page.locator('jobboard-campaigns #q').fill('a');
    const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/campaigns');
    await page.locator('jobboard-campaigns #q').press('Enter');
    await sent;
    assert.equal(asked.at(-1)?.searchParams.get('job_type'), jobType, 'the search keeps the preset');
    assert.equal(new URL(page.url()).searchParams.has('job_type'), false, 'the preset stays out of the page URL');
    await page.close();
  });

  it("finds the demo's offers near a city, through the sync of the seeded positions", async () => {
    const base = world.demo.proxy.url;
    const near = (await (await fetch(`${base}/api/campaigns?near=lyon&radius_km=10&per_page=50`)).json()) as {
      items: { city: string }[];
    };
    assert.ok(near.items.length > 0);
    assert.deepEqual([...new Set(near.items.map((c) => c.city))], ['Lyon']);
  });
});
