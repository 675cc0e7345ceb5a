// The funnel's tables and statements, written once in the PostgreSQL spelling
// (toSqlite gives SQLite's). Counts are kept at three grains, all written by
// the one add() in one transaction, so the report reads small tables only:
// - funnel_counts, the daily counts per offer and source (the record);
// - funnel_source_days, per day and source (the days, totals and sources of
//   a report: a few rows a day);
// - funnel_offer_spans, per offer over aligned spans of 1, 2, 4 ... 128 days
//   (level 0 to 7, first_day a multiple of 2^level): any period is a handful
//   of spans (spansOf), so the offers of 90 days read about 5 to 12 rows per
//   offer instead of 90.
// The company's outcomes (status names, rare) are rows of their own. Days
// are numbers (days since 1970-01-01, UTC); a source without a campaign
// parameter stores '' (a kept value is never blank), read back as null.
import { FUNNEL_STAGES } from '../../../public-api/funnel.ts';
import type { FunnelStage } from '../../../public-api/funnel.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The highest span level: 2^7 = 128 days. */
export const MAX_SPAN_LEVEL = 7;

const STAGE_COLUMNS = (type: string) =>
  FUNNEL_STAGES.map((stage) => `  ${stage} ${type} NOT NULL DEFAULT 0,`).join('\n');

/** The funnel's tables for one database: SQLite stores them by their key (WITHOUT ROWID); PostgreSQL leaves room on each page for counts updated in place. */
export function funnelSchema(database: 'sqlite' | 'postgres'): string {
  const count = database === 'sqlite' ? 'INTEGER' : 'bigint';
  const table = database === 'sqlite' ? ' WITHOUT ROWID' : ' WITH (fillfactor = 80)';
  const source = 'channel text NOT NULL,\n  utm_source text NOT NULL,\n  utm_campaign text NOT NULL,';
  return `
CREATE TABLE funnel_counts (
  day integer NOT NULL,
  campaign_id bigint NOT NULL,
  ${source}
${STAGE_COLUMNS(count)}
  PRIMARY KEY (day, campaign_id, channel, utm_source, utm_campaign)
)${table};
CREATE TABLE funnel_outcomes (
  day integer NOT NULL,
  campaign_id bigint NOT NULL,
  ${source}
  outcome text NOT NULL,
  n ${count} NOT NULL,
  PRIMARY KEY (day, campaign_id, channel, utm_source, utm_campaign, outcome)
)${table};
CREATE TABLE funnel_source_days (
  day integer NOT NULL,
  ${source}
${STAGE_COLUMNS(count)}
  PRIMARY KEY (day, channel, utm_source, utm_campaign)
)${table};
CREATE TABLE funnel_offer_spans (
  level integer NOT NULL,
  first_day integer NOT NULL,
  campaign_id bigint NOT NULL,
${STAGE_COLUMNS(count)}
  PRIMARY KEY (level, first_day, campaign_id)
)${table};
`;
}

/** The tables add() writes, with their key columns (each row also has the stages, or n). */
export const FUNNEL_TABLES = {
  funnel_counts: ['day', 'campaign_id', 'channel', 'utm_source', 'utm_campaign'],
  funnel_source_days: ['day', 'channel', 'utm_source', 'utm_campaign'],
  funnel_offer_spans: ['level', 'first_day', 'campaign_id'],
  funnel_outcomes: ['day', 'campaign_id', 'channel', 'utm_source', 'utm_campaign', 'outcome'],
} as const;
export type FunnelTable = keyof typeof FUNNEL_TABLES;

/** The columns added to on conflict: every stage, or the outcome's n. */
const addedColumns = (table: FunnelTable): readonly string[] => (table === 'funnel_outcomes' ? ['n'] : FUNNEL_STAGES);

/** Rows of one insert at most: a few hundred parameters, and a few statement texts per table. */
export const ROWS_PER_INSERT = 64;

/**
 * Adds `rows` rows (key, then the added columns) to `table`, creating each at
 * 0 first. The keys of one statement are unique (PostgreSQL refuses to
 * update a row twice in one statement): add() sums them first.
 */
export function upsertText(table: FunnelTable, rows: number): string {
  const columns = [...FUNNEL_TABLES[table], ...addedColumns(table)];
  const values = Array.from(
    { length: rows },
    (_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
  ).join(', ');
  const sums = addedColumns(table)
    .map((column) => `${column} = ${table}.${column} + excluded.${column}`)
    .join(', ');
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}
    ON CONFLICT (${FUNNEL_TABLES[table].join(', ')}) DO UPDATE SET ${sums}`;
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
const SOURCE = 'channel, utm_source, utm_campaign';

/** The rows of `spans` spans (parameters level, first_day, ... from $1). */
function spanWhere(spans: number): string {
  return Array.from({ length: spans }, (_, i) => `(level = $${2 * i + 1} AND first_day = $${2 * i + 2})`).join(' OR ');
}

/** The offers of `spans` spans, the most of `sort` first (then by id), at most $last; each with how many offers there are in all. */
export function topOffersText(spans: number, sort: FunnelStage): string {
  return `SELECT campaign_id, ${SUMS}, count(*) OVER () AS offers_total FROM funnel_offer_spans WHERE ${spanWhere(spans)}
    GROUP BY campaign_id ORDER BY ${sort} DESC, campaign_id LIMIT $${2 * spans + 1}`;
}

/** How many offers have a count in `spans` spans (a report that asks for no offer still tells it). */
export function offersTotalText(spans: number): string {
  return `SELECT count(DISTINCT campaign_id) AS n FROM funnel_offer_spans WHERE ${spanWhere(spans)}`;
}

/** The outcomes of the offers $3... in the days $1 to $2. */
export function offerOutcomesText(offers: number): string {
  const ids = Array.from({ length: offers }, (_, i) => `$${i + 3}`).join(', ');
  return `SELECT campaign_id, outcome, sum(n) AS n FROM funnel_outcomes WHERE day BETWEEN $1 AND $2 AND campaign_id IN (${ids})
    GROUP BY campaign_id, outcome`;
}

export const FUNNEL_SQL = {
  /** Each day's counts, $1 to $2. */
  days: `SELECT day, ${SUMS} FROM funnel_source_days WHERE day BETWEEN $1 AND $2 GROUP BY day`,
  /** Each source's counts, $1 to $2. */
  sources: `SELECT ${SOURCE}, ${SUMS} FROM funnel_source_days WHERE day BETWEEN $1 AND $2 GROUP BY ${SOURCE}`,
  dayOutcomes: `SELECT day, outcome, sum(n) AS n FROM funnel_outcomes WHERE day BETWEEN $1 AND $2 GROUP BY day, outcome`,
  sourceOutcomes: `SELECT ${SOURCE}, outcome, sum(n) AS n FROM funnel_outcomes WHERE day BETWEEN $1 AND $2 GROUP BY ${SOURCE}, outcome`,
} as const;
