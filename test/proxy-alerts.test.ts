// Alerts handed to the board's mailing (ALERTS=webhook), through the real
// proxy on each store: POST /api/alerts records one signed alert.requested
// event that the board's receiver (standardwebhooks) gets once; once
// delivered, the proxy keeps neither the email nor the search; an erasure
// before delivery means the event is never sent; a bad body is a 422 naming
// each field; with ALERTS=feed the route is a 404 problem.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../server/test/poll.ts';
import type { WebhookEventRow } from '../server/proxy/storage/index.ts';
import { ALERT_EVENT_TYPE } from '../server/public-api/webhook-events.ts';
import { BOARD_ORIGIN, applyWorldPerSuite, runOutboxCommand, uniqueEmail } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { SQLITE_STORE, postgresStore } from './proxy-stores.ts';
import { withEnv } from './in-process-command.ts';
import { RECEIVER_SECRET, startReceiver } from './webhook-receiver.ts';
import type { Receiver } from './webhook-receiver.ts';

const BOARD_OFFER_URL = 'https://jobs.board.example/offers?offer={id}';

function postAlert(world: ApplyWorld, body: unknown): Promise<Response> {
  return fetch(`${world.proxyUrl}/api/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BOARD_ORIGIN },
    body: JSON.stringify(body),
  });
}

async function alertRows(world: ApplyWorld): Promise<WebhookEventRow[]> {
  return (await world.applications.outbox.webhooks.list()).filter((row) => row.type === ALERT_EVENT_TYPE);
}

const search = { q: 'développeur', city: 'Lyon', per_page: 10 };

for (const store of [SQLITE_STORE, await postgresStore()]) {
  describe(`alerts handed to the board's mailing, on ${store.name}`, { skip: store.skip }, () => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    const env = (): Record<string, string> => ({
      ...store.env,
      ALERTS: 'webhook',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: RECEIVER_SECRET,
      BOARD_OFFER_URL,
    });
    const world = applyWorldPerSuite(() => ({ env: env() }));
    after(() => receiver?.close());

    it('says in /api/config that the hand-off is on', async () => {
      const config = (await (await fetch(`${world().proxyUrl}/api/config`)).json()) as { alerts: unknown };
      assert.deepEqual(config.alerts, { feed: true, email: true });
    });

    it('refuses a bad alert with 422, naming each field, and records nothing', async () => {
      const before = (await alertRows(world())).length;
      const answer = await postAlert(world(), {
        email: 'not-an-address',
        consent: false,
        search: { salary_min: -1, job_type: 'astronaut' },
        lang: 'de',
      });
      assert.equal(answer.status, 422);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const problem = (await answer.json()) as { code: string; errors: { field: string; code: string }[] };
      assert.equal(problem.code, 'validation_failed');
      const fields = Object.fromEntries(problem.errors.map((e) => [e.field, e.code]));
      assert.deepEqual(fields, {
        email: 'invalid_email',
        consent: 'consent_required',
        'search.job_type': 'invalid_value',
        'search.salary_min': 'invalid_value',
        lang: 'invalid_value',
      });
      const missing = await postAlert(world(), { search: {} });
      const missingFields = ((await missing.json()) as { errors: { field: string; code: string }[] }).errors;
      assert.deepEqual(
        missingFields.map((e) => `${e.field}:${e.code}`),
        ['email:required', 'consent:consent_required'],
      );
      assert.equal((await alertRows(world())).length, before);
    });

    it('records one alert.requested, which the receiver gets once, signed; delivered, the proxy keeps no email nor search', async () => {
      const email = uniqueEmail('alert');
      const answer = await postAlert(world(), { email, consent: true, search, lang: 'fr' });
      assert.equal(answer.status, 202, await answer.clone().text());
      const feedUrl = '/feeds/offers.atom?city=Lyon&per_page=10&q=d%C3%A9veloppeur&lang=fr';
      assert.deepEqual(await answer.json(), { status: 'requested', feed_url: feedUrl });

      await eventually(async () => (await alertRows(world())).some((r) => r.status === 'delivered'), {
        timeoutMs: 10_000,
        what: 'the alert event delivered',
      });
      const mine = receiver.alerts.filter((a) => a.event.data.email === email);
      assert.equal(mine.length, 1, 'the receiver got the alert once');
      const { data } = mine[0]!.event;
      assert.deepEqual(data.search, { params: search, feed_url: feedUrl });
      assert.equal(data.lang, 'fr');
      assert.ok(Math.abs(Date.parse(data.requested_at) - Date.now()) < 60_000);
      assert.equal(receiver.refused, 0);

      const [row] = (await alertRows(world())).filter((r) => r.id === mine[0]!.id);
      assert.ok(row, 'the delivered event is still listed (that it was sent)');
      assert.equal(row.status, 'delivered');
      assert.equal(row.has_candidate, false, 'no email kept');
      assert.equal(row.payload, '', 'no search kept');

      // The feed the event names serves the search's offers, as Atom.
      const feed = await fetch(`${world().proxyUrl}${feedUrl}`);
      assert.equal(feed.status, 200);
      assert.match(feed.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    });

    it('an erasure by email before delivery: the alert is never sent, and nothing of it is kept', async () => {
      const email = uniqueEmail('erased-alert');
      receiver.up = false;
      try {
        assert.equal((await postAlert(world(), { email, consent: true, search, lang: 'en' })).status, 202);
        await eventually(async () => (await alertRows(world())).some((r) => r.status === 'pending' && r.attempts > 0), {
          timeoutMs: 10_000,
          what: 'a first attempt, refused by the receiver (down)',
        });
        const output = await withEnv(env(), () =>
          runOutboxCommand(['erase', '--email', email, '--data-dir', world().config.dataDir]),
        );
        assert.match(output, /webhook events: 1 /);
      } finally {
        receiver.up = true;
      }
      // A later alert arrives: the sender has run since, and the erased one was not among what it sent.
      const later = uniqueEmail('later-alert');
      assert.equal((await postAlert(world(), { email: later, consent: true, search, lang: 'en' })).status, 202);
      await eventually(() => receiver.alerts.some((a) => a.event.data.email === later), {
        timeoutMs: 10_000,
        what: 'the later alert at the receiver',
      });
      assert.equal(receiver.alerts.filter((a) => a.event.data.email === email).length, 0);
      const erased = (await alertRows(world())).filter((r) => r.status === 'failed');
      assert.equal(erased.length, 1);
      assert.equal(erased[0]!.has_candidate, false);
      assert.equal(erased[0]!.payload, '');
      assert.match(erased[0]!.last_error ?? '', /erased/);
    });
  });
}

describe('alerts without the hand-off (ALERTS=feed, the default)', () => {
  const world = applyWorldPerSuite({ env: { BOARD_OFFER_URL } });

  it('answers POST /api/alerts with a 404 problem, and /api/config says so', async () => {
    const answer = await postAlert(world(), { email: 'jane@example.com', consent: true, search: {}, lang: 'en' });
    assert.equal(answer.status, 404);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(((await answer.json()) as { code: string }).code, 'alerts_not_configured');
    const config = (await (await fetch(`${world().proxyUrl}/api/config`)).json()) as { alerts: unknown };
    assert.deepEqual(config.alerts, { feed: true, email: false });
  });
});
