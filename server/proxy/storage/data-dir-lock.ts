// One proxy process per data directory. At start a proxy takes back outbox
// rows left in `delivering`, empties uploads/ and deletes the resumes no row
// holds, which is only right if no other process is using them (the lock is
// what those clean-ups take as proof); so before it opens anything it takes an
// exclusive lock on DATA_DIR/proxy.lock and writes its pid to DATA_DIR/proxy.pid
// (the lock file cannot be read while locked, so the pid lives beside it).
//   const lock = lockDataDir(dataDir); ... lock.release();
//
// The lock is SQLite's own file lock (node:sqlite, no native addon): a
// connection in EXCLUSIVE locking mode inside an open BEGIN EXCLUSIVE holds
// it until the connection closes, and the OS drops it when the process dies,
// kill -9 included, so a crash never leaves a stale lock behind. It excludes
// other processes (the OS lock) and other connections of this process
// (SQLite's own bookkeeping). Nothing is ever written to the lock file.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { OWNER_ONLY_FILE, createOwnerOnlyDatabaseFile } from '../../owner-only.ts';

export const LOCK_FILE = 'proxy.lock';
export const PID_FILE = 'proxy.pid';

/** Another process (or another proxy of this process) holds the data directory. */
export class DataDirInUseError extends Error {
  /** The data directory, absolute. */
  readonly dataDir: string;
  /** The holder's pid as it wrote it in proxy.pid; null when that file could not be read. */
  readonly pid: number | null;

  constructor(dataDir: string, pid: number | null, options?: ErrorOptions) {
    super(
      `Another proxy (pid ${pid ?? 'unknown'}) is using the data directory ${dataDir}: stop it, or give this one another DATA_DIR.`,
      options,
    );
    this.name = 'DataDirInUseError';
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

export interface DataDirLock {
  /** The data directory, absolute. */
  readonly dataDir: string;
  /** Removes proxy.pid and drops the lock; a new proxy may then take the directory. Idempotent. */
  release(): void;
}

const SQLITE_BUSY = 5;

const PidFile = z
  .string()
  .trim()
  .regex(/^[1-9]\d*$/)
  .transform(Number);

// A connection only holds its lock while it is open, and node:sqlite closes a
// connection it garbage-collects: the locks held are kept reachable here.
const held = new Set<DatabaseSync>();

function holderPid(dataDir: string): number | null {
  try {
    const parsed = PidFile.safeParse(readFileSync(join(dataDir, PID_FILE), 'utf8'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown }).errcode;
  // Extended result codes keep the primary code in their low byte (SQLITE_BUSY_RECOVERY...).
  return typeof code === 'number' && (code & 0xff) === SQLITE_BUSY;
}

/** The lock's connection, holding SQLite's exclusive lock on the file. */
function openLock(dataDir: string): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    // timeout 0: a second proxy is refused at once, never queued behind the first.
    createOwnerOnlyDatabaseFile(join(dataDir, LOCK_FILE));
    db = new DatabaseSync(join(dataDir, LOCK_FILE), { timeout: 0 });
    // No journal file: this connection never writes a page.
    db.exec('PRAGMA journal_mode = MEMORY; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db?.close();
    if (isBusy(error)) throw new DataDirInUseError(dataDir, holderPid(dataDir), { cause: error });
    throw new Error(
      `Could not lock the data directory ${dataDir} (${LOCK_FILE}): ${error instanceof Error ? error.message : String(error)}. Check that it is on a local disk the proxy's user can write to.`,
      { cause: error },
    );
  }
}

/**
 * Takes the data directory (which must exist) for this process, or throws
 * DataDirInUseError at once (no waiting) when another proxy has it.
 */
export function lockDataDir(dir: string): DataDirLock {
  const dataDir = resolve(dir);
  const db = openLock(dataDir);

  // Written whole or not at all (a rename), so a refused proxy never reads half a pid.
  const pidPath = join(dataDir, PID_FILE);
  const tmp = `${pidPath}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${process.pid}\n`, { mode: OWNER_ONLY_FILE });
    renameSync(tmp, pidPath);
  } catch (error) {
    db.close();
    throw error;
  }
  held.add(db);

  let released = false;
  return {
    dataDir,
    release() {
      if (released) return;
      released = true;
      // Before the lock goes: once it is gone, proxy.pid is the next holder's.
      rmSync(pidPath, { force: true });
      held.delete(db);
      db.close();
    },
  };
}
