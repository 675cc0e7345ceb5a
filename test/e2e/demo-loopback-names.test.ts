// The demo's server-rendered board page works by whichever loopback name it
// is opened: at localhost and at 127.0.0.1 an offer of the list opens with its
// apply form (the page's policy lets it fetch from its own origin only). And a
// link the proxy refuses (a place of no offer) still gets the page, with the
// element that fetches the offers itself. Real Chromium, the demo stack over
// real HTTP.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { consoleMessages } from './console-messages.ts';
import { demoWorldPerSuite } from './demo-world.ts';

/** Opens the first offer of the list; answers the refused fetches the page logged meanwhile. */
async function openFirstOffer(page: Page): Promise<string[]> {
  const refused = consoleMessages(page, 'error');
  const first = page.locator('jobboard-campaigns [data-offer]').first();
  await first.waitFor();
  const name = (await first.innerText()).trim();
  await first.click();
  await page.locator('jobboard-campaigns #detail-title', { hasText: name }).waitFor({ timeout: 10_000 });
  await page.locator('jobboard-campaigns jobboard-apply form').waitFor({ timeout: 10_000 });
  return refused;
}

describe("the demo's server-rendered page by either loopback name", () => {
  const world = demoWorldPerSuite('loopback');
  let port: string;

  before(() => {
    port = new URL(world.demo.proxy.url).port;
  });

  for (const host of ['localhost', '127.0.0.1']) {
    it(`at ${host}, an offer of the server-rendered list opens with its apply form`, async () => {
      const page = await world.browser.newPage();
      const response = await page.goto(`http://${host}:${port}/server-rendered/`);
      assert.equal(response?.status(), 200);
      assert.deepEqual(await openFirstOffer(page), [], 'no fetch of the page was refused');
      await page.close();
    });
  }

  it('a link the proxy refuses still gets the page, whose element fetches the offers itself', async () => {
    const page = await world.browser.newPage();
    const response = await page.goto(
      `http://127.0.0.1:${port}/server-rendered/?near=${encodeURIComponent('<b>Atlantis</b>')}`,
    );
    assert.equal(response?.status(), 200);
    assert.equal(await page.locator('main jobboard-campaigns').count(), 1);
    await page.locator('jobboard-campaigns .error-box').waitFor({ timeout: 10_000 });
    await page.close();
  });
});
