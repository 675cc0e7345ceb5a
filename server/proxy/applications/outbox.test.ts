import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { IDEMPOTENCY_TTL_MS, Outbox } from './outbox.ts';
import type { NewApplication } from './outbox.ts';

const HOUR = 60 * 60 * 1000;

function newApplication(reference: string): NewApplication {
  return {
    reference,
    campaign_id: 12,
    company_id: 3,
    payload: { applicant: { email: 'ada@example.org', first_name: 'Ada' }, cover_letter: 'Hello' },
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
});
