import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { doc, docx, exe, jpeg, pdf, plainZip, png, xls, xlsx } from '../../test/files.ts';
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

describe('resumeTypeOf', () => {
  it('recognises pdf, png, jpg, doc (OLE2) and docx by their bytes', async () => {
    assert.equal(await resumeTypeOf(pdf()), 'pdf');
    assert.equal(await resumeTypeOf(png()), 'png');
    assert.equal(await resumeTypeOf(jpeg()), 'jpg');
    assert.equal(await resumeTypeOf(doc()), 'doc');
    assert.equal(await resumeTypeOf(docx()), 'docx');
  });

  it('refuses a renamed executable, a zip, spreadsheets, other OLE2 files and plain text', async () => {
    assert.equal(await resumeTypeOf(exe()), undefined);
    assert.equal(await resumeTypeOf(Buffer.from('7f454c46020101000000000000000000', 'hex')), undefined);
    assert.equal(await resumeTypeOf(plainZip()), undefined);
    assert.equal(await resumeTypeOf(xlsx()), undefined);
    assert.equal(await resumeTypeOf(xls()), undefined);
    assert.equal(
      await resumeTypeOf(Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)])),
      undefined,
    );
    assert.equal(await resumeTypeOf(Buffer.from('just some text, named cv.pdf')), undefined);
  });
});

describe('startsLikeResume', () => {
  it('takes the first bytes of pdf, png, jpg, OLE2 and zip files, and nothing else', () => {
    for (const head of [pdf(), png(), jpeg(), doc(), docx(), plainZip()].map((file) => file.subarray(0, 8))) {
      assert.ok(startsLikeResume(head), head.toString('hex'));
    }
    for (const head of [
      exe().subarray(0, 8),
      Buffer.from('7f454c46', 'hex'),
      Buffer.from('just text'),
      Buffer.from('%PD'),
      Buffer.alloc(0),
    ]) {
      assert.equal(startsLikeResume(head), false, head.toString('hex'));
    }
  });
});
