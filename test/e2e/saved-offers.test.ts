// Saved offers, as a candidate keeps them on the demo board (its page in
// French): two saved, still there after a reload, then one closed by its
// recruiter and synced by the proxy, shown closed in the saved view with a
// search for similar offers. Real Chromium, the demo stack over real HTTP,
// axe on the list with its toggles and on the saved view.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoWorldPerSuite } from './demo-world.ts';
import { axeViolations } from './axe.ts';
import { focusMatches } from './focus.ts';
import { adminCall } from '../../server/test/sandbox-admin.ts';

describe('saved offers on the demo board', () => {
  const world = demoWorldPerSuite('saved');
  let base: string;

  before(() => {
    base = world.demo.proxy.url;
  });

  it('keeps two saved offers through a reload, lists them, and shows one closed since with the way to similar offers', async () => {
    const page = await world.browser.newPage();
    await page.goto(`${base}/`);
    const toggles = page.locator('jobboard-campaigns .list .save-toggle');
    await toggles.first().waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the list with its toggles');

    const offers = page.locator('jobboard-campaigns .list [part="offer"]');
    const ids = [
      await offers.nth(0).locator('[data-offer]').getAttribute('data-offer'),
      await offers.nth(1).locator('[data-offer]').getAttribute('data-offer'),
    ].map(Number);
    const names = [
      (await offers.nth(0).locator('[data-offer]').innerText()).trim(),
      (await offers.nth(1).locator('[data-offer]').innerText()).trim(),
    ];
    // With the keyboard: the toggle takes the focus and Enter or Space presses it.
    await toggles.nth(0).focus();
    await page.keyboard.press('Enter');
    await toggles.nth(1).focus();
    await page.keyboard.press('Space');
    assert.equal(await toggles.nth(1).getAttribute('aria-pressed'), 'true');
    assert.match(await toggles.nth(1).innerText(), /Sauvegardée/);

    await page.reload();
    await toggles.first().waitFor();
    assert.deepEqual(
      [await toggles.nth(0).getAttribute('aria-pressed'), await toggles.nth(1).getAttribute('aria-pressed')],
      ['true', 'true'],
    );
    const openSaved = page.locator('jobboard-campaigns #saved-open');
    assert.equal((await openSaved.innerText()).trim(), 'Mes offres sauvegardées (2)');

    await openSaved.click();
    const saved = page.locator('jobboard-campaigns section ul.list > li');
    await page.locator('jobboard-campaigns #saved-title').waitFor();
    assert.ok(await focusMatches(page, '#saved-title'), 'the view takes the focus to its heading');
    assert.deepEqual(
      (await saved.locator('[data-offer]').allInnerTexts()).map((t) => t.trim()).sort(),
      [...names].sort(),
    );
    assert.deepEqual(await axeViolations(page), [], 'the saved view');

    // The recruiter closes the first one; the proxy syncs.
    assert.equal(
      (await adminCall(world.demo.sandbox, 'PATCH', `/campaigns/${ids[0]}`, { status: 'archived' })).status,
      200,
    );
    await world.demo.proxy.catalogue.syncNow();
    await page.locator('jobboard-campaigns .back').click();
    await openSaved.click();
    const closed = saved.filter({ has: page.locator('.closed') });
    await closed.waitFor();
    assert.equal(await saved.count(), 2);
    assert.match(await closed.innerText(), new RegExp(names[0]!));
    assert.match(await closed.locator('.closed').innerText(), /Offre pourvue ou fermée/);
    // The closed offer no longer opens; the open one still does.
    assert.equal(await closed.locator('[data-offer]').count(), 0);
    assert.equal(await saved.locator(`[data-offer="${ids[1]}"]`).count(), 1);
    assert.deepEqual(await axeViolations(page), [], 'the saved view with a closed offer');

    // Similar offers: a search by the first word of its title.
    const word = /[\p{L}\p{N}]{3,}/u.exec(names[0]!)![0];
    await closed.getByRole('button', { name: /Voir des offres similaires/ }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === word);
    await offers.first().waitFor();
    assert.equal(await page.locator('jobboard-campaigns #q').inputValue(), word);
    assert.ok(await focusMatches(page, '#count'), 'the focus is on the count of offers found');

    // And it can be removed: one saved offer left.
    await openSaved.click();
    await closed.waitFor();
    await closed.getByRole('button', { name: /Retirer/ }).click();
    await page.waitForFunction(
      () =>
        document.querySelector('jobboard-campaigns')!.shadowRoot!.querySelectorAll('section ul.list > li').length === 1,
    );
    assert.match(await page.locator('jobboard-campaigns section .count').innerText(), /Mes offres sauvegardées \(1\)/);
    await page.close();
  });
});
