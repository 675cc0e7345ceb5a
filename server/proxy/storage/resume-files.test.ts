// The outbox's resume files read back for delivery: the exact bytes, in
// chunks the base64 encoding takes as they are.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { base64Chunks } from '../../client/streamed-json.ts';
import { ResumeFiles } from './resume-files.ts';
import { UploadSpool } from '../applications/upload-spool.ts';

const tmp = mkdtempSync(join(tmpdir(), 'resume-files-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A kept resume of `size` bytes (not a multiple of the read size), as the outbox keeps one. */
async function keptResume(size: number): Promise<{ files: ResumeFiles; reference: string; bytes: Buffer }> {
  const dataDir = mkdtempSync(join(tmp, 'data-'));
  const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919) % 251));
  const upload = new UploadSpool(dataDir).newPath();
  writeFileSync(upload, bytes);
  const files = new ResumeFiles(dataDir);
  const reference = crypto.randomUUID();
  await files.keep(reference, upload);
  return { files, reference, bytes };
}

describe('ResumeFiles.open', () => {
  it('gives back the bytes kept, in chunks of a multiple of 3 bytes but the last, so each is base64-encoded on its own', async () => {
    const { files, reference, bytes } = await keptResume(1_000_001);
    const copies: Buffer[] = [];
    const sizes: number[] = [];
    for await (const chunk of files.open(reference)) {
      sizes.push(chunk.length);
      copies.push(Buffer.from(chunk));
    }
    assert.ok(sizes.length > 2, `read in several chunks (${sizes.length})`);
    assert.deepEqual(sizes.slice(0, -1).filter((size) => size % 3 !== 0), []);
    assert.ok(Buffer.concat(copies).equals(bytes));
  });

  it('streams a resume into the base64 of the whole, although it reads every chunk into the same buffer', async () => {
    const { files, reference, bytes } = await keptResume(300_002);
    const pieces: string[] = [];
    for await (const piece of base64Chunks(files.open(reference))) pieces.push(piece.toString('latin1'));
    assert.equal(pieces.join(''), bytes.toString('base64'));
  });
});
