// Tiny files of each type, built in memory so tests need no binary fixtures.
import { crc32 } from 'node:zlib';
import CFB from 'cfb';

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
export const JPG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb', 'hex');
/** An OLE2 compound file with this stream in its root: WordDocument for a legacy Word .doc, Workbook for an .xls. */
function ole2(stream: string): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, `/${stream}`, Buffer.from('content'));
  // A copy: cfb's buffer carries helper properties of its own.
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}
export const DOC = ole2('WordDocument');
export const XLS = ole2('Workbook');
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);

/** A stored (uncompressed) zip with the given entries, enough for type detection. */
function zip(entries: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(parts);
}

const contentTypes = (main: string) =>
  `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/main.xml" ContentType="${main}"/></Types>`;

export const DOCX = zip({
  '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'),
  'word/document.xml': '<w:document/>',
});
export const XLSX = zip({
  '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'),
  'xl/workbook.xml': '<workbook/>',
});
