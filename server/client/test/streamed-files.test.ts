// StreamedFile: a resume sent from its source in chunks, base64-encoded while
// the request body is written, against the sandbox over real HTTP.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ConnectionError, StreamedFile, ValidationError } from '../index.ts';
import type { Campaign } from '../index.ts';
import { base64Chunks } from '../streamed-json.ts';
import { JOBBOARD_CHANNEL, startWorld } from './world.ts';
import type { World } from './world.ts';
import { eventually } from '../../test/poll.ts';

let world: World;
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
  dir = mkdtempSync(join(tmpdir(), 'streamed-'));
  pdf = Buffer.concat([
    Buffer.from('%PDF-1.4\n'),
    Buffer.from(Array.from({ length: 3_000_000 }, (_, i) => (i * 7919) % 251)),
    Buffer.from('\n%%EOF\n'),
  ]);
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
  const url = await eventually(async () => (await read()).resume_url, {
    timeoutMs: 4000,
    what: 'the sandbox to store the resume',
    intervalMs: 20,
  });
  return Buffer.from(await (await fetch(url)).arrayBuffer());
}

describe('base64Chunks', () => {
  it('joins into the base64 of the whole, wherever the chunks are cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 20 }), { maxLength: 12 }), async (chunks) => {
        const pieces: string[] = [];
        for await (const piece of base64Chunks(
          (async function* () {
            yield* chunks;
          })(),
        ))
          pieces.push(piece.toString('latin1'));
        assert.equal(pieces.join(''), Buffer.concat(chunks).toString('base64'));
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
        const pieces: string[] = [];
        for await (const piece of base64Chunks(reusing)) pieces.push(piece.toString('latin1'));
        assert.equal(pieces.join(''), Buffer.concat(chunks).toString('base64'));
      }),
      { numRuns: 300 },
    );
  });
});

// By default, without an injected fetch a streamed create goes through node:http; with one, through that fetch.
const PATHS = [
  { path: 'node:http', tag: 'node', options: {} },
  {
    path: 'an injected fetch',
    tag: 'fetch',
    options: { fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, init) },
  },
] as const;

for (const { path, tag, options } of PATHS) {
  describe(`StreamedFile through ${path}`, () => {
    const board = () => world.client(world.jobboardKeys, options);

    it('creates an applicant whose stored resume is the file, byte for byte', async () => {
      const { file, opened } = streamedPdf();
      const email = `streamed-${tag}@example.com`;
      const created = await board().jobboards.createApplicant({
        company_id: world.companyId,
        applicant: { email, first_name: 'Sam', resume: file, applications: [{ campaign_id: campaign.id }] },
      });
      assert.deepEqual(
        created.applications.map((a) => a.campaign_id),
        [campaign.id],
      );
      assert.equal(opened(), 1);
      assert.ok((await storedResume(email)).equals(pdf));
    });

    it('applies an existing applicant with a streamed resume through POST /applications', async () => {
      const email = `returning-${tag}@example.com`;
      await board().jobboards.createApplicant({ company_id: world.companyId, applicant: { email, applications: [] } });
      const { file } = streamedPdf();
      const application = await board().applications.create({
        campaign_id: campaign.id,
        applicant_email: email,
        application: { resume: file },
      });
      assert.equal(application.campaign_id, campaign.id);
      assert.ok(
        (await storedResume(() => world.client(world.companyKeys).applications.get(application.id))).equals(pdf),
      );
    });

    it('when the file is shorter than announced, fails the request instead of sending a cut resume', async () => {
      const { file } = streamedPdf(pdf.length + 5);
      const email = `cut-${tag}@example.com`;
      await assert.rejects(
        board().jobboards.createApplicant({
          company_id: world.companyId,
          applicant: { email, resume: file, applications: [{ campaign_id: campaign.id }] },
        }),
        (error: unknown) => error instanceof ConnectionError && error.mayHaveReachedServer,
      );
      const company = world.client(world.companyKeys);
      await assert.rejects(company.applicants.get(email), { status: 404 });
    });
  });
}

describe('the streamedBodies option', () => {
  /** A fetch that passes every call on to the fetch of the moment it was made, and records it as "METHOD /path". */
  function recordingFetch(seen: string[]): typeof fetch {
    const send = globalThis.fetch;
    return (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      return send(input, init);
    };
  }

  it("'node:http' sends a streamed create through node:http even with an injected fetch, which still sees the other calls", async () => {
    const seen: string[] = [];
    const client = world.client(world.jobboardKeys, { fetch: recordingFetch(seen), streamedBodies: 'node:http' });
    const { file } = streamedPdf();
    await client.jobboards.createApplicant({
      company_id: world.companyId,
      applicant: { email: 'chosen-node@example.com', resume: file, applications: [{ campaign_id: campaign.id }] },
    });
    assert.deepEqual(seen, ['POST /v2/jwt']);
    assert.ok((await storedResume('chosen-node@example.com')).equals(pdf));
  });

  it("'fetch' sends a streamed create through globalThis.fetch when none is injected", async () => {
    const seen: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = recordingFetch(seen);
    try {
      const client = world.client(world.jobboardKeys, { streamedBodies: 'fetch' });
      const { file } = streamedPdf();
      await client.jobboards.createApplicant({
        company_id: world.companyId,
        applicant: { email: 'chosen-fetch@example.com', resume: file, applications: [{ campaign_id: campaign.id }] },
      });
    } finally {
      globalThis.fetch = original;
    }
    assert.deepEqual(seen, ['POST /v2/jwt', 'POST /v2/jobboards/applicants']);
  });
});

describe('StreamedFile retries', () => {
  it('through an injected fetch, opens the file again for a retry of a request that was never sent', async () => {
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
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
          });
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

  it('through node:http, opens the file again when a connection cut mid-body is retried, and reports each attempt', async () => {
    // A relay to the sandbox that cuts the first connection carrying the create once 100 KB of it came.
    const sandboxPort = Number(new URL(world.sandbox.url).port);
    let cut = false;
    const relay = createServer((inbound) => {
      const outbound = connect(sandboxPort, '127.0.0.1');
      let seen = 0;
      inbound.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (!cut && seen > 100_000) {
          cut = true;
          inbound.destroy();
          outbound.destroy();
          return;
        }
        outbound.write(chunk);
      });
      outbound.pipe(inbound);
      outbound.on('error', () => inbound.destroy());
      inbound.on('error', () => outbound.destroy());
      inbound.on('close', () => outbound.end());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const viaRelay = new URL(world.sandbox.url);
      viaRelay.port = String((relay.address() as AddressInfo).port);
      const attempts: { method: string; url: string; status: number | undefined }[] = [];
      const client = world.client(world.jobboardKeys, {
        baseUrl: viaRelay.href,
        onAttempt: ({ method, url, status }) => attempts.push({ method, url, status }),
      });
      const { file, opened } = streamedPdf();
      await client.jobboards.createApplicant(
        {
          company_id: world.companyId,
          applicant: { email: 'cut-then-sent@example.com', resume: file, applications: [{ campaign_id: campaign.id }] },
        },
        { safeToRetry: true },
      );
      assert.ok(cut);
      assert.equal(opened(), 2);
      assert.ok((await storedResume('cut-then-sent@example.com')).equals(pdf));
      assert.deepEqual(
        attempts.map(({ method, url, status }) => `${method} ${new URL(url).pathname} ${status ?? 'no answer'}`),
        ['POST /v2/jwt 200', 'POST /v2/jobboards/applicants no answer', 'POST /v2/jobboards/applicants 201'],
      );
    } finally {
      relay.close();
    }
  });

  it('through node:http, takes an answer that comes before the whole body was written, and stops writing', async () => {
    // A server that answers 422 as soon as it has the create's headers, then reads nothing more:
    // a client that went on writing 20 MB would wait on a full socket until its timeout.
    const size = 20_000_001;
    let served = 0;
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      let head = '';
      const onData = (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        socket.off('data', onData);
        socket.pause();
        served += 1;
        const json = head.startsWith('POST /v2/jwt')
          ? JSON.stringify({ token: 't', expires_at: new Date(Date.now() + 3_600_000).toISOString() })
          : JSON.stringify({ error: { code: 'invalid_request', message: 'refused on sight', details: [] } });
        const status = head.startsWith('POST /v2/jwt') ? '200 OK' : '422 Unprocessable Entity';
        socket.write(
          `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
        );
      };
      socket.on('data', onData);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let read = 0;
    const file = new StreamedFile({
      mime_type: 'pdf',
      size,
      open: async function* () {
        const chunk = Buffer.alloc(100_000, 0x41);
        for (; read < size - 1; read += chunk.length) yield chunk;
        read += 1;
        yield chunk.subarray(0, 1);
      },
    });
    try {
      const client = world.client(world.jobboardKeys, {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`,
        timeout: 20_000,
      });
      await assert.rejects(
        client.jobboards.createApplicant({
          company_id: world.companyId,
          applicant: { email: 'early@example.com', resume: file, applications: [{ campaign_id: campaign.id }] },
        }),
        (error: unknown) => error instanceof ValidationError && error.message.includes('refused on sight'),
      );
      assert.equal(served, 2, 'POST /jwt and the create');
      assert.ok(read < size, `the file was read whole (${read} bytes) although the server had answered`);
    } finally {
      server.close();
      // Paused, they would not see the client close.
      for (const socket of sockets) socket.destroy();
    }
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
        const file = new StreamedFile({
          mime_type: 'pdf',
          size,
          open: () => createReadStream(path, { highWaterMark: 70_001 }),
        });
        const email = `slow-${i}@example.com`;
        await slowBoard.jobboards.createApplicant({
          company_id: world.companyId,
          applicant: { email, first_name: 'Sam', resume: file, applications: [{ campaign_id: campaign.id }] },
        });
        assert.ok(
          (await storedResume(email)).equals(bytes),
          `the stored resume of ${size} bytes differs from the file`,
        );
      }
    } finally {
      relay.close();
    }
  });
});
