// GET /dashboard: the board's funnel as a page, in the language of ?lang=,
// else of the browser, else the board's (BOARD_LANG). A period that does not parse is answered 422 with the
// page of the default period and a word on what to change, rather than a
// problem in JSON: a person chose it, in the page's own form.
import type { Request, RequestHandler, Response } from 'express';
import type { Locale } from '../../contract/index.ts';
import { DashboardQuery } from '../../public-api/funnel.ts';
import { pageLanguageOf } from '../http/page-language.ts';
import { ProblemError } from '../http/problem.ts';
import type { DashboardAssets } from './dashboard-assets.ts';
import { DASHBOARD_CSP, renderDashboardPage } from './dashboard-page.ts';
import type { OfferChecksView } from './dashboard-checks.ts';
import { periodOf } from './stats-period.ts';
import { readStatsReport } from './stats-report.ts';
import type { StatsSource } from './stats-report.ts';
import { parseQuery } from './stats-route.ts';

export interface DashboardSource extends StatsSource {
  /** The offers the offer checks find problems in, as the catalogue lists them now. */
  offerChecks(): OfferChecksView;
  /** The board's language (BOARD_LANG): the page's when neither ?lang= nor the browser names one of its languages. */
  boardLang: Locale;
}

/** The parsed query, or the default one and the problem when it does not parse. */
function queryOf(
  req: Request,
  now: number,
): { query: DashboardQuery; period: { from: string; to: string }; problem?: ProblemError } {
  try {
    const query = parseQuery(DashboardQuery, req.query);
    return { query, period: periodOf(query, now) };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const query = DashboardQuery.parse({});
    return { query, period: periodOf(query, now), problem: error };
  }
}

function send(res: Response, status: number, lang: Locale, html: string): void {
  res.status(status);
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Content-Language', lang);
  res.setHeader('Vary', 'Accept-Language');
  res.type('html').send(html);
}

export function dashboardRoute(source: DashboardSource, assets: DashboardAssets): RequestHandler {
  return async (req, res) => {
    const lang = pageLanguageOf(req, source.boardLang);
    const { query, period, problem } = queryOf(req, source.now());
    const [report, names] = await Promise.all([
      readStatsReport(source, period, { sort: query.sort, limit: query.limit }),
      assets.names(),
    ]);
    const offerChecks = source.offerChecks();
    // Mounted under a partner's path or not, the page links within it.
    const base = req.baseUrl;
    const html = renderDashboardPage({
      lang,
      report,
      sort: query.sort,
      sourcesSort: query.sources_sort,
      query: {
        lang,
        from: period.from,
        to: period.to,
        sort: query.sort,
        sources_sort: query.sources_sort,
        ...(typeof req.query.limit === 'string' && problem === undefined ? { limit: String(query.limit) } : {}),
      },
      paths: {
        dashboard: `${base}/dashboard`,
        stats: `${base}/api/stats`,
        scripts: names.map((name) => `${base}/dashboard/${name}`),
      },
      offerChecks,
      invalid: problem !== undefined,
    });
    send(res, problem === undefined ? 200 : 422, lang, html);
  };
}
