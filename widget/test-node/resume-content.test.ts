// What the widget reads of a resume's first bytes before sending it, against
// real files of each type the proxy takes: never one of them is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extensionOf, notResumeContent } from '../src/apply/resume-content.ts';
import { RESUME_SIGNATURES } from '../../server/contract/resume-signatures.ts';
import { RESUME_TYPES } from '../../server/contract/values.ts';
import * as files from '../../server/test/files.ts';

describe("the resume's first bytes, read by the widget", () => {
  it('knows the leading bytes of each type the proxy takes: pdf, jpg, png, doc, docx', () => {
    const real = [files.pdf(), files.jpeg(), files.png(), files.ole2({ '/WordDocument': 'CV' }), files.docx()];
    const signatures = RESUME_TYPES.map((type) => RESUME_SIGNATURES[type]);
    assert.deepEqual(
      signatures,
      real.map((file, i) => new Uint8Array(file.subarray(0, signatures[i]!.length))),
    );
  });

  it('lets through any file that starts as a resume, or an empty one', async () => {
    for (const file of [files.pdf(), files.png(), files.jpeg(), files.docx(), files.xls(), new Uint8Array()])
      assert.equal(await notResumeContent(new Blob([file])), undefined);
  });

  it('names plain text txt, and other bytes of no resume type an unknown type', async () => {
    assert.equal(await notResumeContent(new Blob(['Ada Lovelace\r\n\tAnalyste née en 1815\f'])), 'txt');
    assert.equal(await notResumeContent(new Blob([files.exe()])), '');
    assert.equal(await notResumeContent(new Blob([Uint8Array.of(0x63, 0xe9, 0x20)])), '', 'not UTF-8');
    for (const control of [0x00, 0x08, 0x0b, 0x0e, 0x1f, 0x7f])
      assert.equal(await notResumeContent(new Blob([`text${String.fromCharCode(control)}`])), '', `${control}`);
    // Only the first 512 bytes are read: a character cut at their end is no fault.
    assert.equal(await notResumeContent(new Blob(['a'.repeat(511), 'é', '\0'])), 'txt');
  });

  it("writes a file's extension as the candidate sees it", () => {
    assert.deepEqual(['cv.pdf', 'CV.Final.docx', 'photo.jpeg', 'cv', 'cv.', 'archive.tar.gz'].map(extensionOf), [
      'PDF',
      'DOCX',
      'JPEG',
      '',
      '',
      'GZ',
    ]);
  });
});
