// The contract of the application store, run against both implementations:
// SQLite in a data directory, and PostgreSQL (a fresh database; skipped
// without a server). Where they differ by design (SQLite: one process owns
// the file, so another owner's rows are taken back at once; PostgreSQL:
// other instances are alive, so only once their lease has ended), the test
// says which rule it checks.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import pg from 'pg';
import { emailBucket } from '../../applications/form.ts';
import { freshDatabase, skipWithoutPostgres } from '../../../test/postgres.ts';
import { eventually } from '../../../test/poll.ts';
import {
  IDEMPOTENCY_TTL_MS,
  KEY_LEASE_MS,
  LeaseLostError,
  ResumeMissingError,
  eraseAfter,
} from './application-store.ts';
import type { ApplicationStore, ClaimedRow, NewApplication, OutboxSummary } from './application-store.ts';
import { PostgresApplicationStore } from './postgres-store.ts';
import { claimed, forEachStore, newApplication, storedResume, uploadedResume } from '../test-support.ts';
import type { StoreHarness } from '../test-support.ts';
import { DAY, HOUR } from '../../../test/time.ts';

const skipPostgres = skipWithoutPostgres();
// At the top of the file, for the suite across live instances: the database is dropped when the file ends.
const databaseUrl = skipPostgres === false ? await freshDatabase() : undefined;

/** Takes a stored resume away from outside the proxy, as a hand or a bug could. */
async function loseResume(harness: StoreHarness, reference: string, dir: string): Promise<void> {
  if (harness.name === 'SQLite') rmSync(join(dir, 'resumes', reference));
  else await harness.pool()!.query('DELETE FROM resume_chunks WHERE reference = $1 AND seq = 0', [reference]);
}

forEachStore('application store contract', (harness) => {
  let dir: string;
  let now: number;
  let outbox: ApplicationStore;
  const open = (owner: string) => harness.open(owner, dir, () => now);
  const due = async (store = outbox) => (await store.claimDue(10, 60_000)).map((r) => r.reference);

  const application = (reference: string, email?: string) => newApplication(reference, { resumeIn: dir, email });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-store-'));
    now = Date.UTC(2026, 0, 1);
    await harness.reset(dir);
    outbox = await open('process-1');
  });
  afterEach(async () => {
    await outbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a stored application, with its resume, for the next process', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    await outbox.close();
    outbox = await open('process-2');
    const row = await outbox.get('r1');
    assert.equal(row?.status, 'pending');
    assert.equal(row?.resume_bytes, 15);
    assert.equal(row?.campaign_id, 12);
    assert.equal(row?.created_at, now);
    assert.equal((await storedResume(outbox, 'r1'))?.toString(), '%PDF-1.4 resume');
    assert.deepEqual(row?.payload?.applicant, { email: 'ada@example.org', first_name: 'Ada' });
  });

  it('stores a resume of several chunks and reads it back whole, byte for byte', async () => {
    const bytes = Buffer.alloc(700 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 251;
    await outbox.enqueue({ ...application('big'), resume: uploadedResume(dir, bytes) }, { deadLetterAfterMs: HOUR });
    assert.equal((await outbox.get('big'))?.resume_bytes, bytes.length);
    assert.ok((await storedResume(outbox, 'big'))?.equals(bytes));
  });

  it('names a resume the store lost (ResumeMissingError with the reference), and one erased meanwhile as none', async () => {
    await outbox.enqueue(application('lost'), { deadLetterAfterMs: HOUR });
    await loseResume(harness, 'lost', dir);
    await assert.rejects(
      outbox.openResume('lost'),
      (error: unknown) =>
        error instanceof ResumeMissingError && error.reference === 'lost' && /missing/.test(error.message),
    );
    await outbox.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
    assert.equal(await outbox.openResume('lost'), undefined);
  });

  it('counts an attempt when it claims a row, and lets only one claim win', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const [first, second] = await Promise.all([outbox.claim('r1', 60_000), outbox.claim('r1', 60_000)]);
    const won = [first, second].filter((r) => r !== undefined);
    assert.equal(won.length, 1);
    assert.equal(won[0]?.attempts, 1);
    assert.equal(won[0]?.status, 'delivering');
  });

  it('leaves a new row to the request that stored it for firstAttemptAfterMs: the loop claims it only then, in this instance or another', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR, firstAttemptAfterMs: 20_000 });
    const other = await open('process-2');
    try {
      now += 19_999;
      assert.deepEqual(await due(), []);
      assert.deepEqual(await due(other), []);
      assert.equal((await outbox.get('r1'))?.created_at, now - 19_999);
      now += 1;
      assert.deepEqual(await due(other), ['r1']);
    } finally {
      await other.close();
    }
    // The request's own claim, by reference, does not wait.
    await outbox.enqueue(application('r2'), { deadLetterAfterMs: HOUR, firstAttemptAfterMs: 20_000 });
    assert.equal((await outbox.claim('r2', 60_000))?.attempts, 1);
  });

  it('claims no more rows than asked, however many are due', async () => {
    for (const ref of ['a', 'b', 'c', 'd', 'e', 'f'])
      await outbox.enqueue(application(ref), { deadLetterAfterMs: 1000 });
    assert.equal((await outbox.claimDue(1, 60_000)).length, 1);
    assert.equal((await outbox.claimDue(2, 60_000)).length, 2);
    assert.equal((await outbox.claimDue(10, 60_000)).length, 3);
  });

  it('never gives one due row to two claimers at once', async () => {
    for (let i = 0; i < 20; i++)
      await outbox.enqueue({ ...application(`r${i}`), resume: null, resume_type: null }, { deadLetterAfterMs: HOUR });
    const other = await open('process-2');
    const claims = await Promise.all([
      outbox.claimDue(8, 60_000),
      other.claimDue(8, 60_000),
      outbox.claimDue(8, 60_000),
      other.claimDue(8, 60_000),
    ]);
    const references = claims.flat().map((r) => r.reference);
    assert.equal(
      new Set(references).size,
      references.length,
      `a row was claimed twice: ${references.sort().join(' ')}`,
    );
    assert.equal(references.length, 20, 'every due row was claimed by someone');
    assert.ok(claims.flat().every((r) => r.attempts === 1));
    await other.close();
  });

  it('weighs the queue as the resumes of the applications not yet delivered, dead ones included', async () => {
    assert.equal(await outbox.queuedResumeBytes(), 0);
    const sized = (reference: string, size: number): NewApplication => ({
      ...application(reference),
      resume: uploadedResume(dir, Buffer.alloc(size, 1)),
    });
    await outbox.enqueue(sized('waiting', 1_000), { deadLetterAfterMs: HOUR });
    await outbox.enqueue(sized('delivered', 20_000), { deadLetterAfterMs: HOUR });
    await outbox.enqueue(sized('dead', 300), { deadLetterAfterMs: HOUR });
    await outbox.enqueue(sized('refused', 4_000), { deadLetterAfterMs: HOUR });
    await outbox.enqueue({ ...application('no-resume'), resume: null, resume_type: null }, { deadLetterAfterMs: HOUR });
    assert.equal(await outbox.queuedResumeBytes(), 25_300);
    const deliveredLease = await claimed(outbox, 'delivered');
    await outbox.markDelivered(deliveredLease, 'created_applicant', {});
    const deadLease = await claimed(outbox, 'dead');
    await outbox.markDead(deadLease, 'expired', 'server_error (503)');
    const refusedLease = await claimed(outbox, 'refused');
    await outbox.markRejected(refusedLease, 'upstream_rejected', 'validation');
    assert.equal(await outbox.queuedResumeBytes(), 1_300);
  });

  it('forgets the personal data and the resume in the same write that marks a row delivered', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const r1Lease = await claimed(outbox, 'r1');
    await outbox.markDelivered(r1Lease, 'created_applicant', { applicantId: 7, applicationId: 9 });
    const row = await outbox.get('r1');
    assert.equal(row?.status, 'delivered');
    assert.equal(row?.payload, null);
    assert.equal(row?.resume_bytes, null);
    assert.equal(await storedResume(outbox, 'r1'), null);
    assert.equal(row?.upstream_application_id, 9);
  });

  it('names the row that recorded an application of the service as its delivery, and no row for one none recorded', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    await outbox.enqueue(application('r2'), { deadLetterAfterMs: HOUR });
    await outbox.markDelivered(await claimed(outbox, 'r1'), 'created_applicant', { applicantId: 7, applicationId: 9 });
    await outbox.markDelivered(await claimed(outbox, 'r2'), 'created_application', {
      applicantId: 7,
      applicationId: 10,
    });
    assert.equal(await outbox.recordedApplication(9), 'r1');
    assert.equal(await outbox.recordedApplication(10), 'r2');
    assert.equal(await outbox.recordedApplication(11), undefined);
  });

  it('takes back the rows of a process that died while delivering (SQLite: at once; PostgreSQL: once their lease ends, never earlier)', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    await outbox.claim('r1', 10 * 60_000);
    // process-1 is killed: it never records its attempt.
    const next = await open('process-2');
    assert.deepEqual(await due(next), []);
    if (harness.shared) {
      now += 10 * 60_000 - 1;
      assert.equal(await next.recoverLeases(), 0, 'the lease is still running: its owner may still be delivering');
      assert.equal((await next.get('r1'))?.status, 'delivering');
      now += 1;
    }
    assert.equal(await next.recoverLeases(), 1);
    const [row] = await next.claimDue(10, 60_000);
    assert.equal(row?.reference, 'r1');
    assert.equal(row?.attempts, 2, 'the interrupted attempt stays counted');
    assert.equal(row?.unconfirmed_send, 1, 'the interrupted attempt may have reached the service');
    await next.close();
  });

  it('does not take back a row this process is still delivering, even past its lease', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    await outbox.claim('r1', 1);
    now += 10;
    assert.equal(await outbox.recoverLeases(new Set(['r1'])), 0);
    assert.equal(await outbox.recoverLeases(new Set()), 1);
  });

  it('gives a row taken back its place in line: ahead of the rows that became due while it was held', async () => {
    await outbox.enqueue(application('held'), { deadLetterAfterMs: HOUR });
    await outbox.claim('held', 1_000);
    now += 10;
    await outbox.enqueue(application('later'), { deadLetterAfterMs: HOUR });
    now += 1_000;
    const next = await open('process-2');
    assert.equal(await next.recoverLeases(), 1);
    assert.deepEqual(
      (await next.claimDue(1, 60_000)).map((r) => r.reference),
      ['held'],
    );
    await next.close();
  });

  it('renews a held lease, so its row is not taken back while its attempt runs', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const lease = await claimed(outbox, 'r1', 1_000);
    const next = await open('process-2');
    // SQLite takes another owner's rows at once (one process owns the file): there, this process's own recovery shows the lease.
    const taker = harness.shared ? next : outbox;
    for (let i = 0; i < 3; i++) {
      now += 900;
      assert.equal(await outbox.renewLease(lease, 1_000), true, `renewal ${i + 1}`);
    }
    now += 900;
    assert.equal(await taker.recoverLeases(), 0, 'renewed 100 ms ago for 1 s: still held');
    assert.equal((await outbox.get('r1'))?.status, 'delivering');
    await outbox.markDelivered(lease, 'created_applicant', {});
    assert.equal((await outbox.get('r1'))?.status, 'delivered');
    await next.close();
  });

  it('does not renew a lease that ran out before its renewal', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const lease = await claimed(outbox, 'r1', 1_000);
    now += 1_000;
    assert.equal(await outbox.renewLease(lease, 1_000), false);
    assert.equal((await outbox.get('r1'))?.status, 'delivering', 'left for recoverLeases to take back');
  });

  /** r1 claimed here for a second, then taken back by process-2 once that lease ran out: the stale lease, and process-2's store. */
  async function takenBack(): Promise<{ stale: ClaimedRow; next: ApplicationStore }> {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const stale = await claimed(outbox, 'r1', 1_000);
    now += 1_000;
    const next = await open('process-2');
    assert.equal(await next.recoverLeases(), 1);
    return { stale, next };
  }

  it("gives a row whose lease ran out to another owner, and refuses every write of the old owner's attempt", async () => {
    const { stale, next } = await takenBack();
    const held = await claimed(next, 'r1');
    assert.notEqual(held.lease_token, stale.lease_token);
    const before = await outbox.get('r1');
    await assert.rejects(
      outbox.markDelivered(stale, 'created_applicant', { applicantId: 1, applicationId: 2 }),
      LeaseLostError,
    );
    await assert.rejects(outbox.markRetry(stale, now + HOUR, 'server_error (503)', true), LeaseLostError);
    await assert.rejects(outbox.markRejected(stale, 'upstream_rejected', 'validation_failed (422)'), LeaseLostError);
    await assert.rejects(outbox.markDead(stale, 'expired', 'server_error (503)'), LeaseLostError);
    await assert.rejects(outbox.markRefused(stale, 'upstream_rejected', 'validation_failed (422)'), LeaseLostError);
    assert.equal(await outbox.renewLease(stale, 60_000), false);
    assert.deepEqual(await outbox.get('r1'), before, 'the stale writes changed nothing');
    assert.notEqual(await storedResume(outbox, 'r1'), null, 'the resume is still there for the new attempt');
    await next.markDelivered(held, 'found_delivered', { applicantId: 1, applicationId: 2 });
    assert.equal((await outbox.get('r1'))?.outcome, 'found_delivered');
    await next.close();
  });

  it("refuses the writes of an attempt whose row was taken back while it ran, even after its own lease's end", async () => {
    const { stale, next } = await takenBack();
    // Taken back but not yet claimed again: the old token is already void.
    await assert.rejects(outbox.markRetry(stale, now, 'timeout (no answer)', true), LeaseLostError);
    const row = await outbox.get('r1');
    assert.deepEqual([row?.status, row?.unconfirmed_send, row?.last_error], ['pending', 1, null]);
    await next.close();
  });

  it("renews no lease of a row taken back, nor of a row purged since, and refuses the purged row's writes", async () => {
    const { stale, next } = await takenBack();
    assert.equal(await outbox.renewLease(stale, 1_000), false, 'taken back, not claimed again: the old token is void');
    await assert.rejects(outbox.markRetry(stale, now, 'x'), (error: Error) => {
      assert.ok(error instanceof LeaseLostError);
      assert.match(
        error.message,
        /lease on application r1 is no longer this attempt's: another claimer has it, so this attempt's result was not written/,
      );
      return true;
    });
    const lease = await claimed(next, 'r1');
    await next.markDelivered(lease, 'created_applicant', {});
    assert.equal(await next.purgeDelivered(0), 1);
    assert.equal(await next.renewLease(lease, 1_000), false, 'the row is gone');
    await assert.rejects(next.markRetry(lease, now, 'x'), LeaseLostError);
    await assert.rejects(next.markSourceDropped(lease), LeaseLostError);
    await next.close();
  });

  it('keeps renewing the lease of a row erased during its attempt, whose delivery is still recorded', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const lease = await claimed(outbox, 'r1', 1_000);
    await outbox.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
    assert.equal(await outbox.renewLease(lease, 1_000), true);
    await outbox.markDelivered(lease, 'created_applicant', {});
    assert.equal((await outbox.get('r1'))?.status, 'delivered');
  });

  it('schedules a retry and holds it back until it is due', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const r1Lease = await claimed(outbox, 'r1');
    assert.equal(await outbox.nextDueAt(), undefined, 'no row waits');
    await outbox.markRetry(r1Lease, now + 5_000, 'server_error (503)');
    assert.equal(await outbox.nextDueAt(), now + 5_000);
    assert.equal((await outbox.get('r1'))?.unconfirmed_send, 0, 'not marked as maybe sent unless the attempt says so');
    assert.deepEqual(await due(), []);
    now += 5_000;
    assert.deepEqual(await due(), ['r1']);
    assert.equal((await outbox.get('r1'))?.last_error, 'server_error (503)');
  });

  it('at start-up, makes every waiting row due now', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const r1Lease = await claimed(outbox, 'r1');
    await outbox.markRetry(r1Lease, now + HOUR, 'server_error (503)');
    assert.equal(await outbox.makePendingDue(), 1);
    assert.deepEqual(await due(), ['r1']);
  });

  it('records a refusal as rejected (data gone) while the candidate waits, as dead (kept) once told it was received', async () => {
    await outbox.enqueue(application('waiting'), { deadLetterAfterMs: HOUR });
    await outbox.enqueue(application('told'), { deadLetterAfterMs: HOUR });
    const waitingLease = await claimed(outbox, 'waiting');
    const toldLease = await claimed(outbox, 'told');
    assert.equal(await outbox.answerQueued('told'), true);
    assert.equal(await outbox.markRefused(waitingLease, 'upstream_rejected', 'validation_failed (422)'), 'rejected');
    assert.equal(await outbox.markRefused(toldLease, 'upstream_rejected', 'validation_failed (422)'), 'dead');
    const [waiting, told] = [await outbox.get('waiting'), await outbox.get('told')];
    assert.deepEqual(
      [waiting?.status, waiting?.payload, await storedResume(outbox, 'waiting')],
      ['rejected', null, null],
    );
    assert.deepEqual([told?.status, told?.answered, told?.outcome], ['dead', 202, 'upstream_rejected']);
    assert.notEqual(await storedResume(outbox, 'told'), null, 'a dead letter keeps its resume for a replay');
    assert.equal(await outbox.answerQueued('waiting'), false, 'an application its attempt ended is not told 202');
    assert.equal((await outbox.get('waiting'))?.answered, null);
  });

  it('never crosses a refusal and a 202 recorded at the same moment: told 202 means kept', async () => {
    const leases: ClaimedRow[] = [];
    for (let i = 0; i < 10; i++) {
      await outbox.enqueue({ ...application(`r${i}`), resume: null, resume_type: null }, { deadLetterAfterMs: HOUR });
      leases.push(await claimed(outbox, `r${i}`));
    }
    const other = await open('process-2');
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const [queued, refused] = await Promise.all([
          other.answerQueued(`r${i}`),
          outbox.markRefused(leases[i]!, 'upstream_rejected', 'validation_failed (422)'),
        ]);
        return { queued, refused };
      }),
    );
    for (const { queued, refused } of outcomes) assert.equal(refused, queued ? 'dead' : 'rejected');
    await other.close();
  });

  it('records the first answer given to the candidate only', async () => {
    await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    await outbox.setAnswered('r1', 202);
    await outbox.setAnswered('r1', 201);
    assert.equal((await outbox.get('r1'))?.answered, 202);
  });

  describe('idempotency keys', () => {
    it('answers replay with the recorded answer for the same key and body', async () => {
      assert.deepEqual(await outbox.claimKey('k', 'f1'), { kind: 'claimed' });
      const answer = { status: 201, body: '{"status":"delivered"}' };
      await outbox.completeKey('k', answer.status, answer.body);
      assert.deepEqual(await outbox.claimKey('k', 'f1'), { kind: 'replay', ...answer });
    });

    it('refuses the same key with another body', async () => {
      await outbox.claimKey('k', 'f1');
      assert.deepEqual(await outbox.claimKey('k', 'f2'), { kind: 'reused' });
    });

    it('says in_progress while the first request with the key is being handled in this process', async () => {
      await outbox.claimKey('k', 'f1');
      assert.deepEqual(await outbox.claimKey('k', 'f1'), { kind: 'in_progress' });
    });

    it('after a crash, points a retried key at the application the dead process had stored', async () => {
      await outbox.claimKey('k', 'f1');
      await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR, key: 'k' });
      const next = await open('process-2');
      if (harness.shared) {
        assert.deepEqual(
          await next.claimKey('k', 'f1'),
          { kind: 'in_progress' },
          'another instance may still be answering it',
        );
        now += KEY_LEASE_MS;
      }
      assert.deepEqual(await next.claimKey('k', 'f1'), { kind: 'stored', reference: 'r1' });
      // Another instance asking now: the retry answers for it (SQLite has no other live process).
      if (harness.shared)
        assert.deepEqual(
          await (await open('process-3')).claimKey('k', 'f1'),
          { kind: 'in_progress' },
          'the retry now answers for it',
        );
      await next.close();
    });

    it('after a crash before anything was stored, lets the retry take the key once its owner is gone', async () => {
      await outbox.claimKey('k', 'f1');
      const next = await open('process-2');
      if (harness.shared) {
        assert.deepEqual(await next.claimKey('k', 'f1'), { kind: 'in_progress' });
        now += KEY_LEASE_MS;
      }
      assert.deepEqual(await next.claimKey('k', 'f1'), { kind: 'claimed' });
      await next.close();
    });

    it('frees a key whose request stored nothing, so a corrected form may use it', async () => {
      await outbox.claimKey('k', 'f1');
      await outbox.releaseKey('k');
      assert.deepEqual(await outbox.claimKey('k', 'f2'), { kind: 'claimed' });
    });

    it('forgets a key after 24 hours', async () => {
      await outbox.claimKey('k', 'f1');
      await outbox.completeKey('k', 202, '{}');
      now += IDEMPOTENCY_TTL_MS;
      assert.deepEqual(await outbox.claimKey('k', 'f2'), { kind: 'claimed' });
    });
  });

  describe('rate counters', () => {
    it('counts within a window and starts again in the next one', async () => {
      assert.deepEqual(await outbox.hitRate('ip:1', HOUR), { count: 1, resetAt: now + HOUR });
      await outbox.hitRate('ip:1', HOUR);
      assert.equal((await outbox.peekRate('ip:1', HOUR)).count, 2);
      now += HOUR;
      assert.equal((await outbox.peekRate('ip:1', HOUR)).count, 0);
    });

    it('counts several buckets in one call, each answered in the order asked, and refuses one named twice', async () => {
      await outbox.hitRate('b', HOUR);
      assert.deepEqual(await outbox.hitRates(['a', 'b', 'c'], HOUR), [
        { count: 1, resetAt: now + HOUR },
        { count: 2, resetAt: now + HOUR },
        { count: 1, resetAt: now + HOUR },
      ]);
      assert.equal((await outbox.peekRate('c', HOUR)).count, 1);
      assert.deepEqual(await outbox.hitRates([], HOUR), []);
      await assert.rejects(outbox.hitRates(['a', 'a'], HOUR), /each bucket once/);
    });

    it('counts every hit of processes sharing the store', async () => {
      const other = await open('process-2');
      await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? outbox : other).hitRate('email:x', HOUR)));
      assert.equal((await other.peekRate('email:x', HOUR)).count, 10);
      await other.close();
    });

    it('counts the email in the same transaction that stores the application', async () => {
      await outbox.enqueue(application('r1'), {
        deadLetterAfterMs: HOUR,
        emailBucket: { bucket: 'email:x', windowMs: HOUR },
      });
      assert.equal((await outbox.peekRate('email:x', HOUR)).count, 1);
      await assert.rejects(
        outbox.enqueue(application('r1'), {
          deadLetterAfterMs: HOUR,
          key: 'k2',
          emailBucket: { bucket: 'email:x', windowMs: HOUR },
        }),
      );
      assert.equal((await outbox.peekRate('email:x', HOUR)).count, 1, 'a failed store counts nothing');
      assert.deepEqual(await outbox.claimKey('k2', 'f'), { kind: 'claimed' }, 'a failed store links no key');
    });
  });

  describe('operator commands', () => {
    it('puts a dead application back in line with a fresh dead-letter deadline', async () => {
      await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
      const r1Lease = await claimed(outbox, 'r1');
      await outbox.markDead(r1Lease, 'expired', 'server_error (503)');
      now += 2 * HOUR;
      assert.equal(await outbox.retry('r1', HOUR), 'queued');
      const row = await outbox.get('r1');
      assert.equal(row?.status, 'pending');
      assert.equal(row?.dead_letter_at, now + HOUR);
      assert.equal(await outbox.retry('nope', HOUR), 'not_found');
    });

    it('refuses to retry a delivered application', async () => {
      await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
      const r1Lease = await claimed(outbox, 'r1');
      await outbox.markDelivered(r1Lease, 'created_applicant', {});
      assert.equal(await outbox.retry('r1', HOUR), 'not_retryable');
    });

    it('purges delivered and refused rows and keeps the others', async () => {
      for (const ref of ['a', 'b', 'c']) await outbox.enqueue(application(ref), { deadLetterAfterMs: HOUR });
      const aLease = await claimed(outbox, 'a');
      await outbox.markDelivered(aLease, 'created_applicant', {});
      const bLease = await claimed(outbox, 'b');
      await outbox.markRejected(bLease, 'already_applied', 'application_exists (409)');
      assert.equal(await outbox.purgeDelivered(), 2);
      assert.deepEqual(
        (await outbox.list()).map((r) => r.reference),
        ['c'],
      );
      assert.deepEqual(await outbox.counts(), { pending: 1, delivering: 0, delivered: 0, rejected: 0, dead: 0 });
    });

    it('lists by status and up to a limit, and has no summary of an unknown reference', async () => {
      await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
      now += 1;
      await outbox.enqueue(application('r2'), { deadLetterAfterMs: HOUR });
      await outbox.markDead(await claimed(outbox, 'r2'), 'expired', 'server_error (503)');
      assert.deepEqual(
        (await outbox.list({ status: 'dead' })).map((r) => r.reference),
        ['r2'],
      );
      assert.deepEqual(
        (await outbox.list({ status: 'pending' })).map((r) => r.reference),
        ['r1'],
      );
      assert.deepEqual(
        (await outbox.list({ limit: 1 })).map((r) => r.reference),
        ['r1'],
      );
      assert.equal(
        (await outbox.summary('r2'))?.dead_letter_at,
        now + HOUR,
        'dead-lettered one hour after it was stored',
      );
      assert.equal(await outbox.summary('nobody'), undefined);
    });

    it('lists rows without their personal data', async () => {
      await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
      const [row] = await outbox.list();
      assert.equal(row?.resume_bytes, 15);
      assert.equal(row?.personal_data, true);
      assert.equal(JSON.stringify(row).includes('ada@example.org'), false);
    });
  });

  describe('retention and erasure', () => {
    /** Stores a row and dead-letters it now. */
    const dead = async (reference: string, email?: string) => {
      await outbox.enqueue(application(reference, email), { deadLetterAfterMs: HOUR });
      const lease = await claimed(outbox, reference);
      await outbox.markDead(lease, 'expired', 'server_error (503)');
    };

    it('erases the personal data of dead rows once they ended the retention ago, keeping their summary, newer ones and rows in line', async () => {
      await dead('old');
      await outbox.enqueue(application('waiting'), { deadLetterAfterMs: 100 * DAY });
      now += 10 * DAY;
      await dead('newer');
      await outbox.enqueue(application('refused'), { deadLetterAfterMs: HOUR });
      const refusedLease = await claimed(outbox, 'refused');
      await outbox.markRejected(refusedLease, 'upstream_rejected', 'validation_failed (422)');
      now += 20 * DAY - 1;
      assert.deepEqual(await outbox.eraseExpiredPersonalData(30 * DAY), [], 'not before the 30 days are over');
      now += 1;
      assert.deepEqual(await outbox.eraseExpiredPersonalData(30 * DAY), ['old']);
      const old = await outbox.get('old');
      assert.equal(old?.payload, null);
      assert.equal(old?.resume_bytes, null);
      assert.equal(await storedResume(outbox, 'old'), null);
      assert.deepEqual(
        [old?.status, old?.outcome, old?.erased_at, old?.erased_by],
        ['dead', 'expired', now, 'retention'],
      );
      assert.equal((await outbox.summary('old'))?.personal_data, false);
      assert.notEqual((await outbox.get('newer'))?.payload, null);
      assert.notEqual(await storedResume(outbox, 'waiting'), null);
      assert.equal(
        (await outbox.get('refused'))?.status,
        'rejected',
        'a refused row (no data since its refusal) keeps its summary',
      );
      assert.deepEqual(await outbox.eraseExpiredPersonalData(30 * DAY), [], 'a second pass finds nothing more');
      now += 10 * DAY;
      assert.deepEqual(await outbox.eraseExpiredPersonalData(30 * DAY), ['newer']);
      assert.notEqual(
        (await outbox.get('waiting'))?.payload,
        null,
        'an application in line keeps its data: it needs it to be delivered',
      );
    });

    it('says when a dead row is erased: its end plus the retention; nothing for rows in line or without data', async () => {
      await dead('d');
      now += 1;
      await outbox.enqueue(application('w'), { deadLetterAfterMs: HOUR });
      const [d, w] = await outbox.list();
      assert.equal(eraseAfter(d!, 30 * DAY), now - 1 + 30 * DAY);
      assert.equal(eraseAfter(w!, 30 * DAY), null);
    });

    it('refuses to retry a dead row whose data was erased', async () => {
      await dead('r1');
      now += 30 * DAY;
      await outbox.eraseExpiredPersonalData(30 * DAY);
      assert.equal(await outbox.retry('r1', HOUR), 'erased');
      assert.equal((await outbox.get('r1'))?.status, 'dead');
    });

    it('prunes rate counters whose window is over and idempotency keys past their lifetime', async () => {
      await outbox.hitRate('ip:1', HOUR);
      await outbox.claimKey('k', 'f1');
      await outbox.completeKey('k', 202, '{}');
      now += HOUR;
      await outbox.hitRate('ip:1', HOUR);
      assert.deepEqual(await outbox.pruneExpired(), { rateCounters: 1, idempotencyKeys: 0 });
      assert.equal((await outbox.peekRate('ip:1', HOUR)).count, 1, 'the current window stays');
      now += IDEMPOTENCY_TTL_MS;
      assert.deepEqual(await outbox.pruneExpired(), { rateCounters: 1, idempotencyKeys: 1 });
      assert.deepEqual(await outbox.claimKey('k', 'f2'), { kind: 'claimed' }, 'the key is free again');
    });

    it("erases one person's applications, counter and keys at their request, and nobody else's", async () => {
      const ada = { bucket: emailBucket('ada@example.org'), windowMs: DAY };
      await outbox.claimKey('k-ada', 'f1');
      await outbox.enqueue(application('ada-waiting'), { deadLetterAfterMs: HOUR, key: 'k-ada', emailBucket: ada });
      await outbox.completeKey('k-ada', 202, '{"status":"queued","reference":"ada-waiting"}');
      now += 1;
      await dead('ada-dead', 'ADA@example.org');
      await outbox.claimKey('k-mention', 'f2');
      await outbox.completeKey('k-mention', 422, '{"detail":"ada@example.org"}');
      await outbox.claimKey('k-grace', 'f3');
      now += 1;
      await outbox.enqueue(application('grace', 'grace@example.org'), {
        deadLetterAfterMs: HOUR,
        key: 'k-grace',
        emailBucket: { bucket: emailBucket('grace@example.org'), windowMs: DAY },
      });

      const report = await outbox.eraseByEmail('  Ada@Example.ORG ', emailBucket('  Ada@Example.ORG '));
      assert.deepEqual(
        { ...report, applications: [...report.applications].sort((a, b) => a.reference.localeCompare(b.reference)) },
        {
          applications: [
            { reference: 'ada-dead', statusBefore: 'dead', status: 'dead', outcome: 'expired' },
            { reference: 'ada-waiting', statusBefore: 'pending', status: 'rejected', outcome: 'erased' },
          ],
          rateCounters: 1,
          idempotencyKeys: 2,
          webhookEvents: 0,
        },
      );
      for (const reference of ['ada-waiting', 'ada-dead']) {
        const row = await outbox.get(reference);
        assert.deepEqual([row?.payload, row?.resume_bytes, row?.erased_by], [null, null, 'request']);
        assert.equal(await storedResume(outbox, reference), null);
      }
      assert.equal(await outbox.claim('ada-waiting', 60_000), undefined);
      assert.deepEqual(await due(), ['grace'], 'the erased application is never delivered');
      assert.equal(await outbox.retry('ada-dead', HOUR), 'erased');
      assert.equal((await outbox.peekRate(ada.bucket, DAY)).count, 0);
      assert.equal((await outbox.peekRate(emailBucket('grace@example.org'), DAY)).count, 1);
      assert.deepEqual(await outbox.claimKey('k-grace', 'other'), { kind: 'reused' }, "another person's key stays");
      assert.deepEqual(
        await outbox.claimKey('k-ada', 'other'),
        { kind: 'claimed' },
        'the key of an erased application is gone',
      );
      assert.notEqual((await outbox.get('grace'))?.payload, null);
      assert.deepEqual(await outbox.eraseByEmail('ada@example.org', ada.bucket), {
        applications: [],
        rateCounters: 0,
        idempotencyKeys: 0,
        webhookEvents: 0,
      });
    });

    it('refuses an erasure request without an address, which would match every application', async () => {
      await outbox.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
      await assert.rejects(outbox.eraseByEmail('  ', emailBucket('')), /eraseByEmail needs an email address/);
      assert.notEqual((await outbox.get('r1'))?.payload, null);
    });

    it("matches the stored address trimmed and in any case, and leaves another request's key in progress alone", async () => {
      await outbox.enqueue(application('r1', ' Ada@Example.ORG'), { deadLetterAfterMs: HOUR });
      assert.equal((await outbox.claimKey('someone-else', 'hash')).kind, 'claimed');
      const report = await outbox.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
      assert.deepEqual(
        report.applications.map((a) => a.reference),
        ['r1'],
      );
      assert.equal(report.idempotencyKeys, 0);
      assert.equal((await outbox.claimKey('someone-else', 'hash')).kind, 'in_progress', 'the key is still claimed');
    });

    it('keeps an application erased during its attempt out of line, and records it delivered if that attempt delivered it', async () => {
      await outbox.enqueue(application('a'), { deadLetterAfterMs: HOUR });
      await outbox.enqueue(application('b'), { deadLetterAfterMs: HOUR });
      const aLease = await claimed(outbox, 'a');
      const bLease = await claimed(outbox, 'b');
      await outbox.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
      await outbox.markRetry(aLease, now, 'server_error (503)');
      await outbox.markDead(aLease, 'expired', 'server_error (503)');
      const a = await outbox.get('a');
      assert.deepEqual([a?.status, a?.outcome], ['rejected', 'erased']);
      await outbox.markDelivered(bLease, 'created_applicant', {});
      const b = await outbox.get('b');
      assert.deepEqual([b?.status, b?.erased_by], ['delivered', 'request']);
    });
  });
});

describe('PostgreSQL store across live instances', { skip: skipPostgres }, () => {
  let now: number;
  let a: ApplicationStore;
  let b: ApplicationStore;
  // A pool per instance, as two processes would have.
  const pools = [
    new pg.Pool({ connectionString: databaseUrl, max: 3 }),
    new pg.Pool({ connectionString: databaseUrl, max: 3 }),
  ];
  after(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });
  beforeEach(async () => {
    now = Date.UTC(2026, 0, 1);
    const instance = async (pool: pg.Pool, owner: string) => {
      const store = new PostgresApplicationStore({ pool, owner, location: 'test', now: () => now });
      await store.ready();
      return store;
    };
    [a, b] = await Promise.all([instance(pools[0]!, 'instance-a'), instance(pools[1]!, 'instance-b')]);
    await pools[0]!.query('TRUNCATE outbox, resume_chunks, idempotency_keys, rate_counters');
  });

  it('answers in_progress on one instance while another handles the key, then replays its answer', async () => {
    assert.deepEqual(await a.claimKey('k', 'f1'), { kind: 'claimed' });
    assert.deepEqual(await b.claimKey('k', 'f1'), { kind: 'in_progress' });
    assert.deepEqual(await b.claimKey('k', 'f2'), { kind: 'reused' });
    await a.completeKey('k', 201, '{"status":"delivered"}');
    assert.deepEqual(await b.claimKey('k', 'f1'), { kind: 'replay', status: 201, body: '{"status":"delivered"}' });
  });

  it('lets two instances racing for a new key have exactly one claim it', async () => {
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a : b).claimKey('k', 'f1')));
    assert.equal(claims.filter((c) => c.kind === 'claimed').length, 1, JSON.stringify(claims));
    assert.ok(claims.every((c) => c.kind === 'claimed' || c.kind === 'in_progress'));
  });

  it("frees only its own claim: an instance's releaseKey leaves another's claim in place", async () => {
    await a.claimKey('k', 'f1');
    await b.releaseKey('k');
    assert.deepEqual(await b.claimKey('k', 'f1'), { kind: 'in_progress' });
  });

  it('renews a claimed key while its request runs, and frees it one lease after its process stopped renewing it', async () => {
    const leased = async (pool: pg.Pool, owner: string) => {
      const store = new PostgresApplicationStore({ pool, owner, location: 'test', now: () => now, keyLeaseMs: 300 });
      await store.ready();
      return store;
    };
    const [first, second] = await Promise.all([leased(pools[0]!, 'instance-a'), leased(pools[1]!, 'instance-b')]);
    const leaseUntil = async () =>
      Number((await pools[0]!.query("SELECT lease_until FROM idempotency_keys WHERE key = 'k'")).rows[0]?.lease_until);
    assert.deepEqual(await first.claimKey('k', 'f1'), { kind: 'claimed' });
    now += 250;
    await eventually(async () => (await leaseUntil()) === now + 300, {
      timeoutMs: 5_000,
      what: 'a renewal of the key after the clock moved',
    });
    now += 250;
    assert.deepEqual(
      await second.claimKey('k', 'f1'),
      { kind: 'in_progress' },
      'claimed 500 ms ago for 300 ms, renewed since',
    );
    // The first process is gone: nothing renews its claim any more.
    await first.close();
    now += 300;
    assert.deepEqual(await second.claimKey('k', 'f1'), { kind: 'claimed' });
    await second.close();
  });
});

describe('eraseAfter', () => {
  const row = (fields: Partial<OutboxSummary>) =>
    ({
      status: 'dead',
      personal_data: true,
      created_at: 1_000,
      last_attempt_at: null,
      ended_at: null,
      ...fields,
    }) as OutboxSummary;

  it('counts the retention from the end, else the last attempt (rows stored before ends were recorded), else the creation', () => {
    assert.equal(eraseAfter(row({ ended_at: 3_000, last_attempt_at: 2_000 }), 10), 3_010);
    assert.equal(eraseAfter(row({ last_attempt_at: 2_000 }), 10), 2_010);
    assert.equal(eraseAfter(row({}), 10), 1_010);
  });

  it('dates refused rows as dead ones, and none for a row without personal data', () => {
    assert.equal(eraseAfter(row({ status: 'rejected', ended_at: 3_000 }), 10), 3_010);
    assert.equal(eraseAfter(row({ ended_at: 3_000, personal_data: false }), 10), null);
    assert.equal(eraseAfter(row({ status: 'delivering' }), 10), null);
  });
});
