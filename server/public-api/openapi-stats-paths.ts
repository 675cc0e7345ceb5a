// The board's own stats in the proxy's OpenAPI document (openapi.ts): GET
// /api/stats and GET /dashboard, which only exist with DASHBOARD_TOKEN and
// only answer that token; and the schemes it is sent with.
import { queryParameters } from '../openapi/zod.ts';
import type { JsonSchema } from '../openapi/zod.ts';
import { DashboardQuery, MAX_STATS_DAYS, OUTCOME_COLUMN_PREFIX, STATS_CSV_COLUMNS, StatsQuery } from './funnel.ts';
import { explained, json, pageLang, problems, text } from './openapi-parts.ts';

/** components.securitySchemes: DASHBOARD_TOKEN as a Basic password (any user name) or a Bearer token. */
export const STATS_SECURITY_SCHEMES = {
  dashboardBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'DASHBOARD_TOKEN as the password, with any user name (a browser asks for both).',
  },
  dashboardBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'DASHBOARD_TOKEN as the token: `Authorization: Bearer <DASHBOARD_TOKEN>`.',
  },
};

const security = [{ dashboardBasic: [] }, { dashboardBearer: [] }];
const noStore = { 'Cache-Control': { required: true, schema: { type: 'string', const: 'no-store' } } };

/** 401 with its challenge, 404 without the token set, and what else the operation answers. */
function closed(...more: Parameters<typeof problems>): Record<string, JsonSchema> {
  const answers = explained(problems('unauthorized', 'not_found', ...more), {
    401: 'No token, or not DASHBOARD_TOKEN: `WWW-Authenticate` asks for Basic authentication, so that a browser prompts',
    404: 'DASHBOARD_TOKEN is not set on this proxy: the path does not exist',
  });
  const unauthorized = answers[401] as JsonSchema;
  answers[401] = {
    ...unauthorized,
    headers: {
      'WWW-Authenticate': {
        required: true,
        schema: { type: 'string', example: 'Basic realm="jobboard-connector dashboard", charset="UTF-8"' },
      },
    },
  };
  return answers;
}

export function statsPaths(): Record<string, JsonSchema> {
  return {
    '/api/stats': {
      get: {
        operationId: 'getStats',
        tags: ['Stats'],
        summary: "The board's funnel over a period: in total, per offer, per source and per day",
        description:
          `Daily counts (UTC days), never a person: the widget's stages (listed, opened, started, submitted) and the proxy's (received, delivered, rejected, dead), and the companies' outcomes (their status names). Offers are named by the catalogue as it is now (title null when it no longer holds the offer). The period is at most ${MAX_STATS_DAYS} days. ` +
          `With \`Accept: text/csv\` (or \`format=csv\`), CSV (RFC 4180, a header line): one row per offer of \`offers\`, same order and limit, with the columns ${STATS_CSV_COLUMNS.map((c) => `\`${c}\``).join(', ')}, then one column per company outcome of the period, \`${OUTCOME_COLUMN_PREFIX}<status>\`; a cell a spreadsheet would read as a formula (starting with = + - @) is prefixed with an apostrophe. ` +
          'Only with DASHBOARD_TOKEN, and only to it; never cached; no other origin may read it (no CORS).',
        security,
        parameters: queryParameters(StatsQuery),
        responses: {
          200: {
            description: 'The funnel',
            headers: noStore,
            content: { ...json('StatsReport'), ...text('text/csv') },
          },
          ...closed('validation_failed'),
        },
      },
    },
    '/dashboard': {
      get: {
        operationId: 'getDashboard',
        tags: ['Stats'],
        summary: "The board's funnel as a page: charts and tables, for the board's people",
        description:
          "Server-rendered HTML (its charts drawn by Chart.js from the data in the page, each with its table beside it), in the language of `lang`, else Accept-Language, else English. A period that cannot be read is answered 422 with the page of the last 30 days, saying so. It also lists the offers listed now that the offer checks find problems in. Only with DASHBOARD_TOKEN, and only to it; never cached. Its scripts are served from /dashboard/, under names that carry their content's hash.",
        security,
        parameters: [...queryParameters(DashboardQuery), pageLang],
        responses: {
          200: { description: 'The page', headers: noStore, content: text('text/html') },
          ...closed(),
          422: {
            description: 'The page of the last 30 days, saying the period asked cannot be shown',
            content: text('text/html'),
          },
        },
      },
    },
  };
}
