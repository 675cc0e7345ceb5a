// Quick apply on a phone, end to end with the built widget and the demo
// stack: a first application with "remember me" ticked, then a second offer
// opens with the candidate's details and resume, and is sent in at most four
// taps. How long each takes is the phone bench's (`npm run bench -- phone`).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { demoWorldPerSuite, writeResume } from './demo-world.ts';
import { Phone, applyOnPhone, offerPages } from './phone-apply.ts';

/** axe on the whole page, the widget's shadow roots included: the violations of this screen, by rule and element. */
async function axeViolations(page: Page, screen: string, found: string[]): Promise<void> {
  await page.addScriptTag({ content: axe.source });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}`));
  });
  found.push(...violations.map((v) => `${screen}: ${v}`));
}

describe('quick apply on a phone', () => {
  const world = demoWorldPerSuite('phone-quick-apply');

  it('sends a second application in at most 4 taps, with the details and resume of the first, axe finding nothing on the way', async () => {
    const [first, second] = await offerPages(world.demo.proxy.url, 2);
    const candidate = {
      email: 'camille.phone@example.org',
      firstName: 'Camille',
      lastName: 'Martin',
      resume: await writeResume(world.dir, 'Camille Martin, UX designer'),
    };
    const phone = await Phone.open(world.browser, true);
    const violations: string[] = [];
    const audit = (page: Page, screen: string) => axeViolations(page, screen, violations);
    try {
      const once = await applyOnPhone(phone, first!, candidate, true, audit);
      assert.ok(once.taps > 4, `the first application takes the taps of a whole form (${once.taps})`);
      const again = await applyOnPhone(phone, second!, candidate, false, audit);
      assert.match(again.quickApply ?? '', /Postuler avec mes informations \(Camille M\., cv\.pdf\)/);
      assert.ok(again.taps <= 4, `the second application took ${again.taps} taps`);
      assert.deepEqual(violations, [], 'axe finds no violation on any screen of the way');
    } finally {
      await phone.close();
    }
  });
});
