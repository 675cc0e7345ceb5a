// File helpers: the type comes from the bytes, never from a name.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { UnsupportedFileError, fileFromBlob, fileFromBuffer, fileFromPath } from '../index.ts';
import { doc, docx, exe, jpeg, pdf, png, xls, xlsx } from '../../test/files.ts';

describe('file helpers', () => {
  for (const [type, bytes] of [
    ['pdf', pdf()],
    ['png', png()],
    ['jpg', jpeg()],
    ['docx', docx()],
    ['doc', doc()],
  ] as const) {
    it(`reads a ${type} resume from its bytes and encodes it as base64`, async () => {
      const file = await fileFromBuffer(bytes);
      assert.equal(file.mime_type, type);
      assert.deepEqual(Buffer.from(file.base64, 'base64'), bytes);
    });
  }

  it('when the bytes are an executable, refuses them and says what they look like', async () => {
    await assert.rejects(fileFromBuffer(exe()), (error: unknown) => {
      assert.ok(error instanceof UnsupportedFileError);
      assert.equal(error.detected, 'exe');
      assert.match(error.message, /must be one of: pdf, jpg, png, doc, docx/);
      return true;
    });
  });

  it('when the file is empty, refuses it', async () => {
    await assert.rejects(fileFromBuffer(new Uint8Array()), UnsupportedFileError);
  });

  it('takes xlsx as a comment attachment but not as a resume', async () => {
    assert.equal((await fileFromBuffer(xlsx(), { kind: 'attachment' })).mime_type, 'xlsx');
    await assert.rejects(fileFromBuffer(xlsx()), UnsupportedFileError);
  });

  it('refuses a legacy .xls, an OLE2 file like a .doc but without its WordDocument stream, and says so', async () => {
    await assert.rejects(
      fileFromBuffer(xls(), { kind: 'attachment' }),
      (error: unknown) => error instanceof UnsupportedFileError && error.detected === 'xls',
    );
  });

  it('reads a Blob whatever type it claims', async () => {
    const file = await fileFromBlob(new Blob([png()], { type: 'application/pdf' }));
    assert.equal(file.mime_type, 'png');
  });

  it('reads a file on disk whatever its name says', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'client-files-'));
    try {
      const path = join(dir, 'resume.png');
      await writeFile(path, pdf());
      assert.equal((await fileFromPath(path)).mime_type, 'pdf');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
