// StreamedFile: a resume sent from its source in chunks, base64-encoded while
// the request body is written, against the sandbox over real HTTP.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ConnectionError, StreamedFile } from '../index.ts';
import type { Campaign, RecruitmentClient } from '../index.ts';
import { base64Chunks } from '../streamed-json.ts';
import { JOBBOARD_CHANNEL, startWorld } from './world.ts';
import type { World } from './world.ts';
import { eventually } from '../../test/poll.ts';

let world: World;
let board: RecruitmentClient;
let campaign: Campaign;
let dir: string;
/** A 3 MB PDF on disk, its bytes not a multiple of 3 long. */
let pdfPath: string;
let pdf: Buffer;

before(async () => {
  world = await startWorld();
  const company = world.client(world.companyKeys);
  campaign = await company.campaigns.create({ manage_name: 'Streamed resumes' });
  await world.admin('PATCH', `/campaigns/${campaign.id}`, { status: 'online', channels: [JOBBOARD_CHANNEL] });
  board = world.client(world.jobboardKeys);
  dir = mkdtempSync(join(tmpdir(), 'streamed-'));
  pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 3_000_000 }, (_, i) => (i * 7919) % 251)), Buffer.from('\n%%EOF\n')]);
  pdfPath = join(dir, 'cv.pdf');
  writeFileSync(pdfPath, pdf);
});

after(async () => {
  await world.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The file, read in 1,000-byte chunks (not a multiple of 3), counting how often it is opened. */
function streamedPdf(size = pdf.length): { file: StreamedFile; opened: () => number } {
  let opened = 0;
  const file = new StreamedFile({
    mime_type: 'pdf',
    size,
    open: () => {
      opened += 1;
      return createReadStream(pdfPath, { highWaterMark: 1000 });
    },
  });
  return { file, opened: () => opened };
}

/** The resume the sandbox stored for an applicant (by email) or an application, once it has processed it. */
async function storedResume(record: string | (() => Promise<{ resume_url: string | null }>)): Promise<Buffer> {
  const read = typeof record === 'string' ? () => world.client(world.companyKeys).applicants.get(record) : record;
  const url = await eventually(async () => (await read()).resume_url, { timeoutMs: 4000, what: 'the sandbox to store the resume', intervalMs: 20 });
  return Buffer.from(await (await fetch(url)).arrayBuffer());
}

describe('base64Chunks', () => {
  it('joins into the base64 of the whole, wherever the chunks are cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 20 }), { maxLength: 12 }), async (chunks) => {
        const pieces: Buffer[] = [];
        for await (const piece of base64Chunks((async function* () { yield* chunks; })())) pieces.push(piece);
        assert.equal(Buffer.concat(pieces).toString('latin1'), Buffer.concat(chunks).toString('base64'));
      }),
      { numRuns: 300 },
    );
  });

  it('uses each chunk before asking for the next, so a source may read every chunk into one buffer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 1, maxLength: 20 }), { maxLength: 12 }), async (chunks) => {
        // One buffer for every chunk, scribbled over once the reader asks for the next.
        const shared = Buffer.alloc(20);
        const reusing = (async function* () {
          for (const chunk of chunks) {
            shared.set(chunk);
            yield shared.subarray(0, chunk.length);
            shared.fill(0xee);
          }
        })();
        const pieces: Buffer[] = [];
        for await (const piece of base64Chunks(reusing)) pieces.push(piece);
        assert.equal(Buffer.concat(pieces).toString('latin1'), Buffer.concat(chunks).toString('base64'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('StreamedFile', () => {
  it('creates an applicant whose stored resume is the file, byte for byte', async () => {
    const { file, opened } = streamedPdf();
    const created = await board.jobboards.createApplicant({
      company_id: world.companyId,
      applicant: { email: 'streamed@example.com', first_name: 'Sam', resume: file, applications: [{ campaign_id: campaign.id }] },
    });
    assert.deepEqual(created.applications.map((a) => a.campaign_id), [campaign.id]);
    assert.equal(opened(), 1);
    assert.ok((await storedResume('streamed@example.com')).equals(pdf));
  });

  it('applies an existing applicant with a streamed resume through POST /applications', async () => {
    await board.jobboards.createApplicant({ company_id: world.companyId, applicant: { email: 'returning@example.com', applications: [] } });
    const { file } = streamedPdf();
    const application = await board.applications.create({ campaign_id: campaign.id, applicant_email: 'returning@example.com', application: { resume: file } });
    assert.equal(application.campaign_id, campaign.id);
    assert.ok((await storedResume(() => world.client(world.companyKeys).applications.get(application.id))).equals(pdf));
  });

  it('opens the file again for a retry of a request that was never sent', async () => {
    let calls = 0;
    const flaky = world.client(world.jobboardKeys, {
      fetch: async (input, init) => {
        calls += 1;
        // The first attempt of the create reads some of the body, then fails as a refused connection does.
        if (calls === 2) {
          const reader = (input as Request).body!.getReader();
          // The JSON before the resume, then the first piece of the resume's base64.
          for (let i = 0; i < 2; i++) assert.ok((await reader.read()).value !== undefined);
          await reader.cancel();
          throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
        }
        return await fetch(input, init);
      },
    });
    const { file, opened } = streamedPdf();
    await flaky.jobboards.createApplicant({
      company_id: world.companyId,
      applicant: { email: 'retried@example.com', resume: file, applications: [{ campaign_id: campaign.id }] },
    });
    assert.equal(calls, 3, 'POST /jwt, the refused attempt, the retry');
    assert.equal(opened(), 2);
    assert.ok((await storedResume('retried@example.com')).equals(pdf));
  });

  it('when the file is shorter than announced, fails the request instead of sending a cut resume', async () => {
    const { file } = streamedPdf(pdf.length + 5);
    await assert.rejects(
      board.jobboards.createApplicant({ company_id: world.companyId, applicant: { email: 'cut@example.com', resume: file, applications: [{ campaign_id: campaign.id }] } }),
      (error: unknown) => error instanceof ConnectionError,
    );
    const company = world.client(world.companyKeys);
    await assert.rejects(company.applicants.get('cut@example.com'), { status: 404 });
  });
});

describe('StreamedFile through a slow receiver', () => {
  it('sends every byte of large resumes exactly, while the socket writes queue behind the receiver', async () => {
    // A relay that reads 16 KiB at most every few milliseconds: the client's
    // socket buffers fill, so its writes complete long after they are made and
    // a chunk overwritten too early would reach the sandbox changed.
    const sandboxPort = Number(new URL(world.sandbox.url).port);
    const relay = createServer((inbound) => {
      const outbound = connect(sandboxPort, '127.0.0.1');
      outbound.pipe(inbound);
      outbound.on('error', () => inbound.destroy());
      inbound.on('error', () => outbound.destroy());
      inbound.on('close', () => outbound.end());
      inbound.on('readable', function drip() {
        const chunk: Buffer | null = inbound.read(Math.min(16 * 1024, inbound.readableLength));
        if (chunk === null) return;
        outbound.write(chunk);
        inbound.off('readable', drip);
        setTimeout(() => {
          inbound.on('readable', drip);
          drip();
        }, 2);
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const viaRelay = new URL(world.sandbox.url);
      viaRelay.port = String((relay.address() as AddressInfo).port);
      const slowBoard = world.client(world.jobboardKeys, { baseUrl: viaRelay.href });
      // Sizes not multiples of 3, read in chunks of another size not a multiple of 3.
      for (const [i, size] of [5_000_001, 4_000_002].entries()) {
        const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(size - 16), Buffer.from('\n%%EOF\n')]);
        const path = join(dir, `large-${i}.pdf`);
        writeFileSync(path, bytes);
        const file = new StreamedFile({ mime_type: 'pdf', size, open: () => createReadStream(path, { highWaterMark: 70_001 }) });
        const email = `slow-${i}@example.com`;
        await slowBoard.jobboards.createApplicant({
          company_id: world.companyId,
          applicant: { email, first_name: 'Sam', resume: file, applications: [{ campaign_id: campaign.id }] },
        });
        assert.ok((await storedResume(email)).equals(bytes), `the stored resume of ${size} bytes differs from the file`);
      }
    } finally {
      relay.close();
    }
  });
});
