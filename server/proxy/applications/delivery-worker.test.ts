// The delivery worker's hold on the rows it attempts: a claim renewed while
// its attempt runs, and an attempt that writes nothing once its claim is
// lost. Real SQLite stores (two owners over one file stand for two
// instances); the recruitment service is a client whose answer the test releases.
import assert from 'node:assert/strict';
import { beforeEach, describe, it, mock } from 'node:test';
import { eventually } from '../../test/poll.ts';
import { ConflictError, PermissionError, ServerError } from '../../client/index.ts';
import { ResumeMissingError } from '../storage/outbox/application-store.ts';
import type { Lease } from '../storage/outbox/application-store.ts';
import { SqliteApplicationStore } from '../storage/outbox/sqlite-store.ts';
import { claimed, newApplication, storeEachTest, untilDelivered } from '../storage/test-support.ts';
import type { DeliveryClient } from './delivery.ts';
import { enqueueRow, heldService, scriptedService, workerStore } from './delivery-worker.test-support.ts';
import { refusedByService } from './delivery.test-support.ts';
import { DEFAULT_DELIVERY, DeliveryWorker } from './delivery-worker.ts';
import type { DeliveryOptions } from './delivery-worker.ts';

const HOUR = 60 * 60 * 1000;

/** The SQLite store, counting the renewals the worker asks for. */
class CountingStore extends SqliteApplicationStore {
  renewals = 0;

  override async renewLease(lease: Lease, leaseMs: number): Promise<boolean> {
    this.renewals += 1;
    return super.renewLease(lease, leaseMs);
  }
}

describe('delivery worker leases', () => {
  const test = storeEachTest('jbc-worker-', async (dir, now) => {
    const store = new CountingStore({ dataDir: dir, owner: 'process-1', now });
    await store.ready();
    return store;
  });
  const events = { recorded: 0, lost: [] as string[] };

  beforeEach(async () => {
    await test.store.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    events.recorded = 0;
    events.lost = [];
  });

  function worker(client: DeliveryClient, leaseMs: number): DeliveryWorker {
    return new DeliveryWorker(test.store, client, { ...DEFAULT_DELIVERY, leaseMs }, () => test.now, {
      onRecorded: () => {
        events.recorded += 1;
      },
      onLeaseLost: (row) => {
        events.lost.push(row.reference);
      },
    });
  }

  /** Sends r1 under a 300 ms lease to a service that holds its answer; once sent, moves the clock by `ms` and waits for the next renewal. */
  async function renewedAfter(ms: number) {
    const service = heldService();
    const attempt = worker(service.client, 300).deliverNow('r1');
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
    test.now += ms;
    const before = test.store.renewals;
    await eventually(() => test.store.renewals > before, { timeoutMs: 5_000, what: `a renewal ${ms} ms later` });
    return { service, attempt };
  }

  it('renews its claim while the attempt runs, so the row is not taken back after the first lease would have ended', async () => {
    const { service, attempt } = await renewedAfter(250);
    test.now += 250;
    assert.equal(
      await test.store.recoverLeases(new Set()),
      0,
      'claimed for 300 ms 500 ms ago, renewed since: still held',
    );
    service.answer();
    assert.equal((await attempt)?.kind, 'delivered');
    assert.equal((await test.store.get('r1'))?.status, 'delivered');
    assert.deepEqual(events, { recorded: 1, lost: [] });
  });

  it('renews its claim every third of the lease: six renewals over an attempt lasting two leases, none once it has ended', async () => {
    // Only the renewals' interval runs on the mocked clock; the store and the attempt run for real.
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const service = heldService();
      const attempt = worker(service.client, 60_000).deliverNow('r1');
      await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
      const before = test.store.renewals;
      mock.timers.tick(19_999);
      assert.equal(test.store.renewals, before, 'nothing before a third of the lease');
      mock.timers.tick(120_000 - 19_999);
      assert.equal(test.store.renewals - before, 6);
      service.answer();
      assert.equal((await attempt)?.kind, 'delivered');
      mock.timers.tick(120_000);
      assert.equal(test.store.renewals - before, 6, 'the attempt ended: its renewals stop');
    } finally {
      mock.timers.reset();
    }
  });

  it('writes nothing once another instance has taken the row back, and says so', async () => {
    const service = heldService();
    // A lease no renewal comes to during the test: the write itself finds the claim gone.
    const attempt = worker(service.client, 60_000).deliverNow('r1');
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
    const other = new SqliteApplicationStore({ dataDir: test.dir, owner: 'process-2', now: () => test.now });
    await other.ready();
    assert.equal(await other.recoverLeases(), 1);
    const held = await claimed(other, 'r1');
    service.answer();
    assert.equal((await attempt)?.kind, 'delivered');
    assert.deepEqual(events, { recorded: 0, lost: ['r1'] });
    const row = await test.store.get('r1');
    assert.deepEqual(
      [row?.status, row?.outcome, row?.unconfirmed_send],
      ['delivering', null, 1],
      "the row is the other instance's, which looks at the service first",
    );
    await other.markDelivered(held, 'found_delivered', { applicantId: 7, applicationId: 9 });
    await other.close();
  });

  it('abandons the attempt whose lease ran out before a renewal: it writes nothing, even with nobody else on the row yet', async () => {
    // The process stalled past its lease: the next renewal finds it over.
    const { service, attempt } = await renewedAfter(300);
    service.answer();
    assert.equal((await attempt)?.kind, 'delivered');
    assert.deepEqual(events, { recorded: 0, lost: ['r1'] });
    assert.equal(
      (await test.store.get('r1'))?.status,
      'delivering',
      'left for whoever takes it back, who looks at the service first',
    );
  });
});

const where = { method: 'POST', url: 'http://upstream/v2/jobboards/applicants' };

describe('delivery worker: what each attempt does to its row', () => {
  const test = storeEachTest('jbc-worker-', workerStore);
  let recorded: [string, string, string][];
  let blocks: string[];
  let errors: unknown[];

  beforeEach(() => {
    recorded = [];
    blocks = [];
    errors = [];
  });

  const enqueue = (reference: string, deadLetterAfterMs = HOUR) => enqueueRow(test.store, reference, deadLetterAfterMs);

  function worker(client: DeliveryClient, options: Partial<DeliveryOptions> = {}): DeliveryWorker {
    return new DeliveryWorker(
      test.store,
      client,
      { ...DEFAULT_DELIVERY, baseBackoffMs: 1_000, maxBackoffMs: 8_000, ...options },
      () => test.now,
      {
        onRecorded: (row, result, status) => recorded.push([row.reference, result.kind, status]),
        onBlocked: (block) => blocks.push(block.reason),
        onError: (_reference, error) => errors.push(error),
      },
    );
  }

  it('marks a delivered row delivered, with the ids the service gave', async () => {
    await enqueue('r1');
    const result = await worker(
      scriptedService([{ id: 70, applications: [{ id: 90, campaign_id: 12 }] }]).client,
    ).deliverNow('r1');
    assert.deepEqual(result, { kind: 'delivered', outcome: 'created_applicant', applicantId: 70, applicationId: 90 });
    const row = await test.store.get('r1');
    assert.deepEqual(
      [row?.status, row?.outcome, row?.upstream_applicant_id, row?.upstream_application_id],
      ['delivered', 'created_applicant', 70, 90],
    );
    assert.deepEqual(recorded, [['r1', 'delivered', 'delivered']]);
  });

  it('puts a failed attempt back in line after its backoff, remembering that it may have reached the service', async () => {
    await enqueue('r1');
    const error = new ServerError({ ...where, status: 503, code: 'server_error', message: 'down' });
    await worker(scriptedService([error]).client).deliverNow('r1');
    const row = await test.store.get('r1');
    assert.equal(row?.status, 'pending');
    assert.equal(row?.unconfirmed_send, 1);
    assert.equal(row?.last_error, 'server_error (503)');
    // First attempt: a step of 1 s, half of it random.
    assert.ok(
      row !== undefined && row.next_attempt_at >= test.now + 500 && row.next_attempt_at <= test.now + 1_000,
      String(row?.next_attempt_at),
    );
    assert.deepEqual(recorded, [['r1', 'retry', 'pending']]);
  });

  it('never puts a retry after the dead-letter time, and dead-letters the row failing at that time', async () => {
    await enqueue('r1', 200);
    const error = () => new ServerError({ ...where, status: 503, code: 'server_error', message: 'down' });
    const service = scriptedService([error(), error()]);
    const w = worker(service.client);
    await w.deliverNow('r1');
    assert.equal(
      (await test.store.get('r1'))?.next_attempt_at,
      test.now + 200,
      'due at its dead-letter time, not after',
    );
    test.now += 200;
    await w.deliverNow('r1');
    const row = await test.store.get('r1');
    assert.deepEqual([row?.status, row?.outcome], ['dead', 'expired']);
    assert.deepEqual(
      recorded.map((r) => r[2]),
      ['pending', 'dead'],
    );
  });

  it('on a refusal no retry can fix, stops every delivery (once, whatever follows) and keeps the row waiting past its dead-letter time', async () => {
    await enqueue('r1', 0);
    await enqueue('r2', 0);
    const refusal = (code: string) => new PermissionError({ ...where, status: 403, code, message: 'no' });
    const service = scriptedService([refusal('missing_scope')]);
    const w = worker(service.client);
    await w.deliverNow('r1');
    assert.deepEqual(blocks, ['missing_scope']);
    assert.equal(w.blocked?.reason, 'missing_scope');
    assert.equal((await test.store.get('r1'))?.status, 'pending', 'waits for the fix, not dead');
    assert.equal(await w.deliverNow('r2'), undefined, 'no attempt while blocked');
    assert.equal(service.sent(), 1);
    w.block('wrong_client_kind', 'wrong_client_kind (403)');
    assert.deepEqual(blocks, ['missing_scope'], 'the first reason stays');
    assert.equal(w.blocked?.reason, 'missing_scope');
  });

  it('marks a candidate who already applied rejected, and a refused application refused while its candidate waits', async () => {
    await enqueue('exists');
    await enqueue('refused');
    const conflict = new ConflictError({
      ...where,
      status: 409,
      code: 'application_exists',
      message: 'exists',
      existingId: undefined,
    });
    const invalid = refusedByService('validation_failed', [{ field: 'applicant.first_name', message: 'too long' }]);
    const w = worker(scriptedService([conflict, invalid]).client);
    await w.deliverNow('exists');
    await w.deliverNow('refused');
    const rows = await Promise.all(['exists', 'refused'].map((r) => test.store.get(r)));
    assert.deepEqual(
      rows.map((r) => [r?.status, r?.outcome]),
      [
        ['rejected', 'already_applied'],
        ['rejected', 'upstream_rejected'],
      ],
    );
    assert.equal(rows[0]?.last_error, 'application_exists (409)', "the service's answer");
    assert.deepEqual(recorded, [
      ['exists', 'already_applied', 'rejected'],
      ['refused', 'rejected', 'rejected'],
    ]);
  });

  it('dead-letters at once a row whose resume the store lost, sending nothing', async () => {
    await test.store.enqueue(newApplication('lost', { resumeIn: test.dir }), { deadLetterAfterMs: HOUR });
    test.store.openResume = async (reference) => Promise.reject(new ResumeMissingError(reference, 'its file'));
    const service = scriptedService([]);
    assert.equal((await worker(service.client).deliverNow('lost'))?.kind, 'resume_missing');
    const row = await test.store.get('lost');
    assert.deepEqual([row?.status, row?.outcome], ['dead', 'resume_missing']);
    assert.equal(service.sent(), 0);
    assert.deepEqual(recorded, [['lost', 'resume_missing', 'dead']]);
  });

  it('sends at most `concurrency` applications at once; the others wait for a slot, then go', async () => {
    for (const r of ['r1', 'r2', 'r3']) await enqueue(r);
    const service = scriptedService([]);
    service.close();
    const w = worker(service.client, { concurrency: 2 });
    const attempts = ['r1', 'r2', 'r3'].map((r) => w.deliverNow(r));
    await eventually(() => service.sent() === 2, { timeoutMs: 5_000, what: 'two sends' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(service.sent(), 2, 'the third waits');
    assert.equal((await test.store.get('r3'))?.status, 'pending', 'not claimed while it waits');
    service.open();
    const results = await Promise.all(attempts);
    assert.deepEqual(
      results.map((r) => r?.kind),
      ['delivered', 'delivered', 'delivered'],
    );
    assert.equal(service.sent(), 3);
  });

  it('gives a second caller for a row the attempt under way, and nothing for a row someone else holds', async () => {
    await enqueue('r1');
    await enqueue('r2');
    const service = scriptedService([]);
    const w = worker(service.client);
    const [first, second] = [w.deliverNow('r1'), w.deliverNow('r1')];
    assert.equal(first, second);
    assert.equal((await first)?.kind, 'delivered');
    await claimed(test.store, 'r2');
    assert.equal(await w.deliverNow('r2'), undefined);
    assert.equal(service.sent(), 1);
  });

  it('started, delivers what is due and what is queued later, retries a failure, and stops after the attempts under way', async () => {
    await enqueue('r1');
    const error = new ServerError({ ...where, status: 503, code: 'server_error', message: 'down' });
    const service = scriptedService([error]);
    // No backoff: the clock stands still, and the retry is due at once.
    const w = worker(service.client, { pollIntervalMs: 20, baseBackoffMs: 0, maxBackoffMs: 0, concurrency: 1 });
    w.start();
    await untilDelivered(test.store, 'r1', 'r1 delivered on its second attempt');
    await enqueue('r2');
    w.poke();
    await untilDelivered(test.store, 'r2', 'r2 delivered');
    await w.stop();
    await enqueue('r3');
    w.poke();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await test.store.get('r3'))?.status, 'pending', 'nothing after stop');
    assert.deepEqual(
      recorded.map((r) => r.slice(0, 2)),
      [
        ['r1', 'retry'],
        ['r1', 'delivered'],
        ['r2', 'delivered'],
      ],
    );
    assert.deepEqual(errors, []);
  });

  it('without listeners, delivers, retries and blocks all the same', async () => {
    await enqueue('r1');
    await enqueue('r2');
    const service = scriptedService([
      new ServerError({ ...where, status: 503, code: 'server_error', message: 'down' }),
      new PermissionError({ ...where, status: 403, code: 'missing_scope', message: 'no' }),
    ]);
    const w = new DeliveryWorker(test.store, service.client, DEFAULT_DELIVERY, () => test.now);
    assert.equal((await w.deliverNow('r1'))?.kind, 'retry');
    assert.equal((await w.deliverNow('r2'))?.kind, 'retry');
    assert.equal(w.blocked?.reason, 'missing_scope');
  });

  it('passes on a write that failed for another reason than a lost lease', async () => {
    await enqueue('r1');
    const full = new Error('database or disk is full');
    test.store.markDelivered = async () => Promise.reject(full);
    const lost: string[] = [];
    const w = new DeliveryWorker(test.store, scriptedService([]).client, DEFAULT_DELIVERY, () => test.now, {
      onLeaseLost: (row) => lost.push(row.reference),
    });
    await assert.rejects(w.deliverNow('r1'), full);
    assert.deepEqual(lost, []);
  });

  it('stopping, waits for the attempts under way', async () => {
    await enqueue('r1');
    const service = scriptedService([]);
    service.close();
    const w = worker(service.client);
    const attempt = w.deliverNow('r1');
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(stopped, false, 'the attempt still runs');
    service.open();
    await stopping;
    assert.equal((await attempt)?.kind, 'delivered');
    assert.equal((await test.store.get('r1'))?.status, 'delivered');
  });

  it('at start, takes back the rows a killed process held and makes every waiting row due now', async () => {
    await enqueue('killed');
    await enqueue('waiting');
    const other = new SqliteApplicationStore({ dataDir: test.dir, owner: 'process-0', now: () => test.now });
    await other.ready();
    await claimed(other, 'killed', 1);
    await test.store.markRetry(await claimed(test.store, 'waiting'), test.now + 10 * HOUR, 'server_error (503)');
    await other.close();
    test.now += 10;
    const w = worker(scriptedService([]).client, { pollIntervalMs: 20 });
    w.start();
    await eventually(async () => (await test.store.counts()).delivered === 2, {
      timeoutMs: 5_000,
      what: 'both delivered',
    });
    await w.stop();
  });
});

describe('DEFAULT_DELIVERY', () => {
  it('waits 30 s for the service, backs off from 5 s to 15 min, looks for due rows every second, leases for a minute, sends 4 at once, with no source unless given one', () => {
    assert.deepEqual(DEFAULT_DELIVERY, {
      upstreamTimeoutMs: 30_000,
      baseBackoffMs: 5_000,
      maxBackoffMs: 900_000,
      pollIntervalMs: 1_000,
      leaseMs: 60_000,
      concurrency: 4,
      source: null,
    });
  });
});
