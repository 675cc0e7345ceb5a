// The free space the disk floor is held against: the blocks an unprivileged
// process may write, read from a real folder's disk, root's reserve left out.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freeSpaceOf, writableBytes } from './disk-floor.ts';

/** What other processes may write or delete on a shared disk between two readings. */
const DRIFT = 256 * 1024 * 1024;

describe('the disk floor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jbc-disk-floor-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("counts the available blocks of a disk, not its free ones: the blocks kept for root are not the proxy's to fill", () => {
    const stats = {
      type: 0xef53,
      bsize: 4096,
      frsize: 4096,
      blocks: 1_000,
      bfree: 300,
      bavail: 250,
      files: 100,
      ffree: 50,
    };
    assert.equal(writableBytes(stats), 250 * 4096);
  });

  it('reads the disk holding a real folder as statfs gives its available blocks', async () => {
    const read = await freeSpaceOf(dir);
    const stats = await statfs(dir);
    const available = stats.bavail * stats.bsize;
    assert.ok(Math.abs(read - available) <= DRIFT, `read ${read} bytes, statfs says ${available} available`);
    // On a disk with a reserve for root (ext4's default), the free blocks are well apart from the available ones.
    const free = stats.bfree * stats.bsize;
    if (free - available > 2 * DRIFT)
      assert.ok(Math.abs(read - free) > DRIFT, `read ${read} bytes: the free blocks, root's reserve included`);
  });
});
