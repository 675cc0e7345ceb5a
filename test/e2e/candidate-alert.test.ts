// End to end, as a candidate: on the demo board, a search, then "Create an
// alert". The panel's feed URL serves that search's offers as Atom (the
// same offers as the list shows, in its order). With the hand-off on
// (ALERTS=webhook), the board's receiver (standardwebhooks) gets nothing
// while the confirmation step is shown, and one signed alert.requested once
// the candidate confirms. axe finds nothing wrong with the panel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { eventually } from '../../server/test/poll.ts';
import { ALERT_EVENT_TYPE } from '../../server/public-api/webhook-events.ts';
import { RECEIVER_SECRET, startReceiver } from '../webhook-receiver.ts';
import type { Receiver } from '../webhook-receiver.ts';
import { axeViolations } from './axe.ts';
import { startDemoWorld } from './demo-world.ts';
import type { DemoWorld } from './demo-world.ts';

/** The offers' ids of an Atom feed, in its order (each entry's id ends with :offer:<id>). */
function feedOfferIds(atom: string): number[] {
  return [...atom.matchAll(/<entry>[\s\S]*?<id>[^<]*:offer:(\d+)<\/id>[\s\S]*?<\/entry>/g)].map((m) => Number(m[1]));
}

async function shownOfferIds(page: Page): Promise<number[]> {
  const ids = await page
    .locator('jobboard-campaigns [part="offer"] [data-offer]')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-offer'))));
  return ids;
}

describe('a candidate creates an alert from a search', () => {
  let receiver: Receiver;
  let world: DemoWorld;
  before(async () => {
    receiver = await startReceiver();
    world = await startDemoWorld('alert', {
      ALERTS: 'webhook',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: RECEIVER_SECRET,
    });
  });
  after(async () => {
    await world?.close();
    await receiver?.close();
  });

  it("shows the search's feed, which lists its offers as Atom; sends one signed alert.requested only once confirmed", async () => {
    // axe is a script of the test's: the page's own policy would refuse it.
    const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${world.demo.proxy.url}/`);
    await page.locator('jobboard-campaigns [part="offer"]').first().waitFor();
    await page.locator('jobboard-campaigns #q').fill('designer');
    await page.keyboard.press('Enter');
    await page
      .locator('jobboard-campaigns [part="offer"]', { hasNotText: /designer/i })
      .first()
      .waitFor({ state: 'hidden' });
    const shown = await shownOfferIds(page);
    assert.ok(shown.length > 0, 'the search finds offers');

    // The demo board's page is in French.
    assert.equal((await page.locator('jobboard-alert #alert-toggle').textContent())?.trim(), 'Créer une alerte');
    await page.locator('jobboard-alert #alert-toggle').click();
    assert.equal(await page.locator('jobboard-alert #alert-toggle').getAttribute('aria-expanded'), 'true');
    const feedUrl = await page.locator('jobboard-alert #feed-url').inputValue();
    assert.equal(await page.locator('jobboard-alert a[href]').getAttribute('href'), feedUrl);
    const feedAddress = new URL(feedUrl);
    assert.equal(feedAddress.pathname, '/feeds/offers.atom');
    assert.equal(feedAddress.searchParams.get('q'), 'designer');

    // The feed: Atom, the search's offers, as the list has them.
    const feed = await fetch(feedUrl);
    assert.equal(feed.status, 200);
    assert.match(feed.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    const atom = await feed.text();
    assert.match(atom, /<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/);
    const listQuery = new URLSearchParams(feedAddress.search);
    listQuery.delete('lang');
    const list = (await (await fetch(`${world.demo.proxy.url}/api/campaigns?${listQuery}`)).json()) as {
      items: { id: number }[];
    };
    assert.deepEqual(
      feedOfferIds(atom),
      list.items.map((c) => c.id),
    );
    assert.deepEqual(feedOfferIds(atom), shown);

    assert.deepEqual(await axeViolations(page), [], 'the panel open, with its feed and form');

    // The email: typed, consented, then the confirmation step, where nothing is sent yet.
    const email = 'alert-candidate@example.com';
    await page.locator('jobboard-alert #alert-email').fill(email);
    await page.locator('jobboard-alert #alert-consent').check();
    await page.locator('jobboard-alert button[type="submit"]').click();
    await page.locator('jobboard-alert #confirm-title').waitFor();
    assert.match((await page.locator('jobboard-alert .confirm').textContent()) ?? '', new RegExp(email));
    assert.deepEqual(await axeViolations(page), [], 'the confirmation step');
    // Three polls of the webhook sender (one a second) pass: nothing recorded, nothing received.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const recorded = await world.demo.proxy.applications.outbox.webhooks.list();
    assert.deepEqual(
      recorded.filter((row) => row.type === ALERT_EVENT_TYPE),
      [],
      'nothing recorded before confirmation',
    );
    assert.equal(receiver.alerts.length, 0, 'nothing received before confirmation');

    await page.locator('jobboard-alert #alert-confirm').click();
    await page.locator('jobboard-alert #alert-done').waitFor();
    assert.match(
      (await page.locator('jobboard-alert #confirm-title, jobboard-alert #alert-done').first().textContent()) ?? '',
      /Alerte créée/,
    );
    await eventually(() => receiver.alerts.length > 0, { timeoutMs: 15_000, what: 'the alert at the receiver' });
    // A second one would come within the sender's next polls.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(receiver.alerts.length, 1, 'exactly one alert.requested');
    assert.equal(receiver.refused, 0, 'every request verified (standardwebhooks)');
    const { data } = receiver.alerts[0]!.event;
    assert.equal(data.email, email);
    assert.equal(data.lang, 'fr');
    assert.equal(feedAddress.searchParams.get('lang'), 'fr');
    assert.equal(data.search.params.q, 'designer');
    assert.equal(new URL(data.search.feed_url, feedUrl).href, feedUrl);
    await context.close();
  });
});
