// The seam between the stores and their database: the one runner each store
// gives (Sql) for the statements written once for both databases, and the
// readings of stored values that differ by database.
import type { ApplicationPayload } from './outbox/application-store.ts';
import type { Utm } from '../../public-api/campaign-tracking.ts';

/** A statement's value: bytes for a resume's chunks, and a list (`= ANY($1::text[])`) in PostgreSQL's statements only. */
export type SqlValue = string | number | null | Uint8Array | readonly string[];
export type Raw = Record<string, unknown>;

/**
 * Runs the statements of outbox-sql.ts on a store's database, one at a time
 * or in a transaction. The same for both databases, so each method of the
 * store is written once: only where resumes live and how rows are claimed
 * differ (sql-application-store.ts).
 */
export interface Sql {
  all(text: string, params?: readonly SqlValue[]): Promise<Raw[]>;
  /** Answers how many rows the statement changed. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>;
  /**
   * Runs `work` in one transaction (committed when it resolves, rolled back
   * when it rejects), its statements on the runner it is handed; on that
   * runner, a nested transaction joins the one open. `work` may await.
   */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

/** A flag as stored: a boolean in PostgreSQL, 0 or 1 in SQLite. */
export function flag(value: unknown): boolean {
  return value === true || value === 1;
}

/** A payload as stored: JSON text (SQLite) or already parsed (PostgreSQL jsonb). */
export function parsePayload(value: unknown): ApplicationPayload | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as ApplicationPayload;
}

/** Campaign parameters as stored: JSON text (SQLite, the funnel's waiting counts) or already parsed (PostgreSQL jsonb). */
export function parseUtm(value: unknown): Utm | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Utm;
}

/** The address a right-to-erasure request names, as both stores compare it (trimmed, lower-cased by JavaScript). */
export function wantedEmail(email: string): string {
  const wanted = email.trim().toLowerCase();
  // An empty address would match every stored answer.
  if (!wanted.includes('@')) throw new Error('eraseByEmail needs an email address');
  return wanted;
}

/** The statements of a listing: every row, or the rows of one status; each takes the limit first. */
export interface ListStatements {
  list: string;
  listByStatus: string;
}

/** At most `limit` rows (1000 unless given), of one status when one is given. */
export function listRows(
  sql: Sql,
  statements: ListStatements,
  options: { status?: string; limit?: number },
): Promise<Raw[]> {
  const limit = options.limit ?? 1000;
  return options.status === undefined
    ? sql.all(statements.list, [limit])
    : sql.all(statements.listByStatus, [limit, options.status]);
}

/** The rows of each status (`status`, `n` from `statement`), every status present: 0 when it has none. */
export async function countByStatus<S extends string>(
  sql: Sql,
  statement: string,
  statuses: readonly S[],
): Promise<Record<S, number>> {
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  for (const row of await sql.all(statement)) counts[row.status as S] = Number(row.n);
  return counts;
}
