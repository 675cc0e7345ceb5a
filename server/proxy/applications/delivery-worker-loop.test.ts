// The delivery worker around its attempts: the board's source refused and
// remembered, the errors it reports rather than throws (listeners or none),
// what it does when it may not attempt, and its loop's pace. Real SQLite
// stores; the recruitment service is a scripted stand-in.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { eventually } from '../../test/poll.ts';
import { ServerError, ValidationError } from '../../client/index.ts';
import type { Lease } from '../storage/outbox/application-store.ts';
import { SqliteApplicationStore } from '../storage/outbox/sqlite-store.ts';
import { claimed, storeEachTest, untilDelivered } from '../storage/test-support.ts';
import type { DeliveryClient } from './delivery.ts';
import { DEFAULT_DELIVERY, DeliveryWorker } from './delivery-worker.ts';
import type { DeliveryOptions } from './delivery-worker.ts';
import { enqueueRow, heldService, scriptedService, workerStore } from './delivery-worker.test-support.ts';
import { refusedByService } from './delivery.test-support.ts';

const HOUR = 60 * 60 * 1000;
const where = { method: 'POST', url: 'http://upstream/v2/jobboards/applicants' };
const down = () => new ServerError({ ...where, status: 503, code: 'server_error', message: 'down' });
const sourceRefused = () => new ValidationError({ ...where, status: 422, code: 'source_not_allowed', message: 'no' });

describe('delivery worker: around its attempts', () => {
  const test = storeEachTest('jbc-worker-', workerStore);
  let recorded: [string, string, string][];
  let errors: [string, unknown][];
  let refusedSources: string[];
  let sourceDrops: number;

  beforeEach(() => {
    recorded = [];
    errors = [];
    refusedSources = [];
    sourceDrops = 0;
    const markSourceDropped = test.store.markSourceDropped.bind(test.store);
    test.store.markSourceDropped = async (lease: Lease) => {
      sourceDrops += 1;
      return markSourceDropped(lease);
    };
  });

  const enqueue = (reference: string) => enqueueRow(test.store, reference, HOUR);

  function worker(client: DeliveryClient, options: Partial<DeliveryOptions> = {}): DeliveryWorker {
    return new DeliveryWorker(test.store, client, { ...DEFAULT_DELIVERY, ...options }, () => test.now, {
      onRecorded: (row, result, status) => recorded.push([row.reference, result.kind, status]),
      onError: (reference, error) => errors.push([reference, error]),
      onSourceRefused: (row) => refusedSources.push(row.reference),
    });
  }

  const source = { value: 'jobboard_acme', board: 'Acme Jobs' };

  it('when the company refuses the source, says so once, marks the row as sent without it, and sends the next one of that company without it', async () => {
    await enqueue('r1');
    await enqueue('r2');
    const w = worker(scriptedService([sourceRefused()]).client, { source });
    assert.equal((await w.deliverNow('r1'))?.kind, 'delivered');
    assert.deepEqual(refusedSources, ['r1']);
    assert.equal((await test.store.get('r1'))?.source_dropped, 1);
    assert.equal((await w.deliverNow('r2'))?.kind, 'delivered');
    assert.deepEqual(refusedSources, ['r1'], 'a remembered refusal is no new refusal');
    assert.equal((await test.store.get('r2'))?.source_dropped, 1);
    assert.equal(sourceDrops, 2);
  });

  it('marks a row sent without its source once, not again at its next attempt', async () => {
    await enqueue('r1');
    const w = worker(scriptedService([sourceRefused(), down()]).client, { source, baseBackoffMs: 0, maxBackoffMs: 0 });
    assert.equal((await w.deliverNow('r1'))?.kind, 'retry');
    assert.equal(sourceDrops, 1);
    assert.equal((await w.deliverNow('r1'))?.kind, 'delivered');
    assert.equal(sourceDrops, 1, 'already marked');
  });

  it('without a source, marks nothing about it', async () => {
    await enqueue('r1');
    assert.equal((await worker(scriptedService([]).client).deliverNow('r1'))?.kind, 'delivered');
    assert.deepEqual([sourceDrops, refusedSources], [0, []]);
  });

  it('says a refusal the store could not record went unrecorded', async () => {
    await enqueue('refused');
    test.store.markRefused = async () => undefined;
    const invalid = refusedByService('validation_failed', [{ field: 'applicant.first_name', message: 'too long' }]);
    await worker(scriptedService([invalid]).client).deliverNow('refused');
    assert.deepEqual(recorded, [['refused', 'rejected', 'unrecorded']]);
  });

  it('writes nothing once its store has closed, and says the attempt went unrecorded', async () => {
    await enqueue('r1');
    const service = heldService();
    const attempt = worker(service.client).deliverNow('r1');
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
    await test.store.close();
    service.answer();
    assert.equal((await attempt)?.kind, 'delivered');
    assert.deepEqual(recorded, [['r1', 'delivered', 'unrecorded']]);
  });

  it('attempts nothing while stopping, once blocked, or with its store closed', async () => {
    await enqueue('r1');
    const service = scriptedService([]);
    const stopping = worker(service.client);
    await stopping.stop();
    assert.equal(await stopping.deliverNow('r1'), undefined);
    const blocked = worker(service.client);
    blocked.block('missing_scope', 'missing_scope (403)');
    assert.equal(await blocked.deliverNow('r1'), undefined);
    await test.store.close();
    assert.equal(await worker(service.client).deliverNow('r1'), undefined);
    assert.equal(service.sent(), 0);
  });

  it('started twice, makes one start pass, and reports its failure with "-"', async () => {
    const broken = new Error('database gone');
    let passes = 0;
    test.store.makePendingDue = async () => {
      passes += 1;
      return Promise.reject(broken);
    };
    const w = worker(scriptedService([]).client, { pollIntervalMs: 60_000 });
    w.start();
    w.start();
    await eventually(() => errors.length > 0, { timeoutMs: 5_000, what: 'the start pass reported' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await w.stop();
    assert.deepEqual([passes, errors], [1, [['-', broken]]]);
  });

  it('never takes back a row its own attempt still holds, even once its lease has run out', async () => {
    await enqueue('r1');
    const service = heldService();
    const w = worker(service.client, { pollIntervalMs: 10 });
    const attempt = w.deliverNow('r1');
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
    test.now += 2 * DEFAULT_DELIVERY.leaseMs;
    w.start();
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.deepEqual(
      [service.sent(), (await test.store.get('r1'))?.status],
      [1, 'delivering'],
      'not taken back, not sent twice',
    );
    service.answer();
    await attempt;
    await w.stop();
  });

  it('reports a pass that failed with "-", at start and at each pass after, and goes on', async () => {
    const broken = new Error('database gone');
    test.store.recoverLeases = async () => Promise.reject(broken);
    const w = worker(scriptedService([]).client, { pollIntervalMs: 10 });
    w.start();
    w.start();
    await eventually(() => errors.length >= 3, { timeoutMs: 5_000, what: 'three passes failed' });
    await w.stop();
    assert.ok(errors.every(([reference, error]) => reference === '-' && error === broken));
  });

  it("reports an attempt of the loop whose result could not be written, by the row's reference", async () => {
    await enqueue('r1');
    const full = new Error('database or disk is full');
    test.store.markDelivered = async () => Promise.reject(full);
    const w = worker(scriptedService([]).client, { pollIntervalMs: 10 });
    w.start();
    await eventually(() => errors.length > 0, { timeoutMs: 5_000, what: 'the failed write reported' });
    await w.stop();
    assert.deepEqual(errors[0], ['r1', full]);
  });

  describe('at a renewal (setInterval mocked)', () => {
    beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
    afterEach(() => mock.timers.reset());

    it('reports a renewal the store could not answer, by reference, and keeps the attempt', async () => {
      await enqueue('r1');
      const broken = new Error('database gone');
      test.store.renewLease = async () => Promise.reject(broken);
      const service = heldService();
      const attempt = worker(service.client).deliverNow('r1');
      await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
      mock.timers.tick(DEFAULT_DELIVERY.leaseMs / 3);
      await eventually(() => errors.length === 1, { timeoutMs: 5_000, what: 'the renewal reported' });
      service.answer();
      assert.equal((await attempt)?.kind, 'delivered');
      assert.deepEqual(errors, [['r1', broken]]);
      assert.equal((await test.store.get('r1'))?.status, 'delivered');
    });

    it('without listeners, a failed pass, a failed renewal, a lease lost and a refused source throw nothing', async () => {
      await enqueue('r1');
      await enqueue('r2');
      const recover = test.store.recoverLeases.bind(test.store);
      test.store.recoverLeases = async () => Promise.reject(new Error('database gone'));
      test.store.renewLease = async () => Promise.reject(new Error('database gone'));
      const service = heldService();
      const bare = new DeliveryWorker(
        test.store,
        service.client,
        { ...DEFAULT_DELIVERY, source, pollIntervalMs: 10 },
        () => test.now,
      );
      bare.start();
      const attempt = bare.deliverNow('r1');
      await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
      mock.timers.tick(DEFAULT_DELIVERY.leaseMs / 3);
      // Another instance takes the row back meanwhile: the write finds the lease lost.
      test.store.recoverLeases = recover;
      const other = new SqliteApplicationStore({ dataDir: test.dir, owner: 'process-2', now: () => test.now });
      await other.ready();
      assert.equal(await other.recoverLeases(), 1);
      await claimed(other, 'r1');
      service.answer();
      assert.equal((await attempt)?.kind, 'delivered');
      await other.close();
      await bare.stop();
      const refusing = new DeliveryWorker(
        test.store,
        scriptedService([sourceRefused()]).client,
        { ...DEFAULT_DELIVERY, source },
        () => test.now,
      );
      assert.equal((await refusing.deliverNow('r2'))?.kind, 'delivered');
      // And an attempt of the loop whose write fails.
      await enqueue('r3');
      test.store.markDelivered = async () => Promise.reject(new Error('database or disk is full'));
      const looping = new DeliveryWorker(
        test.store,
        scriptedService([]).client,
        { ...DEFAULT_DELIVERY, pollIntervalMs: 10 },
        () => test.now,
      );
      looping.start();
      await eventually(async () => (await test.store.get('r3'))?.attempts === 1, {
        timeoutMs: 5_000,
        what: 'r3 attempted',
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await looping.stop();
    });

    it('without listeners, a lease found lost at its renewal throws nothing', async () => {
      await enqueue('r1');
      test.store.renewLease = async () => false;
      const service = heldService();
      const attempt = new DeliveryWorker(test.store, service.client, DEFAULT_DELIVERY, () => test.now).deliverNow('r1');
      await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
      mock.timers.tick(DEFAULT_DELIVERY.leaseMs / 3);
      await new Promise((resolve) => setImmediate(resolve));
      service.answer();
      assert.equal((await attempt)?.kind, 'delivered');
      assert.equal((await test.store.get('r1'))?.status, 'delivering', 'nothing written under a lost lease');
    });
  });

  it("started with a slow poll, delivers a poked row and a failed attempt's retry at once, not at the next poll", async () => {
    await enqueue('r1');
    const service = scriptedService([down()]);
    const w = worker(service.client, { pollIntervalMs: 60_000, baseBackoffMs: 0, maxBackoffMs: 0 });
    w.start();
    await untilDelivered(test.store, 'r1', 'r1 retried and delivered');
    // The loop settles into its minute-long wait; only the poke can wake it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await enqueue('r2');
    w.poke();
    await untilDelivered(test.store, 'r2', 'r2 delivered once poked');
    await w.stop();
  });

  it('the loop claims only as many rows as it has free send slots, and none once blocked', async () => {
    await enqueue('r1');
    await enqueue('r2');
    const service = heldService();
    const w = worker(service.client, { pollIntervalMs: 10, concurrency: 1 });
    w.start();
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'one attempt sent' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const statuses = await Promise.all(['r1', 'r2'].map(async (r) => (await test.store.get(r))?.status));
    assert.deepEqual(statuses.sort(), ['delivering', 'pending'], 'the second row waits unclaimed');
    w.block('missing_scope', 'missing_scope (403)');
    service.answer();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await w.stop();
    assert.equal(service.sent(), 1, 'nothing claimed once blocked');
  });
});
