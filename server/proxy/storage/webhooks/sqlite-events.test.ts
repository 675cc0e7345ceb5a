// The webhook events of the SQLite store: those of a refusal recorded with
// it, an event leased by a process that is gone taken back at once (one
// process owns the file), and a write under the lease of an application no
// longer there told as a lost lease.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { LeaseLostError } from '../outbox/application-store.ts';
import { SqliteApplicationStore } from '../outbox/sqlite-store.ts';
import { claimed, newApplication } from '../test-support.ts';

const HOUR = 60 * 60 * 1000;

describe('SQLite store webhook events', () => {
  let dir: string;
  let now: number;
  let store: SqliteApplicationStore;
  const open = (owner: string) =>
    new SqliteApplicationStore({ dataDir: dir, owner, now: () => now, webhookEvents: { includeCandidate: true } });
  const types = async () => (await store.webhooks.list()).map((e) => `${e.reference}:${e.type}`).sort();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-sqlite-events-'));
    now = Date.UTC(2026, 0, 1);
    store = open('process-1');
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the refusal of an application as rejected, or dead-lettered once the candidate was told it was received', async () => {
    for (const reference of ['waiting', 'told'])
      await store.enqueue(newApplication(reference), { deadLetterAfterMs: HOUR });
    await store.answerQueued('told');
    assert.equal(
      await store.markRefused(await claimed(store, 'waiting'), 'upstream_rejected', 'validation_failed (422)'),
      'rejected',
    );
    assert.equal(
      await store.markRefused(await claimed(store, 'told'), 'upstream_rejected', 'validation_failed (422)'),
      'dead',
    );
    assert.deepEqual(await types(), [
      'told:application.dead_lettered',
      'told:application.received',
      'waiting:application.received',
      'waiting:application.rejected',
    ]);
  });

  it('takes back at once an event leased by a process that is gone, its lease not yet over', async () => {
    await store.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    assert.equal((await store.webhooks.claimDue(10, HOUR)).length, 1);
    await store.close();
    store = open('process-2');
    assert.equal(await store.webhooks.recoverLeases(), 1);
    assert.equal((await store.webhooks.claimDue(10, HOUR)).length, 1);
  });

  it('tells a write under the lease of an application no longer stored as a lost lease', async () => {
    await store.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    const lease = await claimed(store, 'r1');
    await assert.rejects(
      store.markRejected({ ...lease, reference: 'gone' }, 'upstream_rejected', 'validation_failed (422)'),
      LeaseLostError,
    );
  });
});
