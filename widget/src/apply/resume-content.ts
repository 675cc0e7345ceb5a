// What a chosen resume's first bytes say, read before any upload: a file
// named cv.pdf whose bytes start like none of the resume types is refused
// here, with the other fields' problems, rather than by the proxy after the
// upload. The proxy reads the whole file, so one that starts right may still
// be refused there.

import { startsLike } from '../../../server/contract/resume-signatures.ts';

/**
 * Undefined when the file may be a resume (or is empty: no file); else what
 * it is: `txt` for plain text (UTF-8 without control characters but its
 * layout), '' when unknown.
 */
export async function notResumeContent(file: Blob): Promise<string | undefined> {
  const head = new Uint8Array(await file.slice(0, 512).arrayBuffer());
  if (!head.length || startsLike(head)) return undefined;
  try {
    // eslint-disable-next-line no-control-regex -- the control characters are what is looked for
    return /[\0-\x08\x0b\x0e-\x1f\x7f]/.test(new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true }))
      ? ''
      : 'txt';
  } catch {
    return '';
  }
}

/** A file name's extension as the candidate sees it (`PDF`), '' when none. */
export function extensionOf(name: string): string {
  return /\.(\w+)$/.exec(name)?.[1]?.toUpperCase() ?? '';
}
