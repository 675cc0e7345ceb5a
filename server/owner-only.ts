// Files and folders the proxy and the sandbox create hold candidates' personal
// data: they are readable by their owner only. Each is created with that mode
// (a process-wide umask would change the files of the application embedding
// us too). SQLite gives a database's -wal and -shm files the database file's
// own mode, so creating the database file first is enough for all three.
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** rw------- */
export const OWNER_ONLY_FILE = 0o600;
/** rwx------ */
export const OWNER_ONLY_FOLDER = 0o700;

/** Creates a folder (and its missing parents) readable by its owner only; an existing one is left as it is. */
export function makeOwnerOnlyFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: OWNER_ONLY_FOLDER });
}

/**
 * Creates an empty SQLite database file readable by its owner only, before
 * SQLite opens it (which would create it 0644). An existing file is never
 * opened here: closing a descriptor of a file drops every POSIX lock this
 * process holds on it, SQLite's and the data directory's lock included.
 * ':memory:' and '' are not files.
 */
export function createOwnerOnlyDatabaseFile(path: string): void {
  if (path === ':memory:' || path === '') return;
  let fd: number;
  try {
    fd = openSync(path, 'wx', OWNER_ONLY_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  closeSync(fd);
}

/** Gives an existing database file, its -wal and its -shm the owner-only mode; answers how many modes changed. */
export function restrictDatabaseFile(path: string): number {
  if (path === ':memory:' || path === '') return 0;
  return [path, `${path}-wal`, `${path}-shm`].filter(restrictPath).length;
}

/**
 * Gives a folder made by an older version, and everything in it, the
 * owner-only modes (symbolic links are not followed); answers how many modes
 * changed. Nothing when it is missing.
 */
export function restrictFolder(path: string): number {
  if (!statOf(path)?.folder) return 0;
  let changed = restrictPath(path) ? 1 : 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory()) changed += restrictFolder(join(path, entry.name));
    else if (entry.isFile() && restrictPath(join(path, entry.name))) changed += 1;
  }
  return changed;
}

/** Sets the owner-only mode of one file or folder when it has another; false when it had it, is a link or is gone. */
export function restrictPath(path: string): boolean {
  const stat = statOf(path);
  if (stat === undefined) return false;
  const wanted = stat.folder ? OWNER_ONLY_FOLDER : OWNER_ONLY_FILE;
  if (stat.mode === wanted) return false;
  chmodSync(path, wanted);
  return true;
}

/** Whether a path is a folder and its permission bits; undefined when it is missing or not a plain file or folder (a link). */
function statOf(path: string): { folder: boolean; mode: number } | undefined {
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!stats.isDirectory() && !stats.isFile()) return undefined;
  return { folder: stats.isDirectory(), mode: stats.mode & 0o777 };
}
