// The tests' Chromium (test/chromium.ts) runs without the features it names,
// Playwright's included: Chromium applies only the last --disable-features
// of its command line, read back here from the running browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium } from './chromium.ts';

test("the tests' Chromium runs without the address bar's web popup and without every feature Playwright turns off", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto('chrome://version');
    const commandLine = await page.locator('#command_line').textContent();
    const lists = [...(commandLine ?? '').matchAll(/--disable-features=(\S*)/g)].map((m) => m[1]!.split(','));
    assert.ok(lists.length > 0, `no --disable-features in the command line: ${commandLine}`);
    const applied = new Set(lists.at(-1));
    for (const feature of ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'])
      assert.ok(applied.has(feature), `${feature} is not disabled`);
    const dropped = lists
      .slice(0, -1)
      .flat()
      .filter((feature) => !applied.has(feature));
    assert.deepEqual(
      dropped,
      [],
      'features an earlier --disable-features names, which the last one replaces: add them to test/chromium.ts',
    );
  } finally {
    await browser.close();
  }
});
