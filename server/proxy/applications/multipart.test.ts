// The application form's reader behind a bare HTTP server on port 0: what it
// takes from a form, what it refuses and how, and what it leaves on disk.
// Real sockets, a real upload folder; no proxy around it, so each case costs milliseconds.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Request } from 'express';
import { jpeg, pdf, pdfOfSize, png } from '../../test/files.ts';
import { eventually } from '../../test/poll.ts';
import { ProblemError } from '../http/problem.ts';
import {
  CutOffError,
  FORM_ALLOWANCE_BYTES,
  MAX_FIELD_BYTES,
  REFUSED_SAMPLE_BYTES,
  humanBytes,
  parseApplicationForm,
} from './multipart.ts';
import { UploadSpool } from './upload-spool.ts';

const MAX_RESUME = 64 * 1024;
const BOUNDARY = 'form-boundary';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, filename: string, bytes: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from('\r\n'),
  ]);
const end = `--${BOUNDARY}--\r\n`;
const form = (...parts: (string | Buffer)[]) =>
  Buffer.concat([...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)), Buffer.from(end)]);

/** What a suite's tests reach: its upload folder and spool, and its server's port and address. */
interface FormServer {
  dir: string;
  spool: UploadSpool;
  port: number;
  url: string;
}

/**
 * A new upload folder (named from `prefix`) and a server on port 0 passing each request to
 * `handle`, made before the suite's tests and removed after them.
 */
function formServer(prefix: string, handle: (req: IncomingMessage, res: ServerResponse) => void): FormServer {
  const at = {} as FormServer;
  let server: Server;
  before(async () => {
    at.dir = mkdtempSync(join(tmpdir(), prefix));
    at.spool = new UploadSpool(at.dir);
    server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    at.port = (server.address() as AddressInfo).port;
    at.url = `http://127.0.0.1:${at.port}/`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    rmSync(at.dir, { recursive: true, force: true });
  });
  return at;
}

describe('parseApplicationForm', () => {
  /** The slowest pace taken; none unless a test sets one. */
  let pace = { minBytesPerSecond: 0, periodMs: 1_000 };
  /** Where uploads are written; a test may give one whose disk is full. */
  let writeTo: UploadSpool;
  /** The last refusal, for a request whose client left before its answer. */
  let lastProblem: ProblemError | undefined;

  const upload = formServer('jbc-multipart-', (req, res) => {
    parseApplicationForm(req as Request, MAX_RESUME, writeTo, pace).then(
      (parsed) => {
        const resume = parsed.resume && {
          ...parsed.resume,
          bytes: parsed.resume.path === null ? null : readFileSync(parsed.resume.path).toString('base64'),
        };
        if (parsed.resume?.path) upload.spool.discard(parsed.resume.path);
        const pages = parsed.pages.map((page) => ({
          ...page,
          bytes: page.path === null ? null : readFileSync(page.path).toString('base64'),
        }));
        for (const page of parsed.pages) if (page.path !== null) upload.spool.discard(page.path);
        res.end(
          JSON.stringify({
            fields: Object.fromEntries(parsed.fields),
            truncated: [...parsed.truncated],
            resume,
            pages,
            pagesSent: parsed.pagesSent,
          }),
        );
      },
      (error: unknown) => {
        assert.ok(error instanceof ProblemError);
        lastProblem = error;
        res.statusCode = error.status;
        // As the proxy answers it: a cut-off body's connection closes, and is never used again.
        for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
        res.end(
          JSON.stringify({
            ...error.toBody(),
            cutOff: error instanceof CutOffError,
            connection: error.headers.Connection ?? null,
          }),
        );
      },
    );
  });
  before(() => {
    writeTo = upload.spool;
  });

  async function post(body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`): Promise<Answer> {
    const response = await fetch(upload.url, { method: 'POST', headers: { 'content-type': contentType }, body });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** The body sent chunked, in pieces: no Content-Length tells its size ahead; with `pauseAfter`, a wait of 300 ms once that many bytes are sent. */
  async function postChunked(body: Buffer, pauseAfter?: number): Promise<Answer> {
    async function* piecesOf(): AsyncGenerator<Buffer> {
      for (let at = 0; at < body.length; at += 16_384) {
        yield body.subarray(at, at + 16_384);
        if (pauseAfter !== undefined && at < pauseAfter && at + 16_384 >= pauseAfter)
          await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
    const pieces = ReadableStream.from(piecesOf());
    const response = await fetch(upload.url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: pieces,
      duplex: 'half',
    } as RequestInit);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** The body sent chunked: its first `at` bytes, then the rest once `gate` resolves. */
  async function postGated(body: Buffer, at: number, gate: Promise<void>): Promise<Answer> {
    async function* piecesOf(): AsyncGenerator<Buffer> {
      yield body.subarray(0, at);
      await gate;
      yield body.subarray(at);
    }
    const response = await fetch(upload.url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: ReadableStream.from(piecesOf()),
      duplex: 'half',
    } as RequestInit);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /**
   * postGated, the rest of the body sent once `until()` holds (polled for 2 s at most: `what`). Then,
   * answered or not, uploads go to the suite's spool again, whatever spool the test gave.
   */
  async function postHeldUntil(
    body: Buffer,
    at: number,
    until: () => boolean | undefined,
    what: string,
  ): Promise<Answer> {
    let open = () => undefined as void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    try {
      const pending = postGated(body, at, opened);
      await eventually(until, { timeoutMs: 2_000, what });
      open();
      return await pending;
    } finally {
      open();
      writeTo = upload.spool;
    }
  }

  /** Sends `body` chunked, `piece` bytes every `everyMs`, until the server closes the connection; answers what it said. */
  function trickle(body: Buffer, piece: number, everyMs: number): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: upload.port }, () => {
        socket.write(
          `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
        );
      });
      let sent = 0;
      const timer = setInterval(() => {
        const bytes = body.subarray(sent, sent + piece);
        sent += piece;
        if (bytes.length > 0)
          socket.write(Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]));
      }, everyMs);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve(received);
      });
    });
  }

  /** Upload files are deleted once their stream has closed, just after the answer. */
  const noUploadLeft = () =>
    eventually(() => readdirSync(join(upload.dir, 'uploads')).length === 0, {
      timeoutMs: 2_000,
      what: 'no upload file left',
    });

  it('reads the fields and writes the resume to an upload file, with its name, size and SHA-256', async () => {
    const resume = pdfOfSize(20_000);
    const answer = await post(
      form(field('email', 'ada@example.org'), field('first_name', 'Ada'), file('resume', 'cv.pdf', resume)),
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.fields, { email: 'ada@example.org', first_name: 'Ada' });
    assert.deepEqual(answer.body.truncated, []);
    const got = answer.body.resume as { filename: string; size: number; sha256: string; bytes: string };
    assert.deepEqual(
      [got.filename, got.size, got.sha256],
      ['cv.pdf', resume.length, createHash('sha256').update(resume).digest('hex')],
    );
    assert.ok(Buffer.from(got.bytes, 'base64').equals(resume), 'the upload file holds the resume');
  });

  it('writes every byte of a resume that arrives in many pieces', async () => {
    const resume = pdfOfSize(MAX_RESUME);
    const got = (await postChunked(form(field('email', 'a@b.example'), file('resume', 'cv.pdf', resume)))).body
      .resume as { bytes: string };
    assert.ok(Buffer.from(got.bytes, 'base64').equals(resume), 'the upload file holds the whole resume');
  });

  it('takes an empty resume file with its size 0, nothing written', async () => {
    const got = (await post(form(field('email', 'a@b.example'), file('resume', 'cv.pdf', Buffer.alloc(0))))).body
      .resume as { size: number; path: string | null };
    assert.deepEqual([got.size, got.path], [0, null]);
  });

  it('takes a form without a resume, and a resume of exactly the limit', async () => {
    assert.equal((await post(form(field('email', 'a@b.example')))).body.resume, undefined);
    const answer = await post(form(file('resume', 'cv.pdf', pdfOfSize(MAX_RESUME))));
    assert.equal((answer.body.resume as { size: number }).size, MAX_RESUME);
  });

  it('writes nothing for a file whose first bytes are of no resume type, and still gives its size and hash', async () => {
    const text = Buffer.from('just some text, no resume at all');
    const got = (await post(form(file('resume', 'cv.txt', text)))).body.resume as {
      size: number;
      sha256: string;
      path: string | null;
    };
    assert.deepEqual([got.size, got.path], [text.length, null]);
    assert.equal(got.sha256, createHash('sha256').update(text).digest('hex'));
    const short = (await post(form(file('resume', 'cv.pdf', Buffer.from('%P'))))).body.resume as {
      path: string | null;
    };
    assert.equal(short.path, null, 'shorter than the bytes that tell, checked as it is');
    const tiny = (await post(form(file('resume', 'cv.pdf', Buffer.from('%PDF-1'))))).body.resume as {
      bytes: string | null;
    };
    assert.equal(
      tiny.bytes,
      Buffer.from('%PDF-1').toString('base64'),
      'shorter than the bytes that tell, but a resume type: written',
    );
    const long = (await postChunked(form(file('resume', 'cv.txt', Buffer.alloc(MAX_RESUME, 'text '))))).body.resume as {
      path: string | null;
    };
    assert.equal(
      long.path,
      null,
      'nothing of a file refused by its first bytes is written, however many pieces follow',
    );
    await noUploadLeft();
  });

  it('keeps the first bytes of a file refused on them, at most REFUSED_SAMPLE_BYTES, for the proxy to say what it is', async () => {
    type Sampled = { path: string | null; refusedSample?: { data: number[] } };
    const text = Buffer.alloc(3 * REFUSED_SAMPLE_BYTES, 'plain text, not a resume. ');
    const body = form(file('resume', 'cv.pdf', text));
    // The file's first piece is short: the sample goes on with the pieces that follow.
    const at = body.indexOf(text.subarray(0, 16)) + 100;
    const long = (await postGated(body, at, sleep(50))).body.resume as Sampled;
    assert.equal(long.path, null);
    assert.deepEqual(Buffer.from(long.refusedSample!.data), text.subarray(0, REFUSED_SAMPLE_BYTES));
    const short = Buffer.from('just some text');
    const whole = (await post(form(file('resume', 'cv.pdf', short)))).body.resume as Sampled;
    assert.deepEqual(Buffer.from(whole.refusedSample!.data), short, 'a file shorter than the sample, whole');
    const taken = (await post(form(file('resume', 'cv.pdf', pdf())))).body.resume as Sampled;
    assert.equal(taken.refusedSample, undefined, 'a file taken has no sample');
    await noUploadLeft();
  });

  it('cuts a text field at its limit and says which', async () => {
    const answer = await post(
      form(field('cover_letter', 'a'.repeat(MAX_FIELD_BYTES + 10)), field('email', 'a@b.example')),
    );
    assert.equal(((answer.body.fields as Record<string, string>).cover_letter ?? '').length, MAX_FIELD_BYTES);
    assert.deepEqual(answer.body.truncated, ['cover_letter']);
  });

  it('refuses a body that is not multipart, or has no boundary, with 400 malformed_request', async () => {
    lastProblem = undefined;
    const json = await post(Buffer.from('{}'), 'application/json');
    assert.deepEqual([json.status, json.body.code], [400, 'malformed_request']);
    assert.equal(json.body.detail, 'Send the application as multipart/form-data (fields and the resume file).');
    const lookalike = await post(
      form(field('email', 'a@b.example')),
      `application/x-multipart/form-data; boundary=${BOUNDARY}`,
    );
    assert.deepEqual(
      [lookalike.status, lookalike.body.detail],
      [400, 'Send the application as multipart/form-data (fields and the resume file).'],
    );
    const noBoundary = await post(Buffer.from('x'), 'multipart/form-data; charset=utf-8');
    assert.deepEqual([noBoundary.status, noBoundary.body.code], [400, 'malformed_request']);
    assert.match(String(noBoundary.body.detail), /no boundary/);
    assert.ok(
      (lastProblem as ProblemError | undefined)?.cause instanceof Error,
      "busboy's own error kept as the cause, for the log",
    );
  });

  it('refuses a field sent twice, a file field other than resume, and two resumes, saying what to send without quoting the form', async () => {
    const twice = await post(form(field('email', 'a@b.example'), field('email', 'c@d.example')));
    assert.deepEqual([twice.status, twice.body.detail], [400, 'A field is sent twice; send each field once.']);
    const other = await post(form(file('photo', 'me.pdf', pdf())));
    assert.deepEqual(
      [other.status, other.body.detail],
      [400, 'A file is sent in another field than "resume" or "resume_pages"; those are the only files.'],
    );
    const two = await post(form(file('resume', 'a.pdf', pdf()), file('resume', 'b.pdf', pdf())));
    assert.deepEqual([two.status, two.body.detail], [400, 'Send one resume file only.']);
    await noUploadLeft();
  });

  /** What the reader tells of a page written: its name, size, SHA-256 and bytes, as base64. */
  const pageOf = (filename: string, bytes: Buffer) => ({
    filename,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.toString('base64'),
  });
  const withoutPaths = (pages: unknown) => (pages as Record<string, unknown>[]).map(({ path: _path, ...page }) => page);

  it('writes each photo of a page (resume_pages, jpg or png) to an upload file of its own, in the order sent', async () => {
    const photos = [jpeg(), png(), Buffer.concat([jpeg(), Buffer.alloc(3000, 7)])];
    const answer = await post(
      form(
        field('email', 'ada@example.org'),
        file('resume_pages', 'p1.jpg', photos[0]!),
        file('resume_pages', 'p2.png', photos[1]!),
        file('resume_pages', 'p3.jpg', photos[2]!),
      ),
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.body.resume, undefined);
    assert.deepEqual(withoutPaths(answer.body.pages), [
      pageOf('p1.jpg', photos[0]!),
      pageOf('p2.png', photos[1]!),
      pageOf('p3.jpg', photos[2]!),
    ]);
    assert.equal(answer.body.pagesSent, 3);
    await noUploadLeft();
  });

  it('takes a resume and pages together, for the checks to refuse; a form without files has no pages', async () => {
    const both = await post(form(file('resume', 'cv.pdf', pdf()), file('resume_pages', 'p1.jpg', jpeg())));
    assert.equal(both.status, 200);
    assert.equal((both.body.resume as { filename: string }).filename, 'cv.pdf');
    assert.deepEqual(withoutPaths(both.body.pages), [pageOf('p1.jpg', jpeg())]);
    const none = await post(form(field('email', 'ada@example.org')));
    assert.deepEqual([none.body.pages, none.body.pagesSent], [[], 0]);
    await noUploadLeft();
  });

  it('writes nothing of a page that is no photo (a PDF, text), even one shorter than a signature; its path is null', async () => {
    const answer = await post(
      form(
        file('resume_pages', 'p1.pdf', pdf()),
        file('resume_pages', 'p2.jpg', Buffer.from('not a photo at all')),
        file('resume_pages', 'p3.jpg', Buffer.from([0xff, 0xd8])),
        file('resume_pages', 'p4.png', png()),
      ),
    );
    assert.equal(answer.status, 200);
    const pages = answer.body.pages as { filename: string; path: string | null; bytes: string | null }[];
    assert.deepEqual(
      pages.map((p) => [p.filename, p.path, p.bytes]),
      [
        ['p1.pdf', null, null],
        ['p2.jpg', null, null],
        ['p3.jpg', null, null],
        ['p4.png', pages[3]!.path, png().toString('base64')],
      ],
    );
    assert.notEqual(pages[3]!.path, null);
    await noUploadLeft();
  });

  it('counts the pages past the fifth without writing them, and refuses a form of more files than a resume and six pages', async () => {
    const six = await post(form(...Array.from({ length: 6 }, (_, i) => file('resume_pages', `p${i + 1}.jpg`, jpeg()))));
    assert.equal(six.status, 200);
    assert.deepEqual(
      (six.body.pages as { filename: string }[]).map((p) => p.filename),
      ['p1.jpg', 'p2.jpg', 'p3.jpg', 'p4.jpg', 'p5.jpg'],
    );
    assert.equal(six.body.pagesSent, 6);
    const many = await post(
      form(
        file('resume', 'cv.pdf', pdf()),
        ...Array.from({ length: 7 }, (_, i) => file('resume_pages', `p${i + 1}.jpg`, jpeg())),
      ),
    );
    assert.deepEqual([many.status, many.body.detail], [400, 'Send one resume file, or at most 5 photos of its pages.']);
    await noUploadLeft();
  });

  it('refuses pages that pass the resume limit together, though each is within it, with 413 file_too_large, and deletes their files', async () => {
    const half = Buffer.concat([jpeg(), Buffer.alloc(MAX_RESUME / 2, 1)]);
    const answer = await post(form(file('resume_pages', 'p1.jpg', half), file('resume_pages', 'p2.jpg', half)));
    assert.deepEqual([answer.status, answer.body.code], [413, 'file_too_large']);
    assert.deepEqual(answer.body.errors, [
      {
        field: 'resume',
        code: 'file_too_large',
        message: `The resume is larger than the limit of 64 KiB (65536 bytes).`,
      },
    ]);
    const within = Buffer.concat([jpeg(), Buffer.alloc(MAX_RESUME / 2 - jpeg().length - 1, 1)]);
    const fits = await post(form(file('resume_pages', 'p1.jpg', within), file('resume_pages', 'p2.jpg', within)));
    assert.equal(fits.status, 200);
    await noUploadLeft();
  });

  it('answers the first problem of a form that has several', async () => {
    const answer = await post(
      form(field('email', 'a@b.example'), field('email', 'c@d.example'), file('photo', 'me.pdf', pdf())),
    );
    assert.deepEqual([answer.status, answer.body.detail], [400, 'A field is sent twice; send each field once.']);
  });

  it('refuses a form of more than 40 fields with 413 request_too_large', async () => {
    const fields = Array.from({ length: 41 }, (_, i) => field(`f${i}`, 'x'));
    const answer = await post(form(...fields));
    assert.deepEqual(
      [answer.status, answer.body.code, answer.body.detail],
      [413, 'request_too_large', "The form may have at most 40 fields; send only the application's fields."],
    );
  });

  it('refuses a resume over the limit with 413 file_too_large on the resume field, reading the body to its end, and deletes its upload file', async () => {
    const answer = await post(form(file('resume', 'cv.pdf', pdfOfSize(MAX_RESUME + 1)), field('email', 'a@b.example')));
    assert.deepEqual([answer.status, answer.body.code, answer.body.cutOff], [413, 'file_too_large', false]);
    assert.deepEqual(answer.body.errors, [
      {
        field: 'resume',
        code: 'file_too_large',
        message: 'The resume is larger than the limit of 64 KiB (65536 bytes).',
      },
    ]);
    assert.equal(
      answer.body.detail,
      'The resume is larger than the limit of 64 KiB (65536 bytes). Send a smaller file.',
    );
    await noUploadLeft();
  });

  it('answers at once, and closes, a body declared larger than the resume and the form allowance together', async () => {
    const response = await fetch(upload.url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(MAX_RESUME + FORM_ALLOWANCE_BYTES + 1),
      },
      body:
        form(field('email', 'a@b.example')).toString() +
        ' '.repeat(MAX_RESUME + FORM_ALLOWANCE_BYTES + 1 - form(field('email', 'a@b.example')).length),
    });
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(
      [response.status, body.code, body.cutOff, body.connection],
      [413, 'file_too_large', true, 'close'],
    );
    assert.deepEqual(
      (body.errors as { field: string }[]).map((e) => e.field),
      ['resume'],
      'the problem still on the resume field',
    );
  });

  it('cuts a body that sends past the allowance: file_too_large while a resume is read, request_too_large when only fields', async () => {
    const fields = Array.from({ length: 20 }, (_, i) => field(`f${i}`, 'x'.repeat(MAX_FIELD_BYTES - 100)));
    const onlyFields = await postChunked(form(...fields));
    assert.deepEqual(
      [onlyFields.status, onlyFields.body.code, onlyFields.body.cutOff],
      [413, 'request_too_large', true],
    );
    assert.match(String(onlyFields.body.detail), /at most 1 MiB besides the resume/);
    const withResume = await postChunked(
      form(field('email', 'a@b.example'), file('resume', 'cv.pdf', pdfOfSize(MAX_RESUME + FORM_ALLOWANCE_BYTES + 1))),
    );
    assert.deepEqual([withResume.status, withResume.body.code, withResume.body.cutOff], [413, 'file_too_large', true]);
    await noUploadLeft();
  });

  /** A form of exactly `bytes`: a resume of the limit, then fields (each under the field limit) to fill the rest. */
  function formOfBytes(bytes: number): Buffer {
    const head = [file('resume', 'cv.pdf', pdfOfSize(MAX_RESUME))];
    const fields: string[] = [];
    const size = () => form(...head, ...fields).length;
    // Each field's headers cost about 60 bytes; the last one is cut to the bytes left.
    while (bytes - size() > MAX_FIELD_BYTES) fields.push(field(`f${fields.length}`, 'x'.repeat(MAX_FIELD_BYTES - 100)));
    fields.push(field(`f${fields.length}`, ''));
    fields[fields.length - 1] = field(`f${fields.length - 1}`, 'x'.repeat(bytes - size()));
    const body = form(...head, ...fields);
    assert.equal(body.length, bytes);
    return body;
  }

  it('takes a body of exactly the resume limit and the form allowance together, declared or chunked', async () => {
    const body = formOfBytes(MAX_RESUME + FORM_ALLOWANCE_BYTES);
    const declared = await post(body);
    assert.equal(declared.status, 200, JSON.stringify(declared.body).slice(0, 200));
    assert.equal((declared.body.resume as { size: number }).size, MAX_RESUME);
    const chunked = await postChunked(body);
    assert.equal(chunked.status, 200, JSON.stringify(chunked.body).slice(0, 200));
  });

  it('cuts with file_too_large, and deletes its upload file, a resume read whole followed by fields past the allowance', async () => {
    // A form holding a resume is cut as file_too_large: the resume is the bulk of the body, and a smaller one makes room.
    const fields = Array.from({ length: 20 }, (_, i) => field(`f${i}`, 'x'.repeat(MAX_FIELD_BYTES - 100)));
    const resume = Buffer.concat([
      file('resume', 'cv.pdf', pdfOfSize(20_000)),
      Buffer.from(field('email', 'a@b.example')),
    ]);
    // A wait once the resume is sent: its upload file is closed when the fields cross the cap.
    const answer = await postChunked(form(resume, ...fields), resume.length);
    assert.deepEqual([answer.status, answer.body.code, answer.body.cutOff], [413, 'file_too_large', true]);
    await noUploadLeft();
  });

  it('opens no upload file for a resume that starts in the piece that crossed the allowance', async () => {
    // The piece that crosses the cap is still handed to the parser: the resume it starts must not be written.
    const hardCap = MAX_RESUME + FORM_ALLOWANCE_BYTES;
    const fields: string[] = [];
    const size = () => form(...fields).length - end.length;
    while (hardCap - size() > MAX_FIELD_BYTES)
      fields.push(field(`f${fields.length}`, 'x'.repeat(MAX_FIELD_BYTES - 100)));
    fields.push(field(`f${fields.length}`, ''));
    fields[fields.length - 1] = field(`f${fields.length - 1}`, 'x'.repeat(hardCap - size() + 10));
    assert.equal(size(), hardCap + 10);
    const answer = await postChunked(form(...fields, file('resume', 'cv.pdf', pdfOfSize(20_000))));
    assert.deepEqual([answer.status, answer.body.code, answer.body.cutOff], [413, 'request_too_large', true]);
    await noUploadLeft();
  });

  it('cuts a body that sends fields past the allowance after a resume over the limit with file_too_large, the resume being what to fix', async () => {
    const fields = Array.from({ length: 20 }, (_, i) => field(`f${i}`, 'x'.repeat(MAX_FIELD_BYTES - 100)));
    const answer = await postChunked(form(file('resume', 'cv.pdf', pdfOfSize(MAX_RESUME + 10)), ...fields));
    assert.deepEqual([answer.status, answer.body.code, answer.body.cutOff], [413, 'file_too_large', true]);
    await noUploadLeft();
  });

  it('cuts a body trickled slower than the pace after the grace with 408 upload_too_slow, and deletes its upload file', async () => {
    pace = { minBytesPerSecond: 50_000, periodMs: 200 };
    try {
      const body = form(field('email', 'a@b.example'), file('resume', 'cv.pdf', pdfOfSize(40_000)));
      // 100 bytes every 20 ms, chunked: 5,000 bytes a second, a tenth of the pace.
      const raw = await trickle(body, 100, 20);
      const answer = JSON.parse(raw.slice(raw.indexOf('{'))) as Record<string, unknown>;
      assert.deepEqual(
        [/^HTTP\/1\.1 (\d+)/.exec(raw)?.[1], answer.code, answer.cutOff, answer.connection],
        ['408', 'upload_too_slow', true, 'close'],
      );
      assert.match(String(answer.detail), /slower than 49 KiB a second/);
      await noUploadLeft();
    } finally {
      pace = { minBytesPerSecond: 0, periodMs: 1_000 };
    }
  });

  it('when the disk is full, answers 503 storage_full once the body is read', { timeout: 10_000 }, async () => {
    writeTo = new UploadSpool(
      upload.dir,
      () =>
        new Writable({
          write: (_chunk, _encoding, done) =>
            done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })),
        }),
    );
    try {
      const answer = await post(form(file('resume', 'cv.pdf', pdfOfSize(20_000)), field('email', 'a@b.example')));
      assert.deepEqual([answer.status, answer.body.code], [503, 'storage_full']);
    } finally {
      writeTo = upload.spool;
    }
  });

  it(
    "when the disk fails as the resume's last bytes are written, after the form is read, answers 503 storage_full and deletes its upload file",
    { timeout: 10_000 },
    async () => {
      // Every write is taken; closing the file fails, as a full disk's last flush does.
      writeTo = new UploadSpool(upload.dir, (path) => {
        const real = upload.spool.open(path);
        return new Writable({
          write: (chunk: Buffer, _encoding, done) => real.write(chunk, done),
          final: (done) =>
            real.end(() =>
              setTimeout(() => done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })), 20),
            ),
        });
      });
      try {
        const answer = await post(form(field('email', 'a@b.example'), file('resume', 'cv.pdf', pdfOfSize(20_000))));
        assert.deepEqual([answer.status, answer.body.code], [503, 'storage_full']);
        await noUploadLeft();
      } finally {
        writeTo = upload.spool;
      }
    },
  );

  it('gives up a request whose client leaves mid-body, saying it was interrupted, and deletes its upload file', async () => {
    lastProblem = undefined;
    const body = form(field('email', 'a@b.example'), file('resume', 'cv.pdf', pdfOfSize(40_000)));
    const socket = connect({ host: '127.0.0.1', port: upload.port }, () => {
      socket.write(
        `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, 20_000));
    });
    await eventually(() => readdirSync(join(upload.dir, 'uploads')).length === 1, {
      timeoutMs: 2_000,
      what: 'the resume being written',
    });
    socket.destroy();
    await eventually(() => lastProblem !== undefined, { timeoutMs: 2_000, what: 'the request given up' });
    const given = lastProblem as ProblemError | undefined;
    assert.deepEqual(
      [given?.code, given?.detail],
      ['malformed_request', 'The request was interrupted before its end.'],
    );
    await noUploadLeft();
  });

  it('refuses a body cut before its closing boundary with 400 malformed_request', async () => {
    const whole = form(field('email', 'a@b.example'), file('resume', 'cv.pdf', pdf()));
    const answer = await post(whole.subarray(0, whole.length - end.length - 10));
    assert.deepEqual(
      [answer.status, answer.body.code, answer.body.detail],
      [400, 'malformed_request', 'The multipart body is not well formed.'],
    );
    await noUploadLeft();
  });

  it('answers a large body refused early for a malformed part header, reading its rest: the connection takes the next request', async () => {
    // Not a cut-off: the rest (within the allowance) is read, so the client gets the answer and the connection goes on.
    const broken = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nBroken header\r\n\r\n`),
      Buffer.alloc(FORM_ALLOWANCE_BYTES - 4096, 'x'),
      Buffer.from(`\r\n${end}`),
    ]);
    const next = form(field('email', 'a@b.example'));
    const request = (body: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
        ),
        body,
      ]);
    let received = '';
    const socket = connect({ host: '127.0.0.1', port: upload.port }, () => {
      socket.write(Buffer.concat([request(broken), request(next)]));
    });
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    try {
      await eventually(() => (received.match(/HTTP\/1\.1 \d{3} /g) ?? []).length === 2 && received.endsWith('}'), {
        timeoutMs: 3_000,
        what: 'both answers on the one connection',
      });
    } finally {
      socket.destroy();
    }
    const [first, second] = received.split(/(?=HTTP\/1\.1 \d{3} )/);
    assert.match(first ?? '', /^HTTP\/1\.1 400 /);
    assert.match(first ?? '', /"detail":"The multipart body is not well formed\.".*"cutOff":false/);
    assert.match(second ?? '', /^HTTP\/1\.1 200 /);
  });

  it('cuts with file_too_large, not request_too_large, a body crossing the allowance while a resume under the limit is read', async () => {
    // Fields up to 30,000 bytes short of the cap, then a resume of 60,000 bytes: the cap is crossed inside it.
    const hardCap = MAX_RESUME + FORM_ALLOWANCE_BYTES;
    const fields: string[] = [];
    const size = () => form(...fields).length - end.length;
    while (hardCap - 30_000 - size() > MAX_FIELD_BYTES)
      fields.push(field(`f${fields.length}`, 'x'.repeat(MAX_FIELD_BYTES - 100)));
    fields.push(field(`f${fields.length}`, ''));
    fields[fields.length - 1] = field(`f${fields.length - 1}`, 'x'.repeat(hardCap - 30_000 - size()));
    const opened: string[] = [];
    writeTo = new UploadSpool(upload.dir, (path, options) => {
      opened.push(path);
      return createWriteStream(path, options);
    });
    // The resume's first bytes, then a wait until its upload file is open: the cap is crossed after, mid-file.
    const answer = await postHeldUntil(
      form(...fields, file('resume', 'cv.pdf', pdfOfSize(60_000))),
      size() + 1_000,
      () => opened.length === 1,
      'the resume being written',
    );
    assert.deepEqual([answer.status, answer.body.code, answer.body.cutOff], [413, 'file_too_large', true]);
    await noUploadLeft();
  });

  it('deletes the upload file of a resume as soon as it passes the limit, before the rest of the body comes', async () => {
    const uploads: { path: string; closed: boolean }[] = [];
    writeTo = new UploadSpool(upload.dir, (path, options) => {
      const upload = { path, closed: false };
      uploads.push(upload);
      return createWriteStream(path, options).once('close', () => (upload.closed = true));
    });
    const resume = file('resume', 'cv.pdf', pdfOfSize(MAX_RESUME + 10_000));
    const answer = await postHeldUntil(
      form(resume, field('email', 'a@b.example')),
      resume.length,
      () => uploads.length === 1 && uploads[0]?.closed && !existsSync(uploads[0].path),
      'the upload file deleted while the rest of the body is held',
    );
    assert.deepEqual([answer.status, answer.body.code], [413, 'file_too_large']);
  });

  it('deletes the upload file of a write that fails, before the rest of the body comes, then answers 503 storage_full', async () => {
    const uploads: { path: string; failed: boolean }[] = [];
    writeTo = new UploadSpool(upload.dir, (path) => {
      const upload = { path, failed: false };
      uploads.push(upload);
      // A disk that fills during the first write: some bytes land in the file, then the write fails.
      return new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          writeFileSync(path, chunk.subarray(0, 100));
          upload.failed = true;
          done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
        },
      });
    });
    const head = Buffer.concat([
      Buffer.from(field('email', 'a@b.example')),
      file('resume', 'cv.pdf', pdfOfSize(40_000)),
    ]);
    const answer = await postHeldUntil(
      form(head),
      head.length - 20_000,
      () => uploads.length === 1 && uploads[0]?.failed && !existsSync(uploads[0].path),
      'the upload file deleted while the rest of the body is held',
    );
    assert.deepEqual([answer.status, answer.body.code], [503, 'storage_full']);
    await noUploadLeft();
  });
});

// The reader called by a test's own handler, for what only the request object shows: how the
// reading stops or goes on after a refusal, and which of the request's events settle the form.
describe('parseApplicationForm, on the request itself', () => {
  const pace = { minBytesPerSecond: 0, periodMs: 1_000 };
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();

  const upload = formServer('jbc-multipart-req-', (req, res) => handle(req, res));

  /** Opens a connection sending a chunked multipart request's head and `body` (as one chunk); the caller destroys it. */
  function send(body: Buffer): ReturnType<typeof connect> {
    const socket = connect({ host: '127.0.0.1', port: upload.port }, () => {
      socket.write(
        `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      socket.write(Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')]));
    });
    socket.on('error', () => undefined);
    return socket;
  }

  /** What the form's reading settled with, or 'unsettled' after 2 s. */
  async function outcome(parsed: Promise<unknown>): Promise<unknown> {
    return Promise.race([
      parsed.then(
        (form) => form,
        (error: unknown) => error,
      ),
      sleep(2_000).then(() => 'unsettled'),
    ]);
  }

  /** What the reading of a form settled with when `cut` is done to its request once the first half of the body is in. */
  async function settledWhenCut(cut: (req: IncomingMessage) => void): Promise<unknown> {
    let parsed: Promise<unknown> = new Promise(() => undefined);
    const started = new Promise<void>((resolve) => {
      handle = (req) => {
        parsed = parseApplicationForm(req as Request, MAX_RESUME, upload.spool, pace);
        req.once('data', () => setImmediate(() => cut(req)));
        resolve();
      };
    });
    const socket = send(
      form(field('email', 'a@b.example'), file('resume', 'cv.pdf', pdfOfSize(20_000))).subarray(0, 10_000),
    );
    try {
      await started;
      return await outcome(parsed);
    } finally {
      socket.destroy();
    }
  }

  it("gives up a request destroyed mid-body without an error (only its 'aborted' event tells), saying it was interrupted", async () => {
    const settled = await settledWhenCut((req) => req.destroy());
    assert.ok(settled instanceof ProblemError, String(settled));
    assert.deepEqual(
      [settled.code, settled.detail],
      ['malformed_request', 'The request was interrupted before its end.'],
    );
  });

  it('gives up a request whose stream errors mid-body, saying it was interrupted, with the error as its cause', async () => {
    // Node also emits the deprecated 'aborted' first when a client leaves; the error alone must settle the form too.
    const failure = new Error('read ECONNRESET');
    const settled = await settledWhenCut((req) => {
      // Throws when nothing listens to the request's errors: then the form never settles, as the check below says.
      try {
        req.emit('error', failure);
      } catch {
        // as said
      }
    });
    assert.ok(settled instanceof ProblemError, String(settled));
    assert.deepEqual(
      [settled.code, settled.detail, settled.cause],
      ['malformed_request', 'The request was interrupted before its end.', failure],
    );
  });

  it('stops reading a body cut off past the allowance while the client keeps sending', async () => {
    const hardCap = MAX_RESUME + FORM_ALLOWANCE_BYTES;
    let readAtCut = 0;
    let readLater = 0;
    let parsed: Promise<unknown> = new Promise(() => undefined);
    const started = new Promise<void>((resolve) => {
      handle = (req, res) => {
        parsed = parseApplicationForm(req as Request, MAX_RESUME, upload.spool, pace).catch(async (error: unknown) => {
          readAtCut = req.socket.bytesRead;
          await sleep(300);
          readLater = req.socket.bytesRead;
          res.writeHead(413, { Connection: 'close' }).end();
          return error;
        });
        resolve();
      };
    });
    // Four times the cap, sent at once: what the server reads of it after the cut is what it did not stop.
    const fields = Array.from({ length: 70 }, (_, i) => field(`f${i}`, 'x'.repeat(MAX_FIELD_BYTES - 100)));
    const socket = send(form(...fields));
    try {
      await started;
      const settled = await outcome(parsed);
      assert.ok(settled instanceof CutOffError, String(settled));
      assert.ok(readAtCut > hardCap, `the cut came past the cap (${readAtCut} bytes read)`);
      assert.ok(
        readLater - readAtCut < 512 * 1024,
        `${readLater - readAtCut} bytes read after the cut, of ${fields.length * MAX_FIELD_BYTES - readAtCut} sent`,
      );
    } finally {
      socket.destroy();
    }
  });
});

describe('humanBytes', () => {
  it('says bytes, KiB, whole MiB and MiB with one decimal', () => {
    assert.deepEqual(
      [
        humanBytes(512),
        humanBytes(1024),
        humanBytes(1536),
        humanBytes(1024 * 1024),
        humanBytes(10 * 1024 * 1024),
        humanBytes(1.5 * 1024 * 1024),
      ],
      ['512 bytes', '1 KiB', '2 KiB', '1 MiB', '10 MiB', '1.5 MiB'],
    );
    assert.equal(humanBytes(1023), '1023 bytes');
    assert.deepEqual(
      [humanBytes(0), humanBytes(1024 * 1024 + 1)],
      ['0 bytes', '1.0 MiB'],
      'not whole MiB: one decimal',
    );
  });
});
