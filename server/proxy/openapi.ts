// /api/openapi.json: OpenAPI 3.1 of the public API, generated from the zod
// schemas of schemas.ts with zod 4's z.toJSONSchema (JSON Schema 2020-12,
// which OpenAPI 3.1 uses as is), so the document cannot drift from the code.
import { z } from 'zod';
import {
  ApplicationAnswer,
  ApplicationForm,
  CampaignDetail,
  CampaignList,
  CampaignListQuery,
  ConfigResponse,
  HealthAnswer,
  JobPostingAnswer,
  ProblemSchema,
  ReadyAnswer,
} from './schemas.ts';
import { EmbedQuery } from './routes/embed.ts';
import { SITEMAP_MAX_URLS } from './routes/sitemap.ts';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

function queryParameters(schema: z.ZodObject): unknown[] {
  const properties = (schemaOf(schema, 'input').properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: 'query', required: false, ...(description === undefined ? {} : { description }), schema: rest };
  });
}

export function buildOpenApi(version: string): Record<string, unknown> {
  const cached = {
    ETag: { schema: { type: 'string' } },
    'Cache-Control': { schema: { type: 'string', example: 'public, max-age=60' } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'jobboard-connector proxy',
      version,
      description:
        'Public API of the proxy a job board hosts: its campaign catalogue and the application form. Errors are RFC 9457 problem+json with a stable `code`.',
    },
    paths: {
      '/api/config': {
        get: { summary: 'What the widget needs to render the form', responses: { 200: { description: 'Configuration', headers: cached, content: json('Config') } } },
      },
      '/api/campaigns': {
        get: {
          summary: 'Campaigns broadcast on this job board, searched, filtered and paged',
          parameters: [...queryParameters(CampaignListQuery), { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }],
          responses: {
            200: { description: 'One page of campaigns', headers: cached, content: json('CampaignList') },
            304: { description: 'Not modified (If-None-Match matched the ETag)' },
            403: problem('origin_not_allowed'),
            422: problem('validation_failed: a query parameter is not valid'),
          },
        },
      },
      '/api/campaigns/{id}': {
        get: {
          summary: 'One campaign with its sanitised description',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
          responses: {
            200: { description: 'The campaign', headers: cached, content: json('CampaignDetail') },
            304: { description: 'Not modified' },
            404: problem('campaign_not_found'),
          },
        },
      },
      '/api/campaigns/{id}/jobposting': {
        get: {
          summary: "The campaign as a schema.org JobPosting (JSON-LD), for search engines; the mapping is in the proxy's PUBLIC-API.md",
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
          responses: {
            200: { description: 'The JobPosting', headers: cached, content: { 'application/ld+json': { schema: ref('JobPosting') } } },
            304: { description: 'Not modified' },
            404: problem('campaign_not_found'),
          },
        },
      },
      '/api/applications': {
        post: {
          summary: 'Apply to a campaign',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: true,
              description: 'One value per submission (a UUID), kept across retries of it; the same key within 24 hours replays the first answer.',
              schema: { type: 'string', minLength: 1, maxLength: 200 },
            },
          ],
          requestBody: {
            required: true,
            content: { 'multipart/form-data': { schema: ref('ApplicationForm'), encoding: { resume: { contentType: 'application/octet-stream' } } } },
          },
          responses: {
            201: { description: 'Delivered', content: json('ApplicationAnswer') },
            202: { description: 'Accepted and stored; it will be transmitted shortly', content: json('ApplicationAnswer') },
            400: problem('idempotency_key_missing or malformed_request'),
            403: problem('origin_not_allowed'),
            404: problem('campaign_not_found'),
            409: problem('already_applied or idempotency_key_in_progress'),
            413: problem('file_too_large or request_too_large'),
            415: problem('unsupported_file_type'),
            422: problem('validation_failed (with errors), campaign_closed, captcha_failed or idempotency_key_reused'),
            429: problem('rate_limited (see Retry-After)'),
          },
        },
      },
      '/sitemap.xml': {
        get: {
          summary: `Sitemap (sitemaps.org 0.9) of every open offer's page on the board: BOARD_OFFER_URL with each id, and lastmod its last change; at most ${SITEMAP_MAX_URLS}, the newest`,
          parameters: [{ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }],
          responses: {
            200: { description: 'The sitemap', headers: cached, content: { 'application/xml': { schema: { type: 'string' } } } },
            304: { description: 'Not modified' },
            404: problem('sitemap_not_configured: BOARD_OFFER_URL is not set'),
          },
        },
      },
      '/embed/campaigns': {
        get: {
          summary: 'For boards that render on their server: the <jobboard-campaigns> element with its shadow DOM rendered, its state and the open offer\'s JobPosting, as an HTML fragment',
          parameters: [...queryParameters(EmbedQuery), { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }],
          responses: {
            200: { description: 'The fragment', headers: cached, content: { 'text/html': { schema: { type: 'string' } } } },
            304: { description: 'Not modified' },
            404: { description: 'The fragment saying the offer is no longer open (closed or unknown offer), or not_found when the server renderer is not built', content: { 'text/html': { schema: { type: 'string' } }, 'application/problem+json': { schema: ref('Problem') } } },
            422: problem('validation_failed: a query parameter is not valid'),
          },
        },
      },
      '/healthz': { get: { summary: 'The process answers', responses: { 200: { description: 'Alive', content: json('Health') } } } },
      '/readyz': {
        get: {
          summary: 'The proxy can serve: catalogue synced, outbox open, credentials accepted (an unreachable upstream is reported in checks.upstream and keeps it ready)',
          responses: { 200: { description: 'Ready', content: json('Ready') }, 503: { description: 'Not ready', content: json('Ready') } },
        },
      },
      '/widget.js': {
        get: {
          summary: 'The widget bundle, for a script tag',
          responses: { 200: { description: 'JavaScript module', content: { 'text/javascript': { schema: { type: 'string' } } } }, 404: problem('not_found: the widget is not built') },
        },
      },
    },
    components: {
      schemas: {
        Config: schemaOf(ConfigResponse),
        CampaignList: schemaOf(CampaignList),
        CampaignDetail: schemaOf(CampaignDetail),
        JobPosting: schemaOf(JobPostingAnswer),
        ApplicationForm: { ...schemaOf(ApplicationForm, 'input'), properties: { ...((schemaOf(ApplicationForm, 'input').properties ?? {}) as object), resume: { type: 'string', format: 'binary', description: 'pdf, jpg, png, doc or docx, at most resume.max_bytes of /api/config' } } },
        ApplicationAnswer: schemaOf(ApplicationAnswer),
        Problem: schemaOf(ProblemSchema),
        Health: schemaOf(HealthAnswer),
        Ready: schemaOf(ReadyAnswer),
      },
    },
  };
}
