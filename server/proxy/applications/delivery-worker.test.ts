// The delivery worker's hold on the rows it attempts: a claim renewed while
// its attempt runs, and an attempt that writes nothing once its claim is
// lost. Real SQLite stores (two owners over one file stand for two
// instances); the recruitment service is a client whose answer the test releases.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { eventually } from '../../test/poll.ts';
import type { Lease } from '../storage/application-store.ts';
import { SqliteApplicationStore } from '../storage/sqlite-store.ts';
import { claimed } from '../storage/test-support.ts';
import type { DeliveryClient } from './delivery.ts';
import { DEFAULT_DELIVERY, DeliveryWorker } from './delivery-worker.ts';

const HOUR = 60 * 60 * 1000;

/** The SQLite store, counting the renewals the worker asks for. */
class CountingStore extends SqliteApplicationStore {
  renewals = 0;

  override async renewLease(lease: Lease, leaseMs: number): Promise<boolean> {
    this.renewals += 1;
    return super.renewLease(lease, leaseMs);
  }
}

/** A service whose createApplicant answers (201) only once the test calls answer(). */
function heldService(): { client: DeliveryClient; sent: () => number; answer: () => void } {
  let sent = 0;
  let answer = (): void => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const client = {
    jobboards: {
      async createApplicant() {
        sent += 1;
        await answered;
        return { id: 7, applications: [{ id: 9, campaign_id: 12 }] };
      },
    },
    applications: {},
  } as unknown as DeliveryClient;
  return { client, sent: () => sent, answer: () => answer() };
}

describe('delivery worker leases', () => {
  let dir: string;
  let now: number;
  let store: CountingStore;
  const events = { recorded: 0, lost: [] as string[] };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-worker-'));
    now = Date.UTC(2026, 0, 1);
    store = new CountingStore({ dataDir: dir, owner: 'process-1', now: () => now });
    await store.ready();
    await store.enqueue(
      { reference: 'r1', campaign_id: 12, company_id: 3, payload: { applicant: { email: 'ada@example.org', first_name: 'Ada' } }, resume: null, resume_type: null },
      { deadLetterAfterMs: HOUR },
    );
    events.recorded = 0;
    events.lost = [];
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function worker(client: DeliveryClient, leaseMs: number): DeliveryWorker {
    return new DeliveryWorker(store, client, { ...DEFAULT_DELIVERY, leaseMs }, () => now, {
      onRecorded: () => {
        events.recorded += 1;
      },
      onLeaseLost: (row) => {
        events.lost.push(row.reference);
      },
    });
  }

  it('renews its claim while the attempt runs, so the row is not taken back after the first lease would have ended', async () => {
    const service = heldService();
    const attempt = worker(service.client, 300).deliverNow('r1');
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
    now += 250;
    const before = store.renewals;
    await eventually(() => store.renewals > before, { timeoutMs: 5_000, what: 'a renewal after the clock moved' });
    now += 250;
    assert.equal(await store.recoverLeases(new Set()), 0, 'claimed for 300 ms 500 ms ago, renewed since: still held');
    service.answer();
    assert.equal((await attempt)?.kind, 'delivered');
    assert.equal((await store.get('r1'))?.status, 'delivered');
    assert.deepEqual(events, { recorded: 1, lost: [] });
  });

  it('writes nothing once another instance has taken the row back, and says so', async () => {
    const service = heldService();
    // A lease no renewal comes to during the test: the write itself finds the claim gone.
    const attempt = worker(service.client, 60_000).deliverNow('r1');
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
    const other = new SqliteApplicationStore({ dataDir: dir, owner: 'process-2', now: () => now });
    await other.ready();
    assert.equal(await other.recoverLeases(), 1);
    const held = await claimed(other, 'r1');
    service.answer();
    assert.equal((await attempt)?.kind, 'delivered');
    assert.deepEqual(events, { recorded: 0, lost: ['r1'] });
    const row = await store.get('r1');
    assert.deepEqual([row?.status, row?.outcome, row?.unconfirmed_send], ['delivering', null, 1], "the row is the other instance's, which looks at the service first");
    await other.markDelivered(held, 'found_delivered', { applicantId: 7, applicationId: 9 });
    await other.close();
  });

  it('abandons the attempt whose lease ran out before a renewal: it writes nothing, even with nobody else on the row yet', async () => {
    const service = heldService();
    const attempt = worker(service.client, 300).deliverNow('r1');
    await eventually(() => service.sent() === 1, { timeoutMs: 5_000, what: 'the attempt sent' });
    // The process stalled past its lease: the next renewal finds it over.
    now += 300;
    const before = store.renewals;
    await eventually(() => store.renewals > before, { timeoutMs: 5_000, what: 'a renewal after the lease ran out' });
    service.answer();
    assert.equal((await attempt)?.kind, 'delivered');
    assert.deepEqual(events, { recorded: 0, lost: ['r1'] });
    assert.equal((await store.get('r1'))?.status, 'delivering', 'left for whoever takes it back, who looks at the service first');
  });
});
