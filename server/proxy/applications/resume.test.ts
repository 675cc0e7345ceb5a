import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { after, describe, it } from 'node:test';
import CFB from 'cfb';
import { resumeTypeOf as resumeTypeOfFile, startsLikeResume } from './resume.ts';

const dir = mkdtempSync(join(tmpdir(), 'resume-type-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** The type of these bytes read as the proxy reads a resume: from its upload file. */
async function resumeTypeOf(bytes: Buffer): Promise<string | undefined> {
  const path = join(dir, `f${++files}`);
  writeFileSync(path, bytes);
  const type = await resumeTypeOfFile(path);
  // Whatever the whole file is taken for, its first bytes passed the check made as it arrived.
  if (type !== undefined) assert.ok(startsLikeResume(bytes.subarray(0, 8)), `${type} starts like a resume`);
  return type;
}

/** A zip of stored (uncompressed) entries: enough for a .docx signature. */
export function zipOf(entries: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.from(content);
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

/** An OLE2 compound file with one stream in its root: WordDocument in a .doc, Workbook in an .xls. */
function ole2(stream: string): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, `/${stream}`, Buffer.from('content'));
  // A copy: cfb's buffer carries helper properties of its own.
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

const CONTENT_TYPES = (kind: string) =>
  `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/main.xml" ContentType="application/vnd.openxmlformats-officedocument.${kind}.main+xml"/></Types>`;

describe('resumeTypeOf', () => {
  it('recognises pdf, png, jpg, doc (OLE2) and docx by their bytes', async () => {
    assert.equal(await resumeTypeOf(Buffer.from('%PDF-1.7\n%%EOF')), 'pdf');
    assert.equal(await resumeTypeOf(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex')), 'png');
    assert.equal(await resumeTypeOf(Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64)])), 'jpg');
    assert.equal(await resumeTypeOf(ole2('WordDocument')), 'doc');
    const docx = zipOf({ '[Content_Types].xml': CONTENT_TYPES('wordprocessingml.document'), 'word/document.xml': '<w:document/>' });
    assert.equal(await resumeTypeOf(docx), 'docx');
  });

  it('refuses a renamed executable, a zip, spreadsheets, other OLE2 files and plain text', async () => {
    assert.equal(await resumeTypeOf(Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\u0000\u0000'), Buffer.alloc(200)])), undefined);
    assert.equal(await resumeTypeOf(Buffer.from('7f454c46020101000000000000000000', 'hex')), undefined);
    assert.equal(await resumeTypeOf(zipOf({ 'a.txt': 'hello' })), undefined);
    assert.equal(await resumeTypeOf(zipOf({ '[Content_Types].xml': CONTENT_TYPES('spreadsheetml.sheet'), 'xl/workbook.xml': '<workbook/>' })), undefined);
    assert.equal(await resumeTypeOf(ole2('Workbook')), undefined);
    assert.equal(await resumeTypeOf(Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)])), undefined);
    assert.equal(await resumeTypeOf(Buffer.from('just some text, named cv.pdf')), undefined);
  });
});

describe('startsLikeResume', () => {
  it('takes the first bytes of pdf, png, jpg, OLE2 and zip files, and nothing else', () => {
    for (const head of ['%PDF-1.7', '89504e470d0a1a0a', 'ffd8ffe0', 'd0cf11e0a1b11ae1', '504b0304']) {
      assert.ok(startsLikeResume(head.startsWith('%') ? Buffer.from(head) : Buffer.from(head, 'hex')), head);
    }
    for (const head of [Buffer.from('MZ\u0090\u0000'), Buffer.from('7f454c46', 'hex'), Buffer.from('just text'), Buffer.from('%PD'), Buffer.alloc(0)]) {
      assert.equal(startsLikeResume(head), false, head.toString('hex'));
    }
  });
});
