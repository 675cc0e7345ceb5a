// The webhook events' contract, on SQLite and on PostgreSQL alike: each
// event is written by the transaction of the change it reports, claimed in
// order per application under a fenced lease, retried with backoff and
// failed after three days by the sender (posting to a real local receiver),
// purged once delivered and older than asked.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, it } from 'node:test';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Webhook } from 'standardwebhooks';
import { NO_CAMPAIGN } from '../outbox/application-store.ts';
import { ApplicationEvent } from '../../../public-api/webhook-events.ts';
import { emailBucket } from '../../applications/form.ts';
import { DEFAULT_WEBHOOK_SENDER, WebhookSender, retryDelay } from '../../webhooks/sender.ts';
import type { ApplicationStore } from '../outbox/application-store.ts';
import { attemptEnds, claimed, endedTwice, forEachStore, newApplication } from '../test-support.ts';
import type { StoreHarness } from '../test-support.ts';
import { WEBHOOK_RETRY_FOR_MS, WebhookLeaseLostError } from './webhook-store.ts';
import type { ClaimedEvent } from './webhook-store.ts';
import { HOUR } from '../../../test/time.ts';

const LEASE = 60_000;
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

/** Makes every insert into webhook_events fail (a trigger), as a full disk or a lost connection could. */
async function refuseEvents(harness: StoreHarness, dir: string): Promise<void> {
  if (harness.name === 'SQLite') {
    const db = new DatabaseSync(join(dir, 'outbox.db'));
    db.exec(
      "CREATE TRIGGER refuse_events BEFORE INSERT ON webhook_events BEGIN SELECT RAISE(ABORT, 'events refused'); END",
    );
    db.close();
    return;
  }
  await harness
    .pool()!
    .query(
      `CREATE OR REPLACE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'events refused'; END $$`,
    );
  await harness
    .pool()!
    .query(
      'CREATE TRIGGER refuse_events BEFORE INSERT ON webhook_events FOR EACH ROW EXECUTE FUNCTION refuse_events()',
    );
}
/** A receiver on this machine that answers each POST with the next status of `statuses` (then 204), verifying every signature. */
async function receiver(statuses: number[] = []) {
  const received: { id: string; body: unknown }[] = [];
  const verifier = new Webhook(SECRET);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      // A forged or stale signature is answered 401: the sender's attempt then fails, and the test with it.
      try {
        received.push({ id: headers['webhook-id']!, body: verifier.verify(raw, headers) });
      } catch {
        res.writeHead(401).end('bad signature');
        return;
      }
      res.writeHead(statuses.shift() ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

forEachStore('webhook events contract', (harness) => {
  let dir: string;
  let now: number;
  let store: ApplicationStore;
  const open = (owner: string, includeCandidate = false) => harness.open(owner, dir, () => now, { includeCandidate });
  const types = async (s = store) => (await s.webhooks.list()).map((e) => `${e.reference}:${e.seq}:${e.type}`);
  const due = async (s = store) => (await s.webhooks.claimDue(10, LEASE)).map((e) => `${e.reference}:${e.type}`);

  const application = (reference: string, email?: string) => newApplication(reference, { resumeIn: dir, email });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-webhooks-'));
    now = Date.UTC(2026, 0, 1);
    await harness.reset(dir);
    // The database outlives a test: the trigger of the test that refused events goes.
    await harness.pool()?.query('DROP TRIGGER IF EXISTS refuse_events ON webhook_events');
    store = await open('process-1');
  });
  afterEach(() => store.close());

  it('records application.received with the application stored, its key and times, and no candidate unless asked', async () => {
    await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000, key: 'key-1' });
    const [event] = await store.webhooks.claimDue(10, LEASE);
    assert.ok(event);
    assert.match(event.id, /^msg_[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(ApplicationEvent.parse(JSON.parse(event.body)), {
      type: 'application.received',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: {
        reference: 'app-1',
        idempotency_key: 'key-1',
        campaign_id: 12,
        company_id: 3,
        kind: 'offer',
        created_at: '2026-01-01T00:00:00.000Z',
      },
    });
    assert.equal(event.has_candidate, false);
  });

  it('tells a spontaneous application by its kind, with no offer (campaign_id null), through delivery', async () => {
    await store.enqueue({ ...application('spont-1'), campaign_id: NO_CAMPAIGN }, { deadLetterAfterMs: 1000 });
    const seen: unknown[] = [];
    const [received] = await store.webhooks.claimDue(10, LEASE);
    await store.webhooks.markDelivered(received!);
    await store.markDelivered(await claimed(store, 'spont-1'), 'created_applicant', {});
    const [delivered] = await store.webhooks.claimDue(10, LEASE);
    for (const event of [received, delivered]) {
      const { type, data } = ApplicationEvent.parse(JSON.parse(event!.body));
      seen.push([type, data.campaign_id, data.company_id, data.kind]);
    }
    assert.deepEqual(seen, [
      ['application.received', null, 3, 'spontaneous'],
      ['application.delivered', null, 3, 'spontaneous'],
    ]);
  });

  it('puts the candidate in the events only with includeCandidate, and only while the row holds it', async () => {
    await store.close();
    store = await open('process-1', true);
    await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
    const [received] = await store.webhooks.claimDue(10, LEASE);
    assert.deepEqual(JSON.parse(received!.body).data.candidate, {
      email: 'ada@example.org',
      first_name: 'Ada',
      cover_letter: 'Hello',
    });
    await store.webhooks.markDelivered(received!);
    assert.equal(
      (await store.webhooks.get(received!.id))?.has_candidate,
      false,
      'the candidate leaves a delivered event',
    );
    // The delivery drops the row's personal data; its event still tells the candidate it carried.
    await store.markDelivered(await claimed(store, 'app-1'), 'created_applicant', { applicationId: 8 });
    const [delivered] = await store.webhooks.claimDue(10, LEASE);
    assert.equal(JSON.parse(delivered!.body).data.candidate.email, 'ada@example.org');
    assert.equal(JSON.parse(delivered!.body).data.upstream_application_id, 8);
  });

  it('records nothing when the store is opened without webhook events (WEBHOOK_URL unset)', async () => {
    const quiet = await harness.open('process-2', dir, () => now, undefined);
    await quiet.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
    await quiet.markDelivered(await claimed(quiet, 'app-1'), 'created_applicant', {});
    assert.equal(quiet.webhooks.recording, false);
    assert.deepEqual(await types(quiet), []);
    assert.equal(await quiet.webhooks.record('app-1', 'application.status_changed', { status: 'hired' }), false);
    await quiet.close();
  });

  it('records each change of the row as its event: delivered, rejected, dead-lettered, refused, erased, and a status change on request', async () => {
    for (const ref of ['a', 'b', 'c', 'd', 'e'])
      await store.enqueue(application(ref, `${ref}@example.org`), { deadLetterAfterMs: 1000 });
    await store.markDelivered(await claimed(store, 'a'), 'created_applicant', {});
    await store.markRejected(await claimed(store, 'b'), 'upstream_rejected', 'refused');
    await store.markDead(await claimed(store, 'c'), 'expired', 'too late');
    await store.setAnswered('d', 202);
    assert.equal(await store.markRefused(await claimed(store, 'd'), 'campaign_closed', 'closed'), 'dead');
    await store.eraseByEmail('e@example.org', emailBucket('e@example.org'));
    assert.equal(await store.webhooks.record('a', 'application.status_changed', { status: 'hired' }), true);
    assert.equal(await store.webhooks.record('nobody', 'application.status_changed', { status: 'hired' }), false);
    // The retention period erases the dead ones' data: told as well.
    now += 2 * 60 * 60 * 1000;
    assert.deepEqual((await store.eraseExpiredPersonalData(60 * 60 * 1000)).sort(), ['c', 'd']);
    assert.deepEqual((await types()).sort(), [
      'a:1:application.received',
      'a:2:application.delivered',
      'a:3:application.status_changed',
      'b:1:application.received',
      'b:2:application.rejected',
      'c:1:application.received',
      'c:2:application.dead_lettered',
      'c:3:application.erased',
      'd:1:application.received',
      'd:2:application.dead_lettered',
      'd:3:application.erased',
      'e:1:application.received',
      'e:2:application.erased',
    ]);
    const events = await store.webhooks.list();
    const body = (ref: string, seq: number) =>
      ApplicationEvent.parse(JSON.parse(events.find((e) => e.reference === ref && e.seq === seq)!.payload));
    assert.equal(body('a', 3).data.status, 'hired');
    assert.equal(body('b', 2).data.outcome, 'upstream_rejected');
    assert.equal(body('c', 2).data.ended_at, '2026-01-01T00:00:00.000Z');
    assert.equal(body('e', 2).data.outcome, 'erased');
    assert.equal(body('e', 2).data.erased_at, '2026-01-01T00:00:00.000Z');
  });

  it('records one event for an end its attempt writes twice: the second write changes nothing and is not refused', async () => {
    for (const ref of ['a', 'b', 'c', 'd']) await store.enqueue(application(ref), { deadLetterAfterMs: 1000 });
    await store.setAnswered('d', 202);
    const ends = attemptEnds(store);
    await endedTwice(store, { a: ends.delivered, b: ends.rejected, c: ends.dead, d: ends.refused });
    assert.deepEqual((await types()).sort(), [
      'a:1:application.received',
      'a:2:application.delivered',
      'b:1:application.received',
      'b:2:application.rejected',
      'c:1:application.received',
      'c:2:application.dead_lettered',
      'd:1:application.received',
      'd:2:application.dead_lettered',
    ]);
  });

  it('writes an event in the transaction of its change: when the event cannot be written, the change is not either', async () => {
    await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
    const lease = await claimed(store, 'app-1');
    await refuseEvents(harness, dir);
    await assert.rejects(store.markDelivered(lease, 'created_applicant', {}), /events refused/);
    assert.equal((await store.get('app-1'))?.status, 'delivering', 'the delivery was not recorded without its event');
    await assert.rejects(store.enqueue(application('app-2'), { deadLetterAfterMs: 1000 }), /events refused/);
    assert.equal(await store.get('app-2'), undefined, 'the application was not stored without its event');
  });

  it('records no event for a write whose lease was lost', async () => {
    await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
    const stale = await claimed(store, 'app-1');
    now += LEASE + 1;
    await store.recoverLeases();
    await assert.rejects(store.markDelivered(stale, 'created_applicant', {}));
    assert.deepEqual(await types(), ['app-1:1:application.received']);
  });

  it("hands out an application's events in order: the next only once the earlier is delivered or failed", async () => {
    await store.enqueue(application('a'), { deadLetterAfterMs: 1000 });
    await store.enqueue(application('b'), { deadLetterAfterMs: 1000 });
    await store.markDelivered(await claimed(store, 'a'), 'created_applicant', {});
    await store.markRejected(await claimed(store, 'b'), 'upstream_rejected', 'no');
    const first = await store.webhooks.claimDue(10, LEASE);
    assert.deepEqual(first.map((e) => `${e.reference}:${e.type}`).sort(), [
      'a:application.received',
      'b:application.received',
    ]);
    assert.deepEqual(await due(), [], 'the later events wait for the earlier ones');
    const [a, b] = first.sort((x, y) => x.reference.localeCompare(y.reference));
    // A retried event still holds its application's line.
    await store.webhooks.markRetry(a!, now, 'HTTP 500');
    await store.webhooks.markFailed(b!, 'HTTP 500');
    assert.deepEqual((await due()).sort(), ['a:application.received', 'b:application.rejected']);
  });

  it("fences its leases: one claim at a time, taken back once run out, and the old claimer's writes refused", async () => {
    await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
    const [event] = await store.webhooks.claimDue(10, LEASE);
    const other = await open('process-2');
    assert.deepEqual(await due(other), [], 'a held event is not claimed again');
    now += LEASE / 2;
    assert.equal(await store.webhooks.renewLease(event!, LEASE), true);
    now += LEASE / 2;
    // By its own process (another process's lease is a gone one's on SQLite, whose file has one process).
    assert.equal(await store.webhooks.recoverLeases(), 0, 'a renewed lease is not taken back when its first term ends');
    now += LEASE;
    assert.equal(await store.webhooks.recoverLeases(), 1);
    const [again] = await other.webhooks.claimDue(10, LEASE);
    assert.equal(again?.id, event!.id, 'the same webhook-id, so the board can skip a duplicate');
    assert.equal(again?.attempts, 2);
    assert.equal(await store.webhooks.renewLease(event!, LEASE), false);
    await assert.rejects(store.webhooks.markDelivered(event!), WebhookLeaseLostError);
    await assert.rejects(store.webhooks.markRetry(event!, now, 'x'), WebhookLeaseLostError);
    await other.webhooks.markDelivered(again!);
    assert.equal((await store.webhooks.get(event!.id))?.status, 'delivered');
    await other.close();
  });

  it('backs off: a retried event is due again only at its time, 10 s then doubling, at most 6 h apart', async () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => retryDelay(n, DEFAULT_WEBHOOK_SENDER)),
      [10_000, 20_000, 40_000, 80_000],
    );
    assert.equal(retryDelay(30, DEFAULT_WEBHOOK_SENDER), 6 * 60 * 60 * 1000);
    await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
    const [event] = await store.webhooks.claimDue(10, LEASE);
    await store.webhooks.markRetry(event!, now + 10_000, 'HTTP 503');
    now += 9_999;
    assert.deepEqual(await due(), []);
    assert.equal(await store.webhooks.nextDueAt(), now + 1);
    now += 1;
    assert.deepEqual(await due(), ['app-1:application.received']);
  });

  it('sends signed events to the receiver, retries a refusal, marks an event failed three days after it happened, and retry puts it back', async () => {
    await store.close();
    store = await open('process-1', true);
    const hooks = await receiver([500]);
    const registry = new Registry();
    const sender = new WebhookSender({
      store: store.webhooks,
      target: { url: hooks.url, secret: SECRET },
      options: { ...DEFAULT_WEBHOOK_SENDER, leaseMs: LEASE },
      now: () => now,
      logger: pino({ level: 'silent' }),
      registry,
    });
    try {
      // The receiver checks webhook-timestamp against its own clock: the sender signs with the store's.
      now = Date.now();
      await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
      const id = (await store.webhooks.list())[0]!.id;
      await sender.pass();
      assert.equal((await store.webhooks.get(id))?.status, 'pending');
      assert.equal((await store.webhooks.get(id))?.last_error, 'HTTP 500');
      await sender.pass();
      assert.equal((await store.webhooks.get(id))?.status, 'pending', 'not due before its backoff');
      now += retryDelay(1, DEFAULT_WEBHOOK_SENDER);
      await sender.pass();
      assert.equal((await store.webhooks.get(id))?.status, 'delivered');
      assert.deepEqual(
        hooks.received.map((r) => r.id),
        [id, id],
        'the same webhook-id at each attempt, every signature verified',
      );

      await store.markRejected(await claimed(store, 'app-1'), 'upstream_rejected', 'no');
      const rejected = (await store.webhooks.list({ status: 'pending' }))[0]!;
      // Past the three days after the event (times are the store's clock): the next refusal fails it for good.
      now = rejected.created_at + WEBHOOK_RETRY_FOR_MS;
      const unreachable = new WebhookSender({
        store: store.webhooks,
        target: { url: 'http://127.0.0.1:9/hooks', secret: SECRET },
        options: { ...DEFAULT_WEBHOOK_SENDER, leaseMs: LEASE },
        now: () => now,
        logger: pino({ level: 'silent' }),
        registry: new Registry(),
      });
      await unreachable.pass();
      assert.equal((await store.webhooks.get(rejected.id))?.status, 'failed');
      assert.equal(
        (await store.webhooks.get(rejected.id))?.has_candidate,
        false,
        'a failed event keeps no candidate data',
      );
      assert.match(
        String(await registry.getSingleMetricAsString('webhook_events_total')),
        /outcome="retry"} 1[\s\S]*outcome="delivered"} 1/,
      );
      assert.equal(await store.webhooks.retry('msg_unknown'), 'not_found');
      assert.equal(await store.webhooks.retry(id), 'not_failed');
      assert.equal(await store.webhooks.retry(rejected.id), 'queued');
      const back = await store.webhooks.get(rejected.id);
      assert.equal(back?.status, 'pending');
      assert.equal(back?.give_up_at, now + WEBHOOK_RETRY_FOR_MS, 'three more days');
    } finally {
      await hooks.close();
    }
  });

  it('tells the times of an event: none before its first attempt, then when it was tried, delivered or failed', async () => {
    assert.equal(store.webhooks.recording, true);
    assert.equal(await store.webhooks.nextDueAt(), undefined, 'no event waits');
    await store.enqueue(application('a'), { deadLetterAfterMs: 1000 });
    await store.enqueue(application('b'), { deadLetterAfterMs: 1000 });
    const [waiting] = await store.webhooks.list();
    assert.equal(waiting?.give_up_at, Date.UTC(2026, 0, 4), 'retried for three days');
    assert.deepEqual([waiting?.last_attempt_at, waiting?.delivered_at, waiting?.ended_at], [null, null, null]);
    assert.equal(JSON.parse(waiting!.payload).data.idempotency_key, null, 'no key was given');
    assert.deepEqual(await store.webhooks.counts(), { pending: 2, delivering: 0, delivered: 0, failed: 0 });
    const claimedAt = now;
    const [a, b] = (await store.webhooks.claimDue(10, LEASE)).sort((x, y) => x.reference.localeCompare(y.reference));
    assert.deepEqual(await store.webhooks.counts(), { pending: 0, delivering: 2, delivered: 0, failed: 0 });
    now += 5_000;
    await store.webhooks.markDelivered(a!);
    await store.webhooks.markFailed(b!, 'HTTP 410');
    const delivered = await store.webhooks.get(a!.id);
    assert.deepEqual(
      [delivered?.last_attempt_at, delivered?.delivered_at, delivered?.ended_at],
      [claimedAt, now, null],
    );
    const failed = await store.webhooks.get(b!.id);
    assert.deepEqual([failed?.last_attempt_at, failed?.delivered_at, failed?.ended_at], [claimedAt, null, now]);
    assert.deepEqual(await store.webhooks.counts(), { pending: 0, delivering: 0, delivered: 1, failed: 1 });
  });

  it('hands out the due events soonest first, whatever order the database finds them in', async () => {
    for (const ref of ['a', 'b', 'c']) await store.enqueue(application(ref), { deadLetterAfterMs: 1000 });
    const first = await store.webhooks.claimDue(10, LEASE);
    // Retried in the reverse order of their storing: c first due, then b, then a.
    const at: Record<string, number> = { a: now + 30_000, b: now + 20_000, c: now + 10_000 };
    for (const event of first) await store.webhooks.markRetry(event, at[event.reference]!, 'HTTP 503');
    now += 30_000;
    assert.deepEqual(
      (await store.webhooks.claimDue(10, LEASE)).map((e) => e.reference),
      ['c', 'b', 'a'],
    );
  });

  it('claims no more events than asked, however many are due', async () => {
    for (const ref of ['a', 'b', 'c', 'd', 'e', 'f'])
      await store.enqueue(application(ref), { deadLetterAfterMs: 1000 });
    assert.equal((await store.webhooks.claimDue(1, LEASE)).length, 1);
    assert.equal((await store.webhooks.claimDue(2, LEASE)).length, 2);
    assert.equal((await store.webhooks.claimDue(10, LEASE)).length, 3);
  });

  it('says why a write of a lost lease was refused: another claimer has the event, nothing was written', async () => {
    await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
    const [event] = await store.webhooks.claimDue(10, LEASE);
    now += LEASE + 1;
    await store.webhooks.recoverLeases();
    await assert.rejects(store.webhooks.markFailed(event!, 'x'), (error: Error) => {
      assert.ok(error instanceof WebhookLeaseLostError);
      assert.match(
        error.message,
        new RegExp(
          `lease on webhook event ${event!.id} is no longer this attempt's: another claimer has it, so this attempt's result was not written`,
        ),
      );
      return true;
    });
  });

  it('drops the candidate from the events of erased applications, and purges delivered events with delivered applications', async () => {
    await store.close();
    store = await open('process-1', true);
    await store.enqueue(application('app-1'), { deadLetterAfterMs: 1000 });
    await store.enqueue(application('app-2', 'bob@example.org'), { deadLetterAfterMs: 1000 });
    await store.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
    const events = await store.webhooks.list();
    assert.deepEqual(events.map((e) => `${e.reference}:${e.has_candidate}`).sort(), [
      'app-1:false',
      'app-1:false',
      'app-2:true',
    ]);
    const claims: ClaimedEvent[] = await store.webhooks.claimDue(10, LEASE);
    for (const event of claims) await store.webhooks.markDelivered(event);
    now += 2 * 24 * 60 * 60 * 1000;
    await store.purgeDelivered(24 * 60 * 60 * 1000);
    assert.deepEqual(
      await types(),
      ['app-1:2:application.erased'],
      'delivered events older than the cutoff are gone, a waiting one stays',
    );
  });

  it('an erasure by address reaches the events of an application already delivered (its row holds nothing): they lose the candidate, are still sent, and are counted', async () => {
    await store.close();
    store = await open('process-1', true);
    await store.enqueue(application('ada-sent', ' Ada@Example.org'), { deadLetterAfterMs: HOUR });
    await store.enqueue(application('ada-waiting'), { deadLetterAfterMs: HOUR });
    await store.enqueue(application('bob', 'bob@example.org'), { deadLetterAfterMs: HOUR });
    await store.markDelivered(await claimed(store, 'ada-sent'), 'created_applicant', { applicationId: 8 });

    const report = await store.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));

    assert.deepEqual(
      report.applications.map((a) => a.reference),
      ['ada-waiting'],
    );
    // ada-sent: received and delivered (the receiver down: neither sent yet); ada-waiting: received.
    assert.equal(report.webhookEvents, 3);
    const events = await store.webhooks.list();
    assert.deepEqual(events.map((e) => `${e.reference}:${e.type}:${e.has_candidate}`).sort(), [
      'ada-sent:application.delivered:false',
      'ada-sent:application.received:false',
      'ada-waiting:application.erased:false',
      'ada-waiting:application.received:false',
      'bob:application.received:true',
    ]);
    // Every event, as the sender would send them: each application's in turn, once the one before is delivered.
    const sent: { type: string; data: { reference: string; candidate?: { email: string } } }[] = [];
    for (
      let claims = await store.webhooks.claimDue(10, LEASE);
      claims.length > 0;
      claims = await store.webhooks.claimDue(10, LEASE)
    ) {
      for (const event of claims) {
        sent.push(JSON.parse(event.body) as (typeof sent)[number]);
        await store.webhooks.markDelivered(event);
      }
    }
    assert.equal(sent.length, 5);
    assert.ok(
      sent.some((e) => e.data.reference === 'ada-sent' && e.type === 'application.delivered'),
      'the delivered event is still sent',
    );
    assert.deepEqual(
      sent.map((e) => e.data.candidate?.email).filter((email) => email !== undefined),
      ['bob@example.org'],
    );
    assert.equal(
      (await store.eraseByEmail('ada@example.org', emailBucket('ada@example.org'))).webhookEvents,
      0,
      'a second request finds nothing',
    );
  });

  it('the retention period reaches the events: the candidate leaves every event recorded that long ago, sent or not', async () => {
    await store.close();
    store = await open('process-1', true);
    await store.enqueue(application('old'), { deadLetterAfterMs: HOUR });
    await store.markDelivered(await claimed(store, 'old'), 'created_applicant', {});
    now += HOUR;
    await store.enqueue(application('new', 'bob@example.org'), { deadLetterAfterMs: HOUR });
    assert.equal(await store.webhooks.eraseExpiredCandidates(HOUR), 2);
    assert.deepEqual(
      (await store.webhooks.list()).map((e) => `${e.reference}:${e.seq}:${e.has_candidate}`),
      ['old:1:false', 'old:2:false', 'new:1:true'],
    );
    assert.equal(await store.webhooks.eraseExpiredCandidates(HOUR), 0);
  });

  it('purges a delivered event only once older than asked', async () => {
    await store.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const [event] = await store.webhooks.claimDue(10, LEASE);
    await store.webhooks.markDelivered(event!);
    now += HOUR;
    await store.purgeDelivered(2 * HOUR);
    assert.deepEqual(await types(), ['r1:1:application.received']);
    now += HOUR;
    await store.purgeDelivered(2 * HOUR);
    assert.deepEqual(await types(), []);
  });

  if (harness.shared)
    it('never hands one event to two live instances claiming at once', async () => {
      const others = await Promise.all(
        [2, 3, 4].map((n) => harness.open(`process-${n}`, dir, () => now, { includeCandidate: false })),
      );
      const stores = [store, ...others];
      for (let i = 0; i < 40; i += 1) {
        await stores[0]!.enqueue(
          {
            reference: `app-${i}`,
            campaign_id: 1,
            company_id: 1,
            payload: { applicant: { email: `${i}@example.org` } },
            resume: null,
            resume_type: null,
          },
          { deadLetterAfterMs: 1000 },
        );
      }
      const claims = (await Promise.all(stores.map((s) => s.webhooks.claimDue(40, LEASE)))).flat();
      assert.equal(claims.length, 40);
      assert.equal(new Set(claims.map((e) => e.id)).size, 40);
      await Promise.all(others.map((s) => s.close()));
    });
});
