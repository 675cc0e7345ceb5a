// The SQLite store when the disk fills while an application is stored: a
// resume moved into resumes/ whose folder cannot then be synced (ENOSPC) is
// not left there without its row, and the key is not left stored.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ResumeFiles } from './resume-files.ts';
import { SqliteApplicationStore } from './sqlite-store.ts';
import { newApplication, storeEachTest, storedResume } from '../test-support.ts';

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
  let resumes: FillingResumes;
  const test = storeEachTest('jbc-full-', (dir) => {
    resumes = new FillingResumes(dir);
    return new SqliteApplicationStore({ dataDir: dir, owner: 'me', resumes });
  });

  it('when keeping the resume fails after its rename, removes the kept file, stores no row and leaves the key free; the same key stores once there is room', async () => {
    const application = (reference: string) => newApplication(reference, { resumeIn: test.dir });
    assert.deepEqual(await test.store.claimKey('k', 'f'), { kind: 'claimed' });

    await assert.rejects(test.store.enqueue(application('r1'), { deadLetterAfterMs: 60_000, key: 'k' }), {
      code: 'ENOSPC',
    });
    assert.deepEqual(readdirSync(resumes.dir), []);
    assert.equal(await test.store.get('r1'), undefined);
    await test.store.releaseKey('k');
    assert.deepEqual(await test.store.claimKey('k', 'f'), { kind: 'claimed' });

    resumes.full = false;
    await test.store.enqueue(application('r2'), { deadLetterAfterMs: 60_000, key: 'k' });
    assert.deepEqual(readdirSync(resumes.dir), ['r2']);
    assert.equal((await storedResume(test.store, 'r2'))?.toString(), '%PDF-1.4 resume');
  });
});
