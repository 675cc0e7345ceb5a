// The funnel's tables and statements, written once in the PostgreSQL spelling
// (toSqlite gives SQLite's). Counts are kept at several grains, all written
// by the one add() in one transaction, so a report reads small tables only:
// - funnel_counts, the daily counts per offer and source (the record), and
//   funnel_outcomes, the company's outcomes (status names) per offer and
//   source, by offer first: a report reads those of the offers it lists;
// - funnel_source_days and funnel_source_outcomes, per day and source: the
//   days, totals and sources of a report, a few rows a day;
// - funnel_offer_spans, per offer over aligned spans of 1, 2, 4 ... 128 days
//   (level 0 to 7, first_day a multiple of 2^level): any period is a handful
//   of spans (spansOf), so the offers of 90 days read about 5 to 12 rows per
//   offer instead of 90.
// The proxy's own stages do not write those rows in the transaction of the
// change they count: every application of the day would update the same few
// rows (and wait on each other's locks across instances). They insert one row
// of funnel_waiting instead, which a fold (SqlFunnelStore.fold) deletes and
// adds to the grains in one transaction, so each is added once.
// Days are numbers (days since 1970-01-01, UTC); a source without a campaign
// parameter stores '' (a kept value is never blank), read back as null.
import { FUNNEL_STAGES } from '../../../public-api/funnel.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The highest span level: 2^7 = 128 days. */
export const MAX_SPAN_LEVEL = 7;

const SOURCE = ['channel', 'utm_source', 'utm_campaign'] as const;

/** Each table add() writes, in the order it writes them: its key, and whether it counts stages or an outcome's n. */
export const FUNNEL_TABLES = {
  funnel_counts: { key: ['day', 'campaign_id', ...SOURCE], counts: 'stages' },
  funnel_source_days: { key: ['day', ...SOURCE], counts: 'stages' },
  funnel_source_outcomes: { key: ['day', ...SOURCE, 'outcome'], counts: 'n' },
  funnel_offer_spans: { key: ['level', 'first_day', 'campaign_id'], counts: 'stages' },
  funnel_outcomes: { key: ['campaign_id', 'day', ...SOURCE, 'outcome'], counts: 'n' },
} as const;
export type FunnelTable = keyof typeof FUNNEL_TABLES;

/** The columns a row of `table` adds to: every stage, or n. */
export const addedColumns = (table: FunnelTable): readonly string[] =>
  FUNNEL_TABLES[table].counts === 'n' ? ['n'] : FUNNEL_STAGES;

/** The funnel's tables for one database: SQLite stores them by their key (WITHOUT ROWID); PostgreSQL leaves room on each page for counts updated in place. */
export function funnelSchema(database: 'sqlite' | 'postgres'): string {
  const count = database === 'sqlite' ? 'INTEGER' : 'bigint';
  const storage = database === 'sqlite' ? ' WITHOUT ROWID' : ' WITH (fillfactor = 80)';
  const types: Record<string, string> = { campaign_id: 'bigint', outcome: 'text', channel: 'text' };
  const typeOf = (column: string) => types[column] ?? (column.startsWith('utm_') ? 'text' : 'integer');
  return Object.entries(FUNNEL_TABLES)
    .map(([table, { key }]) => {
      const columns = [
        ...key.map((column) => `${column} ${typeOf(column)} NOT NULL`),
        ...addedColumns(table as FunnelTable).map((column) => `${column} ${count} NOT NULL DEFAULT 0`),
      ];
      return `CREATE TABLE ${table} (\n  ${columns.join(',\n  ')},\n  PRIMARY KEY (${key.join(', ')})\n)${storage};\n`;
    })
    .join('');
}

/** The id of a waiting count: SQLite's rowid, or a sequence's. */
const WAITING_ID = { sqlite: 'INTEGER PRIMARY KEY', postgres: 'bigserial PRIMARY KEY' } as const;

/** The counts of the proxy's own stages waiting for a fold: one row per change counted, its offer and campaign parameters (as JSON text) copied from the outbox. */
export function waitingSchema(database: keyof typeof WAITING_ID): string {
  return `CREATE TABLE funnel_waiting (
  id ${WAITING_ID[database]},
  day integer NOT NULL,
  channel text NOT NULL,
  stage text,
  outcome text,
  campaign_id bigint,
  utm text
);
`;
}

/** Rows of one insert at most: a few hundred parameters. */
export const ROWS_PER_INSERT = 64;

/**
 * The sizes `rows` rows are written in: as many of ROWS_PER_INSERT as fit,
 * then powers of two, so that a table has seven statement texts (each
 * prepared once and kept by SQLite's connection), not one per row count.
 */
export function insertSizes(rows: number): number[] {
  const sizes: number[] = [];
  for (let left = rows; left > 0;) {
    const size = Math.min(ROWS_PER_INSERT, 2 ** Math.floor(Math.log2(left)));
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/**
 * Adds `rows` rows (key, then the added columns) to `table`, creating each at
 * 0 first. The keys of one statement are unique (PostgreSQL refuses to
 * update a row twice in one statement): add() sums them first.
 */
export function upsertText(table: FunnelTable, rows: number): string {
  const { key } = FUNNEL_TABLES[table];
  const columns = [...key, ...addedColumns(table)];
  const values = Array.from(
    { length: rows },
    (_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
  ).join(', ');
  const sums = addedColumns(table)
    .map((column) => `${column} = ${table}.${column} + excluded.${column}`)
    .join(', ');
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${sums}`;
}

/** The number of a UTC day (YYYY-MM-DD); throws on anything else. */
export function dayNumber(day: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day)
    throw new RangeError(`not a day (YYYY-MM-DD): ${day}`);
  return ms / DAY_MS;
}

/** The YYYY-MM-DD of a day's number. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day (YYYY-MM-DD) of a time in milliseconds. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A span of funnel_offer_spans: 2^level days from first_day. */
export interface Span {
  level: number;
  first: number;
}

/** The spans of a day's counts, one per level. */
export function spansHolding(day: number): Span[] {
  return Array.from({ length: MAX_SPAN_LEVEL + 1 }, (_, level) => ({ level, first: day - (day % 2 ** level) }));
}

/** The fewest aligned spans that cover the days `from` to `to` exactly (each the longest that starts at the day reached and ends by `to`). */
export function spansOf(from: number, to: number): Span[] {
  const spans: Span[] = [];
  for (let day = from; day <= to;) {
    let level = MAX_SPAN_LEVEL;
    while (level > 0 && (day % 2 ** level !== 0 || day + 2 ** level - 1 > to)) level -= 1;
    spans.push({ level, first: day });
    day += 2 ** level;
  }
  return spans;
}

const SUMS = FUNNEL_STAGES.map((stage) => `sum(${stage}) AS ${stage}`).join(', ');
const SOURCE_COLUMNS = SOURCE.join(', ');

/** Each offer's counts over `spans` spans (parameters level, first_day, ... from $1). */
export function offerSumsText(spans: number): string {
  const where = Array.from({ length: spans }, (_, i) => `(level = $${2 * i + 1} AND first_day = $${2 * i + 2})`);
  return `SELECT campaign_id, ${SUMS} FROM funnel_offer_spans WHERE ${where.join(' OR ')} GROUP BY campaign_id
    ORDER BY campaign_id`;
}

/** The offers' counts of one span ($1 level, $2 first_day) after offer $3, in the order of their ids, at most $4. */
export const spanChunkText = `SELECT campaign_id, ${FUNNEL_STAGES.join(', ')} FROM funnel_offer_spans
  WHERE level = $1 AND first_day = $2 AND campaign_id > $3 ORDER BY campaign_id LIMIT $4`;

/** The outcomes of the offers $3... in the days $1 to $2 (a power of two of them: the caller repeats the last one). */
export function offerOutcomesText(offers: number): string {
  const ids = Array.from({ length: offers }, (_, i) => `$${i + 3}`).join(', ');
  return `SELECT campaign_id, outcome, sum(n) AS n FROM funnel_outcomes WHERE campaign_id IN (${ids}) AND day BETWEEN $1 AND $2
    GROUP BY campaign_id, outcome`;
}

/**
 * A change of one outbox row (`change`, its parameters from $1, `next` the
 * first one after them) and the count waiting for it as one statement, for
 * PostgreSQL, which writes inside WITH: one round trip for both. It changes
 * as many rows as `change` does; $next is the day, then the channel and the
 * stage.
 */
export function countedChangeText(change: string, next: number): string {
  return `WITH changed AS (${change} RETURNING campaign_id, utm)
    INSERT INTO funnel_waiting (day, channel, stage, outcome, campaign_id, utm)
    SELECT $${next}, $${next + 1}, $${next + 2}, NULL, campaign_id, utm FROM changed`;
}

/** Deletes the $1 first counts waiting, locked as `locking` says, and answers them. */
function takeText(locking: string): string {
  return `DELETE FROM funnel_waiting WHERE id IN (SELECT id FROM funnel_waiting ORDER BY id LIMIT $1 ${locking})
    RETURNING day, channel, stage, outcome, campaign_id, utm`;
}

export const FUNNEL_SQL = {
  /** Counts stage $3 or outcome $4 of the application $5 on day $1 under channel $2 (nothing when no row holds $5). */
  wait: `INSERT INTO funnel_waiting (day, channel, stage, outcome, campaign_id, utm)
    SELECT $1, $2, $3, $4, campaign_id, utm FROM outbox WHERE reference = $5`,
  anyWaiting: 'SELECT id FROM funnel_waiting LIMIT 1',
  /**
   * Takes the $1 first counts waiting. Their rows are locked in the order of
   * their ids (no two folds wait on each other in a cycle); a fold under way
   * elsewhere is waited for, and the rows it deleted are skipped.
   */
  take: takeText('FOR UPDATE'),
  /** Takes the $1 first counts waiting that no fold under way elsewhere holds: those are left to it, unwaited for. */
  takeFree: takeText('FOR UPDATE SKIP LOCKED'),
  /** Each day's counts, $1 to $2. */
  days: `SELECT day, ${SUMS} FROM funnel_source_days WHERE day BETWEEN $1 AND $2 GROUP BY day`,
  dayOutcomes: `SELECT day, outcome, sum(n) AS n FROM funnel_source_outcomes WHERE day BETWEEN $1 AND $2 GROUP BY day, outcome`,
  /** Each source's counts, $1 to $2. */
  sources: `SELECT ${SOURCE_COLUMNS}, ${SUMS} FROM funnel_source_days WHERE day BETWEEN $1 AND $2 GROUP BY ${SOURCE_COLUMNS}`,
  sourceOutcomes: `SELECT ${SOURCE_COLUMNS}, outcome, sum(n) AS n FROM funnel_source_outcomes WHERE day BETWEEN $1 AND $2
    GROUP BY ${SOURCE_COLUMNS}, outcome`,
} as const;
