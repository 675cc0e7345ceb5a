// A full disk while an application is stored: the upload's writes fail with
// ENOSPC (an injected file opener), SQLite cannot grow its file (SQLITE_FULL),
// or PostgreSQL answers disk_full (SQLSTATE 53100, raised by a trigger). The
// candidate is answered 503 storage_full with Retry-After, nothing
// half-stored stays (no upload, no resume, no row, no claimed key: the same
// key sent again once there is room is stored), and what was stored before
// is delivered exactly once, counted at the sandbox's wire.
import assert from 'node:assert/strict';
import { closeSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { OpenUploadFile } from '../server/proxy/applications/index.ts';
import { eventually } from '../server/test/poll.ts';
import { pdfOfSize } from '../server/test/files.ts';
import { apply, applyWorldPerSuite, assertCreatedOnceAtTheWire, validFields } from './proxy-apply.test-support.ts';
import type { ApplyAnswer, ApplyWorld, Fields } from './proxy-apply.test-support.ts';
import { postgresStore } from './proxy-stores.ts';
import type { Sql } from '../server/proxy/storage/sql.ts';

const RESUME = pdfOfSize(200_000);

/** A disk with `room` bytes left for uploads (Infinity: not full); past it every write fails as the kernel's does. */
function diskOfUploads(): { disk: { room: number }; open: OpenUploadFile } {
  const disk = { room: Infinity };
  const open: OpenUploadFile = (path, options) => {
    const fd = openSync(path, 'w', options.mode);
    return new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (chunk.length > disk.room) {
          done(
            Object.assign(new Error(`ENOSPC: no space left on device, write`), {
              code: 'ENOSPC',
              errno: -28,
              syscall: 'write',
            }),
          );
          return;
        }
        disk.room -= chunk.length;
        writeSync(fd, chunk);
        done();
      },
      destroy(error, done) {
        closeSync(fd);
        done(error);
      },
    });
  };
  return { disk, open };
}

function assertStorageFull(answer: ApplyAnswer): void {
  assert.equal(answer.status, 503, answer.text);
  assert.equal(answer.body.code, 'storage_full');
  assert.equal(answer.headers.get('retry-after'), '300');
}

/** Stored or delivered: the candidate's application is accepted. */
function assertAccepted(answer: ApplyAnswer): void {
  assert.ok(answer.status === 201 || answer.status === 202, `${answer.status} ${answer.text}`);
  assert.equal(answer.headers.get('idempotent-replayed'), null, 'stored now, not a replay of the refusal');
}

const files = (world: ApplyWorld, folder: 'uploads' | 'resumes') =>
  readdirSync(join(world.config.dataDir, folder)).sort();

/**
 * Sends the refused request again with its key once there is room: it is
 * stored, delivered with the `deliveredBefore` rows (no row of the refusal
 * stays) and created once at the wire.
 */
async function assertStoredOnceThereIsRoom(
  world: ApplyWorld,
  { fields, key }: { fields: Fields; key: string },
  deliveredBefore: number,
): Promise<void> {
  assertAccepted(await apply(world.proxyUrl, { fields, key, resume: { bytes: RESUME } }));
  await eventually(async () => (await world.applications.outbox.counts()).delivered === deliveredBefore + 1, {
    timeoutMs: 15_000,
    what: 'every application delivered',
  });
  await assertCreatedOnceAtTheWire(world.sandbox, fields.email, Number(fields.campaign_id));
}

describe('a full disk, on SQLite', () => {
  const uploads = diskOfUploads();
  const world = applyWorldPerSuite({ duplicates: 'accept', openUploadFile: uploads.open });

  it('when the disk fills while the resume is written, answers 503 storage_full, leaves no upload, resume or claimed key, and delivers what was stored before', async () => {
    const campaignId = world().openCampaignIds[0]!;
    const earlier = validFields(campaignId);
    assertAccepted(await apply(world().proxyUrl, { fields: earlier, resume: { bytes: RESUME } }));
    const resumesBefore = files(world(), 'resumes');
    const rowsBefore = (await world().applications.outbox.list()).length;

    uploads.disk.room = 64 * 1024;
    const fields = validFields(campaignId);
    const key = crypto.randomUUID();
    const refused = await apply(world().proxyUrl, { fields, key, resume: { bytes: RESUME } });
    assertStorageFull(refused);
    await eventually(() => files(world(), 'uploads').length === 0, {
      timeoutMs: 5_000,
      what: 'the half-written upload to be deleted',
    });
    assert.deepEqual(files(world(), 'resumes'), resumesBefore);
    assert.equal((await world().applications.outbox.list()).length, rowsBefore);

    uploads.disk.room = Infinity;
    await assertStoredOnceThereIsRoom(world(), { fields, key }, rowsBefore);
    await assertCreatedOnceAtTheWire(world().sandbox, earlier.email, campaignId);
  });

  it('when SQLite cannot grow its file to commit the row, answers 503 storage_full, leaves no resume, row or claimed key, and stores the same key once there is room', async () => {
    const campaignId = world().openCampaignIds[0]!;
    // The store's own connection (a page limit holds for one connection), through its lock as the store's statements go.
    const db = (world().applications.outbox as unknown as { file: Sql }).file;
    const rowsBefore = (await world().applications.outbox.list()).length;
    const resumesBefore = files(world(), 'resumes');
    const pages = Number((await db.all('PRAGMA page_count'))[0]!.page_count);
    // The file may not grow by a page: what SQLite answers when the disk is full (SQLITE_FULL).
    await db.run(`PRAGMA max_page_count = ${pages}`);
    const fields = { ...validFields(campaignId), cover_letter: 'A letter that needs pages of its own. '.repeat(250) };
    const key = crypto.randomUUID();
    try {
      assertStorageFull(await apply(world().proxyUrl, { fields, key, resume: { bytes: RESUME } }));
      assert.deepEqual(files(world(), 'uploads'), []);
      assert.deepEqual(files(world(), 'resumes'), resumesBefore);
      assert.equal((await world().applications.outbox.list()).length, rowsBefore);
    } finally {
      await db.run('PRAGMA max_page_count = 1073741823');
    }

    await assertStoredOnceThereIsRoom(world(), { fields, key }, rowsBefore);
  });
});

const store = await postgresStore();

describe('a full disk, on PostgreSQL', { skip: store.skip }, () => {
  const world = applyWorldPerSuite({ duplicates: 'accept', env: store.env });
  let db: pg.Pool;
  before(() => {
    db = new pg.Pool({ connectionString: store.env.DATABASE_URL, max: 1 });
  });
  after(async () => {
    await db?.end();
  });

  it('when the database answers disk_full as the row commits, answers 503 storage_full, leaves no row, resume chunk or claimed key, and delivers what was stored before', async () => {
    const campaignId = world().openCampaignIds[0]!;
    const earlier = validFields(campaignId);
    assertAccepted(await apply(world().proxyUrl, { fields: earlier, resume: { bytes: RESUME } }));
    const count = async (table: string) =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
    const rowsBefore = await count('outbox');
    const chunksBefore = await count('resume_chunks');

    // What PostgreSQL answers when it cannot extend a file: SQLSTATE 53100, at the insert.
    await db.query(`CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$`);
    await db.query('CREATE TRIGGER disk_full BEFORE INSERT ON resume_chunks FOR EACH ROW EXECUTE FUNCTION disk_full()');
    const fields = validFields(campaignId);
    const key = crypto.randomUUID();
    try {
      assertStorageFull(await apply(world().proxyUrl, { fields, key, resume: { bytes: RESUME } }));
      assert.equal(await count('outbox'), rowsBefore);
      assert.equal(await count('resume_chunks'), chunksBefore);
      assert.equal(
        (await db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key])).rowCount,
        0,
        'the key is not left claimed',
      );
      assert.deepEqual(files(world(), 'uploads'), []);
    } finally {
      await db.query('DROP TRIGGER disk_full ON resume_chunks; DROP FUNCTION disk_full()');
    }

    await assertStoredOnceThereIsRoom(world(), { fields, key }, rowsBefore);
    await assertCreatedOnceAtTheWire(world().sandbox, earlier.email, campaignId);
  });
});
