// /api/openapi.json: OpenAPI 3.1 of the proxy's public API, generated from
// the zod schemas of schemas.ts (server/openapi/zod.ts), so the document
// cannot drift from the code; each route's problem answers come from the one
// catalogue of problem codes (problems.ts). Built from this folder and the
// recruitment API's contract alone: the proxy serves it, and the build writes
// it to dist/openapi without starting anything.
import { documentOpening } from '../openapi/document.ts';
import { componentSchemas } from '../openapi/zod.ts';
import { DEFAULT_FIELD_MODES } from './application-form.ts';
import { applicationFormSchema } from './application-form-schema.ts';
import type { ConfigurableField, FieldMode } from './application-form.ts';
import { json } from './openapi-parts.ts';
import {
  applicationPaths,
  catalogueApiPaths,
  operationPaths,
  pagePaths,
  receiptAndWidgetPaths,
} from './openapi-paths.ts';
import {
  AlertAnswer,
  AlertRequest,
  ApplicationAnswer,
  CampaignDetail,
  CampaignList,
  ConfigResponse,
  HealthAnswer,
  JobPostingAnswer,
  ProblemSchema,
  ReadyAnswer,
} from './schemas.ts';
import { WebhookEvent } from './webhook-events.ts';
import { StatsReport } from './funnel.ts';
import { STATS_SECURITY_SCHEMES, statsPaths } from './openapi-stats-paths.ts';
import { FunnelBeacon } from './funnel.ts';
import { funnelPaths } from './openapi-funnel-paths.ts';
import { alertPaths } from './openapi-alert-paths.ts';

/**
 * The document of this proxy; `servers` is relative, so it holds wherever the
 * proxy is mounted. `fields` are the board's field modes (FORM_FIELDS): the
 * application form's required fields are those the proxy checks; with
 * `spontaneous` (SPONTANEOUS_APPLICATIONS set), campaign_id is not, company_id
 * standing in for it.
 */
export function buildOpenApi(
  version: string,
  fields: Record<ConfigurableField, FieldMode> = DEFAULT_FIELD_MODES,
  spontaneous = false,
): Record<string, unknown> {
  return {
    ...documentOpening(
      'jobboard-connector proxy',
      version,
      'Public API of the proxy a job board hosts: its campaign catalogue, the application form, and the pages for search engines and server-rendering boards. No credentials: browsers of the allowed origins (ALLOWED_ORIGINS) call /api directly, and requests from other origins are refused. The one exception is the stats of the board (GET /api/stats, GET /dashboard), served only with DASHBOARD_TOKEN and only to it. Errors are RFC 9457 problem+json with a stable `code`. A method a path does not have is answered 405 `method_not_allowed` with `Allow` listing the methods it has (OPTIONS outside /api: 200 with `Allow`).',
    ),
    servers: [{ url: '/', description: 'This proxy (relative to where the document is served)' }],
    // A public API: no operation needs credentials but the board's stats, which say so themselves.
    security: [],
    tags: [
      { name: 'Catalogue', description: "The campaigns broadcast on this job board, from the proxy's own copy" },
      { name: 'Applications', description: 'The application form' },
      { name: 'Pages', description: 'For search engines, boards that render on their server, and script tags' },
      { name: 'Operations', description: 'Health, readiness and this documentation' },
      { name: 'Funnel', description: "The widget's beacons of the board's funnel: daily counts, never a person" },
      { name: 'Alerts', description: "A search's alert handed to the board's own mailing (ALERTS=webhook)" },
      {
        name: 'Stats',
        description: "The board's own funnel, behind DASHBOARD_TOKEN: not for the widget, nor for any other origin",
      },
      {
        name: 'Webhooks',
        description: "What the proxy posts to the board's WEBHOOK_URL, signed by the Standard Webhooks rules",
      },
    ],
    webhooks: {
      applicationEvent: {
        post: {
          operationId: 'applicationEvent',
          tags: ['Webhooks'],
          summary:
            'An event about an application, an alert (`alert.requested`) or `webhook.test`, posted to WEBHOOK_URL',
          description:
            'At least once, in order per application. Verify `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the bytes of WEBHOOK_SECRET after `whsec_`) before trusting the body. Any 2xx within 10 s is delivery; anything else is retried (10 s, doubling, at most 6 h apart) for 3 days, with the same webhook-id.',
          parameters: [
            {
              name: 'webhook-id',
              in: 'header',
              required: true,
              description: "The event's id (msg_…), the same at every attempt: skip ids already handled.",
              schema: { type: 'string' },
            },
            {
              name: 'webhook-timestamp',
              in: 'header',
              required: true,
              description: 'Unix seconds of this attempt: refuse one more than 5 minutes from your clock.',
              schema: { type: 'string', pattern: '^[0-9]+$' },
            },
            {
              name: 'webhook-signature',
              in: 'header',
              required: true,
              description: '`v1,<base64 signature>`.',
              schema: { type: 'string' },
            },
          ],
          requestBody: { required: true, content: json('WebhookEvent') },
          responses: {
            200: { description: 'Any 2xx: the event is delivered.' },
            500: { description: 'Anything but 2xx (or no answer within 10 s): the event is sent again later.' },
          },
        },
      },
    },
    paths: {
      ...catalogueApiPaths(),
      ...applicationPaths(),
      ...pagePaths(),
      ...receiptAndWidgetPaths(),
      ...operationPaths(),
      ...statsPaths(),
      ...funnelPaths(),
      ...alertPaths(),
    },
    components: {
      securitySchemes: STATS_SECURITY_SCHEMES,
      schemas: {
        ...componentSchemas(
          {
            Config: ConfigResponse,
            CampaignList,
            CampaignDetail,
            JobPosting: JobPostingAnswer,
            ApplicationAnswer,
            AlertAnswer,
            Problem: ProblemSchema,
            Health: HealthAnswer,
            Ready: ReadyAnswer,
            WebhookEvent,
            StatsReport,
          },
          'output',
        ),
        ...componentSchemas(
          { ApplicationForm: applicationFormSchema(fields, spontaneous), FunnelBeacon, AlertRequest },
          'input',
        ),
      },
    },
  };
}
