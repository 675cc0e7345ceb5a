// How a file of each resume type starts (a docx is a zip, a doc an OLE2
// compound file): the proxy writes nothing of an upload that starts like none
// of them, and the widget says so of a file as it is chosen. A plain module,
// which the widget may import at run time.
import { RESUME_TYPES } from './values.ts';
import type { ResumeType } from './values.ts';

export const RESUME_SIGNATURES: Readonly<Record<ResumeType, Uint8Array>> = {
  pdf: Uint8Array.of(0x25, 0x50, 0x44, 0x46),
  jpg: Uint8Array.of(0xff, 0xd8, 0xff),
  png: Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
  doc: Uint8Array.of(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1),
  docx: Uint8Array.of(0x50, 0x4b, 0x03, 0x04),
};

/** Whether `head` starts like a file of one of `types` (every resume type unless told). */
export function startsLike(head: Uint8Array, types: readonly ResumeType[] = RESUME_TYPES): boolean {
  return types.some((type) => {
    const signature = RESUME_SIGNATURES[type];
    return head.length >= signature.length && signature.every((byte, i) => head[i] === byte);
  });
}
