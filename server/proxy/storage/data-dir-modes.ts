// What the proxy keeps in DATA_DIR is readable by its user only. Files are
// created that way; a data directory made by an older version, which created
// them with the process's umask (often world-readable), is put right at start
// by the process that holds the directory. Only the proxy's own entries are
// touched: a DATA_DIR pointed at a folder holding other things keeps those as they are.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { restrictDatabaseFile, restrictFolder, restrictPath } from '../../owner-only.ts';
import { LOCK_FILE, PID_FILE } from './data-dir-lock.ts';

/** The SQLite files (each with its -wal and -shm), the other files and the folders the proxy creates in DATA_DIR. */
const DATABASES = ['outbox.db', 'catalogue.db', LOCK_FILE];
const FILES = [PID_FILE];
const FOLDERS = ['uploads', 'resumes'];

/** Gives DATA_DIR and the proxy's files and folders in it the owner-only modes; answers how many modes changed. */
export function restrictDataDir(path: string): number {
  // A DATA_DIR given as a symbolic link: the folder it names.
  const dataDir = realpathSync(path);
  let changed = restrictPath(dataDir) ? 1 : 0;
  for (const name of DATABASES) changed += restrictDatabaseFile(join(dataDir, name));
  for (const name of FILES) changed += restrictPath(join(dataDir, name)) ? 1 : 0;
  for (const name of FOLDERS) changed += restrictFolder(join(dataDir, name));
  return changed;
}
