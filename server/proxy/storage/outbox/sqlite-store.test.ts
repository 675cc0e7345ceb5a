// What only the SQLite store does: resumes as files beside outbox.db, erased
// data gone from the file and its log, and files written by earlier releases
// (0.2.0 resume blobs, the first release's columns, user_version 3) opened
// with nothing lost. The behaviour both stores share is application-store.test.ts.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { emailBucket } from '../../applications/form.ts';
import { lockDataDir } from '../data-dir-lock.ts';
import { IDEMPOTENCY_TTL_MS, ResumeMissingError } from './application-store.ts';
import type { NewApplication } from './application-store.ts';
import { ResumeFiles } from './resume-files.ts';
import { SQLITE_MIGRATIONS } from '../sqlite-schema.ts';
import { SqliteApplicationStore } from './sqlite-store.ts';
import { claimed, newApplication, refuse, storedResume, storeEachTest, uploadedResume } from '../test-support.ts';
import { DAY, HOUR } from '../../../test/time.ts';

/** The outbox table of the releases before 0.3 (user_version 2 and 3 files; 0.2.0 without unconfirmed_send). */
const OLD_OUTBOX = `CREATE TABLE outbox (reference TEXT PRIMARY KEY, created_at INTEGER NOT NULL, campaign_id INTEGER NOT NULL,
  company_id INTEGER NOT NULL, payload TEXT, resume_type TEXT, resume_bytes INTEGER, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL, dead_letter_at INTEGER NOT NULL, lease_owner TEXT, lease_until INTEGER, answered INTEGER, outcome TEXT,
  last_error TEXT, last_attempt_at INTEGER, delivered_at INTEGER, upstream_applicant_id INTEGER, upstream_application_id INTEGER,
  ended_at INTEGER, erased_at INTEGER, erased_by TEXT`;

describe('SQLite application store', () => {
  const open = (owner: string): SqliteApplicationStore =>
    new SqliteApplicationStore({ dataDir: test.dir, owner, now: () => test.now });
  const test = storeEachTest('jbc-sqlite-', () => open('process-1'));
  const application = (reference: string) => newApplication(reference, { resumeIn: test.dir });
  const fileBytes = () =>
    Buffer.concat(
      ['outbox.db', 'outbox.db-wal']
        .map((name) => join(test.dir, name))
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file)),
    );

  it('keeps a resume as a file of its own, moved from its upload, never as a blob in outbox.db', async () => {
    const marker = Buffer.from('%PDF-1.4 RESUME-MARKER '.repeat(100));
    const upload = uploadedResume(test.dir, marker);
    await test.store.enqueue({ ...application('r1'), resume: upload }, { deadLetterAfterMs: HOUR });
    assert.equal(existsSync(upload.path), false, 'the upload file was moved, not copied');
    assert.deepEqual(readdirSync(join(test.dir, 'resumes')), ['r1']);
    assert.ok((await storedResume(test.store, 'r1'))?.equals(marker));
    await test.store.compact();
    assert.equal(fileBytes().includes('RESUME-MARKER'), false);
  });

  it('deletes the resume file of a delivered row', async () => {
    await test.store.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const r1Lease = await claimed(test.store, 'r1');
    await test.store.markDelivered(r1Lease, 'created_applicant', {});
    assert.deepEqual(readdirSync(join(test.dir, 'resumes')), []);
  });

  it('opening the file deletes no resume, even one no row holds yet: another process may be storing it', async () => {
    await test.store.enqueue(application('kept'), { deadLetterAfterMs: HOUR });
    writeFileSync(join(test.dir, 'resumes', 'being-stored'), 'moved in, its row not committed yet');
    const beside = open('outbox-command');
    await beside.close();
    assert.deepEqual(readdirSync(join(test.dir, 'resumes')).sort(), ['being-stored', 'kept']);
  });

  it('for the holder of the data directory, deletes the resume files no row holds (their process was killed before the row was committed)', async () => {
    await test.store.enqueue(application('kept'), { deadLetterAfterMs: HOUR });
    writeFileSync(join(test.dir, 'resumes', 'orphan'), 'left by a killed process');
    await test.store.close();
    const lock = lockDataDir(test.dir);
    try {
      test.store = open('process-2');
      assert.equal(await test.store.removeUnlinkedResumes(lock), 1);
      assert.deepEqual(readdirSync(join(test.dir, 'resumes')), ['kept']);
    } finally {
      lock.release();
    }
  });

  it('refuses to delete resumes under the lock of another data directory', async () => {
    writeFileSync(join(test.dir, 'resumes', 'orphan'), 'left by a killed process');
    const elsewhere = mkdtempSync(join(tmpdir(), 'jbc-sqlite-other-'));
    const lock = lockDataDir(elsewhere);
    try {
      await assert.rejects(test.store.removeUnlinkedResumes(lock), /the lock held is on .*jbc-sqlite-other-/);
      assert.deepEqual(readdirSync(join(test.dir, 'resumes')), ['orphan']);
    } finally {
      lock.release();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('records its migrations once, in schema_migrations, and applies none the second time', async () => {
    assert.deepEqual(
      test.store.migrations.applied.map((m) => m.version),
      SQLITE_MIGRATIONS.map((m) => m.version),
    );
    await test.store.close();
    test.store = open('process-2');
    assert.deepEqual(test.store.migrations.applied, []);
    const check = new DatabaseSync(join(test.dir, 'outbox.db'), { readOnly: true });
    const rows = check.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    check.close();
    assert.deepEqual(
      rows.map((r) => r.version),
      SQLITE_MIGRATIONS.map((m) => m.version),
    );
  });

  it('refuses a file migrated by a newer version, saying what to do', async () => {
    await test.store.close();
    const db = new DatabaseSync(join(test.dir, 'outbox.db'));
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)").run();
    db.close();
    assert.throws(
      () => open('process-2'),
      /migrated by a newer jobboard-connector \(schema version 99.*run the newer version/,
    );
    rmSync(join(test.dir, 'outbox.db'));
    test.store = open('process-3');
  });

  it('opens a user_version 3 file of the previous release with every row, key and counter it held', async () => {
    await test.store.close();
    rmSync(join(test.dir, 'outbox.db'));
    const db = new DatabaseSync(join(test.dir, 'outbox.db'));
    db.exec(`${OLD_OUTBOX}, unconfirmed_send INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
      CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
        owner TEXT NOT NULL, reference TEXT, status INTEGER, body TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      CREATE TABLE rate_counters (bucket TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);
      PRAGMA user_version = 3;`);
    db.prepare(
      `INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, resume_type, resume_bytes, status, next_attempt_at, dead_letter_at)
      VALUES ('waiting', ?, 12, 3, '{"applicant":{"email":"ada@example.org"}}', 'pdf', 9, 'pending', 0, ?)`,
    ).run(test.now, test.now + HOUR);
    db.prepare(
      `INSERT INTO idempotency_keys VALUES ('k', 'f1', 'done', 'old', 'waiting', 202, '{"status":"queued"}', ?, ?)`,
    ).run(test.now, test.now + DAY);
    db.prepare('INSERT INTO rate_counters VALUES (?, 4, ?)').run(
      `${emailBucket('ada@example.org')}@${Math.floor(test.now / DAY) * DAY}`,
      test.now + DAY,
    );
    db.close();
    writeFileSync(join(test.dir, 'resumes', 'waiting'), '%PDF-1.4\n');
    test.store = open('process-2');
    assert.equal((await storedResume(test.store, 'waiting'))?.toString(), '%PDF-1.4\n');
    assert.deepEqual((await test.store.get('waiting'))?.payload, { applicant: { email: 'ada@example.org' } });
    assert.deepEqual(await test.store.claimKey('k', 'f1'), {
      kind: 'replay',
      status: 202,
      body: '{"status":"queued"}',
    });
    assert.equal((await test.store.peekRate(emailBucket('ada@example.org'), DAY)).count, 4);
  });

  it('moves the resume blobs of an outbox.db written by 0.2.0 to files, losing none', async () => {
    await test.store.close();
    rmSync(join(test.dir, 'outbox.db'));
    rmSync(join(test.dir, 'resumes'), { recursive: true });
    // 0.2.0: resumes in an outbox_resumes table; a delivered row kept its resume_bytes but not its blob.
    const db = new DatabaseSync(join(test.dir, 'outbox.db'));
    db.exec(`${OLD_OUTBOX});
      CREATE TABLE outbox_resumes (reference TEXT PRIMARY KEY, bytes BLOB NOT NULL);
      PRAGMA user_version = 2;`);
    const insert =
      db.prepare(`INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, resume_type, resume_bytes, status, next_attempt_at, dead_letter_at)
      VALUES (?, ?, 12, 3, ?, 'pdf', ?, ?, 0, ?)`);
    insert.run('waiting', test.now, '{"applicant":{"email":"ada@example.org"}}', 9, 'pending', test.now + HOUR);
    insert.run('sent', test.now, null, 9, 'delivered', test.now + HOUR);
    db.prepare('INSERT INTO outbox_resumes (reference, bytes) VALUES (?, ?)').run('waiting', Buffer.from('%PDF-1.4\n'));
    db.close();
    test.store = open('process-2');
    assert.equal((await storedResume(test.store, 'waiting'))?.toString(), '%PDF-1.4\n');
    assert.equal((await test.store.summary('waiting'))?.resume_bytes, 9);
    assert.equal((await test.store.summary('sent'))?.resume_bytes, null, 'a row whose blob was gone holds no resume');
    assert.equal((await test.store.summary('sent'))?.personal_data, false);
    assert.equal((await test.store.get('waiting'))?.unconfirmed_send, 0, 'the column added since is there');
    const check = new DatabaseSync(join(test.dir, 'outbox.db'));
    assert.equal(check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'outbox_resumes'").get()?.n, 0);
    assert.equal(check.prepare('PRAGMA user_version').get()?.user_version, 3);
    check.close();
  });

  it('measures a dead row stored before its end was recorded from its last attempt', async () => {
    await test.store.close();
    rmSync(join(test.dir, 'outbox.db'));
    // The first release's table: no ended_at, erased_at, erased_by.
    const db = new DatabaseSync(join(test.dir, 'outbox.db'));
    db.exec(`CREATE TABLE outbox (reference TEXT PRIMARY KEY, created_at INTEGER NOT NULL, campaign_id INTEGER NOT NULL,
      company_id INTEGER NOT NULL, payload TEXT, resume_type TEXT, resume_bytes INTEGER, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL, dead_letter_at INTEGER NOT NULL, lease_owner TEXT, lease_until INTEGER, answered INTEGER, outcome TEXT,
      last_error TEXT, last_attempt_at INTEGER, delivered_at INTEGER, upstream_applicant_id INTEGER, upstream_application_id INTEGER)`);
    db.prepare(
      `INSERT INTO outbox (reference, created_at, campaign_id, company_id, payload, status, attempts, next_attempt_at, dead_letter_at, outcome, last_attempt_at)
      VALUES ('legacy', ?, 12, 3, '{"applicant":{"email":"ada@example.org"}}', 'dead', 3, 0, 0, 'expired', ?)`,
    ).run(test.now - 40 * DAY, test.now - 20 * DAY);
    db.close();
    test.store = open('process-2');
    assert.deepEqual(await test.store.eraseExpiredPersonalData(30 * DAY), [], 'its last attempt was 20 days ago');
    test.now += 10 * DAY;
    assert.deepEqual(await test.store.eraseExpiredPersonalData(30 * DAY), ['legacy']);
  });

  it('leaves no copy of erased data in outbox.db or its write-ahead log', async () => {
    const resume = uploadedResume(test.dir, Buffer.from('RESUME-OF-ZED '.repeat(400)));
    await test.store.enqueue(
      {
        reference: 'z',
        campaign_id: 12,
        company_id: 3,
        payload: { applicant: { email: 'zed@example.org' }, cover_letter: 'LETTER-OF-ZED '.repeat(40) },
        resume,
        resume_type: 'pdf',
      },
      { deadLetterAfterMs: HOUR },
    );
    await test.store.eraseByEmail('zed@example.org', emailBucket('zed@example.org'));
    await test.store.compact();
    // Read while the outbox is open, as with a running proxy: what is in the files now.
    const bytes = fileBytes();
    for (const marker of ['RESUME-OF-ZED', 'LETTER-OF-ZED', 'zed@example.org'])
      assert.equal(bytes.includes(marker), false, marker);
    assert.deepEqual(readdirSync(join(test.dir, 'resumes')), [], "the resume's file is deleted");
  });

  /** Reads the file as another process would, while the store holds it. */
  const inspect = <T>(read: (db: DatabaseSync) => T): T => {
    const db = new DatabaseSync(join(test.dir, 'outbox.db'), { readOnly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  };

  it('creates a missing data directory and outbox.db readable by their owner only', async () => {
    const nested = join(test.dir, 'not', 'there');
    const store = new SqliteApplicationStore({ dataDir: nested, owner: 'p', now: () => test.now });
    await store.close();
    assert.equal(statSync(nested).mode & 0o777, 0o700);
    assert.equal(statSync(join(nested, 'outbox.db')).mode & 0o777, 0o600);
  });

  it('creates outbox.db in write-ahead-log mode with incremental auto-vacuum', () => {
    assert.equal(
      inspect((db) => db.prepare('PRAGMA journal_mode').get()?.journal_mode),
      'wal',
    );
    assert.equal(
      inspect((db) => db.prepare('PRAGMA auto_vacuum').get()?.auto_vacuum),
      2,
      'INCREMENTAL',
    );
  });

  it('gives the pages of purged rows back to the file system when compacted', async () => {
    const big = (reference: string): NewApplication => ({
      ...application(reference),
      payload: { applicant: { email: 'ada@example.org' }, cover_letter: 'x'.repeat(20_000) },
      resume: null,
    });
    for (const reference of ['a', 'b', 'c']) await test.store.enqueue(big(reference), { deadLetterAfterMs: HOUR });
    await test.store.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
    assert.equal(await test.store.purgeDelivered(), 3);
    await test.store.compact();
    assert.equal(
      inspect((db) => db.prepare('PRAGMA freelist_count').get()?.freelist_count),
      0,
    );
  });

  it('is open until closed, then refuses work; closing twice is harmless', async () => {
    assert.equal(test.store.isOpen, true);
    await test.store.close();
    assert.equal(test.store.isOpen, false);
    await assert.rejects(test.store.get('r1'));
    await test.store.close();
    test.store = open('process-2');
  });

  it('holds no resume for a file in its folder that no row holds', async () => {
    writeFileSync(join(test.dir, 'resumes', 'stray'), 'not an application of this outbox');
    assert.equal(await test.store.openResume('stray'), undefined);
  });

  it('says which file is gone when a resume was deleted from outside the proxy', async () => {
    await test.store.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    rmSync(join(test.dir, 'resumes', 'r1'));
    await assert.rejects(
      test.store.openResume('r1'),
      (error: Error) => error instanceof ResumeMissingError && /resumes[/\\]r1 is gone/.test(error.message),
    );
  });

  it('holds no resume, and reports none missing, for an application erased while its file was looked for', async () => {
    await test.store.close();
    /** Its look for the file lets an erasure run first, as a request could between two awaits. */
    class ErasedWhileLooking extends ResumeFiles {
      override async has(reference: string): Promise<boolean> {
        await test.store.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
        return super.has(reference);
      }
    }
    test.store = new SqliteApplicationStore({
      dataDir: test.dir,
      owner: 'process-2',
      now: () => test.now,
      resumes: new ErasedWhileLooking(test.dir),
    });
    await test.store.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    assert.equal(await test.store.openResume('r1'), undefined);
  });

  it('deletes the resume file of a refused row, at once or by markRefused, and of rows erased by retention', async () => {
    for (const reference of ['rejected', 'refused', 'dead'])
      await test.store.enqueue(application(reference), { deadLetterAfterMs: HOUR });
    await test.store.markRejected(
      await claimed(test.store, 'rejected'),
      'upstream_rejected',
      'validation_failed (422)',
    );
    assert.equal(await refuse(test.store, 'refused'), 'rejected');
    assert.deepEqual(readdirSync(join(test.dir, 'resumes')), ['dead']);
    await test.store.markDead(await claimed(test.store, 'dead'), 'expired', 'server_error (503)');
    test.now += 31 * DAY;
    assert.deepEqual(await test.store.eraseExpiredPersonalData(30 * DAY), ['dead']);
    assert.deepEqual(readdirSync(join(test.dir, 'resumes')), []);
  });

  it('takes back its own lease only once it has ended, and never one it is working on', async () => {
    await test.store.enqueue({ ...application('r1'), resume: null }, { deadLetterAfterMs: HOUR });
    assert.equal((await test.store.claimDue(10, 60_000)).length, 1);
    assert.equal(await test.store.recoverLeases(), 0, 'the lease runs for a minute');
    test.now += 60_000;
    assert.equal(await test.store.recoverLeases(new Set(['r1'])), 0, 'still being worked on');
    assert.equal(await test.store.recoverLeases(), 1, 'ended at this very millisecond');
    assert.equal((await test.store.get('r1'))?.status, 'pending');
  });

  it('answers in_progress for a key whose application this process stored and has not answered yet', async () => {
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'claimed' });
    await test.store.enqueue(application('r1'), { deadLetterAfterMs: HOUR, key: 'k' });
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'in_progress' });
  });

  it('forgets the claim of a key once stored: the key, expired or erased, is free again', async () => {
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'claimed' });
    await test.store.enqueue(application('r1'), { deadLetterAfterMs: HOUR, key: 'k' });
    test.now += IDEMPOTENCY_TTL_MS;
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'claimed' });
  });

  it('lets a retry take a key an older version wrote before it stored anything, and holds it for that retry', async () => {
    await test.store.close();
    const db = new DatabaseSync(join(test.dir, 'outbox.db'));
    db.prepare(
      "INSERT INTO idempotency_keys (key, fingerprint, state, owner, created_at, expires_at) VALUES ('k', 'f1', 'in_progress', 'old', ?, ?)",
    ).run(test.now, test.now + DAY);
    db.close();
    test.store = open('process-2');
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'claimed' });
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'in_progress' }, 'the first retry holds it now');
    const answer = { status: 422, body: '{"error":"validation_failed"}' };
    await test.store.completeKey('k', answer.status, answer.body);
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'replay', ...answer });
  });

  it('answers stored for a key whose application a killed process stored, and takes the key over', async () => {
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'claimed' });
    await test.store.enqueue(application('r1'), { deadLetterAfterMs: HOUR, key: 'k' });
    await test.store.close();
    test.store = open('process-2');
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'stored', reference: 'r1' });
    assert.deepEqual(await test.store.claimKey('k', 'f1'), { kind: 'in_progress' }, 'this process holds it now');
  });

  it('purges only the rows delivered longer ago than asked, with the expired keys and counters', async () => {
    await test.store.enqueue(
      { ...application('r1'), resume: null },
      { deadLetterAfterMs: HOUR, key: 'k', emailBucket: { bucket: 'b', windowMs: HOUR } },
    );
    await test.store.completeKey('k', 202, '{}');
    await test.store.markDelivered(await claimed(test.store, 'r1'), 'created_applicant', {});
    test.now += HOUR;
    assert.equal(await test.store.purgeDelivered(2 * HOUR), 0, 'delivered an hour ago');
    assert.equal(
      inspect((db) => db.prepare('SELECT count(*) AS n FROM rate_counters').get()?.n),
      0,
      'its window is over',
    );
    test.now += IDEMPOTENCY_TTL_MS;
    assert.equal(await test.store.purgeDelivered(2 * HOUR), 1);
    assert.equal(
      inspect((db) => db.prepare('SELECT count(*) AS n FROM idempotency_keys').get()?.n),
      0,
    );
  });

  it('tells the error that ended a transaction SQLite had already rolled back, and keeps no resume of it', async () => {
    // RAISE(ROLLBACK) ends the transaction in SQLite itself, as a full disk (SQLITE_FULL) does.
    const db = new DatabaseSync(join(test.dir, 'outbox.db'));
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON outbox BEGIN SELECT RAISE(ROLLBACK, 'the disk says no'); END");
    await assert.rejects(test.store.enqueue(application('r1'), { deadLetterAfterMs: HOUR }), /the disk says no/);
    assert.deepEqual(readdirSync(join(test.dir, 'resumes')), []);
    db.exec('DROP TRIGGER refuse');
    db.close();
    await test.store.enqueue(application('r2'), { deadLetterAfterMs: HOUR });
    assert.equal((await test.store.get('r2'))?.status, 'pending');
  });

  it('answers no refusal for an application erased during its attempt', async () => {
    await test.store.enqueue(application('r1'), { deadLetterAfterMs: HOUR });
    const lease = await claimed(test.store, 'r1');
    await test.store.eraseByEmail('ada@example.org', emailBucket('ada@example.org'));
    assert.equal(await test.store.markRefused(lease, 'upstream_rejected', 'validation_failed (422)'), undefined);
    assert.equal((await test.store.get('r1'))?.outcome, 'erased');
  });

  // The contract (application-store.test.ts) retries dead and delivered rows; these are the states between.
  it('puts a waiting application back in line now, and refuses one being delivered', async () => {
    for (const reference of ['waiting', 'sending'])
      await test.store.enqueue({ ...application(reference), resume: null }, { deadLetterAfterMs: HOUR });
    await claimed(test.store, 'sending');
    assert.equal(await test.store.retry('waiting', HOUR), 'queued');
    assert.equal(await test.store.retry('sending', HOUR), 'not_retryable');
    assert.equal((await test.store.get('sending'))?.status, 'delivering');
  });
});
