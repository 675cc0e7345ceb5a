// The files of the tests that need nothing of Node: plain Uint8Array, no
// Buffer, no node: modules, so the widget's browser tests build the same
// bytes as the Node tests. Node tests use server/test/files.ts, which adds the
// OLE2 files (written by cfb, a CommonJS package a browser page cannot load)
// and deflated zips, and hands out Buffers.

const ascii = new TextEncoder();

/** The text of a resume when a test names none. */
export const RESUME_TEXT = 'Curriculum vitae';

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function hex(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(text.match(/../g) ?? [], (byte) => parseInt(byte, 16));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 as zip and PNG compute it. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The header and objects of a one-page PDF showing `text` (printable ASCII, so one byte per character). */
function pdfParts(text: string): { head: string; objects: string[] } {
  if (!/^[\x20-\x7e]*$/.test(text))
    throw new Error(`pdf: the text must be printable ASCII (one byte per character), got ${JSON.stringify(text)}`);
  const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET`;
  return {
    head: '%PDF-1.4\n',
    objects: [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ],
  };
}

function pdfText(head: string, objects: string[], padding: string): string {
  let body = head + padding;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return body;
}

/**
 * A valid one-page PDF (catalog, page, font, a content stream showing `text`,
 * a cross-reference table whose offsets are right). With `size`, exactly that
 * many bytes: the padding is a comment after the header, so readers skip it.
 */
export function pdf(options: { text?: string; size?: number } = {}): Uint8Array<ArrayBuffer> {
  const { head, objects } = pdfParts(options.text ?? RESUME_TEXT);
  if (options.size === undefined) return ascii.encode(pdfText(head, objects, ''));
  // startxref names the table's offset, which grows with the padding and may gain a digit: try the paddings that could fit.
  const smallest = pdfText(head, objects, '').length;
  if (!Number.isInteger(options.size) || options.size < smallest) {
    throw new Error(
      `pdf: size must be a whole number of bytes, at least ${smallest} for this text; got ${options.size}`,
    );
  }
  for (let missing = options.size - smallest; missing >= 0; missing--) {
    const padding = missing === 0 ? '' : missing === 1 ? '\n' : `%${'A'.repeat(missing - 2)}\n`;
    const body = pdfText(head, objects, padding);
    if (body.length === options.size) return ascii.encode(body);
  }
  throw new Error(`pdf: no padding gives exactly ${options.size} bytes`);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const typeAndData = concat([ascii.encode(type), data]);
  const frame = new DataView(new ArrayBuffer(8));
  frame.setUint32(0, data.length);
  frame.setUint32(4, crc32(typeAndData));
  return concat([new Uint8Array(frame.buffer, 0, 4), typeAndData, new Uint8Array(frame.buffer, 4, 4)]);
}

/** A 1×1 opaque white PNG: signature, IHDR, IDAT, IEND, each chunk with its CRC. */
export function png(): Uint8Array<ArrayBuffer> {
  const header = new DataView(new ArrayBuffer(13));
  header.setUint32(0, 1); // width
  header.setUint32(4, 1); // height
  header.setUint8(8, 8); // bit depth
  header.setUint8(9, 6); // RGBA
  return concat([
    hex('89504e470d0a1a0a'),
    pngChunk('IHDR', new Uint8Array(header.buffer)),
    // zlib: one stored block holding the scanline (filter 0, then ff ff ff ff), and its Adler-32.
    pngChunk('IDAT', hex('7801010500faff00ffffffff09fb03fd')),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** A 1×1 baseline JFIF JPEG as Chromium's encoder writes it (its ICC profile left out), which browsers decode. */
export function jpeg(): Uint8Array<ArrayBuffer> {
  return hex(
    'ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123251d283a333d3c3933383740485c4e40445745373850' +
      '6d51575f626768673e4d71797064785c656763ffdb0043011112121815182f1a1a2f634238426363636363636363636363636363636363636363636363636363636363636363' +
      '636363636363636363636363636363636363ffc00011080001000103012200021101031101ffc4001500010100000000000000000000000000000007ffc40014100100000000' +
      '000000000000000000000000ffc40014010100000000000000000000000000000000ffc40014110100000000000000000000000000000000ffda000c03010002110311003f00' +
      'a0000fffd9',
  );
}

/** A Windows executable's start: the MZ header pointing (at 0x3c) to a PE signature, then an empty COFF header. */
export function exe(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(0x40 + 4 + 20 + 200);
  bytes.set(ascii.encode('MZ'), 0);
  new DataView(bytes.buffer).setUint32(0x3c, 0x40, true);
  bytes.set(ascii.encode('PE\u0000\u0000'), 0x40);
  return bytes;
}

export type Entries = Record<string, string | Uint8Array>;

interface ZipEntryFields {
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  nameLength: number;
}

/**
 * The run of fields a local header (from byte 4) and a central directory
 * entry (from byte 6) share, in the same order: version needed (2.0), flags
 * (none), method, time and date (zero), CRC-32, both sizes, the name's length.
 */
function setEntryFields(header: DataView, at: number, entry: ZipEntryFields): void {
  header.setUint16(at, 20, true);
  header.setUint16(at + 4, entry.method, true);
  header.setUint32(at + 10, entry.crc, true);
  header.setUint32(at + 14, entry.compressedSize, true);
  header.setUint32(at + 18, entry.size, true);
  header.setUint16(at + 22, entry.nameLength, true);
}

/**
 * A zip with its central directory. Entries are stored as they are, or,
 * given `deflate` (raw DEFLATE, as Node's zlib gives it), compressed as
 * Office writes them.
 */
export function zip(
  entries: Entries,
  options: { deflate?: (plain: Uint8Array) => Uint8Array } = {},
): Uint8Array<ArrayBuffer> {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  const method = options.deflate === undefined ? 0 : 8;
  for (const [name, content] of Object.entries(entries)) {
    const plain = typeof content === 'string' ? ascii.encode(content) : content;
    const data = options.deflate === undefined ? plain : options.deflate(plain);
    const nameBytes = ascii.encode(name);
    const crc = crc32(plain);
    const entry = { method, crc, compressedSize: data.length, size: plain.length, nameLength: nameBytes.length };
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    setEntryFields(local, 4, entry);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true); // version made by
    setEntryFields(central, 6, entry);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), nameBytes, data);
    centrals.push(new Uint8Array(central.buffer), nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const count = Object.keys(entries).length;
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, count, true);
  end.setUint16(10, count, true);
  end.setUint32(
    12,
    centrals.reduce((n, b) => n + b.length, 0),
    true,
  );
  end.setUint32(16, offset, true);
  return concat([...locals, ...centrals, new Uint8Array(end.buffer)]);
}

/** [Content_Types].xml giving the main part (e.g. '/word/document.xml') its content type. */
export function contentTypes(partName: string, type: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    `<Override PartName="${partName}" ContentType="${type}"/></Types>`
  );
}

const OFFICE = 'application/vnd.openxmlformats-officedocument';

const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/** The entries of a Word .docx whose one paragraph is `text`: content types, package relationships, the document. */
export function docxEntries(text = RESUME_TEXT): Entries {
  return {
    '[Content_Types].xml': contentTypes('/word/document.xml', `${OFFICE}.wordprocessingml.document.main+xml`),
    '_rels/.rels': RELS,
    'word/document.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      `<w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
  };
}

/** The entries of an Excel .xlsx: a zip as Office writes it, but not a resume. */
export function xlsxEntries(): Entries {
  return {
    '[Content_Types].xml': contentTypes('/xl/workbook.xml', `${OFFICE}.spreadsheetml.sheet.main+xml`),
    'xl/workbook.xml':
      '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
  };
}

/** A Word .docx (stored entries) whose one paragraph is `text`. */
export function docx(text?: string): Uint8Array<ArrayBuffer> {
  return zip(docxEntries(text));
}

/** An Excel .xlsx (stored entries). */
export function xlsx(): Uint8Array<ArrayBuffer> {
  return zip(xlsxEntries());
}

/** A zip that is no Office file: one text entry. */
export function plainZip(): Uint8Array<ArrayBuffer> {
  return zip({ 'notes.txt': 'Just a zip, not a document.' });
}
