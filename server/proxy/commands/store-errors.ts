// A database error said to the person running `migrate` or `outbox`: which
// database, what failed, what to do. The driver's own words ("connect
// ECONNREFUSED 127.0.0.1:5432", 'role "x" does not exist') stay in brackets.
import { SchemaBehindError } from '../storage/index.ts';

/** What to do, by PostgreSQL SQLSTATE (https://www.postgresql.org/docs/current/errcodes-appendix.html) or system error code. */
const FIXES: Record<string, (where: string) => string> = {
  ECONNREFUSED: (where) => `cannot reach the database at ${where}: is it running? Check DATABASE_URL`,
  ENOTFOUND: (where) => `cannot find the host of the database at ${where}: check the host name in DATABASE_URL`,
  EAI_AGAIN: (where) =>
    `cannot find the host of the database at ${where}: check the host name in DATABASE_URL and the DNS`,
  ETIMEDOUT: (where) =>
    `no answer from the database at ${where}: is it running, and reachable from here (firewall)? Check DATABASE_URL`,
  EHOSTUNREACH: (where) => `cannot reach the database at ${where}: is it reachable from here? Check DATABASE_URL`,
  '28P01': (where) => `the database at ${where} refused the password: check the user and password in DATABASE_URL`,
  '28000': (where) =>
    `the database at ${where} refused the sign-in: check the user in DATABASE_URL and that the server lets it connect (pg_hba.conf)`,
  '3D000': (where) => `the database at ${where} does not exist: create it, or check its name in DATABASE_URL`,
  '42501': (where) =>
    `the role of DATABASE_URL lacks a right on the database at ${where}: run migrate with the DATABASE_URL of the role that owns the tables`,
  '57P03': (where) => `the database at ${where} is starting or shutting down: try again in a moment`,
  EACCES: (where) =>
    `cannot open ${where}: the user running this command may not read or write it; run it as the proxy's user, or pass the right --data-dir`,
  ENOENT: (where) =>
    `cannot open ${where}: no such folder; pass the proxy's data directory with --data-dir or DATA_DIR`,
};

/** A PostgreSQL error (severity), a system error (syscall) or a node:sqlite one (ERR_SQLITE_ERROR): the store's, not the command's. */
function isStoreError(error: unknown): error is Error & { code?: string } {
  if (!(error instanceof Error)) return false;
  const e = error as Error & { code?: unknown; severity?: unknown; syscall?: unknown };
  return (
    typeof e.severity === 'string' ||
    typeof e.syscall === 'string' ||
    e.code === 'ERR_SQLITE_ERROR' ||
    e.name === 'AggregateError'
  );
}

/**
 * The error to print for `error`, met while `doing` something with the store
 * at `where` (a redacted database URL or the SQLite file): a store's error
 * becomes one that names the database and what to do; any other is kept.
 */
export function storeCommandError(error: unknown, where: string, doing: string): unknown {
  if (error instanceof SchemaBehindError || !isStoreError(error)) return error;
  // pg gives an AggregateError (code on its parts) when every address of a host refused.
  const parts =
    error.name === 'AggregateError' ? ((error as AggregateError).errors as (Error & { code?: string })[]) : [error];
  const code = [error.code, ...parts.map((p) => p.code)].find((c) => c !== undefined && FIXES[c] !== undefined);
  const said = error.message !== '' ? error.message : parts.map((p) => p.message).join('; ');
  const fix = code === undefined ? `the database at ${where} failed` : FIXES[code]!(where);
  return new Error(`Could not ${doing}: ${fix} (${said}).`, { cause: error });
}
