// Streams a multipart/form-data request through busboy. The files taken are
// the resume, or instead the photos of its pages (resume_pages); each is
// written to an upload file as it arrives (never held whole in memory), all
// of them together up to MAX_RESUME_BYTES and never beyond: past the limit
// their files are deleted and their bytes are counted and dropped, and a
// request that keeps sending far beyond the form's allowance is cut off.
import { createHash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import { ProblemError } from '../http/problem.ts';
import { MAX_RESUME_PAGES, RESUME_PAGES_FIELD } from '../../public-api/resume-pages.ts';
import { LEADING_BYTES_NEEDED, startsLikePage, startsLikeResume } from './resume.ts';
import { storeFailure } from './store-failure.ts';
import type { UploadSpool } from './upload-spool.ts';
import { watchPace } from './upload-pace.ts';
import type { PaceRule } from './upload-pace.ts';

/** What a form may weigh besides the resume: fields, part headers, boundaries. */
export const FORM_ALLOWANCE_BYTES = 1024 * 1024;
/** Longest text field taken (the cover letter: 10,000 characters, up to 4 bytes each). */
export const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 40;
const MAX_PARTS = 50;

export interface ParsedFile {
  filename: string;
  size: number;
  /** SHA-256 of its bytes (hex), for the Idempotency-Key's fingerprint. */
  sha256: string;
  /**
   * The upload file holding its bytes; null when its first bytes are those of
   * no type its field takes (nothing was written). The caller keeps or discards it.
   */
  path: string | null;
  /** The first bytes (at most REFUSED_SAMPLE_BYTES) of a file refused on them, to tell the candidate what it is. */
  refusedSample?: Uint8Array;
}

/** Bytes of a refused file kept to name its type: as many as the file-type sniffer reads. */
export const REFUSED_SAMPLE_BYTES = 4100;
/** One upload file being written. */
interface UploadFile {
  path: string;
  out: Writable;
  /** Settles once its bytes are all written and it is closed. */
  written: Promise<void>;
}

export interface ParsedForm {
  fields: Map<string, string>;
  /** Fields whose value was cut at MAX_FIELD_BYTES. */
  truncated: Set<string>;
  resume: ParsedFile | undefined;
  /** The photos of the resume's pages (resume_pages), in the order sent; at most MAX_RESUME_PAGES. */
  pages: ParsedFile[];
  /** How many resume_pages were sent: those past MAX_RESUME_PAGES are counted, not written. */
  pagesSent: number;
}

export function humanBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}

export function fileTooLarge(maxBytes: number): ProblemError {
  const message = `The resume is larger than the limit of ${humanBytes(maxBytes)} (${maxBytes} bytes).`;
  return new ProblemError('file_too_large', `${message} Send a smaller file.`, {
    errors: [{ field: 'resume', code: 'file_too_large', message }],
  });
}

function requestTooLarge(maxBytes: number): ProblemError {
  return new ProblemError(
    'request_too_large',
    `The form may carry at most ${humanBytes(maxBytes)} besides the resume; send less text.`,
  );
}

function tooSlow(pace: PaceRule): ProblemError {
  return new ProblemError(
    'upload_too_slow',
    `The form arrived slower than ${humanBytes(pace.minBytesPerSecond)} a second, so it was not kept. Send it again from a steadier connection.`,
  );
}

function malformed(detail: string, cause?: unknown): ProblemError {
  return new ProblemError('malformed_request', detail, { cause });
}

/**
 * Marks the answer to a request whose body was not read to its end: the
 * connection closes after the answer, so the unread rest is never taken in.
 */
export class CutOffError extends ProblemError {}

function cutOff(problem: ProblemError): CutOffError {
  return new CutOffError(problem.code, problem.detail, {
    ...(problem.errors ? { errors: problem.errors } : {}),
    headers: { Connection: 'close' },
  });
}

/**
 * Reads the whole form; the resume is written to an upload file of `spool`
 * (not yet fsynced: only a stored application pays for that), which the
 * caller keeps or discards. Rejects with a ProblemError: 400 malformed_request,
 * 413 file_too_large / request_too_large (a CutOffError when the body was not
 * read to its end), 408 upload_too_slow (a CutOffError) when it arrives slower than `pace`.
 */
export function parseApplicationForm(
  req: Request,
  maxResumeBytes: number,
  spool: UploadSpool,
  pace: PaceRule,
): Promise<ParsedForm> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    return Promise.reject(malformed('Send the application as multipart/form-data (fields and the resume file).'));
  }
  const hardCap = maxResumeBytes + FORM_ALLOWANCE_BYTES;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > hardCap) {
    return Promise.reject(cutOff(fileTooLarge(maxResumeBytes)));
  }

  return new Promise<ParsedForm>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          // busboy calls a file that reaches fileSize truncated: one byte more tells "over the limit" apart.
          fileSize: maxResumeBytes + 1,
          // The resume, the pages taken, and one more page to tell "too many pages" in the answer.
          files: MAX_RESUME_PAGES + 2,
          fields: MAX_FIELDS,
          parts: MAX_PARTS,
          fieldSize: MAX_FIELD_BYTES,
          fieldNameSize: 100,
          headerPairs: 20,
        },
      });
    } catch (error) {
      reject(malformed('The multipart body has no boundary; send it as multipart/form-data.', error));
      return;
    }
    new FormReading(req, parser, { maxResumeBytes, hardCap, spool, pace }, resolve, reject).start();
  });
}

interface FormLimits {
  maxResumeBytes: number;
  /** Bytes past which the request is cut off: the resume's limit and the form's allowance. */
  hardCap: number;
  spool: UploadSpool;
  pace: PaceRule;
}

/** One form being read: the state its parser's handlers share, and those handlers. */
class FormReading {
  readonly form: ParsedForm = { fields: new Map(), truncated: new Set(), resume: undefined, pages: [], pagesSent: 0 };
  private settled = false;
  private failure: ProblemError | undefined;
  private received = 0;
  private fileOpen = false;
  private resumeSeen = false;
  /** The files' bytes so far, all together: the resume's limit is theirs. */
  private fileBytes = 0;
  /** The upload files written: deleted if the form fails. */
  private uploads: UploadFile[] = [];
  /**
   * Set once the upload files are dropped: no byte is written after. The
   * request is unpiped from the parser when the form fails, but the chunk
   * that crossed the cap is still handed to it, and its bytes must not open
   * a file that nothing would close or delete.
   */
  private dropped = false;
  private stopWatching: () => void = () => undefined;
  private readonly req: Request;
  private readonly parser: busboy.Busboy;
  private readonly limits: FormLimits;
  private readonly resolve: (form: ParsedForm) => void;
  private readonly reject: (error: ProblemError) => void;

  constructor(
    req: Request,
    parser: busboy.Busboy,
    limits: FormLimits,
    resolve: (form: ParsedForm) => void,
    reject: (error: ProblemError) => void,
  ) {
    this.req = req;
    this.parser = parser;
    this.limits = limits;
    this.resolve = resolve;
    this.reject = reject;
  }

  /** Listens to the request and the parser, and pipes the one into the other. */
  start(): void {
    const { req, parser } = this;
    const { pace } = this.limits;
    req.on('data', this.count);
    const watch = watchPace(
      pace,
      () => this.received,
      () => this.finish(cutOff(tooSlow(pace))),
    );
    // Paused by the proxy (the disk is slower than the network): not the candidate's pace.
    req.on('pause', watch.excuse);
    this.stopWatching = () => {
      watch.stop();
      req.off('pause', watch.excuse);
    };

    parser.on('field', (name, value, info) => this.takeField(name, value, info));
    parser.on('file', (name, stream, info) => this.takeFile(name, stream, info));

    parser.on('filesLimit', () =>
      this.fail(malformed(`Send one resume file, or at most ${MAX_RESUME_PAGES} photos of its pages.`)),
    );
    const tooManyParts = () =>
      this.fail(
        new ProblemError(
          'request_too_large',
          `The form may have at most ${MAX_FIELDS} fields; send only the application's fields.`,
        ),
      );
    parser.on('fieldsLimit', tooManyParts);
    parser.on('partsLimit', tooManyParts);
    parser.on('error', (error: unknown) => this.finish(malformed('The multipart body is not well formed.', error)));
    parser.on('close', () => this.finish(this.failure));
    req.on('aborted', () => this.finish(malformed('The request was interrupted before its end.')));
    req.on('error', (error) => this.finish(malformed('The request was interrupted before its end.', error)));
    req.pipe(parser);
  }

  private openUpload(): UploadFile {
    const path = this.limits.spool.newPath();
    const out = this.limits.spool.open(path);
    const written = new Promise<void>((resolveWrite, rejectWrite) => {
      out.once('close', resolveWrite);
      out.once('error', rejectWrite);
    });
    // A write that fails (a full disk) ends the upload: its file goes, and the candidate is told why once the body is read.
    out.once('error', (error) => {
      this.fail(storeFailure(error));
      this.dropUploads();
    });
    // Rejections are read by finish(); until then this one must not count as unhandled.
    written.catch(() => undefined);
    const upload = { path, out, written };
    this.uploads.push(upload);
    return upload;
  }

  /** Stops writing and deletes the upload files once their streams have closed (they may still be opening). */
  private dropUploads(): void {
    this.dropped = true;
    const { spool } = this.limits;
    for (const { path, out } of this.uploads) {
      if (out.closed) spool.discard(path);
      else out.once('close', () => spool.discard(path));
      out.destroy();
    }
    this.uploads = [];
  }

  private finish(error?: ProblemError): void {
    if (this.settled) return;
    this.settled = true;
    this.stopWatching();
    this.req.off('data', this.count);
    if (error !== undefined) {
      this.dropUploads();
      this.req.unpipe(this.parser);
      if (error instanceof CutOffError) {
        // Stop reading: the connection closes once the answer is sent.
        this.req.pause();
      } else {
        // Read the (bounded) rest so the client gets our answer, not a reset.
        this.req.resume();
      }
      this.reject(error);
      return;
    }
    // The form is read; the files' last bytes may still be on their way to the disk.
    Promise.all(this.uploads.map((upload) => upload.written)).then(
      () => this.resolve(this.form),
      (writeError: unknown) => {
        this.dropUploads();
        this.reject(storeFailure(writeError));
      },
    );
  }

  /** Remembers the first problem; the answer waits for the end of the body. */
  private fail(error: ProblemError): void {
    this.failure ??= error;
  }

  private readonly count = (chunk: Buffer) => {
    this.received += chunk.length;
    if (this.received > this.limits.hardCap)
      this.finish(
        cutOff(
          // A file past the limit has bytes counted too (overLimit).
          this.fileOpen || this.fileBytes > 0
            ? fileTooLarge(this.limits.maxResumeBytes)
            : requestTooLarge(FORM_ALLOWANCE_BYTES),
        ),
      );
  };

  private takeField(name: string, value: string, info: busboy.FieldInfo): void {
    if (info.nameTruncated) {
      this.fail(malformed('A field name is too long.'));
      return;
    }
    if (this.form.fields.has(name)) {
      this.fail(malformed('A field is sent twice; send each field once.'));
      return;
    }
    this.form.fields.set(name, value);
    if (info.valueTruncated) this.form.truncated.add(name);
  }

  /** Past the resume's limit, all the files together: their upload files go, the rest of their bytes is counted and dropped. */
  private overLimit(): void {
    this.dropUploads();
    this.fail(fileTooLarge(this.limits.maxResumeBytes));
  }

  private takeFile(name: string, stream: Readable & { truncated?: boolean }, info: busboy.FileInfo): void {
    // A form cut mid-file errors on the file stream too; the parser's own error answers it.
    stream.on('error', () => undefined);
    const page = name === RESUME_PAGES_FIELD;
    if (!page && (name !== 'resume' || this.resumeSeen)) {
      this.fail(
        malformed(
          name === 'resume'
            ? 'Send one resume file only.'
            : `A file is sent in another field than "resume" or "${RESUME_PAGES_FIELD}"; those are the only files.`,
        ),
      );
      stream.resume();
      return;
    }
    if (page) this.form.pagesSent += 1;
    else this.resumeSeen = true;
    // Counted for the answer (too many pages), never written.
    if (this.form.pagesSent > MAX_RESUME_PAGES && page) {
      stream.resume();
      return;
    }
    this.fileOpen = true;
    const hash = createHash('sha256');
    let size = 0;
    let upload: UploadFile | undefined;
    // The first bytes are held until there are enough to tell whether this can be a file of its field at all.
    let head: Buffer | undefined = Buffer.alloc(0);
    let refused = false;
    let sample = Buffer.alloc(0);
    const write = (chunk: Buffer) => {
      if (this.dropped) return;
      upload ??= this.openUpload();
      const { out } = upload;
      if (!out.write(chunk)) {
        // Backpressure: busboy stops parsing, and reading the request, until the disk has taken this.
        stream.pause();
        // Closed (a failed write destroys it) means no drain will come: read on, writing nothing.
        const resume = () => {
          out.off('drain', resume);
          out.off('close', resume);
          stream.resume();
        };
        out.once('drain', resume);
        out.once('close', resume);
      }
    };
    const keepSample = (bytes: Buffer) => {
      if (sample.length < REFUSED_SAMPLE_BYTES)
        sample = Buffer.concat([sample, bytes.subarray(0, REFUSED_SAMPLE_BYTES - sample.length)]);
    };
    const checkHead = (bytes: Buffer) => {
      refused = !(page ? startsLikePage(bytes) : startsLikeResume(bytes));
      if (refused) keepSample(bytes);
      else write(bytes);
      head = undefined;
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      hash.update(chunk);
      this.fileBytes += chunk.length;
      // busboy cuts one file at the limit (and a byte): this also sees several files passing it together.
      if (this.fileBytes > this.limits.maxResumeBytes) this.overLimit();
      if (refused) {
        keepSample(chunk);
        return;
      }
      if (head === undefined) write(chunk);
      else {
        head = Buffer.concat([head, chunk]);
        if (head.length >= LEADING_BYTES_NEEDED) checkHead(head);
      }
    });
    stream.on('end', () => {
      this.fileOpen = false;
      // Past the limit or a failed write: the form fails, its files are gone.
      if (this.dropped) return;
      // A file shorter than the bytes needed to tell is checked as it is.
      if (head !== undefined && head.length > 0) checkHead(head);
      const file = {
        filename: info.filename ?? '',
        size,
        sha256: hash.digest('hex'),
        path: refused ? null : (upload?.path ?? null),
        ...(refused ? { refusedSample: sample } : {}),
      };
      if (page) this.form.pages.push(file);
      else this.form.resume = file;
      upload?.out.end();
    });
  }
}
