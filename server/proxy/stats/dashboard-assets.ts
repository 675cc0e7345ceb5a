// The dashboard's two scripts, served under /dashboard/ only: Chart.js (its
// UMD build, from the package the proxy depends on) and the page's own
// drawing (dashboard-charts.ts). Each under a name carrying a hash of its
// bytes, cached for good: a new version is a new name. Neither is secret (a
// published library and the code that draws), so they are served without
// the token, which keeps them cacheable; the data is in the page, behind it.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RequestHandler } from 'express';
import { sendCachedJson, textAnswer } from '../http/http-cache.ts';
import type { JsonAnswer } from '../http/http-cache.ts';
import { ProblemError } from '../http/problem.ts';
import { DASHBOARD_SCRIPT } from './dashboard-charts.ts';

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const SCRIPT_TYPE = 'text/javascript; charset=utf-8';

export interface DashboardAssets {
  /** The scripts' file names (chart-<hash>.js, dashboard-<hash>.js), in the order the page loads them. */
  names(): Promise<string[]>;
  /** GET /dashboard/:file: one of those names, else 404. */
  handler: RequestHandler;
}

function named(prefix: string, text: string): [string, JsonAnswer<string>] {
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 12);
  return [`${prefix}-${hash}.js`, textAnswer(text)];
}

/** Chart.js's UMD build, minified: one file that defines window.Chart. */
function chartJsFile(): string {
  return join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
}

export function dashboardAssets(): DashboardAssets {
  // Read on the first page asked, then kept: the library does not change while the proxy runs.
  let loaded: Promise<Map<string, JsonAnswer<string>>> | undefined;
  const load = () =>
    (loaded ??= readFile(chartJsFile(), 'utf8').then(
      (chart) => new Map([named('chart', chart), named('dashboard', DASHBOARD_SCRIPT)]),
      (error: unknown) => {
        loaded = undefined;
        throw error;
      },
    ));
  return {
    names: async () => [...(await load()).keys()],
    handler: async (req, res) => {
      const answer = (await load()).get(String(req.params.file));
      if (answer === undefined)
        throw new ProblemError(
          'not_found',
          "This proxy serves no such dashboard script (only its current ones): reload the dashboard's page.",
        );
      res.locals.metricsRoute = '/dashboard/:file';
      sendCachedJson(req, res, answer, ASSET_CACHE_CONTROL, SCRIPT_TYPE);
    },
  };
}
