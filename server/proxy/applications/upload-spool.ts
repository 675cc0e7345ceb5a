// Uploads being received: each resume is written to a file of its own under
// DATA_DIR/uploads as its bytes arrive, so no upload is ever held whole in
// memory. A file is moved into the outbox's keeping once its application is
// stored (made durable there), or deleted: an upload refused for its content
// leaves nothing behind, and costs no fsync.
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeOwnerOnlyFolder } from '../../owner-only.ts';
import type { DataDirLock } from '../data-dir-lock.ts';

export class UploadSpool {
  readonly dir: string;
  private readonly dataDir: string;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
    this.dir = join(dataDir, 'uploads');
    makeOwnerOnlyFolder(this.dir);
  }

  /** A path for a new upload; nothing is created until it is written. */
  newPath(): string {
    return join(this.dir, `${randomUUID()}.part`);
  }

  /** Deletes an upload that was not kept (no error when it is already gone, moved or never written). */
  discard(path: string): void {
    rmSync(path, { force: true });
  }

  /**
   * Deletes every upload left by a process that stopped mid-request: none was
   * acknowledged (a kept one has left this folder). Only for the process
   * holding the data directory (`lock`), at its start, before it takes any
   * upload: later, or from another process, it would cut uploads under way.
   */
  clear(lock: DataDirLock): number {
    if (lock.dataDir !== resolve(this.dataDir)) throw new Error(`UploadSpool.clear: the lock held is on ${lock.dataDir}, not on ${resolve(this.dataDir)}`);
    const names = readdirSync(this.dir);
    for (const name of names) rmSync(join(this.dir, name), { force: true });
    return names.length;
  }
}
