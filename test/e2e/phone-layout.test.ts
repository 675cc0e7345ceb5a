// The demo board on a phone (390 × 844, touch) in French, with the built
// widget: offers in the first screen with the filters folded behind one
// button, radius choices in order, and on an open offer an "Apply" button by
// its title and one at the bottom while the form is off screen.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { startDemoWorld } from './demo-world.ts';
import { focusMatches } from './focus.ts';
import { PHONE } from './phone-apply.ts';
import type { DemoWorld } from './demo-world.ts';

const inWidget = (page: Page, selector: string) => page.locator(`jobboard-campaigns ${selector}`);

describe('the demo board on a phone', () => {
  let world: DemoWorld;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    world = await startDemoWorld('phone');
    context = await world.browser.newContext(PHONE);
  });
  after(async () => {
    await context?.close();
    await world?.close();
  });

  it('shows an offer in the first screen, the filters folded behind "Filtres (n)" counting those in use', async () => {
    page = await context.newPage();
    await page.goto(`${world.demo.proxy.url}/?working_time=Full+time&salary_min=1000`);
    const firstOffer = inWidget(page, '[part=offer]').first();
    await firstOffer.waitFor();
    const box = (await firstOffer.boundingBox())!;
    assert.ok(box.y + 40 < PHONE.viewport.height, `the first offer starts at ${box.y} px, in the first screen`);
    assert.equal(await inWidget(page, '#filter-working_time').isVisible(), false, 'the filters are folded');
    const toggle = inWidget(page, '.filters-toggle');
    assert.equal((await toggle.innerText()).trim(), 'Filtres (2)');
    assert.equal(await inWidget(page, '#q').isVisible(), true, 'the keywords stay');

    await toggle.tap();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await inWidget(page, '#filter-working_time').isVisible(), true, 'a tap unfolds them');
    const radii = await inWidget(page, '#filter-radius_km option').allInnerTexts();
    assert.deepEqual(radii, ['10 km', '25 km', '50 km', '100 km']);
    await page.close();
  });

  it('takes the candidate to the form from "Postuler" by the title, and keeps one at the bottom while the form is off screen', async () => {
    page = await context.newPage();
    await page.goto(`${world.demo.proxy.url}/`);
    await inWidget(page, '[data-offer]').first().tap();
    await inWidget(page, '#detail-title').waitFor();
    const sticky = inWidget(page, '.apply-sticky button');
    await sticky.waitFor({ state: 'visible' });
    assert.equal((await sticky.innerText()).trim(), 'Postuler');
    const byTitle = inWidget(page, '.detail-head button');
    assert.equal((await byTitle.innerText()).trim(), 'Postuler');

    await byTitle.tap();
    assert.ok(await focusMatches(page, '#apply-title'), 'the apply form’s heading has the focus');
    await sticky.waitFor({ state: 'hidden' });
    const consent = page.locator('jobboard-apply label[for=consent]');
    await consent.waitFor();
    assert.match(await consent.innerText(), /\S \(obligatoire\)$/, 'the consent and its mark apart');
    await page.close();
  });
});
