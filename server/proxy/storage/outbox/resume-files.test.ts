// The outbox's resume files read back for delivery: the exact bytes, in
// chunks the base64 encoding takes as they are.
import assert from 'node:assert/strict';
import fs, { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { base64Chunks } from '../../../client/streamed-json.ts';
import { ResumeFiles } from './resume-files.ts';
import { UploadSpool } from '../../applications/upload-spool.ts';

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
    assert.deepEqual(
      sizes.slice(0, -1).filter((size) => size % 3 !== 0),
      [],
    );
    assert.ok(Buffer.concat(copies).equals(bytes));
  });

  it('streams a resume into the base64 of the whole, although it reads every chunk into the same buffer', async () => {
    const { files, reference, bytes } = await keptResume(300_002);
    const pieces: string[] = [];
    for await (const piece of base64Chunks(files.open(reference))) pieces.push(piece.toString('latin1'));
    assert.equal(pieces.join(''), bytes.toString('base64'));
  });
});

describe('ResumeFiles paths', () => {
  const files = new ResumeFiles(mkdtempSync(join(tmp, 'data-')));

  it('refuses a name that is not a plain reference, so nothing outside the folder is ever touched', async () => {
    writeFileSync(join(files.dir, '..', 'outbox.db'), 'the database');
    for (const name of ['../outbox.db', 'ok/../../outbox.db', '', 'a.pdf']) {
      assert.throws(() => files.remove(name), /not a reference/, name);
    }
    assert.ok(existsSync(join(files.dir, '..', 'outbox.db')));
    assert.throws(() => files.remove('x'.repeat(101)), /not a reference/);
  });

  it('names the refused reference in its error, cut to 100 characters', () => {
    assert.throws(() => files.remove('../etc/passwd'), { message: 'not a reference: ../etc/passwd' });
    assert.throws(
      () => files.remove(`/${'y'.repeat(300)}`),
      (error: Error) => error.message === `not a reference: /${'y'.repeat(99)}`,
    );
  });

  it('lists only the files named as references', () => {
    const dir = new ResumeFiles(mkdtempSync(join(tmp, 'data-')));
    dir.write('abc-123', Buffer.from('%PDF'));
    writeFileSync(join(dir.dir, 'notes.txt'), 'an operator note');
    assert.deepEqual(dir.references(), ['abc-123']);
  });

  it('says false for a resume that is not there, and fails when its folder cannot be read', async () => {
    const dataDir = mkdtempSync(join(tmp, 'data-'));
    const broken = new ResumeFiles(dataDir);
    assert.equal(await broken.has('missing'), false);
    rmSync(broken.dir, { recursive: true });
    writeFileSync(broken.dir, 'a file where the folder was');
    await assert.rejects(broken.has('missing'), { code: 'ENOTDIR' });
  });
});

describe('ResumeFiles durability', () => {
  /** How many descriptors were fsynced, those not closed since, and the file handles synced and closed. */
  const calls = { fsync: 0, handleSync: 0, handleClose: 0 };
  const unclosed = new Set<number>();
  const original = { fsyncSync: fs.fsyncSync, closeSync: fs.closeSync, open: fsp.open };
  const spyOnFs = (): void => {
    Object.assign(calls, { fsync: 0, handleSync: 0, handleClose: 0 });
    unclosed.clear();
    fs.fsyncSync = (fd) => {
      calls.fsync += 1;
      unclosed.add(fd);
      original.fsyncSync(fd);
    };
    fs.closeSync = (fd) => {
      unclosed.delete(fd);
      original.closeSync(fd);
    };
    fsp.open = async (...args: Parameters<typeof fsp.open>) => {
      const handle = await original.open(...args);
      const { sync, close } = { sync: handle.sync.bind(handle), close: handle.close.bind(handle) };
      handle.sync = () => {
        calls.handleSync += 1;
        return sync();
      };
      handle.close = () => {
        calls.handleClose += 1;
        return close();
      };
      return handle;
    };
    // The named imports of node:fs and node:fs/promises follow their module objects once synced.
    syncBuiltinESMExports();
  };
  afterEach(() => {
    Object.assign(fs, { fsyncSync: original.fsyncSync, closeSync: original.closeSync });
    fsp.open = original.open;
    syncBuiltinESMExports();
  });

  it('writes a resume readable by its owner only, fsynced, its descriptor closed', async () => {
    const files = new ResumeFiles(mkdtempSync(join(tmp, 'data-')));
    spyOnFs();
    files.write('r1', Buffer.from('%PDF-1.4'));
    assert.equal(calls.fsync, 1);
    assert.equal(unclosed.size, 0, 'the fsynced descriptor is closed');
    assert.equal(statSync(join(files.dir, 'r1')).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(files.dir, 'r1'), 'latin1'), '%PDF-1.4');
    files.syncFolder();
    assert.equal(calls.fsync, 2, 'the folder too');
    assert.equal(unclosed.size, 0);
  });

  it('keeps an upload by syncing its bytes and then the folder, closing each handle', async () => {
    const dataDir = mkdtempSync(join(tmp, 'data-'));
    const upload = new UploadSpool(dataDir).newPath();
    writeFileSync(upload, '%PDF-1.4');
    const files = new ResumeFiles(dataDir);
    spyOnFs();
    await files.keep('r1', upload);
    assert.deepEqual({ sync: calls.handleSync, close: calls.handleClose }, { sync: 2, close: 2 });
  });

  it('closes the file it reads, read to its end or left early', async () => {
    const { files, reference } = await keptResume(200_000);
    spyOnFs();
    for await (const chunk of files.open(reference)) assert.ok(chunk.length > 0);
    assert.equal(calls.handleClose, 1);
    for await (const chunk of files.open(reference)) {
      assert.ok(chunk.length > 0);
      break;
    }
    assert.equal(calls.handleClose, 2);
  });
});
