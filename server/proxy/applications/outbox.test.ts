import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { emailBucket } from './form.ts';
import { IDEMPOTENCY_TTL_MS, Outbox, eraseAfter } from './outbox.ts';
import type { NewApplication } from './outbox.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function newApplication(reference: string, email = 'ada@example.org'): NewApplication {
  return {
    reference,
    campaign_id: 12,
    company_id: 3,
    payload: { applicant: { email, first_name: 'Ada' }, cover_letter: 'Hello' },
    resume: Buffer.from('%PDF-1.4 resume'),
    resume_type: 'pdf',
  };
}

describe('Outbox', () => {
  let dir: string;
  let now: number;
  let outbox: Outbox;
  const open = (owner: string) => new Outbox({ dataDir: dir, owner, now: () => now });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-outbox-'));
    now = Date.UTC(2026, 0, 1);
    outbox = open('process-1');
  });
  afterEach(() => {
    outbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a stored application, with its resume, after the file is closed and opened again', () => {
    outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.close();
    outbox = open('process-2');
    const row = outbox.get('r1');
    assert.equal(row?.status, 'pending');
    assert.equal(row?.resume?.toString(), '%PDF-1.4 resume');
    assert.deepEqual(row?.payload?.applicant, { email: 'ada@example.org', first_name: 'Ada' });
  });

  it('counts an attempt when it claims a row, and lets only one claim win', () => {
    outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    const first = outbox.claim('r1', 60_000);
    const second = outbox.claim('r1', 60_000);
    assert.equal(first?.attempts, 1);
    assert.equal(first?.status, 'delivering');
    assert.equal(second, undefined);
  });

  it('forgets the personal data and the resume in the same write that marks a row delivered', () => {
    outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 60_000);
    outbox.markDelivered('r1', 'created_applicant', { applicantId: 7, applicationId: 9 });
    const row = outbox.get('r1');
    assert.equal(row?.status, 'delivered');
    assert.equal(row?.payload, null);
    assert.equal(row?.resume, null);
    assert.equal(row?.upstream_application_id, 9);
  });

  it('when a process died while delivering, gives its rows back as due at the next start', () => {
    outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 10 * 60_000);
    outbox.close();
    outbox = open('process-2');
    assert.deepEqual(outbox.due(10), []);
    assert.equal(outbox.recoverLeases(), 1);
    assert.deepEqual(outbox.due(10), ['r1']);
    assert.equal(outbox.get('r1')?.attempts, 1, 'the interrupted attempt stays counted');
  });

  it('does not take back a row this process is still delivering', () => {
    outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 1);
    now += 10;
    assert.equal(outbox.recoverLeases(new Set(['r1'])), 0);
    assert.equal(outbox.recoverLeases(new Set()), 1);
  });

  it('schedules a retry and holds it back until it is due', () => {
    outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 60_000);
    outbox.markRetry('r1', now + 5_000, 'server_error (503)');
    assert.deepEqual(outbox.due(10), []);
    now += 5_000;
    assert.deepEqual(outbox.due(10), ['r1']);
    assert.equal(outbox.get('r1')?.last_error, 'server_error (503)');
  });

  it('at start-up, makes every waiting row due now', () => {
    outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 60_000);
    outbox.markRetry('r1', now + HOUR, 'server_error (503)');
    assert.equal(outbox.makePendingDue(), 1);
    assert.deepEqual(outbox.due(10), ['r1']);
  });

  describe('idempotency keys', () => {
    it('answers replay with the recorded answer for the same key and body', () => {
      assert.deepEqual(outbox.claimKey('k', 'f1'), { kind: 'claimed' });
      outbox.completeKey('k', 201, '{"status":"delivered"}');
      assert.deepEqual(outbox.claimKey('k', 'f1'), { kind: 'replay', status: 201, body: '{"status":"delivered"}' });
    });

    it('refuses the same key with another body', () => {
      outbox.claimKey('k', 'f1');
      assert.deepEqual(outbox.claimKey('k', 'f2'), { kind: 'reused' });
    });

    it('says in_progress while the first request with the key is being handled in this process', () => {
      outbox.claimKey('k', 'f1');
      assert.deepEqual(outbox.claimKey('k', 'f1'), { kind: 'in_progress' });
    });

    it('after a crash, points a retried key at the application the dead process had stored', () => {
      outbox.claimKey('k', 'f1');
      outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR, key: 'k' });
      outbox.close();
      outbox = open('process-2');
      assert.deepEqual(outbox.claimKey('k', 'f1'), { kind: 'stored', reference: 'r1' });
    });

    it('after a crash before anything was stored, lets the retry take the key', () => {
      outbox.claimKey('k', 'f1');
      outbox.close();
      outbox = open('process-2');
      assert.deepEqual(outbox.claimKey('k', 'f1'), { kind: 'claimed' });
    });

    it('frees a key whose request stored nothing, so a corrected form may use it', () => {
      outbox.claimKey('k', 'f1');
      outbox.releaseKey('k');
      assert.deepEqual(outbox.claimKey('k', 'f2'), { kind: 'claimed' });
    });

    it('forgets a key after 24 hours', () => {
      outbox.claimKey('k', 'f1');
      outbox.completeKey('k', 202, '{}');
      now += IDEMPOTENCY_TTL_MS;
      assert.deepEqual(outbox.claimKey('k', 'f2'), { kind: 'claimed' });
    });
  });

  describe('rate counters', () => {
    it('counts within a window and starts again in the next one', () => {
      outbox.hitRate('ip:1', HOUR);
      outbox.hitRate('ip:1', HOUR);
      assert.equal(outbox.peekRate('ip:1', HOUR).count, 2);
      now += HOUR;
      assert.equal(outbox.peekRate('ip:1', HOUR).count, 0);
    });

    it('counts the email in the same transaction that stores the application', () => {
      outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR, emailBucket: { bucket: 'email:x', windowMs: HOUR } });
      assert.equal(outbox.peekRate('email:x', HOUR).count, 1);
      assert.throws(() => outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR, emailBucket: { bucket: 'email:x', windowMs: HOUR } }));
      assert.equal(outbox.peekRate('email:x', HOUR).count, 1, 'a failed store counts nothing');
    });
  });

  describe('operator commands', () => {
    it('puts a dead application back in line with a fresh dead-letter deadline', () => {
      outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
      outbox.claim('r1', 60_000);
      outbox.markDead('r1', 'expired', 'server_error (503)');
      now += 2 * HOUR;
      assert.equal(outbox.retry('r1', HOUR), 'queued');
      const row = outbox.get('r1');
      assert.equal(row?.status, 'pending');
      assert.equal(row?.dead_letter_at, now + HOUR);
      assert.equal(outbox.retry('nope', HOUR), 'not_found');
    });

    it('refuses to retry a delivered application', () => {
      outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
      outbox.claim('r1', 60_000);
      outbox.markDelivered('r1', 'created_applicant', {});
      assert.equal(outbox.retry('r1', HOUR), 'not_retryable');
    });

    it('purges delivered and refused rows and keeps the others', () => {
      for (const ref of ['a', 'b', 'c']) outbox.enqueue(newApplication(ref), { deadLetterAfterMs: HOUR });
      outbox.claim('a', 60_000);
      outbox.markDelivered('a', 'created_applicant', {});
      outbox.claim('b', 60_000);
      outbox.markRejected('b', 'already_applied', 'application_exists (409)');
      assert.equal(outbox.purgeDelivered(), 2);
      assert.deepEqual(outbox.list().map((r) => r.reference), ['c']);
    });

    it('lists rows without their personal data', () => {
      outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
      const [row] = outbox.list();
      assert.equal(row?.resume_bytes, 15);
      assert.equal(JSON.stringify(row).includes('ada@example.org'), false);
    });
  });

  describe('retention and erasure', () => {
    /** Stores a row and dead-letters it now. */
    const dead = (reference: string, email?: string) => {
      outbox.enqueue(newApplication(reference, email), { deadLetterAfterMs: HOUR });
      outbox.claim(reference, 60_000);
      outbox.markDead(reference, 'expired', 'server_error (503)');
    };

    it('erases the personal data of dead rows once they ended the retention ago, keeping their summary, newer ones and rows in line', () => {
      dead('old');
      outbox.enqueue(newApplication('waiting'), { deadLetterAfterMs: 100 * DAY });
      now += 10 * DAY;
      dead('newer');
      outbox.enqueue(newApplication('refused'), { deadLetterAfterMs: HOUR });
      outbox.claim('refused', 60_000);
      outbox.markRejected('refused', 'upstream_rejected', 'validation_failed (422)');
      now += 20 * DAY - 1;
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), [], 'not before the 30 days are over');
      now += 1;
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), ['old']);
      const old = outbox.get('old');
      assert.equal(old?.payload, null);
      assert.equal(old?.resume, null);
      assert.deepEqual([old?.status, old?.outcome, old?.erased_at, old?.erased_by], ['dead', 'expired', now, 'retention']);
      assert.equal(outbox.summary('old')?.personal_data, false);
      assert.notEqual(outbox.get('newer')?.payload, null);
      assert.notEqual(outbox.get('waiting')?.resume, null);
      assert.equal(outbox.get('refused')?.status, 'rejected', 'a refused row (no data since its refusal) keeps its summary');
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), [], 'a second pass finds nothing more');
      now += 10 * DAY;
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), ['newer']);
      assert.notEqual(outbox.get('waiting')?.payload, null, 'an application in line keeps its data: it needs it to be delivered');
    });

    it('says when a dead row is erased: its end plus the retention; nothing for rows in line or without data', () => {
      dead('d');
      outbox.enqueue(newApplication('w'), { deadLetterAfterMs: HOUR });
      const [d, w] = outbox.list();
      assert.equal(eraseAfter(d!, 30 * DAY), now + 30 * DAY);
      assert.equal(eraseAfter(w!, 30 * DAY), null);
    });

    it('refuses to retry a dead row whose data was erased', () => {
      dead('r1');
      now += 30 * DAY;
      outbox.eraseExpiredPersonalData(30 * DAY);
      assert.equal(outbox.retry('r1', HOUR), 'erased');
      assert.equal(outbox.get('r1')?.status, 'dead');
    });

    it('measures a dead row stored before its end was recorded from its last attempt', () => {
      outbox.close();
      rmSync(join(dir, 'outbox.db'));
      // The first release's table: no ended_at, erased_at, erased_by.
      const db = new DatabaseSync(join(dir, 'outbox.db'));
      db.exec(`CREATE TABLE outbox (reference TEXT PRIMARY KEY, created_at INTEGER NOT NULL, campaign_id INTEGER NOT NULL,
        company_id INTEGER NOT NULL, payload TEXT, resume_type TEXT, resume_bytes INTEGER, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL, dead_letter_at INTEGER NOT NULL, lease_owner TEXT, lease_until INTEGER, answered INTEGER, outcome TEXT,
        last_error TEXT, last_attempt_at INTEGER, delivered_at INTEGER, upstream_applicant_id INTEGER, upstream_application_id INTEGER)`);
      db.prepare(`INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, status, attempts, next_attempt_at, dead_letter_at, outcome, last_attempt_at)
        VALUES ('legacy', ?, 12, 3, '{"applicant":{"email":"ada@example.org"}}', 'dead', 3, 0, 0, 'expired', ?)`).run(now - 40 * DAY, now - 20 * DAY);
      db.close();
      outbox = open('process-2');
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), [], 'its last attempt was 20 days ago');
      now += 10 * DAY;
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), ['legacy']);
    });

    it('prunes rate counters whose window is over and idempotency keys past their lifetime', () => {
      outbox.hitRate('ip:1', HOUR);
      outbox.claimKey('k', 'f1');
      outbox.completeKey('k', 202, '{}');
      now += HOUR;
      outbox.hitRate('ip:1', HOUR);
      assert.deepEqual(outbox.pruneExpired(), { rateCounters: 1, idempotencyKeys: 0 });
      assert.equal(outbox.peekRate('ip:1', HOUR).count, 1, 'the current window stays');
      now += IDEMPOTENCY_TTL_MS;
      assert.deepEqual(outbox.pruneExpired(), { rateCounters: 1, idempotencyKeys: 1 });
      assert.deepEqual(outbox.claimKey('k', 'f2'), { kind: 'claimed' }, 'the key is free again');
    });

    it("erases one person's applications, counter and keys at their request, and nobody else's", () => {
      const ada = { bucket: emailBucket('ada@example.org'), windowMs: DAY };
      outbox.claimKey('k-ada', 'f1');
      outbox.enqueue(newApplication('ada-waiting'), { deadLetterAfterMs: HOUR, key: 'k-ada', emailBucket: ada });
      outbox.completeKey('k-ada', 202, '{"status":"queued","reference":"ada-waiting"}');
      dead('ada-dead', 'ADA@example.org');
      outbox.claimKey('k-mention', 'f2');
      outbox.completeKey('k-mention', 422, '{"detail":"ada@example.org"}');
      outbox.claimKey('k-grace', 'f3');
      outbox.enqueue(newApplication('grace', 'grace@example.org'), {
        deadLetterAfterMs: HOUR, key: 'k-grace', emailBucket: { bucket: emailBucket('grace@example.org'), windowMs: DAY },
      });

      const report = outbox.eraseByEmail('  Ada@Example.ORG ', emailBucket('  Ada@Example.ORG '));
      assert.deepEqual(report, {
        applications: [
          { reference: 'ada-waiting', statusBefore: 'pending', status: 'rejected', outcome: 'erased' },
          { reference: 'ada-dead', statusBefore: 'dead', status: 'dead', outcome: 'expired' },
        ],
        rateCounters: 1,
        idempotencyKeys: 2,
      });
      for (const reference of ['ada-waiting', 'ada-dead']) {
        const row = outbox.get(reference);
        assert.deepEqual([row?.payload, row?.resume, row?.erased_by], [null, null, 'request']);
      }
      assert.deepEqual(outbox.due(10), ['grace'], 'the erased application is never delivered');
      assert.equal(outbox.claim('ada-waiting', 60_000), undefined);
      assert.equal(outbox.retry('ada-dead', HOUR), 'erased');
      assert.equal(outbox.peekRate(ada.bucket, DAY).count, 0);
      assert.equal(outbox.peekRate(emailBucket('grace@example.org'), DAY).count, 1);
      assert.deepEqual(outbox.claimKey('k-grace', 'other'), { kind: 'reused' }, "another person's key stays");
      assert.deepEqual(outbox.claimKey('k-ada', 'other'), { kind: 'claimed' }, 'the key of an erased application is gone');
      assert.notEqual(outbox.get('grace')?.payload, null);
      assert.deepEqual(outbox.eraseByEmail('ada@example.org', ada.bucket), { applications: [], rateCounters: 0, idempotencyKeys: 0 });
    });

    it('leaves no copy of erased data in outbox.db or its write-ahead log', () => {
      const resume = Buffer.from('RESUME-OF-ZED '.repeat(400));
      outbox.enqueue(
        { reference: 'z', campaign_id: 12, company_id: 3, payload: { applicant: { email: 'zed@example.org' }, cover_letter: 'LETTER-OF-ZED '.repeat(40) }, resume, resume_type: 'pdf' },
        { deadLetterAfterMs: HOUR },
      );
      outbox.eraseByEmail('zed@example.org', emailBucket('zed@example.org'));
      outbox.checkpoint();
      // Read while the outbox is open, as with a running proxy: what is in the files now.
      const bytes = Buffer.concat(['outbox.db', 'outbox.db-wal'].map((name) => join(dir, name)).filter((file) => existsSync(file)).map((file) => readFileSync(file)));
      for (const marker of ['RESUME-OF-ZED', 'LETTER-OF-ZED', 'zed@example.org']) assert.equal(bytes.includes(marker), false, marker);
    });

    it('keeps an application erased during its attempt out of line, and records it delivered if that attempt delivered it', () => {
      outbox.enqueue(newApplication('a'), { deadLetterAfterMs: HOUR });
      outbox.enqueue(newApplication('b'), { deadLetterAfterMs: HOUR });
      outbox.claim('a', 60_000);
      outbox.claim('b', 60_000);
      outbox.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
      outbox.markRetry('a', now, 'server_error (503)');
      outbox.markDead('a', 'expired', 'server_error (503)');
      assert.deepEqual([outbox.get('a')?.status, outbox.get('a')?.outcome], ['rejected', 'erased']);
      outbox.markDelivered('b', 'created_applicant', {});
      assert.deepEqual([outbox.get('b')?.status, outbox.get('b')?.erased_by], ['delivered', 'request']);
    });
  });
});
