import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sniffFileType, sniffFileTypeOfFile } from './file-type.ts';
import { bufferSource, ole2RootStreams } from './ole2.ts';
import {
  contentTypes as contentTypesOf,
  docx as docxFile,
  jpeg,
  msi,
  ole2,
  pdf,
  plainZip,
  png,
  xls,
  xlsx as xlsxFile,
  zip as zipFile,
} from '../test/files.ts';

/** Deflated entries, as Office writes them. */
const zip = (entries: Record<string, string>) => zipFile(entries, { deflate: true });

const SIGNATURES = [
  Buffer.from('%PDF-1.7\n'),
  Buffer.from('89504e470d0a1a0a', 'hex'),
  Buffer.from('ffd8ffe0', 'hex'),
  Buffer.from('504b0304140006000800', 'hex'), // zip, the container of docx and xlsx
  Buffer.from('d0cf11e0a1b11ae1', 'hex'),
];

const contentTypes = (main: string) => contentTypesOf('/main.xml', `application/vnd.${main}.main+xml`);
/** Deflated, as Office writes them. */
const docx = () => docxFile(undefined, { deflate: true });
const xlsx = () => xlsxFile({ deflate: true });

const DOC = ole2({
  '/WordDocument': 'Curriculum vitae',
  '/1Table': Buffer.alloc(6000),
  '/\u0005SummaryInformation': Buffer.alloc(200),
});

describe('sniffFileType', () => {
  it('reads a .doc as an OLE2 file whose root holds a WordDocument stream', async () => {
    assert.deepEqual(await sniffFileType(DOC), { type: 'doc', detected: 'doc' });
    // Many entries: the directory spans several sectors, chained through the FAT.
    const streams = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`/Stream${i}`, Buffer.alloc(i * 100)]));
    assert.deepEqual(await sniffFileType(ole2({ ...streams, '/WordDocument': 'CV' })), {
      type: 'doc',
      detected: 'doc',
    });
  });

  it('refuses other OLE2 files as .doc: a workbook, an installer, a mail, a bare header', async () => {
    assert.deepEqual(await sniffFileType(xls()), { type: undefined, detected: 'xls' });
    assert.deepEqual(await sniffFileType(ole2({ '/Book': 'BIFF5' })), { type: undefined, detected: 'xls' });
    // An .msi: encoded table names and summary information.
    assert.deepEqual(await sniffFileType(msi()), { type: undefined, detected: 'cfb' });
    // An Outlook .msg with a Word document attached: the WordDocument stream is not in the root.
    const msg = ole2({
      '/__properties_version1.0': Buffer.alloc(64),
      '/__substg1.0_0037001F': 'Application',
      '/__attach_version1.0_#00000000/__substg1.0_3701000D/WordDocument': 'attached',
    });
    assert.deepEqual(await sniffFileType(msg), { type: undefined, detected: 'cfb' });
    // A workbook with an embedded Word object, and a storage (not a stream) named WordDocument.
    assert.equal(
      (await sniffFileType(ole2({ '/Workbook': 'BIFF8', '/MBD0001/WordDocument': 'embedded' }))).type,
      undefined,
    );
    assert.equal((await sniffFileType(ole2({ '/WordDocument/Inner': 'x' }))).type, undefined);
    // Only the signature, as any OLE2 file starts.
    assert.deepEqual(await sniffFileType(Buffer.concat([SIGNATURES[4]!, Buffer.alloc(504)])), {
      type: undefined,
      detected: 'cfb',
    });
  });

  it('reads a .docx as a zip whose [Content_Types].xml declares a Word main document', async () => {
    assert.deepEqual(await sniffFileType(docx()), { type: 'docx', detected: 'docx' });
    assert.deepEqual(await sniffFileType(xlsx()), { type: 'xlsx', detected: 'xlsx' });
  });

  it('refuses other zips as .docx: a plain zip, Word parts without their declaration, a macro-enabled document', async () => {
    assert.equal((await sniffFileType(plainZip())).type, undefined);
    assert.equal((await sniffFileType(zip({ 'cv.docx.exe': 'MZ' }))).type, undefined);
    assert.equal((await sniffFileType(zip({ 'word/document.xml': '<w:document/>' }))).type, undefined);
    assert.equal(
      (await sniffFileType(zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' }))).type,
      undefined,
    );
    const docm = zip({
      '[Content_Types].xml': contentTypes('ms-word.document.macroEnabled'),
      'word/document.xml': '<w:document/>',
    });
    assert.equal((await sniffFileType(docm)).type, undefined);
  });

  it('names what it recognised even when it is no API type, so messages can say what the file is', async () => {
    const elf = Buffer.concat([Buffer.from('7f454c46020101', 'hex'), Buffer.alloc(64)]);
    assert.deepEqual(await sniffFileType(elf), { type: undefined, detected: 'elf' });
    assert.deepEqual(await sniffFileType(Buffer.from('plain text named cv.pdf')), {
      type: undefined,
      detected: 'txt',
    });
    assert.deepEqual(await sniffFileType(Buffer.from('a7f3c2e1b4', 'hex')), { type: undefined, detected: undefined });
  });

  it('names plain text txt: UTF-8 with tabs and line breaks, even cut mid-character; not with other control characters', async () => {
    const letter = Buffer.from('Madame, Monsieur,\r\n\tJe suis très motivée.\f\n');
    assert.equal((await sniffFileType(letter)).detected, 'txt');
    // Cut inside "é" at the end of the sample read.
    const cut = Buffer.concat([Buffer.alloc(4099, 'a'), Buffer.from('é')]);
    assert.equal((await sniffFileType(cut)).detected, 'txt');
    // Past the sample, anything goes: only the start is read.
    assert.equal((await sniffFileType(Buffer.concat([Buffer.alloc(4100, 'a'), Buffer.of(0)]))).detected, 'txt');
    for (const control of [0x00, 0x08, 0x0b, 0x0e, 0x1f, 0x7f])
      assert.equal((await sniffFileType(Buffer.from(`text${String.fromCharCode(control)}`))).detected, undefined);
    assert.equal((await sniffFileType(Buffer.from('caf\xe9 au lait', 'latin1'))).detected, undefined, 'not UTF-8');
    assert.equal((await sniffFileType(Buffer.alloc(0))).detected, undefined);
  });

  it('never throws on damaged files that start with a real signature: they are of no known type or of that type', async () => {
    // The types each signature may be read as (a zip is the container of docx and xlsx).
    const typesOf = new Map<Buffer, string[]>([
      [SIGNATURES[0]!, ['pdf']],
      [SIGNATURES[1]!, ['png']],
      [SIGNATURES[2]!, ['jpg']],
      [SIGNATURES[3]!, ['docx', 'xlsx']],
      [SIGNATURES[4]!, ['doc']],
    ]);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SIGNATURES), fc.uint8Array({ maxLength: 400 }), async (signature, rest) => {
        const { type } = await sniffFileType(Buffer.concat([signature, rest]));
        assert.ok(
          type === undefined || typesOf.get(signature)!.includes(type),
          `${signature.subarray(0, 4).toString('hex')}… read as ${type}`,
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('sniffFileTypeOfFile', () => {
  it('reads a file on disk to the same type as its bytes: doc, docx, xlsx, pdf, png, jpg, an xls, a plain zip, text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sniff-'));
    try {
      const files = {
        doc: DOC,
        // A .doc whose WordDocument stream is large: its directory sits far into the file.
        bigDoc: ole2({ '/1Table': Buffer.alloc(3 * 1024 * 1024, 1), '/WordDocument': 'CV' }),
        docx: docx(),
        xlsx: xlsx(),
        xls: xls(),
        plainZip: plainZip(),
        pdf: pdf(),
        png: png(),
        jpg: jpeg(),
        text: Buffer.from('plain text named cv.pdf'),
        ole2Header: Buffer.concat([SIGNATURES[4]!, Buffer.alloc(504)]),
      };
      const expected = {
        doc: 'doc',
        bigDoc: 'doc',
        docx: 'docx',
        xlsx: 'xlsx',
        xls: undefined,
        plainZip: undefined,
        pdf: 'pdf',
        png: 'png',
        jpg: 'jpg',
        text: undefined,
        ole2Header: undefined,
      };
      for (const [name, bytes] of Object.entries(files)) {
        const path = join(dir, name);
        writeFileSync(path, bytes);
        const fromFile = await sniffFileTypeOfFile(path);
        assert.deepEqual(fromFile, await sniffFileType(bytes), name);
        assert.equal(fromFile.type, expected[name as keyof typeof expected], name);
      }
      assert.equal((await sniffFileTypeOfFile(join(dir, 'text'))).detected, 'txt');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ole2RootStreams', () => {
  it('survives damaged OLE2 files: any bytes of a real one changed, never a throw', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(DOC.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        (changes) => {
          const damaged = Buffer.from(DOC);
          for (const [at, byte] of changes) damaged[at] = byte;
          ole2RootStreams(damaged);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('costs little on hostile files: looping chains and trees, a huge file', () => {
    // The directory's FAT entry made to point at itself: an endless chain.
    const looping = Buffer.from(DOC);
    const sectorSize = 512;
    const firstFat = looping.readUInt32LE(76);
    const directory = looping.readUInt32LE(48);
    looping.writeUInt32LE(directory, (firstFat + 1) * sectorSize + 4 * directory);
    // Every entry's left sibling made to be the root's child: a looping tree.
    const tree = Buffer.from(DOC);
    const top = tree.readUInt32LE((directory + 1) * sectorSize + 76);
    for (let id = 1; id < 4; id++) tree.writeUInt32LE(top, (directory + 1) * sectorSize + id * 128 + 68);
    // 10 MiB of zeros behind a real header: a directory chain looping on sector 0.
    const huge = Buffer.alloc(10 * 1024 * 1024, 0);
    DOC.copy(huge, 0, 0, 512);
    huge.writeUInt32LE(0, 48);
    // Counted, not timed: the reads each file costs, through a source that counts them.
    const costs = [looping, tree, huge].map((bytes) => {
      const source = bufferSource(bytes);
      const cost = { reads: 0, bytes: 0 };
      ole2RootStreams({
        size: source.size,
        read(offset, length) {
          cost.reads++;
          cost.bytes += length;
          return source.read(offset, length);
        },
      });
      return cost;
    });
    // A bounded reader: a few hundred small reads whatever the size (the 10 MiB file costs what the looping chain does).
    for (const [i, cost] of costs.entries())
      assert.ok(cost.reads <= 300 && cost.bytes <= 100 * 1024, `file ${i}: ${JSON.stringify(cost)}`);
  });
});
