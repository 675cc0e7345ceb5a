// Rule (API rules: Files): a file's type is what its
// bytes are, never its name or its declared mime_type. One reader for the
// client, the sandbox and the proxy.
import { fileTypeFromBuffer } from 'file-type';
import { isOle2, ole2RootStreams } from './ole2.ts';
import { ATTACHMENT_TYPES } from './values.ts';
import type { AttachmentType } from './values.ts';

export interface SniffedFileType {
  /** The API's short type name (pdf, jpg, png, doc, docx, xlsx), or undefined when the bytes are none of them. */
  type: AttachmentType | undefined;
  /** What the bytes were recognised as (an extension), for messages; undefined when unrecognised. */
  detected: string | undefined;
}

export async function sniffFileType(bytes: Uint8Array): Promise<SniffedFileType> {
  // file-type names every OLE2 compound file "cfb": a .doc, but also an .xls, an
  // .msi or an Outlook .msg. A Word 97-2003 document is the one whose root
  // holds a WordDocument stream.
  if (isOle2(bytes)) {
    const streams = ole2RootStreams(bytes);
    if (streams?.has('WordDocument')) return { type: 'doc', detected: 'doc' };
    if (streams?.has('Workbook') || streams?.has('Book')) return { type: undefined, detected: 'xls' };
    return { type: undefined, detected: 'cfb' };
  }
  // For zips, file-type 22 reads the main part declared in [Content_Types].xml:
  // docx for a Word document, xlsx for a workbook, docm, pptx... or plain zip.
  // A damaged file (a truncated zip, say) can make the parser throw: it is then of no known type.
  const found = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const detected = found?.ext;
  const type = (ATTACHMENT_TYPES as readonly string[]).includes(detected ?? '') ? (detected as AttachmentType) : undefined;
  return { type, detected };
}
