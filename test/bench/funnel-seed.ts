// The funnel bench's counts: OFFERS offers, each counted every day of the
// last DAYS days (today included), written straight into the funnel's tables
// by one statement per table (the store's own add() would take an hour), as
// add() keeps them: the offers' aligned spans, the sources' days, and the
// outcomes of one offer in fifty. funnel_counts, the record no report reads,
// is left empty. An offer's counts are the same every day, and differ
// between offers so that ranking them has work to do.
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { FUNNEL_STAGES } from '../../server/public-api/funnel.ts';
import { MAX_SPAN_LEVEL } from '../../server/proxy/storage/funnel/funnel-sql.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first offer's id: far from the demo catalogue's, whose offers the beacons name. */
export const FIRST_OFFER = 1_000_001;

/** A stage's count of offer `id` on one day, as SQL (of the column id) and as JavaScript. */
const PER_DAY: Record<(typeof FUNNEL_STAGES)[number], [string, (id: number) => number]> = {
  listed: ['(1 + id % 17)', (id) => 1 + (id % 17)],
  opened: ['(id % 5)', (id) => id % 5],
  started: ['(id % 3)', (id) => id % 3],
  submitted: ['(id % 2)', (id) => id % 2],
  received: ['(id % 2)', (id) => id % 2],
  delivered: ['(CASE WHEN id % 4 = 0 THEN 1 ELSE 0 END)', (id) => (id % 4 === 0 ? 1 : 0)],
  rejected: ['0', () => 0],
  dead: ['0', () => 0],
};

/** The days seeded: their numbers, first and last (today). */
export function seededDays(days: number, now = Date.now()): { first: number; last: number } {
  const last = Math.floor(now / DAY_MS);
  return { first: last - days + 1, last };
}

/** The statements that write the counts, in SQL both databases read (numbers inlined: nothing here comes from outside). */
function seedStatements(offers: number, days: number, channel: string, offerIds: string): string[] {
  const { first, last } = seededDays(days);
  const lastOffer = FIRST_OFFER + offers - 1;
  const spans: string[] = [];
  for (let level = 0; level <= MAX_SPAN_LEVEL; level += 1) {
    const size = 2 ** level;
    for (let start = first - (first % size); start <= last; start += size)
      spans.push(`(${level}, ${start}, ${Math.min(start + size - 1, last) - Math.max(start, first) + 1})`);
  }
  const stages = FUNNEL_STAGES.join(', ');
  const spanValues = FUNNEL_STAGES.map((stage) => `s.n * ${PER_DAY[stage][0]}`).join(', ');
  const dayTotals = FUNNEL_STAGES.map((stage) => {
    let sum = 0;
    for (let id = FIRST_OFFER; id <= lastOffer; id += 1) sum += PER_DAY[stage][1](id);
    return sum;
  });
  const dayRows = Array.from(
    { length: days },
    (_, i) => `(${first + i}, '${channel}', '', '', ${dayTotals.join(', ')})`,
  ).join(', ');
  const interviews = Math.floor(lastOffer / 50) - Math.floor((FIRST_OFFER - 1) / 50);
  const outcomeDays = Array.from({ length: days }, (_, i) => `(${first + i})`).join(', ');
  return [
    `WITH s(level, first_day, n) AS (VALUES ${spans.join(', ')})
      INSERT INTO funnel_offer_spans (level, first_day, campaign_id, ${stages})
      SELECT s.level, s.first_day, id, ${spanValues} FROM s CROSS JOIN (${offerIds}) AS o
      ORDER BY s.level, s.first_day, id`,
    `INSERT INTO funnel_source_days (day, channel, utm_source, utm_campaign, ${stages}) VALUES ${dayRows}`,
    `WITH d(day) AS (VALUES ${outcomeDays})
      INSERT INTO funnel_outcomes (campaign_id, day, channel, utm_source, utm_campaign, outcome, n)
      SELECT id, d.day, '${channel}', '', '', 'interview', 1 FROM (${offerIds}) AS o CROSS JOIN d WHERE id % 50 = 0
      ORDER BY id, d.day`,
    `WITH d(day) AS (VALUES ${outcomeDays})
      INSERT INTO funnel_source_outcomes (day, channel, utm_source, utm_campaign, outcome, n)
      SELECT day, '${channel}', '', '', 'interview', ${interviews} FROM d`,
  ];
}

/** Seeds the SQLite file at `path` (no process has it open). */
export function seedSqlite(path: string, offers: number, days: number, channel: string): void {
  const db = new DatabaseSync(path);
  try {
    // A rollback journal holds the empty tables' pages only; WAL would copy every page written.
    db.exec('PRAGMA journal_mode = DELETE');
    const ids = `WITH RECURSIVE r(id) AS (SELECT ${FIRST_OFFER} UNION ALL SELECT id + 1 FROM r WHERE id < ${FIRST_OFFER + offers - 1}) SELECT id FROM r`;
    db.exec('BEGIN');
    for (const statement of seedStatements(offers, days, channel, ids)) db.exec(statement);
    db.exec('COMMIT');
    db.exec('PRAGMA journal_mode = WAL');
  } finally {
    db.close();
  }
}

/** Seeds the PostgreSQL database at `url`, whose tables the proxy made. */
export async function seedPostgres(url: string, offers: number, days: number, channel: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids = `SELECT generate_series(${FIRST_OFFER}, ${FIRST_OFFER + offers - 1})::bigint AS id`;
    await client.query('BEGIN');
    for (const statement of seedStatements(offers, days, channel, ids)) await client.query(statement);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE funnel_offer_spans');
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}
