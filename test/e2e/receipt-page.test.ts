// The candidate's receipt page in real Chromium, each state reached for real
// (the sandbox as the service, the proxy's delivery and status sync): axe
// finds nothing in English, French and Spanish (landmarks, heading, lang,
// contrast), and the page loads under its own strict CSP without a refusal.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import axe from 'axe-core';
import type { Browser } from 'playwright-core';
import { eventually } from '../../server/test/poll.ts';
import { admin } from '../../server/test/sandbox-admin.ts';
import { launchChromium } from '../chromium.ts';
import { apply, startApplyWorld, validFields } from '../proxy-apply.test-support.ts';
import type { ApplyWorld } from '../proxy-apply.test-support.ts';

interface Violation {
  id: string;
  nodes: { target: unknown }[];
}

describe('the receipt page in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jbc-receipt-e2e-'));
  let world: ApplyWorld;
  let browser: Browser;
  /** Links by state, as the apply answers gave them. */
  const links: Record<'delivered' | 'received' | 'notDelivered' | 'unknown', string> = {
    delivered: '',
    received: '',
    notDelivered: '',
    unknown: '/applications/receipt/AAAAAAAAAAAAAAAAAAAAAAAA',
  };

  before(async () => {
    const labels = join(dir, 'labels.json');
    writeFileSync(
      labels,
      JSON.stringify({ interview: { en: 'Interview planned', fr: 'Entretien prévu', es: 'Entrevista prevista' } }),
    );
    world = await startApplyWorld({
      env: { STATUS_LABELS: labels, DELIVERY_DEADLINE_MS: '1000' },
      statusSync: { intervalMs: 24 * 60 * 60 * 1000 },
    });
    const [open, toClose] = world.openCampaignIds as [number, number];

    // Delivered, and the company's status read: the board maps it.
    const delivered = await apply(world.proxyUrl, { fields: validFields(open) });
    assert.equal(delivered.status, 201);
    links.delivered = String(delivered.body.receipt_url);
    const row = await world.applications.outbox.get(String(delivered.body.reference));
    await admin(world.sandbox, 'PUT', `/applications/${row!.upstream_application_id}/status`, { value: 'interview' });
    await world.applications.statusSync.runOnce();

    // The service failing: received, waiting. Then one whose offer closes before it could be delivered: not delivered.
    await admin(world.sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
    const waiting = await apply(world.proxyUrl, { fields: validFields(open) });
    const refused = await apply(world.proxyUrl, { fields: validFields(toClose) });
    assert.deepEqual([waiting.status, refused.status], [202, 202]);
    links.received = String(waiting.body.receipt_url);
    links.notDelivered = String(refused.body.receipt_url);
    await admin(world.sandbox, 'PATCH', `/campaigns/${toClose}`, { status: 'archived' });
    await admin(world.sandbox, 'POST', '/faults', { count: 0 });
    await eventually(
      async () => (await world.applications.outbox.get(String(refused.body.reference)))?.status === 'dead',
      { timeoutMs: 60_000, what: 'the refused application dead-lettered' },
    );
    // The waiting one is delivered now too: the page of a waiting one is read from another, kept waiting.
    await admin(world.sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
    const stillWaiting = await apply(world.proxyUrl, { fields: validFields(open) });
    assert.equal(stillWaiting.status, 202);
    links.received = String(stillWaiting.body.receipt_url);

    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await admin(world.sandbox, 'POST', '/faults', { count: 0 }).catch(() => {});
    await world?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const lang of ['en', 'fr', 'es']) {
    it(`has no axe violation in any state, in ${lang}`, async () => {
      // CSP bypassed for axe's script only; the refusals of the page's own policy are counted below.
      const context = await browser.newContext({ bypassCSP: true });
      try {
        const page = await context.newPage();
        const headings: Record<string, string> = {};
        for (const [state, link] of Object.entries(links)) {
          const response = await page.goto(`${world.proxyUrl}${link}?lang=${lang}`);
          assert.equal(response?.status(), state === 'unknown' ? 404 : 200, state);
          assert.equal(await page.getAttribute('html', 'lang'), lang);
          headings[state] = (await page.textContent('h1')) ?? '';
          await page.addScriptTag({ content: axe.source });
          const violations = await page.evaluate(async () => {
            const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
              resultTypes: ['violations'],
            });
            return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => ({ target: n.target })) }));
          });
          assert.deepEqual(violations as Violation[], [], `${state}: ${JSON.stringify(violations)}`);
        }
        assert.equal(new Set(Object.values(headings)).size, 4, `four different states: ${JSON.stringify(headings)}`);
        if (lang === 'en') {
          assert.deepEqual(headings, {
            delivered: 'Sent to the company',
            received: 'Application received',
            notDelivered: 'Not delivered',
            unknown: 'Receipt not available',
          });
          await page.goto(`${world.proxyUrl}${links.delivered}?lang=en`);
          const terms = await page.$$eval('dt', (dts) =>
            dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
          );
          const named = Object.fromEntries(terms);
          assert.deepEqual(Object.keys(named), ['Job offer', 'Company', 'Applied on', 'Status']);
          assert.equal(named.Status, 'Interview planned');
          assert.ok(named['Job offer'], 'the offer is named');
        }
      } finally {
        await context.close();
      }
    });
  }

  it('is shown under its own strict CSP with nothing refused', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const refusals: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
      });
      await page.goto(`${world.proxyUrl}${links.delivered}`);
      // The style applied: the heading's color is the page's, not the browser's default black.
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).color), 'rgb(26, 26, 26)');
      assert.deepEqual(refusals, []);
    } finally {
      await context.close();
    }
  });
});
