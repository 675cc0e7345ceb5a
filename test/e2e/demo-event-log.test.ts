// The demo page's event log (server/demo-page/index.html), filled by the widget's
// real events: each line wraps inside the log's box (an event's JSON has no
// space to break at), and axe finds nothing wrong with the log in Chromium.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import axe from 'axe-core';
import { fillAndSend } from './apply-form.ts';
import { demoWorldPerSuite, writeResume } from './demo-world.ts';

describe("the demo page's event log", () => {
  const world = demoWorldPerSuite('event-log');

  it('wraps the events it shows inside its box, and axe finds no violation in it', async () => {
    // CSP bypassed for axe's script only.
    const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(world.demo.proxy.url + '/');
      // A candidate applies: jobboard-campaign-select, -apply-submit, -upload-progress and -apply-success lines,
      // whose JSON ({"campaignId":…,"status":"delivered"}) has no space to break at.
      const resume = await writeResume(world.dir);
      await page.locator('jobboard-campaigns [data-offer]').first().click();
      await page.locator('jobboard-apply form').waitFor();
      await fillAndSend(page, { email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', resume });
      await page.locator('#events li', { hasText: 'jobboard-apply-success' }).waitFor();
      const sizes = await page.$$eval('#events, #events li', (elements) =>
        elements.map((el) => ({
          text: el.textContent?.slice(0, 80),
          scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
        })),
      );
      assert.ok(sizes.length >= 5, `the log shows the events: ${JSON.stringify(sizes)}`);
      for (const size of sizes)
        assert.ok(size.scrollWidth <= size.clientWidth, `overflows its box: ${JSON.stringify(size)}`);

      await page.addScriptTag({ content: axe.source });
      const violations = await page.evaluate(async () => {
        const result = await (window as unknown as { axe: typeof axe }).axe.run(
          { include: [['aside']] },
          { resultTypes: ['violations'] },
        );
        return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
      });
      assert.deepEqual(violations, []);
    } finally {
      await context.close();
    }
  });
});
