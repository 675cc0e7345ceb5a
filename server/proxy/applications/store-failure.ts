// What the candidate is told when an application cannot be stored: the disk
// (or the database's) is full, or the store cannot be reached. Both are 503
// with Retry-After, the server's fault and never the form's; an unexpected
// store error must not become a 500 that a candidate reads as "lost".
import { ProblemError } from '../http/problem.ts';

/** The store cannot be used (PostgreSQL unreachable or its pool exhausted, a newer schema): nothing can be stored or counted, the candidate tries later. */
export function storeUnavailable(cause?: unknown): ProblemError {
  return new ProblemError('not_ready', 'Applications cannot be received right now; send the form again in a minute.', {
    headers: { 'Retry-After': '30' },
    cause,
  });
}

/**
 * Codes that mean "no room": ENOSPC and EDQUOT from the file system,
 * PostgreSQL's disk_full (SQLSTATE 53100), and SQLite's SQLITE_FULL (13,
 * the errcode node:sqlite gives).
 */
const DISK_FULL_CODES = new Set<unknown>(['ENOSPC', 'EDQUOT', '53100']);
const SQLITE_FULL = 13;

export function isDiskFull(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; cause?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  // node:sqlite's extended codes keep the primary code in their low byte.
  if (DISK_FULL_CODES.has(e.code) || (typeof e.errcode === 'number' && (e.errcode & 0xff) === SQLITE_FULL)) return true;
  return e.cause !== undefined && e.cause !== error && isDiskFull(e.cause);
}

export function storageFull(cause?: unknown): ProblemError {
  return new ProblemError(
    'storage_full',
    "This job board's server cannot store more applications right now; nothing is wrong with yours. Send it again later.",
    { headers: { 'Retry-After': '300', Connection: 'close' }, cause },
  );
}

/** The problem for an error met while storing an application (a ProblemError is already one). */
export function storeFailure(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  return isDiskFull(error) ? storageFull(error) : storeUnavailable(error);
}
