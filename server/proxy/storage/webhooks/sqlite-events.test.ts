// The webhook events of the SQLite store: those of a refusal recorded with
// it, an event leased by a process that is gone taken back at once (one
// process owns the file), and a write under the lease of an application no
// longer there told as a lost lease.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeaseLostError } from '../outbox/application-store.ts';
import { SqliteApplicationStore } from '../outbox/sqlite-store.ts';
import { claimed, newApplication, refuse, storeEachTest } from '../test-support.ts';
import { HOUR } from '../../../test/time.ts';

describe('SQLite store webhook events', () => {
  const open = (owner: string): SqliteApplicationStore =>
    new SqliteApplicationStore({
      dataDir: test.dir,
      owner,
      now: () => test.now,
      webhookEvents: { includeCandidate: true },
    });
  const test = storeEachTest('jbc-sqlite-events-', () => open('process-1'));
  const types = async () => (await test.store.webhooks.list()).map((e) => `${e.reference}:${e.type}`).sort();

  it('records the refusal of an application as rejected, or dead-lettered once the candidate was told it was received', async () => {
    for (const reference of ['waiting', 'told'])
      await test.store.enqueue(newApplication(reference), { deadLetterAfterMs: HOUR });
    await test.store.answerQueued('told');
    assert.equal(await refuse(test.store, 'waiting'), 'rejected');
    assert.equal(await refuse(test.store, 'told'), 'dead');
    assert.deepEqual(await types(), [
      'told:application.dead_lettered',
      'told:application.received',
      'waiting:application.received',
      'waiting:application.rejected',
    ]);
  });

  it('takes back at once an event leased by a process that is gone, its lease not yet over', async () => {
    await test.store.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    assert.equal((await test.store.webhooks.claimDue(10, HOUR)).length, 1);
    await test.store.close();
    test.store = open('process-2');
    assert.equal(await test.store.webhooks.recoverLeases(), 1);
    assert.equal((await test.store.webhooks.claimDue(10, HOUR)).length, 1);
  });

  it('tells a write under the lease of an application no longer stored as a lost lease', async () => {
    await test.store.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    const lease = await claimed(test.store, 'r1');
    await assert.rejects(
      test.store.markRejected({ ...lease, reference: 'gone' }, 'upstream_rejected', 'validation_failed (422)'),
      LeaseLostError,
    );
  });
});
