// Uploads being received: each resume is written to a file of its own under
// DATA_DIR/uploads as its bytes arrive, so no upload is ever held whole in
// memory. A file is moved into the outbox's keeping once its application is
// stored (made durable there), or deleted: an upload refused for its content
// leaves nothing behind, and costs no fsync.
import { randomUUID } from 'node:crypto';
import { createWriteStream, readdirSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { join, resolve } from 'node:path';
import { OWNER_ONLY_FILE, makeOwnerOnlyFolder } from '../../owner-only.ts';
import type { DataDirLock } from '../storage/data-dir-lock.ts';

/** How an upload file is opened for writing: node:fs's, or one whose writes fail (a full disk, in tests). */
export type OpenUploadFile = (path: string, options: { mode: number }) => Writable;

export class UploadSpool {
  readonly dir: string;
  private readonly dataDir: string;
  private readonly openFile: OpenUploadFile;

  constructor(dataDir: string, openFile: OpenUploadFile = createWriteStream) {
    this.dataDir = dataDir;
    this.openFile = openFile;
    this.dir = join(dataDir, 'uploads');
    makeOwnerOnlyFolder(this.dir);
  }

  /** A path for a new upload; nothing is created until it is written. */
  newPath(): string {
    return join(this.dir, `${randomUUID()}.part`);
  }

  /** Opens the upload file at `path` (from newPath) for writing, readable by this user only. */
  open(path: string): Writable {
    return this.openFile(path, { mode: OWNER_ONLY_FILE });
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
    if (lock.dataDir !== resolve(this.dataDir))
      throw new Error(`UploadSpool.clear: the lock held is on ${lock.dataDir}, not on ${resolve(this.dataDir)}`);
    const names = readdirSync(this.dir);
    for (const name of names) rmSync(join(this.dir, name), { force: true });
    return names.length;
  }
}
