// GET /api/stats: the board's funnel over a period, in JSON (StatsReport) or,
// for `Accept: text/csv` or `format=csv`, in CSV (stats-csv.ts). Mounted
// behind dashboardAuth, which makes every answer no-store.
import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import { StatsQuery } from '../../public-api/funnel.ts';
import { fieldProblems } from '../catalogue/routes/campaigns.ts';
import { addVary } from '../http/http-cache.ts';
import { validationProblem } from '../http/problem.ts';
import { statsCsv } from './stats-csv.ts';
import { periodOf } from './stats-period.ts';
import { readStatsReport } from './stats-report.ts';
import type { StatsSource } from './stats-report.ts';

/** A query string parsed by `schema`, or a 422 naming each parameter that does not parse. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw validationProblem(fieldProblems(parsed.error));
  return parsed.data;
}

function wantsCsv(req: Request, format: StatsQuery['format']): boolean {
  if (format !== undefined) return format === 'csv';
  return req.accepts(['application/json', 'text/csv']) === 'text/csv';
}

export function statsRoute(source: StatsSource): RequestHandler {
  return async (req, res) => {
    const query = parseQuery(StatsQuery, req.query);
    const period = periodOf(query, source.now());
    const report = await readStatsReport(source, period, { sort: query.sort, limit: query.limit });
    addVary(res, 'Accept');
    if (wantsCsv(req, query.format)) {
      res.setHeader('Content-Disposition', `attachment; filename="funnel-${period.from}-${period.to}.csv"`);
      res.type('text/csv; charset=utf-8; header=present').send(statsCsv(report));
      return;
    }
    res.json(report);
  };
}
