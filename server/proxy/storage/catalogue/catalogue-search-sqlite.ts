// The SQLite catalogue's search (catalogue-sqlite.ts owns the tables): the
// statements of a search by words, filters, place and order, and the bounds
// on its cost. A search's words are bounded in search-text.ts (no one-letter
// word, five words at most); here, the matches ranked by relevance are
// bounded (MAX_RANKED_MATCHES), and a search with words or a place runs
// under a time budget (search-budget.ts).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { DEFAULT_RADIUS_KM } from '../../../public-api/list-params.ts';
import { boundingBox, distanceSql } from '../../catalogue/geo.ts';
import { foldForSearch, matchExpression, SEARCH_BUDGET_MS } from '../../catalogue/search-text.ts';
import type { CampaignFilters } from '../../catalogue/types.ts';
import { createSearchBudget, withinBudget } from './search-budget.ts';

/** bm25 weights of the full-text columns: a match in the title counts most, then the company, then the texts. */
const WEIGHTS = '10.0, 5.0, 1.0';
const RANK = `bm25(campaigns_text, ${WEIGHTS})`;
const BY_DATE = 'c.listed_at DESC, c.id DESC';
const WORDS_COUNT = `SELECT count(*) AS n FROM campaigns_text WHERE campaigns_text MATCH ? AND ${withinBudget('rowid')}`;

/**
 * The most matches a search ranks by relevance. Ranking computes bm25 for
 * every match (tens of milliseconds for tens of thousands), while counting
 * them costs a few: a broader search is shown newest first, as with
 * sort=date, and a candidate narrows it with one more word.
 */
export const MAX_RANKED_MATCHES = 5_000;

/**
 * A ranked search of words alone (the index holds listed offers only): each
 * match's rank computed once, by the index (its rank column, these weights),
 * and only the matches ranked at or above the page's last one joined to the
 * table for the date that breaks ties, rather than every match sorted by
 * rank and date. Parameters: the words, the offset of the page's last row,
 * per_page, the page's offset.
 */
const RANKED_WORDS = `
  WITH ranked AS MATERIALIZED (
    SELECT rowid AS id, rank AS score FROM campaigns_text WHERE campaigns_text MATCH ? AND rank MATCH 'bm25(${WEIGHTS})' AND ${withinBudget('rowid')}
  ),
    last AS (SELECT score FROM ranked ORDER BY score LIMIT 1 OFFSET ?)
  SELECT r.id FROM ranked r CROSS JOIN campaigns c ON c.id = r.id
  WHERE r.score <= coalesce((SELECT score FROM last), 1e308)
  ORDER BY r.score, ${BY_DATE} LIMIT ? OFFSET ?`;

/**
 * Words alone, newest first, with the count of their matches: the index's
 * matches read once (a common word's list is most of a search's cost), for
 * the count and the page. Parameters: the words, per_page, the page's offset.
 */
const DATED_WORDS = `
  WITH matched AS MATERIALIZED (SELECT rowid AS id FROM campaigns_text WHERE campaigns_text MATCH ? AND ${withinBudget('rowid')})
  SELECT c.id, (SELECT count(*) FROM matched) AS total FROM campaigns c INDEXED BY campaigns_listing
  WHERE c.status = 'online' AND c.id IN (SELECT id FROM matched) ORDER BY ${BY_DATE} LIMIT ? OFFSET ?`;

type SearchRows = { ids: number[]; total: number };

/** A search's filters other than its words, as SQL over the campaigns table `c`. */
function filterSql(f: CampaignFilters): {
  where: string[];
  params: (string | number)[];
  distance: { sql: string; params: number[] } | undefined;
} {
  const where: string[] = ["c.status = 'online'"];
  const params: (string | number)[] = [];
  const filter = (clause: string, ...values: (string | number)[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (f.company_id !== undefined) filter('c.company_id = ?', f.company_id);
  if (f.job_type !== undefined) filter('c.job_type = ?', f.job_type);
  if (f.working_time !== undefined) filter('c.working_time = ?', f.working_time);
  if (f.city !== undefined) filter('c.city_key = ?', foldForSearch(f.city.trim()));
  if (f.salary_min !== undefined) filter('c.pay >= ?', f.salary_min);
  if (f.near === undefined) return { where, params, distance: undefined };
  // The index narrows to the box around the circle; the exact distance decides within it.
  const radius = f.radius_km ?? DEFAULT_RADIUS_KM;
  const box = boundingBox(f.near, radius);
  const distance = distanceSql(f.near, 'c.lat', 'c.lon');
  filter('c.lat BETWEEN ? AND ? AND c.lon BETWEEN ? AND ?', box.minLat, box.maxLat, box.minLon, box.maxLon);
  filter(`${distance.sql} <= ?`, ...distance.params, radius);
  return { where, params, distance };
}

/** The search of the catalogue in db, each search of words or a place within budgetMs. */
export function createCatalogueSearch(
  db: DatabaseSync,
  budgetMs = SEARCH_BUDGET_MS,
): (f: CampaignFilters) => SearchRows {
  const budget = createSearchBudget(db, budgetMs);
  // A search's statements are prepared once per shape (its filters and order: a few dozen at most).
  const statements = new Map<string, StatementSync>();
  const statement = (sql: string): StatementSync => {
    let prepared = statements.get(sql);
    if (prepared === undefined) statements.set(sql, (prepared = db.prepare(sql)));
    return prepared;
  };

  const rows = (f: CampaignFilters, match: string | null): SearchRows => {
    const { where, params, distance } = filterSql(f);
    const filtered = where.length > 1;
    // The text index's rows are checked as they are read; without words, the table's.
    if (match === null && distance !== undefined) where.push(withinBudget('c.id'));
    const offset = (f.page - 1) * f.per_page;
    const page = (statementSql: string, ...values: (string | number)[]) =>
      (statement(statementSql).all(...values) as { id: number }[]).map((r) => r.id);
    // Words with filters or a place: the matches as a set of ids the table is filtered with.
    const words = `c.id IN (SELECT rowid FROM campaigns_text WHERE campaigns_text MATCH ? AND ${withinBudget('rowid')})`;
    const clause = [...where, ...(match === null ? [] : [words])].join(' AND ');
    const clauseParams = match === null ? params : [...params, match];
    const sort = f.sort ?? (match === null ? 'date' : 'relevance');
    // Words alone (the index holds the listed offers only): newest first and counted in one reading of the index; ranked after, if there are few enough to rank.
    if (match !== null && !filtered && distance === undefined) {
      const dated = statement(DATED_WORDS).all(match, f.per_page, offset) as { id: number; total: number }[];
      // A page past the last has no row to carry the count.
      const total = dated[0]?.total ?? (statement(WORDS_COUNT).get(match) as { n: number }).n;
      if (sort === 'relevance' && total <= MAX_RANKED_MATCHES)
        return { ids: page(RANKED_WORDS, match, offset + f.per_page - 1, f.per_page, offset), total };
      return { ids: dated.map((r) => r.id), total };
    }
    const total = (
      statement(`SELECT count(*) AS n FROM campaigns c WHERE ${clause}`).get(...clauseParams) as { n: number }
    ).n;
    if (match !== null && sort === 'relevance' && total <= MAX_RANKED_MATCHES) {
      // CROSS JOIN keeps the index outside: inside, SQLite would run the whole text query once per row of a place or salary filter.
      const ranked = `SELECT c.id FROM campaigns_text CROSS JOIN campaigns c ON c.id = campaigns_text.rowid
        WHERE ${[...where, 'campaigns_text MATCH ?', withinBudget('campaigns_text.rowid')].join(' AND ')} ORDER BY ${RANK}, ${BY_DATE} LIMIT ? OFFSET ?`;
      return { ids: page(ranked, ...params, match, f.per_page, offset), total };
    }
    if (sort === 'distance' && distance !== undefined) {
      return {
        ids: page(
          `SELECT c.id FROM campaigns c WHERE ${clause} ORDER BY ${distance.sql}, ${BY_DATE} LIMIT ? OFFSET ?`,
          ...clauseParams,
          ...distance.params,
          f.per_page,
          offset,
        ),
        total,
      };
    }
    // Newest first, the page walks the list's index (filtering as it goes) rather than sorting every match.
    return {
      ids: page(
        `SELECT c.id FROM campaigns c INDEXED BY campaigns_listing WHERE ${clause} ORDER BY ${BY_DATE} LIMIT ? OFFSET ?`,
        ...clauseParams,
        f.per_page,
        offset,
      ),
      total,
    };
  };

  return (f) => {
    const match = f.q === undefined ? null : matchExpression(f.q);
    // A search with no word to find (punctuation, one-letter words) finds nothing.
    if (f.q !== undefined && match === null) return { ids: [], total: 0 };
    return match === null && f.near === undefined
      ? rows(f, null)
      : budget.run(match === null ? 'near' : 'q', () => rows(f, match));
  };
}
