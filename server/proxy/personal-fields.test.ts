// The fields the form's table marks personal, followed from the posted form
// to every place the proxy could keep or show them: no log line shows them,
// and once an application is erased (a candidate's request) or its retention
// ends, neither the store's answers nor its files on disk hold them. Each
// field gets a marker value from its kind, so a personal field added to the
// table is checked without touching this test.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { APPLICATION_FORM, DEFAULT_FIELD_MODES, postedName } from '../public-api/application-form.ts';
import type { FieldKind, FormField } from '../public-api/application-form.ts';
import { captureLogs } from '../test/logs.ts';
import { eventually } from '../test/poll.ts';
import { checkForm, emailBucket } from './applications/form.ts';
import { RetentionSweeper } from './applications/retention.ts';
import { UploadSpool } from './applications/upload-spool.ts';
import { openBackend } from './storage/index.ts';
import type { Backend } from './storage/index.ts';
import type { ApplicationStore } from './storage/index.ts';
import { storeEachTest } from './storage/test-support.ts';

const DAY = 24 * 60 * 60 * 1000;

const PERSONAL_FIELDS = (APPLICATION_FORM as readonly FormField[]).filter((field) => field.personal !== false);

/** A value of each kind that the form takes and that appears nowhere else, for one field (by its id). */
const MARKER_OF_KIND: Record<FieldKind, ((id: string) => string) | undefined> = {
  email: (id) => `zq7-${id}@example.org`,
  text: (id) => `Zq7${id}`,
  'tel-code': () => '+7391',
  tel: () => '(739) 184-2650',
  url: (id) => `https://zq7-${id}.example/`,
  textarea: (id) => `Zq7 ${id} text`,
  file: (id) => `Zq7 ${id} bytes`,
  checkbox: undefined,
};

function markerOf(field: FormField): string {
  const marker = MARKER_OF_KIND[field.kind];
  if (marker === undefined)
    throw new Error(
      `no marker value for a personal field of kind ${field.kind} (${field.id}): add one to MARKER_OF_KIND`,
    );
  return marker(field.id);
}

const MARKERS = PERSONAL_FIELDS.map((field) => ({ field: field.id, marker: markerOf(field) }));
const EMAIL = markerOf(APPLICATION_FORM.find((field) => field.kind === 'email')!);

/** The posted form with every field set: personal ones to their markers, checkboxes ticked. */
function postedFields(): Map<string, string> {
  const fields = new Map<string, string>([['campaign_id', '7']]);
  for (const field of APPLICATION_FORM as readonly FormField[]) {
    if (field.kind === 'file') continue;
    fields.set(postedName(field), field.kind === 'checkbox' ? 'true' : markerOf(field));
  }
  return fields;
}

/** A resume whose bytes carry the file field's marker. */
function resumeBytes(): Buffer {
  const file = PERSONAL_FIELDS.find((field) => field.kind === 'file');
  return Buffer.from(`%PDF-1.4\n${file === undefined ? '' : markerOf(file)}\n%%EOF\n`);
}

/** The markers found in a text. */
function markersIn(text: string): string[] {
  return MARKERS.filter(({ marker }) => text.includes(marker)).map(({ field }) => field);
}

/** The markers found in any file under a folder (the database, its log, the resumes, the uploads). */
function markersOnDisk(dir: string): string[] {
  const found = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const bytes = readFileSync(join(entry.parentPath, entry.name));
    for (const { field, marker } of MARKERS) if (bytes.includes(Buffer.from(marker))) found.add(field);
  }
  return [...found];
}

async function resumeOf(store: ApplicationStore, reference: string): Promise<string> {
  const stream = await store.openResume(reference);
  if (stream === undefined) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('latin1');
}

/** What the store answers about one application: its row, its line in the list, its resume. */
async function whatTheStoreShows(store: ApplicationStore, reference: string): Promise<string> {
  return [
    JSON.stringify(await store.get(reference)),
    JSON.stringify(await store.list()),
    await resumeOf(store, reference),
  ].join('\n');
}

describe('personal fields of the form', () => {
  it('the table marks some, each with a marker value the form takes', () => {
    assert.ok(PERSONAL_FIELDS.length > 0);
    const { errors } = checkForm(
      { fields: postedFields(), truncated: new Set(), resume: undefined, pages: [], pagesSent: 0 },
      DEFAULT_FIELD_MODES,
    );
    assert.deepEqual(
      errors.filter((e) => e.code !== 'file_required'),
      [],
    );
  });

  it('never reach a log line, under any name a personal field travels under, at any depth', async () => {
    const { logger, text, lines } = captureLogs();
    const { checked } = checkForm(
      { fields: postedFields(), truncated: new Set(), resume: undefined, pages: [], pagesSent: 0 },
      DEFAULT_FIELD_MODES,
    );
    const underEveryName = Object.fromEntries(
      PERSONAL_FIELDS.flatMap((field) =>
        [field.id, postedName(field), field.upstream ?? postedName(field), field.rule].map((name) => [
          name,
          markerOf(field),
        ]),
      ),
    );
    logger.info(
      {
        form: Object.fromEntries(postedFields()),
        payload: checked?.payload,
        upstream: { applicant: underEveryName },
        ...underEveryName,
      },
      'application',
    );
    await eventually(() => lines.some((line) => line.msg === 'application'), {
      timeoutMs: 500,
      what: 'the line to be written',
      intervalMs: 5,
    });
    assert.deepEqual(markersIn(text()), []);
  });

  describe('in the store', () => {
    let backend: Backend;
    const test = storeEachTest('jbc-personal-', (dir, now) => {
      backend = openBackend({ dataDir: dir, databaseUrl: null });
      return backend.openApplications({ owner: 'test', now });
    });
    // Once the store is closed: the backend closes whatever else it opened.
    afterEach(() => backend.close());

    /** Stores an application as the routes do: the checked form's payload, the resume's upload file, its key and email counter. */
    async function storeApplication(reference: string): Promise<void> {
      const { checked } = checkForm(
        { fields: postedFields(), truncated: new Set(), resume: undefined, pages: [], pagesSent: 0 },
        DEFAULT_FIELD_MODES,
      );
      assert.ok(checked !== undefined);
      const bytes = resumeBytes();
      const path = new UploadSpool(test.dir).newPath();
      writeFileSync(path, bytes);
      await test.store.claimKey(`key-${reference}`, 'fingerprint');
      await test.store.enqueue(
        {
          reference,
          campaign_id: checked.campaignId,
          company_id: 1,
          payload: checked.payload,
          resume: { path, size: bytes.length },
          resume_type: 'pdf',
        },
        {
          deadLetterAfterMs: DAY,
          key: `key-${reference}`,
          emailBucket: { bucket: emailBucket(checked.email), windowMs: DAY },
        },
      );
      await test.store.completeKey(
        `key-${reference}`,
        202,
        JSON.stringify({ status: 'queued', reference, campaign_id: checked.campaignId }),
      );
      // Every personal field reached the store (else the checks below would prove nothing).
      assert.deepEqual(
        markersIn(await whatTheStoreShows(test.store, reference)).sort(),
        MARKERS.map((m) => m.field).sort(),
      );
      assert.deepEqual(markersOnDisk(test.dir).sort(), MARKERS.map((m) => m.field).sort());
    }

    it('are all gone, from its answers and its files, once the candidate asks for erasure', async () => {
      await storeApplication('asked');
      await test.store.eraseByEmail(EMAIL, emailBucket(EMAIL));
      await test.store.compact();
      assert.deepEqual(markersIn(await whatTheStoreShows(test.store, 'asked')), []);
      assert.deepEqual(markersOnDisk(test.dir), []);
    });

    it('are all gone, from its answers and its files, once the retention of a dead-lettered application ends', async () => {
      await storeApplication('expired');
      const lease = await test.store.claim('expired', 60_000);
      assert.ok(lease !== undefined);
      await test.store.markDead(lease, 'expired', 'server_error (503)');
      test.now += 31 * DAY;
      const { erased } = await new RetentionSweeper(test.store, { retentionMs: 30 * DAY, intervalMs: DAY }).sweep();
      assert.deepEqual(erased, ['expired']);
      assert.deepEqual(markersIn(await whatTheStoreShows(test.store, 'expired')), []);
      assert.deepEqual(markersOnDisk(test.dir), []);
    });
  });
});
