// Rule (API rules: Files): a file's type is what its
// bytes are, never its name or its declared mime_type. One reader for the
// client, the sandbox and the proxy.
import { fileTypeFromBuffer } from 'file-type';
import { ATTACHMENT_TYPES } from './values.ts';
import type { AttachmentType } from './values.ts';

/** The OLE2 compound-file signature: legacy Word .doc files (file-type calls the container "cfb"). */
const OLE2 = Uint8Array.of(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);

export interface SniffedFileType {
  /** The API's short type name (pdf, jpg, png, doc, docx, xlsx), or undefined when the bytes are none of them. */
  type: AttachmentType | undefined;
  /** What the bytes were recognised as (an extension), for messages; undefined when unrecognised. */
  detected: string | undefined;
}

export async function sniffFileType(bytes: Uint8Array): Promise<SniffedFileType> {
  if (bytes.length >= OLE2.length && OLE2.every((byte, i) => bytes[i] === byte)) return { type: 'doc', detected: 'doc' };
  // A damaged file (a truncated zip, say) can make the parser throw: it is then of no known type.
  const found = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const detected = found?.ext === 'cfb' ? 'doc' : found?.ext;
  const type = (ATTACHMENT_TYPES as readonly string[]).includes(detected ?? '') ? (detected as AttachmentType) : undefined;
  return { type, detected };
}
