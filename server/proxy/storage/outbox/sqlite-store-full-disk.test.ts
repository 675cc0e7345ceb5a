// The SQLite store when the disk fills while an application is stored: a
// resume moved into resumes/ whose folder cannot then be synced (ENOSPC) is
// not left there without its row, and the key is not left stored.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ResumeFiles } from './resume-files.ts';
import { SqliteApplicationStore } from './sqlite-store.ts';
import { newApplication, storedResume } from '../test-support.ts';

/** Resumes on a disk that fills once a file is renamed in: the folder's fsync fails, as it can with ENOSPC. */
class FillingResumes extends ResumeFiles {
  full = true;

  override async keep(reference: string, uploadPath: string): Promise<void> {
    await super.keep(reference, uploadPath);
    if (this.full)
      throw Object.assign(new Error(`ENOSPC: no space left on device, fsync '${this.dir}'`), {
        code: 'ENOSPC',
        syscall: 'fsync',
      });
  }
}

describe('SQLite application store on a full disk', () => {
  let dir: string;
  let resumes: FillingResumes;
  let outbox: SqliteApplicationStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-full-'));
    resumes = new FillingResumes(dir);
    outbox = new SqliteApplicationStore({ dataDir: dir, owner: 'me', resumes });
  });
  afterEach(async () => {
    await outbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when keeping the resume fails after its rename, removes the kept file, stores no row and leaves the key free; the same key stores once there is room', async () => {
    const application = (reference: string) => newApplication(reference, { resumeIn: dir });
    assert.deepEqual(await outbox.claimKey('k', 'f'), { kind: 'claimed' });

    await assert.rejects(outbox.enqueue(application('r1'), { deadLetterAfterMs: 60_000, key: 'k' }), {
      code: 'ENOSPC',
    });
    assert.deepEqual(readdirSync(resumes.dir), []);
    assert.equal(await outbox.get('r1'), undefined);
    await outbox.releaseKey('k');
    assert.deepEqual(await outbox.claimKey('k', 'f'), { kind: 'claimed' });

    resumes.full = false;
    await outbox.enqueue(application('r2'), { deadLetterAfterMs: 60_000, key: 'k' });
    assert.deepEqual(readdirSync(resumes.dir), ['r2']);
    assert.equal((await storedResume(outbox, 'r2'))?.toString(), '%PDF-1.4 resume');
  });
});
