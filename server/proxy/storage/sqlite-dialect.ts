// Where SQLite's spelling of a statement differs from PostgreSQL's, for the
// statements written once (outbox-sql.ts): placeholders $1 become ?1 (the
// numbered form SQLite binds by position), and FOR UPDATE (with SKIP LOCKED,
// also inside a subquery) goes: a SQLite write transaction (BEGIN IMMEDIATE)
// holds the whole file, so there are no rows to lock one by one.

const cache = new Map<string, string>();

/** The SQLite text of a statement written for PostgreSQL. */
export function toSqlite(text: string): string {
  let converted = cache.get(text);
  if (converted === undefined) {
    converted = text
      .replace(/\$(\d+)/g, '?$1')
      .replace(/\s+FOR UPDATE SKIP LOCKED\b/g, '')
      .replace(/\s+FOR UPDATE\s*$/, '');
    cache.set(text, converted);
  }
  return converted;
}
