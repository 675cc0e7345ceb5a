// The webhook sender over real HTTP (receivers on port 0) and a real SQLite
// store, with the store's clock in the test's hands: what counts as
// delivered, what is retried and failed (and logged), and the lease of an
// attempt, renewed while its POST runs and given up once another claimer has
// the event.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { captureLogs } from '../../test/logs.ts';
import type { LogCapture } from '../../test/logs.ts';
import { eventually } from '../../test/poll.ts';
import { SqliteApplicationStore } from '../storage/outbox/sqlite-store.ts';
import { newApplication } from '../storage/test-support.ts';
import { WEBHOOK_RETRY_FOR_MS } from '../storage/webhooks/webhook-store.ts';
import type { WebhookEventStore, WebhookLease } from '../storage/webhooks/webhook-store.ts';
import { DEFAULT_WEBHOOK_SENDER, WebhookSender, retryDelay } from './sender.ts';
import type { WebhookSenderOptions } from './sender.ts';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const HOUR = 60 * 60 * 1000;

interface Receiver {
  url: string;
  /** The webhook-id of each request, in arrival order. */
  ids: string[];
  /** Requests whose connection closed before they were answered. */
  cut: number;
  /** Answers the requests held so far (and the next ones) with this status. */
  release(status?: number): void;
  close(): Promise<void>;
}

/** A receiver answering every POST with `status`, `headers` and `body`, or holding each until release() when `status` is 'held'. */
async function receiver(
  status: number | 'held',
  headers: Record<string, string> = {},
  body = 'answer',
): Promise<Receiver> {
  const held: ServerResponse[] = [];
  let answer = status;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.ids.push(String(req.headers['webhook-id']));
    req.resume();
    res.on('close', () => {
      if (!res.writableFinished) state.cut += 1;
    });
    if (answer === 'held') held.push(res);
    else res.writeHead(answer, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    ids: [],
    cut: 0,
    release(next = 204) {
      answer = next;
      for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(next).end();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}

/** The store's webhook events, counting the lease renewals asked for; `failRenewals` of them reject as a lost connection would. */
function counting(events: WebhookEventStore): WebhookEventStore & { renewals: number; failRenewals: number } {
  const wrapped = Object.create(events) as WebhookEventStore & { renewals: number; failRenewals: number };
  wrapped.renewals = 0;
  wrapped.failRenewals = 0;
  wrapped.renewLease = async (lease: WebhookLease, leaseMs: number) => {
    wrapped.renewals += 1;
    if (wrapped.failRenewals > 0) {
      wrapped.failRenewals -= 1;
      throw new Error('connection lost');
    }
    return events.renewLease(lease, leaseMs);
  };
  return wrapped;
}

describe('the webhook sender', () => {
  let dir: string;
  let now: number;
  let store: SqliteApplicationStore;
  let events: ReturnType<typeof counting>;
  let logs: LogCapture;
  let registry: Registry;
  const receivers: Receiver[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-webhook-sender-'));
    now = Date.UTC(2026, 0, 1);
    store = new SqliteApplicationStore({
      dataDir: dir,
      owner: 'process-1',
      now: () => now,
      webhookEvents: { includeCandidate: false },
    });
    await store.ready();
    events = counting(store.webhooks);
    logs = captureLogs('info');
    registry = new Registry();
  });
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(
    status: number | 'held',
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<Receiver> {
    const r = await receiver(status, headers, body);
    receivers.push(r);
    return r;
  }

  function sender(url: string, options: Partial<WebhookSenderOptions> = {}): WebhookSender {
    return new WebhookSender({
      store: events,
      target: { url, secret: SECRET },
      options: { ...DEFAULT_WEBHOOK_SENDER, leaseMs: 60_000, ...options },
      now: () => now,
      logger: logs.logger,
      registry,
    });
  }

  /** Stores an application: its application.received event waits to be sent. Answers the event's id. */
  async function anEvent(reference = 'r1'): Promise<string> {
    await store.enqueue(newApplication(reference), { deadLetterAfterMs: HOUR });
    const event = (await store.webhooks.list()).find((e) => e.reference === reference);
    assert.ok(event, 'the application.received event is recorded');
    return event.id;
  }

  /** A pass whose one POST the receiver holds (until release()), under the given options: once the POST has arrived. */
  async function postHeld(
    options: Partial<WebhookSenderOptions> = {},
  ): Promise<{ hooks: Receiver; id: string; attempt: Promise<boolean> }> {
    const hooks = await start('held');
    const id = await anEvent();
    const attempt = sender(hooks.url, options).pass();
    await eventually(() => hooks.ids.length === 1, { timeoutMs: 5_000, what: 'the POST' });
    return { hooks, id, attempt };
  }

  const outcomes = async () => String(await registry.getSingleMetricAsString('webhook_events_total'));
  const linesOf = (event: string) => logs.lines.filter((l) => l.event === event);

  it('marks an event delivered on a 2xx, sends it once, and counts it', async () => {
    const hooks = await start(200);
    const id = await anEvent();
    const sending = sender(hooks.url);
    assert.equal(await sending.pass(), false, 'one event of a batch of 10: nothing more waits');
    const row = await store.webhooks.get(id);
    assert.deepEqual([row?.status, row?.attempts, row?.last_error], ['delivered', 1, null]);
    assert.deepEqual(hooks.ids, [id]);
    assert.match(await outcomes(), /^webhook_events_total\{type="application.received",outcome="delivered"\} 1$/m);
    await sending.pass();
    assert.deepEqual(hooks.ids, [id], 'a delivered event is not sent again');
    assert.deepEqual(
      logs.lines.filter((l) => String(l.event).startsWith('webhook_')),
      [],
      'a delivery logs nothing',
    );
  });

  it('sends what a full batch leaves at once, and what comes later at its next look', async () => {
    const hooks = await start(204);
    await anEvent('r1');
    await anEvent('r2');
    await anEvent('r3');
    const sending = sender(hooks.url, { batch: 2 });
    assert.equal(await sending.pass(), true, 'a full batch: more may wait');
    assert.equal(await sending.pass(), false);
    assert.equal(hooks.ids.length, 3);
  });

  it('polls once started: a full batch is followed at once by the next pass, a short one after pollMs; stopped, it sends nothing more', async () => {
    const hooks = await start(204);
    await anEvent('r1');
    await anEvent('r2');
    // A minute between looks: only the full batch's next pass can send the second event during the test.
    const sending = sender(hooks.url, { batch: 1, pollMs: 60_000 });
    sending.start();
    sending.start();
    await eventually(() => hooks.ids.length === 2, { timeoutMs: 5_000, what: 'both events sent' });
    await sending.stop();
    await anEvent('r3');
    sending.start();
    // Long enough for a pass that started at once to send it.
    await sleep(200);
    assert.equal(hooks.ids.length, 2, 'a stopped sender does not start again');
    assert.equal((await store.webhooks.counts()).pending, 1);
  });

  it('stopped while a POST runs, waits for it to end and looks no more', async () => {
    const hooks = await start('held');
    const id = await anEvent('r1');
    const sending = sender(hooks.url, { pollMs: 20 });
    sending.start();
    await eventually(() => hooks.ids.length === 1, { timeoutMs: 5_000, what: 'the POST' });
    const stopping = sending.stop();
    hooks.release(204);
    await stopping;
    assert.equal((await store.webhooks.get(id))?.status, 'delivered', 'the attempt under way was recorded');
    await anEvent('r2');
    // Ten looks' time: a look scheduled by the pass that ended would have sent it.
    await sleep(200);
    assert.equal(hooks.ids.length, 1, 'no look after stop()');
  });

  it('logs a pass that failed, and tries again at the next look', async () => {
    const hooks = await start(204);
    const id = await anEvent();
    const claimDue = events.claimDue.bind(events);
    let failures = 1;
    events.claimDue = async (limit, leaseMs) => {
      if (failures-- > 0) throw new Error('database unreachable');
      return claimDue(limit, leaseMs);
    };
    const sending = sender(hooks.url, { pollMs: 20 });
    sending.start();
    await eventually(() => hooks.ids.length === 1, { timeoutMs: 5_000, what: 'the event sent by the next pass' });
    await sending.stop();
    await anEvent('r2');
    // Ten looks' time: a look still scheduled would have sent it.
    await sleep(200);
    assert.equal(hooks.ids.length, 1, 'no look after stop()');
    const [line] = linesOf('webhook_error');
    assert.deepEqual(
      [line?.level, line?.error, line?.msg],
      [50, 'database unreachable', 'webhook sender pass failed; the next one tries again'],
    );
    assert.equal((await store.webhooks.get(id))?.status, 'delivered');
  });

  it('fails the pass when a write fails for another reason than a lost lease', async () => {
    const hooks = await start(204);
    await anEvent();
    events.markDelivered = async () => {
      throw new Error('disk full');
    };
    await assert.rejects(sender(hooks.url).pass(), /disk full/);
  });

  it('shows the events waiting, by status, in webhook_events', async () => {
    const hooks = await start(500);
    await anEvent('r1');
    await anEvent('r2');
    const sending = sender(hooks.url, { batch: 1 });
    await sending.pass();
    const gauge = String(await registry.getSingleMetricAsString('webhook_events'));
    assert.match(gauge, /^webhook_events\{status="pending"\} 2$/m);
    assert.match(gauge, /^webhook_events\{status="delivering"\} 0$/m);
    assert.match(gauge, /^webhook_events\{status="failed"\} 0$/m);
    events.counts = async () => {
      throw new Error('database unreachable');
    };
    // Counts that cannot be read leave the last ones: a scrape still answers.
    assert.match(
      String(await registry.getSingleMetricAsString('webhook_events')),
      /^webhook_events\{status="pending"\} 2$/m,
    );
  });

  it('retries after 10 s, doubling to at most 6 hours, looks every second, claims 10 at once and waits 10 s for an answer', () => {
    assert.deepEqual(DEFAULT_WEBHOOK_SENDER, {
      pollMs: 1000,
      batch: 10,
      timeoutMs: 10_000,
      retryBaseMs: 10_000,
      retryMaxMs: 6 * HOUR,
    });
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((n) => retryDelay(n, DEFAULT_WEBHOOK_SENDER)),
      [10_000, 10_000, 20_000, 40_000, 80_000],
    );
    assert.equal(retryDelay(12, DEFAULT_WEBHOOK_SENDER), 20_480_000);
    assert.equal(retryDelay(13, DEFAULT_WEBHOOK_SENDER), 6 * HOUR);
  });

  it("keeps 200 characters of the receiver's answer in the error, and only the status when it said nothing", async () => {
    const long = await start(500, {}, `${'x'.repeat(200)}END`);
    const silent = await start(503, {}, '');
    const first = await anEvent('r1');
    await sender(long.url).pass();
    assert.equal((await store.webhooks.get(first))?.last_error, `HTTP 500: ${'x'.repeat(200)}`);
    const second = await anEvent('r2');
    // Another sender, registered apart from the first.
    registry = new Registry();
    await sender(silent.url).pass();
    assert.equal((await store.webhooks.get(second))?.last_error, 'HTTP 503');
  });

  it('counts a redirect as a failed attempt: not followed, retried later, with its log line', async () => {
    const elsewhere = await start(204);
    const hooks = await start(302, { location: elsewhere.url });
    const id = await anEvent();
    await sender(hooks.url).pass();
    const row = await store.webhooks.get(id);
    assert.deepEqual(
      [row?.status, row?.last_error, row?.next_attempt_at],
      ['pending', 'HTTP 302: answer', now + 10_000],
    );
    assert.deepEqual(elsewhere.ids, [], 'the redirect was not followed');
    assert.match(await outcomes(), /^webhook_events_total\{type="application.received",outcome="retry"\} 1$/m);
    const [line] = linesOf('webhook_retry');
    assert.deepEqual(
      [line?.level, line?.id, line?.type, line?.reference, line?.attempts, line?.error, line?.msg],
      [40, id, 'application.received', 'r1', 1, 'HTTP 302: answer', 'webhook event not accepted; retried later'],
    );
  });

  it('retries a refused event after its backoff, then delivers it with the same webhook-id', async () => {
    const hooks = await start(503);
    const id = await anEvent();
    const sending = sender(hooks.url);
    await sending.pass();
    await sending.pass();
    assert.equal(hooks.ids.length, 1, 'not due again before its backoff');
    now += retryDelay(1, DEFAULT_WEBHOOK_SENDER) - 1;
    await sending.pass();
    assert.equal(hooks.ids.length, 1, 'not due a millisecond before its backoff ends');
    now += 1;
    hooks.release(204);
    await sending.pass();
    assert.deepEqual(hooks.ids, [id, id]);
    assert.equal((await store.webhooks.get(id))?.status, 'delivered');
  });

  it('marks an event failed once a refusal comes three days after it happened, and logs how to send it again', async () => {
    const hooks = await start(500);
    const id = await anEvent('r1');
    now += 1;
    const younger = await anEvent('r2');
    // Three days after the first event, a millisecond before the second's three days end.
    now += WEBHOOK_RETRY_FOR_MS - 1;
    await sender(hooks.url).pass();
    const row = await store.webhooks.get(id);
    assert.deepEqual([row?.status, row?.last_error], ['failed', 'HTTP 500: answer']);
    assert.equal(
      (await store.webhooks.get(younger))?.status,
      'pending',
      'refused a millisecond before its time: retried',
    );
    const [line] = linesOf('webhook_failed');
    assert.deepEqual(
      [line?.level, line?.id, line?.type, line?.reference, line?.attempts, line?.error],
      [50, id, 'application.received', 'r1', 1, 'HTTP 500: answer'],
    );
    assert.match(String(line?.msg), /`jobboard-connector webhooks retry ID` sends it again/);
    assert.equal(linesOf('webhook_failed').length, 1);
    assert.match(await outcomes(), /outcome="failed"\} 1$/m);
    assert.match(await outcomes(), /outcome="retry"\} 1$/m);
  });

  it("records an unreachable receiver's failure as the attempt's error", async () => {
    const gone = await start(204);
    await gone.close();
    receivers.pop();
    const id = await anEvent();
    await sender(gone.url).pass();
    const row = await store.webhooks.get(id);
    assert.deepEqual([row?.status, row?.last_error], ['pending', 'ECONNREFUSED']);
  });

  it('renews the lease while a slow POST runs, so the event is not taken back after its first lease, and delivers it', async () => {
    const { hooks, id, attempt } = await postHeld({ leaseMs: 300 });
    now += 250;
    const before = events.renewals;
    await eventually(() => events.renewals > before, { timeoutMs: 5_000, what: 'a renewal after the clock moved' });
    now += 250;
    assert.equal(await store.webhooks.recoverLeases(), 0, 'claimed for 300 ms 500 ms ago, renewed since: still held');
    hooks.release(204);
    await attempt;
    assert.equal((await store.webhooks.get(id))?.status, 'delivered');
    assert.equal(hooks.cut, 0, 'the POST ran to its answer');
    assert.match(await outcomes(), /outcome="delivered"\} 1$/m);
    const renewals = events.renewals;
    // Three renewals' time: the attempt is over, its lease is no longer renewed.
    await sleep(400);
    assert.equal(events.renewals, renewals, 'no renewal after the attempt');
  });

  it('cuts the POST short once a renewal finds the lease run out, writes nothing, and says so', async () => {
    const { hooks, id, attempt } = await postHeld({ leaseMs: 300 });
    // The process stalled past its lease: the next renewal finds it over.
    now += 300;
    await eventually(() => hooks.cut === 1, { timeoutMs: 5_000, what: 'the receiver to see the POST cut' });
    await attempt;
    const row = await store.webhooks.get(id);
    assert.deepEqual([row?.status, row?.last_error], ['delivering', null], 'left for whoever takes it back');
    assert.match(await outcomes(), /^webhook_events_total\{type="application.received",outcome="lease_lost"\} 1$/m);
    const [line] = linesOf('webhook_lease_lost');
    assert.deepEqual([line?.level, line?.id, line?.type], [40, id, 'application.received']);
    assert.match(String(line?.msg), /its result was not written/);
  });

  it('writes nothing when another claimer took the event back meanwhile', async () => {
    const { hooks, id, attempt } = await postHeld();
    const other = new SqliteApplicationStore({
      dataDir: dir,
      owner: 'process-2',
      now: () => now,
      webhookEvents: { includeCandidate: false },
    });
    await other.ready();
    try {
      assert.equal(await other.webhooks.recoverLeases(), 1);
      hooks.release(204);
      await attempt;
      const row = await store.webhooks.get(id);
      assert.deepEqual([row?.status, row?.delivered_at], ['pending', null], "the event is the other claimer's to send");
      assert.match(await outcomes(), /outcome="lease_lost"\} 1$/m);
      assert.equal(linesOf('webhook_lease_lost').length, 1);
    } finally {
      await other.close();
    }
  });

  it('logs a renewal the database did not answer and goes on under its lease', async () => {
    const hooks = await start('held');
    const id = await anEvent();
    events.failRenewals = 1;
    const attempt = sender(hooks.url, { leaseMs: 300 }).pass();
    await eventually(() => linesOf('webhook_lease_error').length === 1, {
      timeoutMs: 5_000,
      what: 'the failed renewal logged',
    });
    hooks.release(204);
    await attempt;
    assert.equal((await store.webhooks.get(id))?.status, 'delivered');
    const [line] = linesOf('webhook_lease_error');
    assert.deepEqual([line?.level, line?.id, line?.error], [40, id, 'connection lost']);
    assert.match(String(line?.msg), /could not be renewed/);
  });
});
