// The files of every Node test (file types, the client, the sandbox, the
// proxy, the end-to-end tests, the benches), built in memory so no binary
// fixture is kept and each format is written in one place. The formats a
// browser can build too live in portable-files.ts (the widget's tests use
// them); this module adds OLE2 files and deflated zips, and hands out Buffers.
import { deflateRawSync } from 'node:zlib';
import CFB from 'cfb';
import * as portable from './portable-files.ts';

export { RESUME_TEXT, contentTypes, crc32 } from './portable-files.ts';
export type { Entries } from './portable-files.ts';

const buffer = (bytes: Uint8Array<ArrayBuffer>): Buffer<ArrayBuffer> =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A valid one-page PDF showing `text`; with `size`, exactly that many bytes. */
export const pdf = (options?: { text?: string; size?: number }): Buffer<ArrayBuffer> => buffer(portable.pdf(options));
/** A valid PDF of exactly `bytes` bytes. */
export const pdfOfSize = (bytes: number): Buffer<ArrayBuffer> => pdf({ size: bytes });
/** A 1×1 PNG with IHDR, IDAT and IEND, each with its CRC. */
export const png = (): Buffer<ArrayBuffer> => buffer(portable.png());
/** A 1×1 baseline JPEG. */
export const jpeg = (): Buffer<ArrayBuffer> => buffer(portable.jpeg());
/** A Windows executable's headers (MZ, then PE): what a renamed .exe starts with. */
export const exe = (): Buffer<ArrayBuffer> => buffer(portable.exe());

/** A zip with its central directory: stored entries, or deflated ones as Office writes them with `deflate`. */
export function zip(entries: portable.Entries, options: { deflate?: boolean } = {}): Buffer<ArrayBuffer> {
  return buffer(portable.zip(entries, options.deflate === true ? { deflate: (plain) => deflateRawSync(plain) } : {}));
}

/** A Word .docx whose one paragraph is `text`; `deflate` as Office writes it. */
export const docx = (text?: string, options: { deflate?: boolean } = {}): Buffer<ArrayBuffer> =>
  zip(portable.docxEntries(text), options);
/** An Excel .xlsx: a zip as Office writes it, but not a resume. */
export const xlsx = (options: { deflate?: boolean } = {}): Buffer<ArrayBuffer> => zip(portable.xlsxEntries(), options);
/** A zip that is no Office file. */
export const plainZip = (): Buffer<ArrayBuffer> => buffer(portable.plainZip());

/**
 * An OLE2 compound file (written by SheetJS's cfb, an independent writer) with
 * these streams: '/WordDocument' is a stream in the root, '/A/B' stream B in storage A.
 */
export function ole2(streams: Record<string, string | Uint8Array>): Buffer<ArrayBuffer> {
  const container = CFB.utils.cfb_new();
  for (const [path, content] of Object.entries(streams)) {
    CFB.utils.cfb_add(
      container,
      path,
      typeof content === 'string' ? Buffer.from(content, 'latin1') : Buffer.from(content),
    );
  }
  // A copy: cfb's buffer carries helper properties of its own.
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** A legacy Word .doc: an OLE2 file whose root holds a WordDocument stream (holding `text`). */
export const doc = (text = portable.RESUME_TEXT): Buffer<ArrayBuffer> => ole2({ '/WordDocument': text });
/** An Excel .xls: an OLE2 file like a .doc but with a Workbook stream and no WordDocument one. */
export const xls = (): Buffer<ArrayBuffer> => ole2({ '/Workbook': 'BIFF8' });
/** An installer (.msi): an OLE2 file with summary information and encoded table names, no WordDocument. */
export const msi = (): Buffer<ArrayBuffer> =>
  ole2({
    '/\u0005SummaryInformation': new Uint8Array(300),
    '/\u4840\u3f3f\u4577\u446c\u3b6a\u45e4\u4824': new Uint8Array(64),
  });

/** Base64 of these bytes, as the API takes files inline. */
export const b64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
