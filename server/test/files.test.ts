// The test files are what they claim to be, checked with readers independent
// of the builders (zlib's CRC-32 and inflate, cfb's reader): every other test
// that feeds them to the product relies on it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, inflateRawSync, inflateSync } from 'node:zlib';
import CFB from 'cfb';
import { doc, docx, exe, jpeg, msi, pdf, plainZip, png, xls, xlsx, zip } from './files.ts';

/** The entries of a zip read through its central directory, each inflated when deflated and checked against its CRC. */
function unzip(bytes: Buffer): Record<string, string> {
  const end = bytes.length - 22;
  assert.equal(bytes.readUInt32LE(end), 0x06054b50, 'end of central directory');
  const entries: Record<string, string> = {};
  let at = bytes.readUInt32LE(end + 16);
  for (let i = 0; i < bytes.readUInt16LE(end + 10); i++) {
    assert.equal(bytes.readUInt32LE(at), 0x02014b50, 'central directory entry');
    const method = bytes.readUInt16LE(at + 10);
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const local = bytes.readUInt32LE(at + 42);
    assert.equal(bytes.readUInt32LE(local), 0x04034b50, `${name}: local header`);
    const start = local + 30 + bytes.readUInt16LE(local + 26);
    const data = bytes.subarray(start, start + bytes.readUInt32LE(at + 20));
    const plain = method === 8 ? inflateRawSync(data) : data;
    assert.equal(crc32(plain), bytes.readUInt32LE(at + 16), `${name}: CRC`);
    assert.equal(plain.length, bytes.readUInt32LE(at + 24), `${name}: size`);
    entries[name] = plain.toString('utf8');
    at += 46 + nameLength;
  }
  return entries;
}

describe('test files', () => {
  it('a PDF whose cross-reference table points at its objects, of exactly the size asked', () => {
    for (const bytes of [
      pdf(),
      pdf({ text: 'Figma (and) C:\\tools' }),
      pdf({ size: 600 }),
      pdf({ size: 601 }),
      pdf({ size: 1024 * 1024 + 1 }),
    ]) {
      const text = bytes.toString('latin1');
      assert.ok(text.startsWith('%PDF-1.4\n') && text.endsWith('%%EOF\n'));
      const xref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
      assert.equal(text.slice(xref, xref + 5), 'xref\n');
      const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
      assert.equal(offsets.length, 5);
      offsets.forEach((offset, i) =>
        assert.ok(text.startsWith(`${i + 1} 0 obj\n`, offset), `object ${i + 1} at ${offset}`),
      );
    }
    assert.match(pdf({ text: 'Python and SQL' }).toString('latin1'), /\(Python and SQL\) Tj/);
    for (const size of [600, 601, 602, 10_000, 1024 * 1024 + 1]) assert.equal(pdf({ size }).length, size);
    assert.throws(() => pdf({ size: 100 }), /at least \d+ for this text; got 100/);
    assert.throws(() => pdf({ text: 'Zoë' }), /printable ASCII/);
  });

  it('a 1×1 PNG: IHDR, IDAT whose pixels inflate, IEND, each chunk with its CRC', () => {
    const bytes = png();
    assert.deepEqual(bytes.subarray(0, 8), Buffer.from('89504e470d0a1a0a', 'hex'));
    const chunks: { type: string; data: Buffer }[] = [];
    for (let at = 8; at < bytes.length;) {
      const length = bytes.readUInt32BE(at);
      const type = bytes.toString('latin1', at + 4, at + 8);
      const data = bytes.subarray(at + 8, at + 8 + length);
      assert.equal(bytes.readUInt32BE(at + 8 + length), crc32(bytes.subarray(at + 4, at + 8 + length)), `${type}: CRC`);
      chunks.push({ type, data });
      at += 12 + length;
    }
    assert.deepEqual(
      chunks.map((c) => c.type),
      ['IHDR', 'IDAT', 'IEND'],
    );
    assert.deepEqual([chunks[0]!.data.readUInt32BE(0), chunks[0]!.data.readUInt32BE(4)], [1, 1]);
    assert.deepEqual(inflateSync(chunks[1]!.data), Buffer.from('00ffffffff', 'hex'));
  });

  it('a 1×1 JPEG: SOI, segments of consistent lengths up to the scan, a frame of 1×1, EOI', () => {
    const bytes = jpeg();
    assert.deepEqual(
      [bytes.subarray(0, 2), bytes.subarray(-2)],
      [Buffer.from('ffd8', 'hex'), Buffer.from('ffd9', 'hex')],
    );
    const markers: number[] = [];
    let at = 2;
    for (;;) {
      assert.equal(bytes[at], 0xff, `a marker at ${at}`);
      const marker = bytes[at + 1]!;
      markers.push(marker);
      if (marker === 0xc0) assert.deepEqual([bytes.readUInt16BE(at + 5), bytes.readUInt16BE(at + 7)], [1, 1]);
      at += 2 + bytes.readUInt16BE(at + 2);
      if (marker === 0xda) break;
    }
    assert.deepEqual(markers, [0xe0, 0xdb, 0xdb, 0xc0, 0xc4, 0xc4, 0xc4, 0xc4, 0xda]);
  });

  it('an executable whose MZ header points to its PE signature', () => {
    const bytes = exe();
    assert.equal(bytes.toString('latin1', 0, 2), 'MZ');
    assert.equal(bytes.toString('latin1', bytes.readUInt32LE(0x3c), bytes.readUInt32LE(0x3c) + 4), 'PE\u0000\u0000');
  });

  it('zips, stored or deflated, whose central directory, CRCs and sizes hold: a .docx, an .xlsx, a plain zip', () => {
    for (const deflate of [false, true]) {
      const word = unzip(docx('Ada Lovelace', { deflate }));
      assert.match(
        word['[Content_Types].xml']!,
        /PartName="\/word\/document.xml" ContentType="application\/vnd.openxmlformats-officedocument.wordprocessingml.document.main\+xml"/,
      );
      assert.match(word['word/document.xml']!, /<w:t>Ada Lovelace<\/w:t>/);
      assert.ok('_rels/.rels' in word);
      assert.match(unzip(xlsx({ deflate }))['[Content_Types].xml']!, /spreadsheetml.sheet.main\+xml/);
      assert.deepEqual(unzip(zip({ 'a.txt': 'hello', 'b/c.xml': '<c/>' }, { deflate })), {
        'a.txt': 'hello',
        'b/c.xml': '<c/>',
      });
    }
    assert.deepEqual(Object.keys(unzip(plainZip())), ['notes.txt']);
  });

  it('OLE2 files: a .doc with a WordDocument stream in its root, an .xls and an .msi without one', () => {
    const rootStreams = (bytes: Buffer) =>
      CFB.read(bytes, { type: 'buffer' })
        .FullPaths.filter((path) => /^Root Entry\/[^/]+$/.test(path))
        .map((path) => path.slice('Root Entry/'.length));
    const word = CFB.read(doc('Accounting'), { type: 'buffer' });
    assert.equal(Buffer.from(CFB.find(word, 'WordDocument')!.content as Uint8Array).toString('latin1'), 'Accounting');
    assert.ok(rootStreams(doc()).includes('WordDocument'));
    assert.ok(rootStreams(xls()).includes('Workbook'));
    for (const other of [xls(), msi()]) assert.ok(!rootStreams(other).includes('WordDocument'));
  });
});
