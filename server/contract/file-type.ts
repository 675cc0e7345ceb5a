// Rule (API rules: Files): a file's type is what its
// bytes are, never its name or its declared mime_type. One reader for the
// client, the sandbox and the proxy.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { bufferSource, isOle2, ole2RootStreams } from './ole2.ts';
import type { ByteSource } from './ole2.ts';
import { ATTACHMENT_TYPES } from './values.ts';
import type { AttachmentType } from './values.ts';

export interface SniffedFileType {
  /** The API's short type name (pdf, jpg, png, doc, docx, xlsx), or undefined when the bytes are none of them. */
  type: AttachmentType | undefined;
  /** What the bytes were recognised as (an extension; txt for plain text), for messages; undefined when unrecognised. */
  detected: string | undefined;
}

// file-type and its readers (strtok3, a zip inflater...) are loaded on the
// first file sniffed, not by everything that imports the contract: a proxy
// that is only starting, or serving offers, never needs them.
const fileTypeModule = () => import('file-type');

export async function sniffFileType(bytes: Uint8Array): Promise<SniffedFileType> {
  if (isOle2(bytes)) return ole2Type(bufferSource(bytes));
  const { fileTypeFromBuffer } = await fileTypeModule();
  // A damaged file (a truncated zip, say) can make the parser throw: it is then of no known type.
  return known((await fileTypeFromBuffer(bytes).catch(() => undefined))?.ext, bytes);
}

/** Bytes read to tell plain text: as many as file-type reads to tell its formats. */
const TEXT_SAMPLE_BYTES = 4100;

/**
 * Plain text, which file-type never names: UTF-8 (ASCII included) without
 * control characters but tabs, line breaks and form feeds. A character cut
 * at the sample's end does not count against it.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, TEXT_SAMPLE_BYTES);
  if (sample.length === 0) return false;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    // eslint-disable-next-line no-control-regex -- the control characters are what is looked for
    return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
  } catch {
    return false;
  }
}

/**
 * The type of a file on disk, read the way `sniffFileType` reads bytes but a
 * few bytes at a time: a resume of many megabytes is never loaded whole.
 */
export async function sniffFileTypeOfFile(path: string): Promise<SniffedFileType> {
  const fd = openSync(path, 'r');
  let head: Uint8Array;
  try {
    const source = fileSource(fd);
    if (isOle2(source.read(0, 8))) return ole2Type(source);
    head = source.read(0, TEXT_SAMPLE_BYTES);
  } finally {
    closeSync(fd);
  }
  const { fileTypeFromFile } = await fileTypeModule();
  return known((await fileTypeFromFile(path).catch(() => undefined))?.ext, head);
}

// file-type names every OLE2 compound file "cfb": a .doc, but also an .xls, an
// .msi or an Outlook .msg. A Word 97-2003 document is the one whose root
// holds a WordDocument stream.
function ole2Type(source: ByteSource): SniffedFileType {
  const streams = ole2RootStreams(source);
  if (streams?.has('WordDocument')) return { type: 'doc', detected: 'doc' };
  if (streams?.has('Workbook') || streams?.has('Book')) return { type: undefined, detected: 'xls' };
  return { type: undefined, detected: 'cfb' };
}

// For zips, file-type 22 reads the main part declared in [Content_Types].xml:
// docx for a Word document, xlsx for a workbook, docm, pptx... or plain zip.
// Bytes of no format file-type knows may still be plain text: named txt, of no API type.
function known(found: string | undefined, bytes: Uint8Array): SniffedFileType {
  const detected = found ?? (looksLikeText(bytes) ? 'txt' : undefined);
  const type = (ATTACHMENT_TYPES as readonly string[]).includes(detected ?? '')
    ? (detected as AttachmentType)
    : undefined;
  return { type, detected };
}

function fileSource(fd: number): ByteSource {
  return {
    size: fstatSync(fd).size,
    read(offset, length) {
      const bytes = Buffer.alloc(length);
      return bytes.subarray(0, readSync(fd, bytes, 0, length, offset));
    },
  };
}
