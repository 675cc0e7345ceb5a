// The status sync on a real store (SQLite) and the real client, against a
// small upstream over HTTP that answers GET /v2/applications/:id as the test
// sets it: the first read is a starting point, a change is told once and
// stored, each application is read once per period, an application deleted
// at the company (404) is passed over until its next period without holding
// up the others, another failure gives the rest of the batch back, keys
// without applications_read stop the job, and the budget and STATUS_SYNC_DAYS
// bound what is read. (test/proxy-status-sync.test.ts runs the whole proxy
// against the sandbox.)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it, mock } from 'node:test';
import { RequestBudget, ServerError, createClient } from '../../client/index.ts';
import type { PermissionError } from '../../client/index.ts';
import { application } from '../../client/test/fake-api.ts';
import { eventually } from '../../test/poll.ts';
import { SqliteApplicationStore } from '../storage/outbox/sqlite-store.ts';
import { claimed, newApplication, withEventStore } from '../storage/test-support.ts';
import {
  DEFAULT_STATUS_SYNC,
  PERIOD_SLACK_MS,
  STATUS_SYNC_SHARE,
  StatusSync,
  recordStatusChanged,
  statusSyncPerMinute,
  statusSyncShare,
} from './status-sync.ts';
import type { StatusChange, StatusSyncOptions } from './status-sync.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const OPTIONS: StatusSyncOptions = { days: 30, periodMs: 6 * HOUR, intervalMs: 60_000 };

/** What the upstream answers for an application id: its status, an error (HTTP status and code), or nothing until the client gives up ('hold'). */
type Answer = string | { status: number; code: string } | 'hold';

/** The upstream: POST /v2/jwt, and GET /v2/applications/:id from `answers`; records the ids read, in order. */
async function startUpstream() {
  const answers = new Map<number, Answer>();
  const reads: number[] = [];
  /** Ids whose held request the client cut. */
  const cut: number[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'POST' && req.url === '/v2/jwt')
      return send(200, { token: 'token', expires_at: new Date(Date.now() + 4 * HOUR).toISOString() });
    const id = Number(/^\/v2\/applications\/(\d+)/.exec(req.url ?? '')?.[1]);
    reads.push(id);
    const answer = answers.get(id) ?? { status: 404, code: 'not_found' };
    if (answer === 'hold') return void res.on('close', () => cut.push(id));
    if (typeof answer === 'string') return send(200, application(id, { status: answer }));
    return send(answer.status, { error: { code: answer.code, message: answer.code, details: [] } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  return { url, answers, reads, cut, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('StatusSync', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let dir: string;
  let now: number;
  let store: SqliteApplicationStore;
  let told: StatusChange[];
  let checked: string[];
  let errors: unknown[];
  let forbidden: PermissionError[];

  before(async () => {
    upstream = await startUpstream();
  });
  after(() => upstream.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-status-sync-'));
    now = Date.UTC(2026, 0, 1);
    store = new SqliteApplicationStore({ dataDir: dir, owner: 'test', now: () => now });
    upstream.answers.clear();
    upstream.reads.length = 0;
    upstream.cut.length = 0;
    [told, checked, errors, forbidden] = [[], [], [], []];
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A sync of this test's store and upstream: a budget of `perMinute` low-priority reads per `windowMs`; `events: false` listens to nothing. */
  function statusSync(
    options: Partial<StatusSyncOptions> = {},
    budget: { perMinute?: number; windowMs?: number } = {},
    onStatusChanged?: (change: StatusChange) => Promise<void>,
    listen: 'all' | 'none' | 'empty' = 'all',
  ) {
    // A long timeout: a read is cut by stop, not by the client giving up.
    const client = createClient({
      baseUrl: upstream.url,
      privateKey: 'private',
      secretKey: 'secret',
      retry: { limit: 0 },
      timeout: 60_000,
      budget: { perMinute: 10_000 },
    });
    return new StatusSync(
      {
        store,
        client,
        budget: new RequestBudget({
          perMinute: budget.perMinute ?? 100,
          windowMs: budget.windowMs ?? 60_000,
          reservedForHigh: 0,
        }),
        now: () => now,
        onStatusChanged: onStatusChanged ?? (async (change) => void told.push(change)),
        ...(listen === 'none'
          ? {}
          : {
              events:
                listen === 'empty'
                  ? {}
                  : {
                      onChecked: (result) => checked.push(result),
                      onError: (error) => errors.push(error),
                      onForbidden: (error) => forbidden.push(error),
                    },
            }),
      },
      { ...OPTIONS, ...options },
    );
  }

  /** An application delivered now, as the service's application `id` (one millisecond later than the one before: the order of the checks). */
  async function delivered(reference: string, id: number): Promise<void> {
    await store.enqueue(newApplication(reference), { deadLetterAfterMs: DAY });
    await store.markDelivered(await claimed(store, reference), 'created_applicant', { applicationId: id });
    now += 1;
  }

  const statusOf = async (reference: string) => (await store.get(reference))?.company_status ?? null;

  it('reads each delivered application once: its first status is stored as the starting point, told to no one', async () => {
    await delivered('a', 11);
    await delivered('b', 12);
    upstream.answers.set(11, 'new').set(12, 'reviewed');
    const sync = statusSync();

    assert.deepEqual(await sync.runOnce(), { checked: 2, changed: 2, released: 0 });

    assert.deepEqual(upstream.reads, [11, 12]);
    assert.deepEqual([await statusOf('a'), await statusOf('b')], ['new', 'reviewed']);
    assert.deepEqual(told, []);
    assert.deepEqual(checked, ['changed', 'changed']);
    assert.deepEqual(await sync.runOnce(), { checked: 0, changed: 0, released: 0 }, 'not due again within the period');
    assert.deepEqual(upstream.reads, [11, 12]);
  });

  it('after the period, tells a changed status once, with the one before, and stores it; an unchanged one is only counted', async () => {
    await delivered('a', 11);
    await delivered('b', 12);
    upstream.answers.set(11, 'new').set(12, 'new');
    const sync = statusSync();
    await sync.runOnce();
    now += 6 * HOUR - PERIOD_SLACK_MS - 1;
    assert.deepEqual(
      await sync.runOnce(),
      { checked: 0, changed: 0, released: 0 },
      'a millisecond before the slack before the period ends',
    );
    now += PERIOD_SLACK_MS + 1;
    upstream.answers.set(11, 'interview');
    const checkedAt = now;

    assert.deepEqual(await sync.runOnce(), { checked: 2, changed: 1, released: 0 });

    assert.deepEqual(told, [{ reference: 'a', previous: 'new', status: 'interview', checkedAt: new Date(checkedAt) }]);
    assert.deepEqual([await statusOf('a'), await statusOf('b')], ['interview', 'new']);
    assert.deepEqual(checked.slice(2), ['changed', 'unchanged']);
  });

  it('with a 1-minute period and a pass every minute, reads an application at every pass, a timer a millisecond early included', async () => {
    await delivered('a', 11);
    upstream.answers.set(11, 'new');
    const sync = statusSync({ periodMs: 60_000 });
    await sync.runOnce();
    now += 30_000;
    await sync.runOnce();
    assert.deepEqual(upstream.reads, [11], 'not within the minute');
    upstream.answers.set(11, 'interview');
    now += 30_000 - 1;
    assert.deepEqual(
      await sync.runOnce(),
      { checked: 1, changed: 1, released: 0 },
      'the next pass, a millisecond short of the minute, reads it',
    );
    assert.deepEqual(
      told.map((c) => [c.previous, c.status]),
      [['new', 'interview']],
    );
  });

  it('with a period of 0 (the status-sync --now command), reads every application at once, read a moment ago or not', async () => {
    await delivered('a', 11);
    upstream.answers.set(11, 'new');
    await statusSync().runOnce();
    now += 1;
    assert.deepEqual(await statusSync({ periodMs: 0 }).runOnce(), { checked: 1, changed: 0, released: 0 });
    assert.deepEqual(upstream.reads, [11, 11]);
  });

  it('passes over an application deleted at the company (404) until its next period, and reads the others of the pass', async () => {
    await delivered('gone', 10);
    await delivered('a', 11);
    await delivered('b', 12);
    upstream.answers.set(11, 'new').set(12, 'new');
    const sync = statusSync();

    assert.deepEqual(await sync.runOnce(), { checked: 3, changed: 2, released: 0 });

    assert.deepEqual(checked, ['not_found', 'changed', 'changed']);
    assert.deepEqual(errors, []);
    assert.equal(await statusOf('gone'), null);
    // The next passes read nothing: the deleted one is not due again at once, ahead of every other.
    assert.deepEqual(await sync.runOnce(), { checked: 0, changed: 0, released: 0 });
    assert.deepEqual(upstream.reads, [10, 11, 12]);
    now += 6 * HOUR;
    await sync.runOnce();
    assert.deepEqual(upstream.reads, [10, 11, 12, 10, 11, 12], 'read again at its next period, like the others');
  });

  it('stops the pass on another failure: the one read and the rest of its batch are given back, due again at once, and onError is told', async () => {
    await delivered('a', 11);
    await delivered('b', 12);
    await delivered('c', 13);
    upstream.answers.set(11, 'new').set(12, { status: 503, code: 'service_unavailable' }).set(13, 'new');
    const sync = statusSync();

    assert.deepEqual(await sync.runOnce(), { checked: 1, changed: 1, released: 2 });

    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ServerError);
    assert.deepEqual(upstream.reads, [11, 12]);
    upstream.answers.set(12, 'new');
    assert.deepEqual(await sync.runOnce(), { checked: 2, changed: 2, released: 0 });
    assert.deepEqual(upstream.reads, [11, 12, 12, 13]);
  });

  it('gives the check back when telling the change fails: the change is seen, and told, again', async () => {
    await delivered('a', 11);
    upstream.answers.set(11, 'new');
    let failing = true;
    const sync = statusSync({}, {}, async (change) => {
      if (failing) throw new Error('the event could not be recorded');
      told.push(change);
    });
    await sync.runOnce();
    now += 6 * HOUR;
    upstream.answers.set(11, 'hired');
    assert.deepEqual(await sync.runOnce(), { checked: 0, changed: 0, released: 1 });
    assert.equal(await statusOf('a'), 'new');
    failing = false;
    assert.deepEqual(await sync.runOnce(), { checked: 1, changed: 1, released: 0 });
    assert.deepEqual(
      told.map((c) => [c.previous, c.status]),
      [['new', 'hired']],
    );
  });

  it('stops for good when the keys may not read applications (403 missing_scope): told once, disabled, nothing read after', async () => {
    await delivered('a', 11);
    await delivered('b', 12);
    upstream.answers.set(11, { status: 403, code: 'missing_scope' });
    const sync = statusSync();
    assert.equal(sync.enabled, true);

    assert.deepEqual(await sync.runOnce(), { checked: 0, changed: 0, released: 2 });

    assert.equal(forbidden.length, 1);
    assert.equal(forbidden[0]?.code, 'missing_scope');
    assert.deepEqual(errors, []);
    assert.equal(sync.enabled, false);
    assert.deepEqual(await sync.runOnce(), { checked: 0, changed: 0, released: 0 });
    sync.start();
    await sync.stop();
    assert.deepEqual(upstream.reads, [11]);
  });

  it('takes another 403 (not missing_scope) as a failure of the pass, not as a stop', async () => {
    await delivered('a', 11);
    upstream.answers.set(11, { status: 403, code: 'forbidden' });
    const sync = statusSync();
    assert.deepEqual(await sync.runOnce(), { checked: 0, changed: 0, released: 1 });
    assert.deepEqual([forbidden.length, errors.length, sync.enabled], [0, 1, true]);
  });

  it('reads only the applications delivered in the last STATUS_SYNC_DAYS, and none with 0 days', async () => {
    await delivered('old', 10);
    now += 2 * DAY;
    await delivered('recent', 11);
    upstream.answers.set(10, 'new').set(11, 'new');
    assert.deepEqual(await statusSync({ days: 2 }).runOnce(), { checked: 1, changed: 1, released: 0 });
    assert.deepEqual(upstream.reads, [11]);
    const off = statusSync({ days: 0 });
    assert.equal(off.enabled, false);
    now += 6 * HOUR;
    assert.deepEqual(await off.runOnce(), { checked: 0, changed: 0, released: 0 });
    off.start();
    await off.stop();
    assert.deepEqual(upstream.reads, [11]);
  });

  it('claims a batch of what the budget allows in a window, and the next batch within the same pass', async () => {
    for (const id of [11, 12, 13, 14, 15]) {
      await delivered(`r${id}`, id);
      upstream.answers.set(id, 'new');
    }
    const sync = statusSync({}, { perMinute: 2, windowMs: 50 });
    assert.deepEqual(await sync.runOnce(), { checked: 5, changed: 5, released: 0 });
    assert.deepEqual(upstream.reads, [11, 12, 13, 14, 15]);
  });

  it('reads nothing on a closed store', async () => {
    await delivered('a', 11);
    upstream.answers.set(11, 'new');
    await store.close();
    assert.deepEqual(await statusSync().runOnce(), { checked: 0, changed: 0, released: 0 });
    assert.deepEqual(upstream.reads, []);
  });

  it('joins the pass under way: two calls at once read each application once', async () => {
    await delivered('a', 11);
    upstream.answers.set(11, 'new');
    const sync = statusSync();
    const [first, second] = await Promise.all([sync.runOnce(), sync.runOnce()]);
    assert.deepEqual(
      [first, second],
      [
        { checked: 1, changed: 1, released: 0 },
        { checked: 1, changed: 1, released: 0 },
      ],
    );
    assert.deepEqual(upstream.reads, [11]);
  });

  it('stop cuts a pass waiting for the budget and gives its claims back, quietly', async () => {
    await delivered('a', 11);
    await delivered('b', 12);
    upstream.answers.set(11, 'new').set(12, 'new');
    // One read a minute: the first goes, the second waits for the next window.
    const sync = statusSync({}, { perMinute: 1, windowMs: 60_000 });
    const pass = sync.runOnce();
    await eventually(async () => (await statusOf('a')) === 'new', { timeoutMs: 10_000, what: 'the first read stored' });
    await sync.stop();
    assert.deepEqual(await pass, { checked: 1, changed: 1, released: 1 });
    assert.deepEqual(errors, [], 'a pass cut by stop is no failure');
    assert.deepEqual(upstream.reads, [11]);
    assert.equal(await statusOf('b'), null);
    assert.deepEqual(await sync.runOnce(), { checked: 0, changed: 0, released: 0 }, 'stopped: no more passes');
  });

  it('stop cuts a read under way: the request is given up, the claim given back', async () => {
    await delivered('a', 11);
    upstream.answers.set(11, 'hold');
    const sync = statusSync();
    const pass = sync.runOnce();
    await eventually(() => upstream.reads.length === 1, { timeoutMs: 10_000, what: 'the read sent' });
    const stopped = sync.stop();
    await eventually(() => upstream.cut.length === 1, { timeoutMs: 10_000, what: 'the read cut by stop' });
    await stopped;
    assert.deepEqual(await pass, { checked: 0, changed: 0, released: 1 });
  });

  for (const listen of ['none', 'empty'] as const) {
    it(`runs its passes and their failures quietly without ${listen === 'none' ? 'events' : 'any listener in its events'}`, async () => {
      await delivered('gone', 10);
      await delivered('a', 11);
      await delivered('c', 13);
      await delivered('b', 12);
      upstream.answers.set(11, 'new').set(12, 'new').set(13, 'new');
      const sync = statusSync({}, {}, undefined, listen);
      assert.deepEqual(await sync.runOnce(), { checked: 4, changed: 3, released: 0 }, 'a 404, then three first reads');
      now += 6 * HOUR;
      upstream.answers.set(11, 'hired').set(12, { status: 503, code: 'service_unavailable' });
      assert.deepEqual(
        await sync.runOnce(),
        { checked: 3, changed: 1, released: 1 },
        'a 404, a change, no change, a failure',
      );
      upstream.answers.set(12, { status: 403, code: 'missing_scope' });
      assert.deepEqual(await sync.runOnce(), { checked: 0, changed: 0, released: 1 }, 'the keys refused');
      assert.equal(sync.enabled, false);
    });
  }

  describe('started (setInterval mocked)', () => {
    beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
    afterEach(() => mock.timers.reset());

    it('keys refused during a started job: its timer is cleared, no pass runs after', async () => {
      await delivered('a', 11);
      upstream.answers.set(11, { status: 403, code: 'missing_scope' });
      const sync = statusSync();
      let passes = 0;
      const runOnce = sync.runOnce.bind(sync);
      sync.runOnce = () => {
        passes += 1;
        return runOnce();
      };
      sync.start();
      await runOnce();
      assert.deepEqual([passes, forbidden.length], [1, 1]);
      mock.timers.tick(3 * OPTIONS.intervalMs);
      assert.equal(passes, 1, 'the timer went with the keys');
      await sync.stop();
    });

    it('starts with a pass, then one every intervalMs; started twice, keeps one timer', async () => {
      await delivered('a', 11);
      upstream.answers.set(11, 'new');
      const sync = statusSync({ periodMs: 1 });
      const passes: number[] = [];
      const runOnce = sync.runOnce.bind(sync);
      sync.runOnce = () => {
        passes.push(now);
        return runOnce();
      };
      sync.start();
      sync.start();
      assert.equal(passes.length, 1, 'the first pass at start');
      mock.timers.tick(OPTIONS.intervalMs - 1);
      assert.equal(passes.length, 1);
      mock.timers.tick(1);
      assert.equal(passes.length, 2, 'one pass per interval, whatever start was called twice');
      await sync.stop();
      mock.timers.tick(3 * OPTIONS.intervalMs);
      assert.equal(passes.length, 2, 'none after stop');
    });
  });
});

describe("the status sync's share of the budget", () => {
  it('is 10% of the requests a minute, at least one, and a pass every minute by default', () => {
    assert.equal(STATUS_SYNC_SHARE, 0.1);
    assert.equal(statusSyncPerMinute(120), 12);
    assert.equal(statusSyncPerMinute(129), 12);
    assert.equal(statusSyncPerMinute(5), 1);
    assert.deepEqual(DEFAULT_STATUS_SYNC, { intervalMs: 60_000 });
  });

  it("is a budget of its own, named so that the instances on one database share it, over the client budget's window (the service's 120 a minute over DEFAULT_WINDOW_MS without one)", () => {
    assert.deepEqual(statusSyncShare({ perMinute: 60, windowMs: 30_000 }), {
      name: 'status_sync',
      perMinute: 6,
      windowMs: 30_000,
    });
    assert.deepEqual(statusSyncShare(undefined), { name: 'status_sync', perMinute: 12, windowMs: 62_000 });
  });
});

describe('a status change for the board', () => {
  it('is recorded as application.status_changed with the status read, when the store records webhook events', async () => {
    await withEventStore(async (store) => {
      await store.enqueue(newApplication('r1'), { deadLetterAfterMs: DAY });
      const change: StatusChange = { reference: 'r1', previous: 'new', status: 'hired', checkedAt: new Date() };
      assert.equal(await recordStatusChanged(store.webhooks, change), true);
      const event = (await store.webhooks.list()).find((e) => e.type === 'application.status_changed');
      assert.equal((JSON.parse(event!.payload) as { data: { status?: string } }).data.status, 'hired');
    });
  });
});
