// The outbox's resumes, one file each under DATA_DIR/resumes, named by the
// application's reference. SQLite has no streaming blob API in node:sqlite:
// a blob goes in and out whole, so a 10 MB resume would sit in memory (and
// in SQLite's page cache) on every write and read. A file is written from the
// upload by a rename, read by a stream, and deleted when the outbox row says
// its personal data goes.
import { closeSync, createReadStream, fsyncSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** References are UUIDs the proxy made; anything else must never name a path. */
const REFERENCE = /^[\w-]{1,100}$/;

/** 64 KiB reads: a few buffers per delivery in flight, whatever the resume's size. */
const READ_CHUNK_BYTES = 64 * 1024;

export class ResumeFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'resumes');
    mkdirSync(this.dir, { recursive: true });
  }

  private pathOf(reference: string): string {
    if (!REFERENCE.test(reference)) throw new Error(`not a reference: ${reference.slice(0, 100)}`);
    return join(this.dir, reference);
  }

  /**
   * Takes an upload file as the resume of `reference`, durably: its bytes
   * are fsynced, it is moved here, and the folder is fsynced, so the resume
   * survives a power loss from the moment this resolves. The fsyncs run off
   * the event loop: other requests go on meanwhile.
   */
  async keep(reference: string, uploadPath: string): Promise<void> {
    await fsyncAsync(uploadPath);
    await rename(uploadPath, this.pathOf(reference));
    await fsyncAsync(this.dir);
  }

  /** Writes bytes as the resume of `reference` (an outbox of an older version moving its blobs here). */
  write(reference: string, bytes: Uint8Array): void {
    const path = this.pathOf(reference);
    writeFileSync(path, bytes);
    fsync(path);
  }

  /** Syncs the folder: the files written by `write` are then listed for good. */
  syncFolder(): void {
    fsync(this.dir);
  }

  open(reference: string): ReadStream {
    return createReadStream(this.pathOf(reference), { highWaterMark: READ_CHUNK_BYTES });
  }

  remove(reference: string): void {
    rmSync(this.pathOf(reference), { force: true });
  }

  /** The references of the files here (anything else in the folder is not the outbox's). */
  references(): string[] {
    return readdirSync(this.dir).filter((name) => REFERENCE.test(name));
  }
}

function fsync(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function fsyncAsync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
