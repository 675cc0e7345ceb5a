// The contract of what the store keeps for the application source and the
// campaign parameters, run against both implementations: SQLite in a data
// directory, and PostgreSQL (a fresh database; skipped without a server).
// A refusal remembered by one instance is known to every other on the
// database; a row remembers that it went without its source; an
// application's utm_* are kept with it, after its personal data is gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, it } from 'node:test';
import { LeaseLostError } from './application-store.ts';
import type { ApplicationStore } from './application-store.ts';
import { SOURCE_REFUSAL_MS } from '../../applications/application-source.ts';
import { claimed, forEachStore, newApplication } from '../test-support.ts';
import { HOUR } from '../../../test/time.ts';

forEachStore('application source and campaign parameters in the store', (harness) => {
  let dir: string;
  let now: number;
  let stores: ApplicationStore[];
  const open = async (owner: string) => {
    const store = await harness.open(owner, dir, () => now);
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-source-'));
    now = Date.UTC(2026, 0, 1);
    stores = [];
    await harness.reset(dir);
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("remembers a company's refusal of a source until its end, for that company and that source only", async () => {
    const store = await open('instance-1');
    assert.equal(await store.sourceRefused(3, 'jobboard_demo'), false);
    await store.rememberSourceRefusal(3, 'jobboard_demo', now + SOURCE_REFUSAL_MS);
    assert.equal(await store.sourceRefused(3, 'jobboard_demo'), true);
    assert.equal(await store.sourceRefused(4, 'jobboard_demo'), false, 'another company');
    assert.equal(await store.sourceRefused(3, 'jobboard_other'), false, 'another source');
    now += SOURCE_REFUSAL_MS - 1;
    assert.equal(await store.sourceRefused(3, 'jobboard_demo'), true, 'still within the day');
    now += 1;
    assert.equal(await store.sourceRefused(3, 'jobboard_demo'), false, 'a day later the source is tried again');
    // A refusal met again moves the end: one row per company and source.
    await store.rememberSourceRefusal(3, 'jobboard_demo', now + HOUR);
    assert.equal(await store.sourceRefused(3, 'jobboard_demo'), true);
    now += HOUR;
    assert.equal(await store.sourceRefused(3, 'jobboard_demo'), false);
  });

  it('shares a refusal with every other instance (or process) on the same database', async () => {
    const first = await open('instance-1');
    const second = await open('instance-2');
    await first.rememberSourceRefusal(3, 'jobboard_demo', now + SOURCE_REFUSAL_MS);
    assert.equal(await second.sourceRefused(3, 'jobboard_demo'), true);
    await first.close();
    stores = stores.filter((s) => s !== first);
    const later = await open('instance-3');
    assert.equal(await later.sourceRefused(3, 'jobboard_demo'), true, 'kept across a restart');
  });

  it('marks a claimed row as sent without its source, under its lease only, and lists it so', async () => {
    const store = await open('instance-1');
    await store.enqueue(newApplication('r1', { utm: null }), { deadLetterAfterMs: HOUR });
    assert.equal((await store.get('r1'))?.source_dropped, 0);
    const lease = await claimed(store, 'r1');
    await store.markSourceDropped(lease);
    await store.markDelivered(lease, 'created_applicant', { applicantId: 1, applicationId: 2 });
    assert.equal((await store.get('r1'))?.source_dropped, 1);
    assert.deepEqual(
      (await store.list()).map((r) => [r.reference, r.source_dropped]),
      [['r1', 1]],
    );
    await store.enqueue(newApplication('r2', { utm: null }), { deadLetterAfterMs: HOUR });
    const stale = await claimed(store, 'r2');
    await store.markRetry(stale, now, 'server_error (503)');
    await claimed(store, 'r2');
    await assert.rejects(store.markSourceDropped(stale), LeaseLostError);
    assert.equal((await store.get('r2'))?.source_dropped, 0);
  });

  it("keeps an application's campaign parameters, after delivery too (they are not personal data)", async () => {
    const store = await open('instance-1');
    const utm = { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring – café' };
    await store.enqueue(newApplication('r1', { utm: utm }), { deadLetterAfterMs: HOUR });
    await store.enqueue(newApplication('r2', { utm: null }), { deadLetterAfterMs: HOUR });
    assert.deepEqual((await store.get('r1'))?.utm, utm);
    assert.equal((await store.get('r2'))?.utm, null);
    await store.markDelivered(await claimed(store, 'r1'), 'created_applicant', {});
    const row = await store.get('r1');
    assert.deepEqual([row?.payload, row?.utm], [null, utm]);
    assert.deepEqual((await store.summary('r1'))?.utm, utm);
  });
});
