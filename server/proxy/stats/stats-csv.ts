// GET /api/stats as CSV (RFC 4180): one row per offer of the report, a column
// per stage in funnel order, then one per company outcome of the period.
// Written here rather than with a library: quoting is the one rule, and no
// CSV package is among the proxy's dependencies.
import { FUNNEL_STAGES, OUTCOME_COLUMN_PREFIX, STATS_CSV_COLUMNS } from '../../public-api/funnel.ts';
import type { StatsReport } from '../../public-api/funnel.ts';

/**
 * One cell: a number as it is; text quoted when it holds a comma, a quote or
 * a line break (its quotes doubled), and, when a spreadsheet would take it
 * for a formula (it starts with = + - @, or a tab or carriage return before
 * one), prefixed with an apostrophe so that it stays text: an offer's title
 * and a company's status name are written by others.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(cells: readonly (string | number)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The report's offers as CSV, with a header line; the outcomes' columns are those of the period's totals, sorted. */
export function statsCsv(report: StatsReport): string {
  const outcomes = Object.keys(report.totals.outcomes).sort();
  const header = csvLine([...STATS_CSV_COLUMNS, ...outcomes.map((status) => `${OUTCOME_COLUMN_PREFIX}${status}`)]);
  const rows = report.offers.map(({ campaign_id, title, counts }) =>
    csvLine([
      // The spontaneous applications' line: no offer id, and `spontaneous` where an offer's title goes.
      campaign_id ?? '',
      campaign_id === null ? 'spontaneous' : (title ?? ''),
      ...FUNNEL_STAGES.map((stage) => counts[stage]),
      ...outcomes.map((status) => counts.outcomes[status] ?? 0),
    ]),
  );
  return header + rows.join('');
}
