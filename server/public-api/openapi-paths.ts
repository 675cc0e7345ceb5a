// The paths of the proxy's OpenAPI document (openapi.ts), by group, in the
// document's order.
import { MIME_TYPE_OF, RESUME_TYPES } from '../contract/index.ts';
import { RESUME_PAGES_FIELD } from './resume-pages.ts';
import { queryParameters, schemaRef } from '../openapi/zod.ts';
import type { JsonSchema } from '../openapi/zod.ts';
import {
  cached,
  campaignId,
  explained,
  ifNoneMatch,
  json,
  notModified,
  pageLang,
  problemContent,
  problems,
  replayed,
  text,
} from './openapi-parts.ts';
import { CampaignListQuery, EmbedQuery, FeedQuery, OfferHeadQuery, SITEMAP_MAX_URLS } from './schemas.ts';

/** The catalogue's routes: the form's configuration, the list, one offer and its JobPosting. */
export function catalogueApiPaths(): Record<string, JsonSchema> {
  return {
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
  };
}

/** The application form. */
export function applicationPaths(): Record<string, JsonSchema> {
  return {
    '/api/applications': {
      post: {
        operationId: 'apply',
        tags: ['Applications'],
        summary: 'Apply to a campaign',
        description:
          "The form is written to a durable outbox before anything is answered, then delivered to the recruitment service: 201 when it was delivered within the delivery deadline, 202 when it is queued and will be retried. The fields required are those this proxy requires (its board's FORM_FIELDS; `fields` of GET /api/config says the same): the document in the package shows the defaults. A field the board hides is not read, and not listed. Every field problem is answered at once: one 422 validation_failed lists them all, the resume's type (read from its bytes) included; a wrong resume alone is a 415 unsupported_file_type. A spontaneous application (to a company, with no offer) sends company_id in place of campaign_id, to a company that takes them (SPONTANEOUS_APPLICATIONS): it reaches the company as an applicant with its resume and no application; the answer says kind spontaneous and campaign_id null.",
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
              encoding: {
                resume: { contentType: RESUME_TYPES.map((type) => MIME_TYPE_OF[type]).join(', ') },
                [RESUME_PAGES_FIELD]: { contentType: 'image/jpeg, image/png' },
              },
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
              'not_found',
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
              415: "The resume's bytes are none of pdf, jpg, png, doc or docx, whatever type it was sent as; or a page of resume_pages cannot be read as a jpg or png",
              404: 'not_found: a spontaneous application (company_id) to a company that takes none (SPONTANEOUS_APPLICATIONS; GET /api/config lists those that do) or that has no offer on the board',
              409: 'already_applied: to this offer; for a spontaneous application, the candidate (by email) is already among the company applicants',
              422: 'Among the field errors: a required resume that is missing or empty, a phone_number without its phone_code, resume_pages beside a resume, more than 5 of them, or one that is no jpg or png; campaign_id and company_id both, or neither; a cover_letter on a spontaneous application (the service keeps comments on an application only)',
            },
          ),
        },
      },
    },
  };
}

/** The pages for search engines and for boards that render on their server. */
export function pagePaths(): Record<string, JsonSchema> {
  return {
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
  };
}

/** The candidate's receipt page, and the widget's scripts. */
export function receiptAndWidgetPaths(): Record<string, JsonSchema> {
  return {
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
          pageLang,
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
  };
}

/** Health, readiness and this documentation. */
export function operationPaths(): Record<string, JsonSchema> {
  return {
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
        summary:
          'This document as a page to read (HTML and CSS, no script; rendered from the document when first asked)',
        responses: { 200: { description: 'The reference', content: text('text/html') }, ...problems() },
      },
    },
  };
}
