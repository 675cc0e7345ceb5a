// A paper resume sent as photos of its pages (resume_pages) to the proxy over
// real HTTP: assembled into one PDF that reaches the sandbox as the resume,
// and the pages refused (too many, not photos, beside a resume file) with the
// field that says why.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { fetch, formOf, startApplyWorld, upstreamApplicantCount, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import * as files from '../server/test/files.ts';
import { eventually } from '../server/test/poll.ts';

interface Page {
  bytes: Buffer;
  name: string;
}

const photo = (name: string, bytes: Buffer = files.jpeg()): Page => ({ bytes, name });

function fieldProblems(body: Record<string, unknown>): [string, string, string][] {
  return ((body.errors ?? []) as { field: string; code: string; message: string }[]).map((e) => [
    e.field,
    e.code,
    e.message,
  ]);
}

describe('POST /api/applications with photos of the resume pages', () => {
  let world: ApplyWorld;
  let campaign: number;

  before(async () => {
    world = await startApplyWorld({ env: { MAX_RESUME_BYTES: String(1024 * 1024) } });
    campaign = world.openCampaignIds[0]!;
  });
  after(async () => {
    await world.close();
  });

  /** Posts the form with `pages` as resume_pages, in order, and the resume file only when given. */
  async function send(fields: Record<string, string>, pages: Page[], resume: Buffer | null = null) {
    const form = formOf({ fields, resume: resume === null ? null : { bytes: resume } });
    for (const page of pages) form.append('resume_pages', new Blob([new Uint8Array(page.bytes)]), page.name);
    const response = await fetch(`${world.proxyUrl}/api/applications`, {
      method: 'POST',
      headers: { origin: 'https://board.example', 'idempotency-key': crypto.randomUUID() },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** The resume the sandbox stored for this candidate: its path and bytes. */
  async function upstreamResume(email: string): Promise<{ path: string; bytes: Buffer }> {
    let path: string | null | undefined;
    await eventually(
      () => {
        path = world.sandbox.context.db.get<{ resume_path: string | null }>(
          'SELECT resume_path FROM applicants WHERE email = ?',
          email,
        )?.resume_path;
        return typeof path === 'string';
      },
      { timeoutMs: 10_000, what: 'the sandbox to store the resume' },
    );
    const bytes = Buffer.from(await (await fetch(new URL(path!, world.sandbox.origin))).arrayBuffer());
    return { path: path!, bytes };
  }

  const uploadsLeft = () => readdirSync(join(world.config.dataDir, 'uploads'));

  it('sends two photos, a jpg and a png, to the service as one PDF resume of two pages, in their order', async () => {
    const fields = validFields(campaign);
    const answer = await send(fields, [photo('page-1.jpg'), photo('page-2.png', files.png())]);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const resume = await upstreamResume(fields.email);
    assert.match(resume.path, /\.pdf$/);
    const pdf = await PDFDocument.load(resume.bytes);
    assert.equal(pdf.getPageCount(), 2);
    // Each page is its photo, the longest side an A4 sheet's (both photos are square).
    assert.deepEqual(
      pdf.getPages().map((page) => [Math.round(page.getWidth()), Math.round(page.getHeight())]),
      [
        [842, 842],
        [842, 842],
      ],
    );
    await eventually(() => uploadsLeft().length === 0, { timeoutMs: 2_000, what: 'no upload file left' });
  });

  it('refuses a sixth page with 422 on resume_pages, saying how many are taken, and sends nothing', async () => {
    const fields = validFields(campaign);
    const pages = Array.from({ length: 6 }, (_, i) => photo(`page-${i + 1}.jpg`));
    const answer = await send(fields, pages);
    assert.equal(answer.status, 422);
    assert.equal(answer.body.code, 'validation_failed');
    assert.deepEqual(fieldProblems(answer.body), [
      ['resume_pages', 'invalid_value', 'Send at most 5 pages; 6 were sent.'],
    ]);
    assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 0);
    const five = await send(validFields(campaign), pages.slice(0, 5));
    assert.equal(five.status, 201, JSON.stringify(five.body));
  });

  it('refuses a page that is no photo (a PDF) with 422 on resume_pages, naming the page, and sends nothing', async () => {
    const fields = validFields(campaign);
    const answer = await send(fields, [photo('page-1.jpg'), photo('page-2.jpg', files.pdf())]);
    assert.equal(answer.status, 422);
    assert.deepEqual(fieldProblems(answer.body), [
      ['resume_pages', 'unsupported_file_type', 'Each page must be a JPG or PNG photo; page 2 is not.'],
    ]);
    assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 0);
    await eventually(() => uploadsLeft().length === 0, { timeoutMs: 2_000, what: 'no upload file left' });
  });

  it('refuses a page that starts as a JPEG but cannot be read as one with 415 on resume_pages', async () => {
    const fields = validFields(campaign);
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 0x41)]);
    const answer = await send(fields, [photo('page-1.jpg'), photo('page-2.jpg', broken)]);
    assert.equal(answer.status, 415);
    assert.equal(answer.body.code, 'unsupported_file_type');
    assert.deepEqual(
      fieldProblems(answer.body).map(([field, code]) => [field, code]),
      [['resume_pages', 'unsupported_file_type']],
    );
    assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 0);
    await eventually(() => uploadsLeft().length === 0, { timeoutMs: 2_000, what: 'no upload file left' });
  });

  it('refuses a resume file and pages together with 422 on resume_pages', async () => {
    const fields = validFields(campaign);
    const answer = await send(fields, [photo('page-1.jpg')], files.pdf());
    assert.equal(answer.status, 422);
    assert.deepEqual(fieldProblems(answer.body), [
      ['resume_pages', 'invalid_value', 'Send either a resume file or photos of its pages, not both.'],
    ]);
    assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 0);
  });
});
