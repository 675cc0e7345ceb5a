// The period GET /api/stats and the dashboard report: from and to as asked,
// else the last DEFAULT_STATS_DAYS days to today (UTC), checked in order and
// at most MAX_STATS_DAYS long. A wrong one is a 422 naming the parameter.
import { DEFAULT_STATS_DAYS, MAX_STATS_DAYS } from '../../public-api/funnel.ts';
import type { FunnelPeriod } from '../storage/funnel/funnel-store.ts';
import { validationProblem } from '../http/problem.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day (YYYY-MM-DD) of a time, as the counts keep days. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `day` moved by `days` (negative: back). */
export function addDays(day: string, days: number): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/** Days from `from` to `to`, both included. */
export function daysIn({ from, to }: FunnelPeriod): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The period of a parsed query (days already valid), defaults filled; throws a validation problem when it runs backwards or is too long. */
export function periodOf(query: { from?: string | undefined; to?: string | undefined }, now: number): FunnelPeriod {
  const to = query.to ?? utcDay(now);
  const from = query.from ?? addDays(to, -(DEFAULT_STATS_DAYS - 1));
  const period = { from, to };
  if (from > to)
    throw validationProblem([
      { field: 'from', code: 'invalid_value', message: 'must be on or before to (the period runs from from to to)' },
    ]);
  if (daysIn(period) > MAX_STATS_DAYS)
    throw validationProblem([
      {
        field: 'from',
        code: 'invalid_value',
        message: `must be at most ${MAX_STATS_DAYS} days before to, both included: ask for a longer time in several periods`,
      },
    ]);
  return period;
}
