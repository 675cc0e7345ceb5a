import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { emailBucket } from './form.ts';
import { IDEMPOTENCY_TTL_MS, Outbox, eraseAfter } from './outbox.ts';
import type { NewApplication } from './outbox.ts';
import { storedResume, uploadedResume } from './outbox.test-support.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let dir: string;

function newApplication(reference: string, email = 'ada@example.org'): NewApplication {
  return {
    reference,
    campaign_id: 12,
    company_id: 3,
    payload: { applicant: { email, first_name: 'Ada' }, cover_letter: 'Hello' },
    resume: uploadedResume(dir, Buffer.from('%PDF-1.4 resume')),
    resume_type: 'pdf',
  };
}

describe('Outbox', () => {
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

  it('keeps a stored application, with its resume, after the file is closed and opened again', async () => {
    await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.close();
    outbox = open('process-2');
    const row = outbox.get('r1');
    assert.equal(row?.status, 'pending');
    assert.equal(row?.resume_bytes, 15);
    assert.equal((await storedResume(outbox, 'r1'))?.toString(), '%PDF-1.4 resume');
    assert.deepEqual(row?.payload?.applicant, { email: 'ada@example.org', first_name: 'Ada' });
  });

  it('keeps a resume as a file of its own, moved from its upload, never as a blob in outbox.db', async () => {
    const marker = Buffer.from('%PDF-1.4 RESUME-MARKER '.repeat(100));
    const upload = uploadedResume(dir, marker);
    await outbox.enqueue({ ...newApplication('r1'), resume: upload }, { deadLetterAfterMs: HOUR });
    assert.equal(existsSync(upload.path), false, 'the upload file was moved, not copied');
    assert.deepEqual(readdirSync(join(dir, 'resumes')), ['r1']);
    assert.ok((await storedResume(outbox, 'r1'))?.equals(marker));
    outbox.checkpoint();
    const db = Buffer.concat(['outbox.db', 'outbox.db-wal'].map((name) => join(dir, name)).filter((file) => existsSync(file)).map((file) => readFileSync(file)));
    assert.equal(db.includes('RESUME-MARKER'), false);
  });

  it('deletes at start a resume file no row holds (its process was killed before the row was committed)', async () => {
    await outbox.enqueue(newApplication('kept'), { deadLetterAfterMs: HOUR });
    writeFileSync(join(dir, 'resumes', 'orphan'), 'left by a killed process');
    outbox.close();
    outbox = open('process-2');
    assert.deepEqual(readdirSync(join(dir, 'resumes')), ['kept']);
  });

  it('moves the resume blobs of an outbox.db written by an earlier version to files, losing none', async () => {
    outbox.close();
    rmSync(join(dir, 'outbox.db'));
    rmSync(join(dir, 'resumes'), { recursive: true });
    // Version 2: resumes in an outbox_resumes table; a delivered row kept its resume_bytes but not its blob.
    const db = new DatabaseSync(join(dir, 'outbox.db'));
    db.exec(`CREATE TABLE outbox (reference TEXT PRIMARY KEY, created_at INTEGER NOT NULL, campaign_id INTEGER NOT NULL,
      company_id INTEGER NOT NULL, payload TEXT, resume_type TEXT, resume_bytes INTEGER, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL, dead_letter_at INTEGER NOT NULL, lease_owner TEXT, lease_until INTEGER, answered INTEGER, outcome TEXT,
      last_error TEXT, last_attempt_at INTEGER, delivered_at INTEGER, upstream_applicant_id INTEGER, upstream_application_id INTEGER,
      ended_at INTEGER, erased_at INTEGER, erased_by TEXT);
      CREATE TABLE outbox_resumes (reference TEXT PRIMARY KEY, bytes BLOB NOT NULL);
      PRAGMA user_version = 2;`);
    const insert = db.prepare(`INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, resume_type, resume_bytes, status, next_attempt_at, dead_letter_at)
      VALUES (?, ?, 12, 3, ?, 'pdf', ?, ?, 0, ?)`);
    insert.run('waiting', now, '{"applicant":{"email":"ada@example.org"}}', 9, 'pending', now + HOUR);
    insert.run('sent', now, null, 9, 'delivered', now + HOUR);
    db.prepare('INSERT INTO outbox_resumes (reference, bytes) VALUES (?, ?)').run('waiting', Buffer.from('%PDF-1.4\n'));
    db.close();
    outbox = open('process-2');
    assert.equal((await storedResume(outbox, 'waiting'))?.toString(), '%PDF-1.4\n');
    assert.equal(outbox.summary('waiting')?.resume_bytes, 9);
    assert.equal(outbox.summary('sent')?.resume_bytes, null, 'a row whose blob was gone holds no resume');
    assert.equal(outbox.summary('sent')?.personal_data, false);
    const check = new DatabaseSync(join(dir, 'outbox.db'));
    assert.equal(check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'outbox_resumes'").get()?.n, 0);
    assert.equal(check.prepare('PRAGMA user_version').get()?.user_version, 3);
    check.close();
  });

  it('counts an attempt when it claims a row, and lets only one claim win', async () => {
    await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    const first = outbox.claim('r1', 60_000);
    const second = outbox.claim('r1', 60_000);
    assert.equal(first?.attempts, 1);
    assert.equal(first?.status, 'delivering');
    assert.equal(second, undefined);
  });

  it('forgets the personal data and the resume in the same write that marks a row delivered', async () => {
    await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 60_000);
    outbox.markDelivered('r1', 'created_applicant', { applicantId: 7, applicationId: 9 });
    const row = outbox.get('r1');
    assert.equal(row?.status, 'delivered');
    assert.equal(row?.payload, null);
    assert.equal(row?.resume_bytes, null);
    assert.equal(await storedResume(outbox, 'r1'), null);
    assert.deepEqual(readdirSync(join(dir, 'resumes')), [], 'its file is deleted');
    assert.equal(row?.upstream_application_id, 9);
  });

  it('when a process died while delivering, gives its rows back as due at the next start', async () => {
    await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 10 * 60_000);
    outbox.close();
    outbox = open('process-2');
    assert.deepEqual(outbox.due(10), []);
    assert.equal(outbox.recoverLeases(), 1);
    assert.deepEqual(outbox.due(10), ['r1']);
    assert.equal(outbox.get('r1')?.attempts, 1, 'the interrupted attempt stays counted');
  });

  it('does not take back a row this process is still delivering', async () => {
    await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 1);
    now += 10;
    assert.equal(outbox.recoverLeases(new Set(['r1'])), 0);
    assert.equal(outbox.recoverLeases(new Set()), 1);
  });

  it('schedules a retry and holds it back until it is due', async () => {
    await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
    outbox.claim('r1', 60_000);
    outbox.markRetry('r1', now + 5_000, 'server_error (503)');
    assert.deepEqual(outbox.due(10), []);
    now += 5_000;
    assert.deepEqual(outbox.due(10), ['r1']);
    assert.equal(outbox.get('r1')?.last_error, 'server_error (503)');
  });

  it('at start-up, makes every waiting row due now', async () => {
    await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
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

    it('after a crash, points a retried key at the application the dead process had stored', async () => {
      outbox.claimKey('k', 'f1');
      await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR, key: 'k' });
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

    it('counts the email in the same transaction that stores the application', async () => {
      await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR, emailBucket: { bucket: 'email:x', windowMs: HOUR } });
      assert.equal(outbox.peekRate('email:x', HOUR).count, 1);
      await assert.rejects(outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR, emailBucket: { bucket: 'email:x', windowMs: HOUR } }));
      assert.equal(outbox.peekRate('email:x', HOUR).count, 1, 'a failed store counts nothing');
    });
  });

  describe('operator commands', () => {
    it('puts a dead application back in line with a fresh dead-letter deadline', async () => {
      await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
      outbox.claim('r1', 60_000);
      outbox.markDead('r1', 'expired', 'server_error (503)');
      now += 2 * HOUR;
      assert.equal(outbox.retry('r1', HOUR), 'queued');
      const row = outbox.get('r1');
      assert.equal(row?.status, 'pending');
      assert.equal(row?.dead_letter_at, now + HOUR);
      assert.equal(outbox.retry('nope', HOUR), 'not_found');
    });

    it('refuses to retry a delivered application', async () => {
      await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
      outbox.claim('r1', 60_000);
      outbox.markDelivered('r1', 'created_applicant', {});
      assert.equal(outbox.retry('r1', HOUR), 'not_retryable');
    });

    it('purges delivered and refused rows and keeps the others', async () => {
      for (const ref of ['a', 'b', 'c']) await outbox.enqueue(newApplication(ref), { deadLetterAfterMs: HOUR });
      outbox.claim('a', 60_000);
      outbox.markDelivered('a', 'created_applicant', {});
      outbox.claim('b', 60_000);
      outbox.markRejected('b', 'already_applied', 'application_exists (409)');
      assert.equal(outbox.purgeDelivered(), 2);
      assert.deepEqual(outbox.list().map((r) => r.reference), ['c']);
    });

    it('lists rows without their personal data', async () => {
      await outbox.enqueue(newApplication('r1'), { deadLetterAfterMs: HOUR });
      const [row] = outbox.list();
      assert.equal(row?.resume_bytes, 15);
      assert.equal(JSON.stringify(row).includes('ada@example.org'), false);
    });
  });

  describe('retention and erasure', () => {
    /** Stores a row and dead-letters it now. */
    const dead = async (reference: string, email?: string) => {
      await outbox.enqueue(newApplication(reference, email), { deadLetterAfterMs: HOUR });
      outbox.claim(reference, 60_000);
      outbox.markDead(reference, 'expired', 'server_error (503)');
    };

    it('erases the personal data of dead rows once they ended the retention ago, keeping their summary, newer ones and rows in line', async () => {
      await dead('old');
      await outbox.enqueue(newApplication('waiting'), { deadLetterAfterMs: 100 * DAY });
      now += 10 * DAY;
      await dead('newer');
      await outbox.enqueue(newApplication('refused'), { deadLetterAfterMs: HOUR });
      outbox.claim('refused', 60_000);
      outbox.markRejected('refused', 'upstream_rejected', 'validation_failed (422)');
      now += 20 * DAY - 1;
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), [], 'not before the 30 days are over');
      now += 1;
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), ['old']);
      const old = outbox.get('old');
      assert.equal(old?.payload, null);
      assert.equal(old?.resume_bytes, null);
      assert.equal(existsSync(join(dir, 'resumes', 'old')), false);
      assert.deepEqual([old?.status, old?.outcome, old?.erased_at, old?.erased_by], ['dead', 'expired', now, 'retention']);
      assert.equal(outbox.summary('old')?.personal_data, false);
      assert.notEqual(outbox.get('newer')?.payload, null);
      assert.notEqual(await storedResume(outbox, 'waiting'), null);
      assert.equal(outbox.get('refused')?.status, 'rejected', 'a refused row (no data since its refusal) keeps its summary');
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), [], 'a second pass finds nothing more');
      now += 10 * DAY;
      assert.deepEqual(outbox.eraseExpiredPersonalData(30 * DAY), ['newer']);
      assert.notEqual(outbox.get('waiting')?.payload, null, 'an application in line keeps its data: it needs it to be delivered');
    });

    it('says when a dead row is erased: its end plus the retention; nothing for rows in line or without data', async () => {
      await dead('d');
      await outbox.enqueue(newApplication('w'), { deadLetterAfterMs: HOUR });
      const [d, w] = outbox.list();
      assert.equal(eraseAfter(d!, 30 * DAY), now + 30 * DAY);
      assert.equal(eraseAfter(w!, 30 * DAY), null);
    });

    it('refuses to retry a dead row whose data was erased', async () => {
      await dead('r1');
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

    it("erases one person's applications, counter and keys at their request, and nobody else's", async () => {
      const ada = { bucket: emailBucket('ada@example.org'), windowMs: DAY };
      outbox.claimKey('k-ada', 'f1');
      await outbox.enqueue(newApplication('ada-waiting'), { deadLetterAfterMs: HOUR, key: 'k-ada', emailBucket: ada });
      outbox.completeKey('k-ada', 202, '{"status":"queued","reference":"ada-waiting"}');
      await dead('ada-dead', 'ADA@example.org');
      outbox.claimKey('k-mention', 'f2');
      outbox.completeKey('k-mention', 422, '{"detail":"ada@example.org"}');
      outbox.claimKey('k-grace', 'f3');
      await outbox.enqueue(newApplication('grace', 'grace@example.org'), {
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
        assert.deepEqual([row?.payload, row?.resume_bytes, row?.erased_by], [null, null, 'request']);
        assert.equal(existsSync(join(dir, 'resumes', reference)), false);
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

    it('leaves no copy of erased data in outbox.db or its write-ahead log', async () => {
      const resume = uploadedResume(dir, Buffer.from('RESUME-OF-ZED '.repeat(400)));
      await outbox.enqueue(
        { reference: 'z', campaign_id: 12, company_id: 3, payload: { applicant: { email: 'zed@example.org' }, cover_letter: 'LETTER-OF-ZED '.repeat(40) }, resume, resume_type: 'pdf' },
        { deadLetterAfterMs: HOUR },
      );
      outbox.eraseByEmail('zed@example.org', emailBucket('zed@example.org'));
      outbox.checkpoint();
      // Read while the outbox is open, as with a running proxy: what is in the files now.
      const bytes = Buffer.concat(['outbox.db', 'outbox.db-wal'].map((name) => join(dir, name)).filter((file) => existsSync(file)).map((file) => readFileSync(file)));
      for (const marker of ['RESUME-OF-ZED', 'LETTER-OF-ZED', 'zed@example.org']) assert.equal(bytes.includes(marker), false, marker);
      assert.deepEqual(readdirSync(join(dir, 'resumes')), [], "the resume's file is deleted");
    });

    it('keeps an application erased during its attempt out of line, and records it delivered if that attempt delivered it', async () => {
      await outbox.enqueue(newApplication('a'), { deadLetterAfterMs: HOUR });
      await outbox.enqueue(newApplication('b'), { deadLetterAfterMs: HOUR });
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
