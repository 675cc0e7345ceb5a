// /api/openapi.json: OpenAPI 3.1 of the proxy's public API, generated from
// the zod schemas of schemas.ts (server/openapi/zod.ts), so the document
// cannot drift from the code; each route's problem answers come from the one
// catalogue of problem codes (problems.ts). Built from this folder and the
// recruitment API's contract alone: the proxy serves it, and the build writes
// it to dist/openapi without starting anything.
import type { ProblemCode } from './problems.ts';
import { PROBLEMS } from './problems.ts';
import { LOCALES, MIME_TYPE_OF, RESUME_TYPES } from '../contract/index.ts';
import { componentSchemas, jsonSchemaOf, queryParameters, schemaRef } from '../openapi/zod.ts';
import type { JsonSchema } from '../openapi/zod.ts';
import { DEFAULT_FIELD_MODES } from './application-form.ts';
import type { ConfigurableField, FieldMode } from './application-form.ts';
import {
  ApplicationAnswer,
  applicationFormSchema,
  CampaignDetail,
  CampaignList,
  CampaignListQuery,
  ConfigResponse,
  EmbedQuery,
  FeedQuery,
  HealthAnswer,
  JobPostingAnswer,
  OfferHeadQuery,
  OfferId,
  ProblemSchema,
  ReadyAnswer,
  SITEMAP_MAX_URLS,
} from './schemas.ts';
import { WebhookEvent } from './webhook-events.ts';

const json = (name: string) => ({ 'application/json': { schema: schemaRef(name) } });
const text = (type: string) => ({ [type]: { schema: { type: 'string' } } });
const problemContent = { 'application/problem+json': { schema: schemaRef('Problem') } };

/** The answers of some problem codes, one per status, each naming its codes (an unexpected failure is always possible). */
function problems(...codes: ProblemCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of [...codes, 'internal_error' as const])
    byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, of]) => {
      const retryAfter = of.some(
        (code) =>
          code === 'rate_limited' ||
          code === 'server_busy' ||
          code === 'storage_full' ||
          code === 'delivery_blocked' ||
          code === 'not_ready',
      );
      return [
        status,
        {
          description: of.map((code) => `\`${code}\`: ${PROBLEMS[code].title}`).join('; '),
          ...(retryAfter
            ? {
                headers: {
                  'Retry-After': {
                    description: 'Seconds to wait before trying again',
                    schema: { type: 'string', pattern: '^[0-9]+$' },
                  },
                },
              }
            : {}),
          content: problemContent,
        },
      ];
    }),
  );
}

const ifNoneMatch = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag of an earlier answer: 304 when it is still current.',
  schema: { type: 'string' },
};
const cached = (cacheControl: string) => ({
  ETag: { required: true, schema: { type: 'string' } },
  'Cache-Control': { required: true, schema: { type: 'string', example: cacheControl } },
});
const notModified = { description: 'Not modified: If-None-Match holds the current ETag' };
const campaignId = {
  name: 'id',
  in: 'path',
  required: true,
  description: "The campaign's id",
  schema: jsonSchemaOf(OfferId, 'input'),
};

/** Problem answers with what some statuses mean on this operation, beyond their codes' titles. */
function explained(answers: Record<string, JsonSchema>, notes: Record<number, string>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(answers).map(([status, answer]) => {
      const note = notes[Number(status)];
      return [
        status,
        note === undefined ? answer : { ...answer, description: `${String(answer.description)}. ${note}` },
      ];
    }),
  );
}

/**
 * The document of this proxy; `servers` is relative, so it holds wherever the
 * proxy is mounted. `fields` are the board's field modes (FORM_FIELDS): the
 * application form's required fields are those the proxy checks.
 */
export function buildOpenApi(
  version: string,
  fields: Record<ConfigurableField, FieldMode> = DEFAULT_FIELD_MODES,
): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'jobboard-connector proxy',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Public API of the proxy a job board hosts: its campaign catalogue, the application form, and the pages for search engines and server-rendering boards. No credentials: browsers of the allowed origins (ALLOWED_ORIGINS) call /api directly, and requests from other origins are refused. Errors are RFC 9457 problem+json with a stable `code`. A method a path does not have is answered 405 `method_not_allowed` with `Allow` listing the methods it has (OPTIONS outside /api: 200 with `Allow`).',
    },
    servers: [{ url: '/', description: 'This proxy (relative to where the document is served)' }],
    // A public API: no operation needs credentials.
    security: [],
    tags: [
      { name: 'Catalogue', description: "The campaigns broadcast on this job board, from the proxy's own copy" },
      { name: 'Applications', description: 'The application form' },
      { name: 'Pages', description: 'For search engines, boards that render on their server, and script tags' },
      { name: 'Operations', description: 'Health, readiness and this documentation' },
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
          summary: 'An event about an application (or `webhook.test`), posted to WEBHOOK_URL',
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
      '/api/config': {
        get: {
          operationId: 'getConfig',
          tags: ['Catalogue'],
          summary: 'What the widget needs to render the form',
          responses: {
            200: { description: 'Configuration', content: json('Config') },
            ...problems('origin_not_allowed'),
          },
        },
      },
      '/api/campaigns': {
        get: {
          operationId: 'listCampaigns',
          tags: ['Catalogue'],
          summary: 'Campaigns broadcast on this job board, searched, filtered and paged',
          parameters: [...queryParameters(CampaignListQuery), ifNoneMatch],
          responses: {
            200: {
              description: 'One page of campaigns',
              headers: cached('public, max-age=60'),
              content: json('CampaignList'),
            },
            304: notModified,
            ...problems('origin_not_allowed', 'validation_failed', 'rate_limited'),
          },
        },
      },
      '/api/campaigns/{id}': {
        get: {
          operationId: 'getCampaign',
          tags: ['Catalogue'],
          summary: 'One campaign with its sanitised description',
          parameters: [campaignId, ifNoneMatch],
          responses: {
            200: {
              description: 'The campaign',
              headers: cached('public, max-age=60'),
              content: json('CampaignDetail'),
            },
            304: notModified,
            ...problems('origin_not_allowed', 'campaign_not_found'),
          },
        },
      },
      '/api/campaigns/{id}/jobposting': {
        get: {
          operationId: 'getCampaignJobPosting',
          tags: ['Pages'],
          summary:
            "The campaign as a schema.org JobPosting (JSON-LD), for search engines; the mapping is in the package's server/public-api/README.md",
          parameters: [campaignId, ifNoneMatch],
          responses: {
            200: {
              description: 'The JobPosting',
              headers: cached('public, max-age=60'),
              content: { 'application/ld+json': { schema: schemaRef('JobPosting') } },
            },
            304: notModified,
            ...problems('origin_not_allowed', 'campaign_not_found'),
          },
        },
      },
      '/api/applications': {
        post: {
          operationId: 'apply',
          tags: ['Applications'],
          summary: 'Apply to a campaign',
          description:
            "The form is written to a durable outbox before anything is answered, then delivered to the recruitment service: 201 when it was delivered within the delivery deadline, 202 when it is queued and will be retried. The fields required are those this proxy requires (its board's FORM_FIELDS; `fields` of GET /api/config says the same): the document in the package shows the defaults. A field the board hides is not read, and not listed.",
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: true,
              description:
                'One value per submission (a UUID), kept across retries of it; the same key within 24 hours replays the first answer.',
              schema: { type: 'string', minLength: 1, maxLength: 200 },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: schemaRef('ApplicationForm'),
                encoding: { resume: { contentType: RESUME_TYPES.map((type) => MIME_TYPE_OF[type]).join(', ') } },
              },
            },
          },
          responses: {
            201: { description: 'Delivered', headers: replayed(), content: json('ApplicationAnswer') },
            202: {
              description: 'Accepted and stored; it will be transmitted shortly',
              headers: replayed(),
              content: json('ApplicationAnswer'),
            },
            ...explained(
              problems(
                'idempotency_key_missing',
                'malformed_request',
                'origin_not_allowed',
                'campaign_not_found',
                'already_applied',
                'idempotency_key_in_progress',
                'upload_too_slow',
                'file_too_large',
                'request_too_large',
                'unsupported_file_type',
                'validation_failed',
                'campaign_closed',
                'captcha_failed',
                'idempotency_key_reused',
                'rate_limited',
                'not_ready',
                'server_busy',
                'storage_full',
                'delivery_blocked',
              ),
              {
                415: "The resume's bytes are none of pdf, jpg, png, doc or docx, whatever type it was sent as",
                422: 'Among the field errors: a required resume that is missing or empty, a phone_number without its phone_code',
              },
            ),
          },
        },
      },
      '/sitemap.xml': {
        get: {
          operationId: 'getSitemap',
          tags: ['Pages'],
          summary: "Sitemap of every open offer's page on the board",
          description: `Sitemap (sitemaps.org 0.9): BOARD_OFFER_URL with each open offer's id, and lastmod its last change, newest first. Past ${SITEMAP_MAX_URLS} offers (the protocol's limit per file), a sitemap index of /sitemap.xml?page=1, ?page=2… (each at most ${SITEMAP_MAX_URLS}), listed under PUBLIC_ORIGIN and the proxy's mount (BOARD_OFFER_URL's origin without PUBLIC_ORIGIN).`,
          parameters: [
            {
              name: 'page',
              in: 'query',
              required: false,
              description: 'A file of the sitemap index, from 1',
              schema: { type: 'integer', minimum: 1 },
            },
            ifNoneMatch,
          ],
          responses: {
            200: {
              description: 'The sitemap, or the sitemap index',
              headers: cached('public, max-age=300'),
              content: text('application/xml'),
            },
            304: notModified,
            ...problems('sitemap_not_configured', 'not_found'),
          },
        },
      },
      '/feeds/offers.atom': {
        get: {
          operationId: 'getOffersFeed',
          tags: ['Pages'],
          summary: "The newest offers as an Atom feed, with the list's search and filters",
          description:
            'Atom 1.0 (RFC 4287): one entry per offer of the page the query asks (the query of GET /api/campaigns, newest first), with its title, company (author), last change (updated), listing time (published), its page on the board (BOARD_OFFER_URL, rel="alternate"), a plain-text summary (160 characters) and its description and profile as escaped HTML (content type="html"). The feed is in the language `lang` names (its xml:lang and its title), links to itself (rel="self": the URL it was asked at, on PUBLIC_ORIGIN) and to the board\'s list (rel="alternate"). Built once per catalogue version and sent compressed (br, gzip) as the list is. Without BOARD_OFFER_URL: 404 `feed_not_configured`.',
          parameters: [
            ...queryParameters(FeedQuery),
            ifNoneMatch,
            {
              name: 'If-Modified-Since',
              in: 'header',
              required: false,
              description:
                'The Last-Modified of an earlier answer: 304 when nothing changed since (If-None-Match wins when both are sent).',
              schema: { type: 'string' },
            },
          ],
          responses: {
            200: {
              description: 'The feed',
              headers: {
                ...cached('public, max-age=60'),
                'Last-Modified': { required: true, schema: { type: 'string' } },
              },
              content: text('application/atom+xml'),
            },
            304: notModified,
            ...problems('validation_failed', 'feed_not_configured'),
          },
        },
      },
      '/embed/campaigns': {
        get: {
          operationId: 'getCampaignsFragment',
          tags: ['Pages'],
          summary: 'The offers as an HTML fragment, for boards that render on their server',
          description:
            "The <jobboard-campaigns> element with its shadow DOM rendered, its state and the open offer's JobPosting, as an HTML fragment to put where the element would go (keep the widget's script tag). " +
            "The element's `endpoint` is this proxy's own address: PUBLIC_ORIGIN followed by the path the proxy is mounted under, or that path alone (relative to the page) without PUBLIC_ORIGIN; it is never taken from the request. " +
            'Only the parameters listed here are read; every other one, `endpoint` included, is ignored. ' +
            "A board forwards only its page's `offer` (or its offer-param's name, with `offer_param`), `q`, `job_type`, `working_time`, `city`, `near`, `radius_km`, `salary_min`, `sort` and `page` (FORWARDED_PAGE_PARAMS of jobboard-connector/proxy), and adds `lang`, `per_page` and its presets (`preset_company_id`, `preset_job_type`, `preset_city`: the element's company-id, job-type and city) itself: a link to its page can carry any parameter. A preset wins over the candidate's filter of the same name.",
          parameters: [...queryParameters(EmbedQuery), ifNoneMatch],
          responses: {
            200: { description: 'The fragment', headers: cached('public, max-age=60'), content: text('text/html') },
            304: notModified,
            ...problems('validation_failed'),
            404: {
              description:
                'The fragment saying the offer is no longer open (an offer never published), or `not_found` when the server renderer is not built',
              content: { ...text('text/html'), ...problemContent },
            },
            410: {
              description:
                'Gone: the fragment saying the offer is no longer open, with the way back to the list, for an offer published on this board and closed since (answer your page 410 too, so search engines drop it)',
              content: text('text/html'),
            },
          },
        },
      },
      '/embed/campaigns/head': {
        get: {
          operationId: 'getOfferHead',
          tags: ['Pages'],
          summary: "The tags of an offer's page for the document's head: shared links that preview",
          description:
            'HTML to put in the <head> of the page showing the offer, built from its JobPosting: `<title>`, `<meta name="description">` (the offer\'s text, plain, cut to 160 characters), `<link rel="canonical">` and `og:url` (with BOARD_OFFER_URL), Open Graph (`og:type`, `og:title`, `og:description`, and `og:image` with BOARD_OG_IMAGE) and Twitter card (`twitter:card`, `twitter:title`, `twitter:description`). Every value is escaped. The widget sets the same tags in the browser while it shows the offer.',
          parameters: [...queryParameters(OfferHeadQuery), ifNoneMatch],
          responses: {
            200: { description: 'The head tags', headers: cached('public, max-age=60'), content: text('text/html') },
            304: notModified,
            ...problems('malformed_request', 'campaign_not_found', 'campaign_gone'),
          },
        },
      },
      '/applications/receipt/{token}': {
        get: {
          operationId: 'getApplicationReceipt',
          tags: ['Pages'],
          summary: "The candidate's receipt page (the apply answer's receipt_url)",
          description:
            "Server-rendered HTML, no script: received (waiting for the service), sent to the company (with the board's STATUS_LABELS label of the company's status, only when it maps it), or not delivered (with what to do). " +
            'In the language of `lang`, else Accept-Language, else English. Never cached (no-store), no Referer, not indexed, under a strict Content-Security-Policy.',
          parameters: [
            {
              name: 'token',
              in: 'path',
              required: true,
              description: 'The token of the receipt_url',
              schema: { type: 'string' },
            },
            {
              name: 'lang',
              in: 'query',
              required: false,
              description: "The page's language; another value is ignored",
              schema: { type: 'string', enum: [...LOCALES] },
            },
          ],
          responses: {
            200: { description: 'The receipt', content: text('text/html') },
            404: {
              description:
                'The "receipt not available" page: an unknown or malformed token, or the application\'s record was purged',
              content: text('text/html'),
            },
            ...problems(),
          },
        },
      },
      '/widget.js': {
        get: {
          operationId: 'getWidget',
          tags: ['Pages'],
          summary: 'The widget bundle, for a script tag',
          parameters: [ifNoneMatch],
          responses: {
            200: { description: 'JavaScript module', content: text('text/javascript') },
            304: notModified,
            ...problems('not_found'),
          },
        },
      },
      '/widget-{module}.js': {
        get: {
          operationId: 'getWidgetModule',
          tags: ['Pages'],
          summary:
            'A module the widget imports (its apply form, the texts of one language), or widget.js itself pinned; the name carries a hash of the content',
          description:
            'Cached for good (`immutable`). `widget-<16 hex>.js` is widget.js under its hash, for a script tag with Subresource Integrity (`jobboard-connector widget-tag`); only the current build is served, another hash answers 404.',
          parameters: [
            {
              name: 'module',
              in: 'path',
              required: true,
              description: 'Module (`apply` or a language) and hash, as widget.js names them; or the hash of widget.js',
              schema: { type: 'string', pattern: '^((apply|[a-z]{2})-[A-Za-z0-9_-]{8}|[0-9a-f]{16})$' },
            },
            ifNoneMatch,
          ],
          responses: {
            200: { description: 'JavaScript module', content: text('text/javascript') },
            304: notModified,
            ...problems('not_found'),
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'getHealth',
          tags: ['Operations'],
          summary: 'The process answers',
          responses: { 200: { description: 'Alive', content: json('Health') }, ...problems() },
        },
      },
      '/readyz': {
        get: {
          operationId: 'getReadiness',
          tags: ['Operations'],
          summary: 'The proxy can serve',
          description:
            'Catalogue synced, outbox open, credentials accepted. An unreachable upstream is reported in checks.upstream and keeps it ready: the outbox takes applications meanwhile.',
          responses: {
            200: { description: 'Ready', content: json('Ready') },
            503: { description: 'Not ready', content: json('Ready') },
            ...problems(),
          },
        },
      },
      '/api/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['Operations'],
          summary: 'This document (any origin may read it)',
          parameters: [ifNoneMatch],
          responses: {
            200: {
              description: 'OpenAPI 3.1',
              headers: cached('public, max-age=300'),
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            304: notModified,
            ...problems(),
          },
        },
      },
      '/api/docs': {
        get: {
          operationId: 'getReference',
          tags: ['Operations'],
          summary: 'This document as a page to read (static HTML, rendered when the package is built)',
          responses: { 200: { description: 'The reference', content: text('text/html') }, ...problems('not_found') },
        },
      },
    },
    components: {
      schemas: {
        ...componentSchemas(
          {
            Config: ConfigResponse,
            CampaignList,
            CampaignDetail,
            JobPosting: JobPostingAnswer,
            ApplicationAnswer,
            Problem: ProblemSchema,
            Health: HealthAnswer,
            Ready: ReadyAnswer,
            WebhookEvent,
          },
          'output',
        ),
        ...componentSchemas({ ApplicationForm: applicationFormSchema(fields) }, 'input'),
      },
    },
  };
}

function replayed(): JsonSchema {
  return {
    'Idempotent-Replayed': {
      description: 'true when this answer replays the first one given for the same Idempotency-Key',
      schema: { type: 'string', const: 'true' },
    },
  };
}
