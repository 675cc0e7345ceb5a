// Which failures of a catalogue write are one record's fault (what it
// holds cannot be stored), on either database: that record is left out and
// the rest written. Any other failure (a full disk, a lost connection) is
// the store's, and the write fails whole.

/** SQLite's primary result codes of a row the tables refuse: too big, a constraint, a datatype. */
const SQLITE_RECORD_REFUSALS = new Set([18, 19, 20]);

export function sqliteRefusesRecord(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  // An extended result code keeps its primary code in its low byte.
  return typeof code === 'number' && SQLITE_RECORD_REFUSALS.has(code & 0xff);
}

/** PostgreSQL's data exceptions (SQLSTATE class 22): a NUL or a lone surrogate in jsonb, a number out of range... */
export function postgresRefusesRecord(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
