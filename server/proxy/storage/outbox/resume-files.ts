// The outbox's resumes, one file each under DATA_DIR/resumes, named by the
// application's reference. SQLite has no streaming blob API in node:sqlite:
// a blob goes in and out whole, so a 10 MB resume would sit in memory (and
// in SQLite's page cache) on every write and read. A file is written from the
// upload by a rename, read by a stream, and deleted when the outbox row says
// its personal data goes.
import { closeSync, fsyncSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { access, open, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { OWNER_ONLY_FILE, makeOwnerOnlyFolder } from '../../../owner-only.ts';
import type { DataDirLock } from '../data-dir-lock.ts';
import { ResumeMissingError } from './application-store.ts';
import type { NewApplication } from './application-store.ts';
import type { ResumeStorage } from './sql-application-store.ts';
import type { Sql } from '../sql.ts';

/** References are UUIDs the proxy made; anything else must never name a path. */
const REFERENCE = /^[\w-]{1,100}$/;

/**
 * 90 KiB reads: a multiple of 3, so each read is base64-encoded on its own
 * (no join with the 1 or 2 bytes left by the previous), into 120 KiB of text,
 * just under the size from which V8 puts a string in its large-object space
 * (slower to allocate and collect): the fastest size tried (BENCHMARKS.md,
 * "Figures behind the code").
 */
const READ_CHUNK_BYTES = 90 * 1024;

export class ResumeFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'resumes');
    makeOwnerOnlyFolder(this.dir);
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
    writeFileSync(path, bytes, { mode: OWNER_ONLY_FILE });
    fsync(path);
  }

  /** Syncs the folder: the files written by `write` are then listed for good. */
  syncFolder(): void {
    fsync(this.dir);
  }

  /**
   * The resume's bytes in chunks read into two buffers, reused in turn: the
   * next chunk is read while the reader uses this one, and a chunk is valid
   * until the next is asked for, so the reader must use (or copy) it first, as
   * the base64 encoding of a StreamedFile does. Two buffers per delivery
   * instead of a new one per read: a burst of deliveries then leaves no
   * garbage of its own for the collector to catch up with.
   */
  async *open(reference: string): AsyncGenerator<Uint8Array> {
    const handle = await open(this.pathOf(reference), 'r');
    /** The buffer the next read goes into: never the one the reader holds. */
    let spare: Buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let reading: Promise<{ bytesRead: number; buffer: Buffer }> | undefined = handle.read(
      Buffer.allocUnsafe(READ_CHUNK_BYTES),
      0,
      READ_CHUNK_BYTES,
      null,
    );
    try {
      for (;;) {
        const { bytesRead, buffer } = await reading;
        reading = undefined;
        if (bytesRead === 0) return;
        // Read ahead into the other buffer, which the reader is done with.
        reading = handle.read(spare, 0, READ_CHUNK_BYTES, null);
        spare = buffer;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      // A reader that stops early leaves a read ahead under way: it ends before the file is closed.
      await reading?.catch(() => undefined);
      await handle.close();
    }
  }

  /** Whether the resume of `reference` is here. */
  async has(reference: string): Promise<boolean> {
    try {
      await access(this.pathOf(reference));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  remove(reference: string): void {
    rmSync(this.pathOf(reference), { force: true });
  }

  /** The references of the files here (anything else in the folder is not the outbox's). */
  references(): string[] {
    return readdirSync(this.dir).filter((name) => REFERENCE.test(name));
  }
}

/**
 * The SQLite store's resumes (ResumeStorage): a file is kept before the row
 * that points at it commits, and deleted once the row let it go. One proxy
 * process owns the data directory; other processes (the outbox and migrate
 * commands) open the same file beside it, and only the holder of the data
 * directory's lock removes the files no row holds.
 */
export class ResumesAsFiles implements ResumeStorage {
  private readonly files: ResumeFiles;
  private readonly sql: Sql;
  private readonly dataDir: string;

  constructor(files: ResumeFiles, sql: Sql, dataDir: string) {
    this.files = files;
    this.sql = sql;
    this.dataDir = dataDir;
  }

  async keep(app: NewApplication): Promise<void> {
    if (app.resume !== null) await this.files.keep(app.reference, app.resume.path);
  }

  async write(): Promise<void> {}

  abandon(reference: string): void {
    this.files.remove(reference);
  }

  async drop(): Promise<void> {}

  dropped(references: readonly string[]): void {
    for (const reference of references) this.files.remove(reference);
  }

  private async holdsResume(reference: string): Promise<boolean> {
    const sql = 'SELECT 1 AS yes FROM outbox WHERE reference = $1 AND resume_bytes IS NOT NULL';
    return (await this.sql.all(sql, [reference])).length > 0;
  }

  /** The resume of an application, read in chunks; undefined when it holds none; ResumeMissingError when its file is gone. */
  async open(reference: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    if (!(await this.holdsResume(reference))) return undefined;
    if (await this.files.has(reference)) return this.files.open(reference);
    // Erased meanwhile (the row let it go first): nothing is missing, there is no resume any more.
    if (!(await this.holdsResume(reference))) return undefined;
    throw new ResumeMissingError(reference, `${join(this.files.dir, reference)} is gone`);
  }

  /**
   * Deletes resume files no row holds: written by a process killed before its
   * row was committed, or left by one killed between a row letting its
   * resume go and the file's deletion. Answers how many it deleted.
   *
   * Only for the process holding the data directory (`lock`), at its start,
   * before it takes any upload: enqueue moves a resume file in before its
   * row commits, so a file without a row is an orphan only when no enqueue
   * can be under way, and only the lock holder stores applications. Run
   * later, or by another process, it would delete resumes being stored.
   */
  async removeUnlinked(lock: DataDirLock): Promise<number> {
    if (lock.dataDir !== resolve(this.dataDir))
      throw new Error(`removeUnlinkedResumes: the lock held is on ${lock.dataDir}, not on ${resolve(this.dataDir)}`);
    let removed = 0;
    for (const reference of this.files.references()) {
      if (await this.holdsResume(reference)) continue;
      this.files.remove(reference);
      removed += 1;
    }
    return removed;
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
