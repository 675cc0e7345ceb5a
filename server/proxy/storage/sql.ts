// The seam between the stores and their database: the one runner each store
// gives (Sql) for the statements written once for both databases, and the
// readings of stored values that differ by database.
import type { ApplicationPayload } from './application-store.ts';

export type SqlValue = string | number | null;
export type Raw = Record<string, unknown>;

/** Runs one statement of outbox-sql.ts on a store's database (or on the client of its transaction). */
export interface Sql {
  all(text: string, params?: readonly SqlValue[]): Promise<Raw[]>;
  /** Answers how many rows the statement changed. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>;
}

/** A payload as stored: JSON text (SQLite) or already parsed (PostgreSQL jsonb). */
export function parsePayload(value: unknown): ApplicationPayload | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as ApplicationPayload;
}

/** The address a right-to-erasure request names, as both stores compare it (trimmed, lower-cased by JavaScript). */
export function wantedEmail(email: string): string {
  const wanted = email.trim().toLowerCase();
  // An empty address would match every stored answer.
  if (!wanted.includes('@')) throw new Error('eraseByEmail needs an email address');
  return wanted;
}
