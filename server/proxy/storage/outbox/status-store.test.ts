// The contract of what the store keeps after delivery (StatusStore): the
// receipts, found by their token, and the status sync's claims, run against
// SQLite and PostgreSQL (skipped without a server). On PostgreSQL, instances
// claiming at the same time never share an application.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, it } from 'node:test';
import type { ApplicationStore, NewApplication } from './application-store.ts';
import { claimed, forEachStore, newApplication } from '../test-support.ts';
import { DAY, HOUR } from '../../../test/time.ts';

const PERIOD = 6 * HOUR;

function application(reference: string, token?: string): NewApplication {
  return {
    ...newApplication(reference, { email: `${reference}@example.org` }),
    ...(token === undefined ? {} : { receipt_token: token }),
  };
}

forEachStore('after delivery: receipts and status checks', (harness) => {
  let dir: string;
  let now: number;
  let store: ApplicationStore;
  const open = (owner: string) => harness.open(owner, dir, () => now);

  /** Stores and delivers an application as the service's application `applicationId`. */
  async function delivered(reference: string, applicationId: number | undefined, token?: string): Promise<void> {
    await store.enqueue(application(reference, token), { deadLetterAfterMs: DAY });
    await store.markDelivered(await claimed(store, reference), 'created_applicant', {
      applicantId: 1,
      ...(applicationId === undefined ? {} : { applicationId }),
    });
  }
  const claimIds = async (s: ApplicationStore, limit = 10) =>
    (await s.claimStatusChecks(now, now - 90 * DAY, now - PERIOD, limit))
      .map((c) => c.applicationId)
      .sort((a, b) => a - b);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-status-'));
    now = Date.UTC(2026, 0, 1);
    // The first open migrates; the store is then emptied before each test.
    await (await open('migrations')).close();
  });
  beforeEach(async () => {
    await harness.reset(dir);
    now = Date.UTC(2026, 0, 1);
    store = await open('instance-1');
  });
  afterEach(() => store.close());
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("finds a receipt by its token only, with the application's state and no personal data", async () => {
    const receivedAt = now;
    await store.enqueue(application('r1', 'tok-1'), { deadLetterAfterMs: DAY });
    now += DAY;
    assert.deepEqual(await store.receipt('tok-1'), {
      status: 'pending',
      company_status: null,
      campaign_id: 12,
      company_id: 3,
      created_at: receivedAt,
    });
    assert.equal(await store.receipt('r1'), undefined, 'the reference is not a token');
    assert.equal(await store.receipt('tok-2'), undefined);
    await store.markDelivered(await claimed(store, 'r1'), 'created_applicant', { applicantId: 1, applicationId: 7 });
    assert.equal((await store.receipt('tok-1'))?.status, 'delivered');
    const [check] = await store.claimStatusChecks(now, now - DAY, now - PERIOD, 10);
    await store.recordStatus(check!, 'interview');
    assert.deepEqual(
      await store.receipt('tok-1'),
      { status: 'delivered', company_status: 'interview', campaign_id: 12, company_id: 3, created_at: receivedAt },
      "the company's status, once read; the date it was received",
    );
    assert.equal('receipt_token' in ((await store.summary('r1')) ?? {}), false, '`outbox list` never shows the token');
  });

  it('claims delivered applications with their id, within the window, each once per period', async () => {
    await delivered('a', 101);
    await delivered('no-id', undefined);
    await store.enqueue(application('waiting'), { deadLetterAfterMs: DAY });
    now += 91 * DAY;
    await delivered('b', 102);
    // 'a' was delivered 91 days ago: out of the 90-day window.
    assert.deepEqual(await claimIds(store), [102]);
    assert.deepEqual(await claimIds(store), [], 'claimed: not due again within the period');
    const other = await open('instance-2');
    try {
      now += PERIOD - 1;
      assert.deepEqual(await claimIds(other), [], 'nor for another instance');
      now += 1;
      assert.deepEqual(await claimIds(other), [102], 'due again once the period has passed');
    } finally {
      await other.close();
    }
  });

  it('records the status under its claim only, and a released check is due again at once', async () => {
    await delivered('a', 101);
    const [check] = await store.claimStatusChecks(now, now - DAY, now - PERIOD, 10);
    assert.ok(check);
    assert.equal(check.companyStatus, null);
    assert.equal(await store.recordStatus(check, 'interview'), true);
    assert.equal((await store.get('a'))?.company_status, 'interview');

    now += PERIOD;
    const [second] = await store.claimStatusChecks(now, now - DAY, now - PERIOD, 10);
    assert.equal(second?.companyStatus, 'interview', 'the last status read comes with the claim');
    assert.equal(await store.recordStatus(check, 'stale'), false, 'a write under an older claim changes nothing');
    await store.releaseStatusCheck(second!);
    assert.deepEqual(await claimIds(store), [101], 'released: due again at once');
  });

  it('gives the never-checked applications first, then the longest unchecked, up to the limit', async () => {
    await delivered('a', 101);
    await delivered('b', 102);
    assert.deepEqual(await claimIds(store, 1), [101]);
    now += PERIOD;
    await delivered('c', 103);
    assert.deepEqual(await claimIds(store, 2), [102, 103]);
    assert.deepEqual(await claimIds(store, 2), [101]);
  });

  if (harness.shared)
    it('gives each application to one live instance per period when several claim at the same time', async () => {
      const stores = [store, ...(await Promise.all(['instance-2', 'instance-3'].map((owner) => open(owner))))];
      try {
        const [first] = stores;
        for (let i = 1; i <= 30; i++) {
          await first!.enqueue(application(`r${i}`), { deadLetterAfterMs: DAY });
          await first!.markDelivered(await claimed(first!, `r${i}`), 'created_applicant', {
            applicantId: i,
            applicationId: 1000 + i,
          });
        }
        const rounds = await Promise.all(
          stores.flatMap((s) => [1, 2, 3].map(() => s.claimStatusChecks(now, now - DAY, now - PERIOD, 4))),
        );
        const ids = rounds.flat().map((c) => c.applicationId);
        assert.equal(new Set(ids).size, ids.length, 'no application claimed twice');
        assert.equal(ids.length, 30, 'every application claimed by one of them');
      } finally {
        await Promise.all(stores.slice(1).map((s) => s.close()));
      }
    });
});
