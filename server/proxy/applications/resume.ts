// The resume's type, read from its bytes (never from its name or the
// browser's declared type): a renamed executable is refused.
import type { ResumeType } from '../../contract/index.ts';
import { RESUME_TYPES, sniffFileType, sniffFileTypeOfFile } from '../../contract/index.ts';
import { RESUME_SIGNATURES, startsLike } from '../../contract/resume-signatures.ts';
import { ProblemError } from '../http/problem.ts';

/** The resume type of the file at `path`, or undefined when it is none of pdf, jpg, png, doc, docx. */
export async function resumeTypeOf(path: string): Promise<ResumeType | undefined> {
  const { type } = await sniffFileTypeOfFile(path);
  return (RESUME_TYPES as readonly string[]).includes(type ?? '') ? (type as ResumeType) : undefined;
}

/**
 * What a received resume's bytes are: its resume type, undefined when none,
 * and what they were recognised as (for the candidate's message). A file
 * refused on its first bytes was never written: its kept sample is read.
 */
export async function sniffResume(file: {
  path: string | null;
  refusedSample?: Uint8Array;
}): Promise<{ type: ResumeType | undefined; detected: string | undefined }> {
  // Refused on its first bytes, it is of no resume type whatever the rest of its sample says.
  if (file.path === null)
    return { type: undefined, detected: (await sniffFileType(file.refusedSample ?? new Uint8Array())).detected };
  const { type, detected } = await sniffFileTypeOfFile(file.path);
  return {
    type: (RESUME_TYPES as readonly string[]).includes(type ?? '') ? (type as ResumeType) : undefined,
    detected,
  };
}

/** Bytes `startsLikeResume` needs (fewer only when the whole file is shorter). */
export const LEADING_BYTES_NEEDED = Math.max(...Object.values(RESUME_SIGNATURES).map((bytes) => bytes.length));

/**
 * Checked on an upload's first bytes, so that a file of no resume type is not
 * written to the disk at all; the whole file is checked once received.
 */
export function startsLikeResume(head: Uint8Array): boolean {
  return startsLike(head);
}

/** Whether a page's first bytes are those of a photo (jpg or png), the only types a page may be. */
export function startsLikePage(head: Uint8Array): boolean {
  return startsLike(head, ['jpg', 'png']);
}

/** The resume type a file's name says it is (its extension), or undefined. */
export function namedType(filename: string): ResumeType | undefined {
  const extension = /\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase();
  const type = extension === 'jpeg' ? 'jpg' : extension;
  return RESUME_TYPES.find((t) => t === type);
}

/**
 * The refusal of a resume whose bytes are of no resume type: "not a real
 * PDF" when its name says one, and what it is when its bytes say it. The
 * field problem carries what it is (detected_type) for the widget's words.
 */
export function unsupportedFileType(filename = '', detected?: string): ProblemError {
  const named = namedType(filename);
  const what =
    detected === undefined ? '' : detected === 'txt' ? 'it is a text file' : `its content is ${detected.toUpperCase()}`;
  const message =
    named === undefined
      ? `The resume must be a ${RESUME_TYPES.join(', ')} file; its content is none of these${what && ` (${what})`}.`
      : `This file is not a real ${named.toUpperCase()}${what && `: ${what}`}.`;
  return new ProblemError('unsupported_file_type', `${message} Save it as PDF and send it again.`, {
    errors: [
      {
        field: 'resume',
        code: 'unsupported_file_type',
        message,
        ...(detected === undefined ? {} : { detected_type: detected }),
      },
    ],
  });
}
