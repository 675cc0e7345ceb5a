// Files as the API takes them: `{ base64, mime_type }`, the type read from the
// bytes (never from a file name or a browser's claim), so a renamed .exe is
// refused here instead of by the service after a request was spent.
import { readFile } from 'node:fs/promises';
import { ATTACHMENT_TYPES, RESUME_TYPES, sniffFileType } from '../contract/index.ts';
import type { AttachmentType, ResumeType } from '../contract/index.ts';

export interface FileOptions<K extends 'resume' | 'attachment'> {
  /** 'resume' (pdf, jpg, png, doc, docx; the default) or 'attachment' (the same and xlsx). */
  kind?: K;
}

export type FileInput<K extends 'resume' | 'attachment' = 'resume'> = {
  base64: string;
  mime_type: K extends 'attachment' ? AttachmentType : ResumeType;
};

/** Thrown for bytes that are not one of the allowed types. */
export class UnsupportedFileError extends Error {
  override name = 'UnsupportedFileError';
  /** What the bytes look like ('exe', 'zip'...) or undefined when unknown. */
  readonly detected: string | undefined;
  constructor(message: string, detected: string | undefined) {
    super(message);
    this.detected = detected;
  }
}

/** A Buffer or Uint8Array as a resume (default) or attachment. */
export async function fileFromBuffer<K extends 'resume' | 'attachment' = 'resume'>(
  bytes: Uint8Array,
  options: FileOptions<K> = {},
): Promise<FileInput<K>> {
  const kind = options.kind ?? 'resume';
  const allowed: readonly string[] = kind === 'attachment' ? ATTACHMENT_TYPES : RESUME_TYPES;
  if (bytes.length === 0) throw new UnsupportedFileError('The file is empty.', undefined);
  const { type, detected } = await sniffFileType(bytes);
  if (type === undefined || !allowed.includes(type)) {
    const what = detected === undefined ? 'a type that could not be recognised' : `a ${detected} file`;
    throw new UnsupportedFileError(`The file is ${what}; a ${kind} must be one of: ${allowed.join(', ')}.`, detected);
  }
  const base64 = (
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  ).toString('base64');
  return { base64, mime_type: type as FileInput<K>['mime_type'] };
}

/**
 * A file sent without being held whole in memory: `open()` gives its bytes
 * for each attempt of a request, and they are base64-encoded as the request
 * body is written (see streamed-json.ts). Its type must already have been read
 * from its bytes, as fileFromBuffer does; `size` must be its exact length.
 * Each chunk is encoded before the next is asked for, so a source may read
 * every chunk into the same buffer. Accepted wherever a create method takes a
 * resume.
 */
export class StreamedFile<K extends 'resume' | 'attachment' = 'resume'> {
  readonly mime_type: FileInput<K>['mime_type'];
  readonly size: number;
  readonly open: () => AsyncIterable<Uint8Array>;
  constructor(source: { mime_type: FileInput<K>['mime_type']; size: number; open: () => AsyncIterable<Uint8Array> }) {
    this.mime_type = source.mime_type;
    this.size = source.size;
    this.open = source.open;
  }
}

/** A body part that takes a resume (`T`), with a StreamedFile accepted as that resume. */
export type ResumeMayStream<T> = T extends { resume?: infer R } ? Omit<T, 'resume'> & { resume?: R | StreamedFile } : T;

/** A Blob or File (for example from a multipart upload). */
export async function fileFromBlob<K extends 'resume' | 'attachment' = 'resume'>(
  blob: Blob,
  options: FileOptions<K> = {},
): Promise<FileInput<K>> {
  return fileFromBuffer(new Uint8Array(await blob.arrayBuffer()), options);
}

/** A file on disk. */
export async function fileFromPath<K extends 'resume' | 'attachment' = 'resume'>(
  path: string,
  options: FileOptions<K> = {},
): Promise<FileInput<K>> {
  return fileFromBuffer(await readFile(path), options);
}
