// GET /openapi.json of the sandbox: OpenAPI 3.1 of the recruitment API as the sandbox
// implements it (every /v2 endpoint, parameter, body, answer, header and
// error), generated from the contract's zod schemas, so that a board in any
// language can generate a client from it. Where the specification is silent
// (error body and statuses, X-Pagination's encoding, success statuses), the
// document states the decisions of API-RULES.md that the sandbox follows.
import type { z } from 'zod';
import {
  Applicant,
  Application,
  Campaign,
  CampaignInput,
  Channel,
  CreateApplicantBody,
  CreateApplicationBody,
  CreateCampaignBody,
  CreateJobboardApplicantBody,
  CreatedApplicant,
  ERROR_STATUS,
  ErrorBody,
  GetApplicantQuery,
  GetApplicationQuery,
  GetCampaignQuery,
  JOBBOARD_SCOPES,
  ListApplicantsQuery,
  ListApplicationsQuery,
  ListCampaignsQuery,
  PAGINATION_HEADER,
  PaginationHeader,
  RATE_LIMIT_PER_MINUTE,
  TOKEN_LIFETIME_SECONDS,
  TokenRequest,
  TokenResponse,
} from './index.ts';
import type { Scope } from './index.ts';
import { documentOpening } from '../openapi/document.ts';
import { componentSchemas, jsonSchemaOf, queryParameters, schemaRef } from '../openapi/zod.ts';
import type { JsonSchema } from '../openapi/zod.ts';

/** Where the API lives, relative to the document (served at the sandbox's root). */
export const API_ROOT = '/v2';

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** One answer per error status, listing the codes of contract/errors.ts that have it. */
const ERROR_RESPONSES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  500: 'ServerError',
  503: 'ServiceUnavailable',
};

function errorResponse(status: number): JsonSchema {
  const codes = Object.entries(ERROR_STATUS)
    .filter(([code, s]) => s === status && !['method_not_allowed', 'origin_refused', 'host_refused'].includes(code))
    .map(([code]) => `\`${code}\``);
  return {
    description: `The error body; \`error.code\` is one of ${codes.join(', ')}.`,
    ...(status === 403
      ? {
          headers: {
            'Retry-After': {
              description: 'On `rate_limited`: seconds until a request is taken again.',
              schema: { type: 'integer', minimum: 1 },
            },
          },
        }
      : {}),
    content: json(schemaRef('ErrorBody')),
  };
}

const errorRef = (status: number) => ({ $ref: `#/components/responses/${ERROR_RESPONSES[status]}` });

interface Operation {
  operationId: string;
  summary: string;
  scope?: Scope;
  query?: z.ZodType;
  pathParameters?: JsonSchema[];
  body?: string;
  success: { status: 200 | 201; description: string; schema: JsonSchema; list?: boolean };
  /** Error statuses beyond those of every authenticated call (400, 401, 403, 500, 503). */
  errors: number[];
}

/** One operation of the document, under `tag`. */
function operation(tag: string, op: Operation): JsonSchema {
  const statuses = [...new Set([400, ...(op.scope === undefined ? [] : [401, 403]), ...op.errors, 500, 503])].sort(
    (a, b) => a - b,
  );
  const successHeaders = op.success.list
    ? {
        headers: {
          [PAGINATION_HEADER]: {
            description:
              'The page: JSON with total-count, current-page, next-page (null on the last page) and last-page.',
            required: true,
            content: json(schemaRef('PaginationHeader')),
          },
        },
      }
    : {};
  return {
    tags: [tag],
    operationId: op.operationId,
    summary: op.summary,
    ...(op.scope === undefined ? { security: [] } : { description: `Scope \`${op.scope}\`.` }),
    parameters: [...(op.pathParameters ?? []), ...(op.query === undefined ? [] : queryParameters(op.query))],
    ...(op.body === undefined ? {} : { requestBody: { required: true, content: json(schemaRef(op.body)) } }),
    responses: {
      [op.success.status]: { description: op.success.description, ...successHeaders, content: json(op.success.schema) },
      ...Object.fromEntries(statuses.map((status) => [status, errorRef(status)])),
      // Injected faults (POST /_sandbox/faults) may answer any status, always with the error body.
      default: {
        description: 'Any other failure, such as a fault injected through the admin surface: the error body.',
        content: json(schemaRef('ErrorBody')),
      },
    },
  };
}

const idParameter = (name: string, description: string, schema: JsonSchema = { type: 'integer', minimum: 1 }) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

const listOf = (name: string) => ({ type: 'array', items: schemaRef(name) });

/** The token endpoint. */
function authenticationPaths(): Record<string, JsonSchema> {
  return {
    '/jwt': {
      post: operation('Authentication', {
        operationId: 'createToken',
        summary: 'Get a token for a key pair (no token, no scope needed)',
        body: 'TokenRequest',
        success: {
          status: 200,
          description: 'The token and the time it stops being accepted',
          schema: schemaRef('TokenResponse'),
        },
        errors: [401, 413, 415],
      }),
    },
  };
}

/**
 * A collection's three endpoints, named and scoped alike from its path: `GET
 * /campaigns` (listCampaigns, tag Campaigns, one page of Campaign, scope
 * campaigns_read), `POST /campaigns` (createCampaign, body CreateCampaignBody,
 * scope campaigns_write) and `GET /campaigns/{id}` (getCampaign).
 */
interface Collection {
  path: 'campaigns' | 'applicants' | 'applications';
  list: { summary: string; query: z.ZodType };
  create: { summary: string; description: string; schema?: string; errors: number[] };
  get: { summary: string; id: JsonSchema; query: z.ZodType };
}

function collectionPaths(c: Collection): Record<string, JsonSchema> {
  const read = `${c.path}_read` as const;
  const tag = c.path.charAt(0).toUpperCase() + c.path.slice(1);
  const record = tag.slice(0, -1);
  return {
    [`/${c.path}`]: {
      get: operation(tag, {
        operationId: `list${tag}`,
        summary: c.list.summary,
        scope: read,
        query: c.list.query,
        success: { status: 200, description: `One page of ${c.path}`, schema: listOf(record), list: true },
        errors: [422],
      }),
      post: operation(tag, {
        operationId: `create${record}`,
        summary: c.create.summary,
        scope: `${c.path}_write`,
        body: `Create${record}Body`,
        success: { status: 201, description: c.create.description, schema: schemaRef(c.create.schema ?? record) },
        errors: c.create.errors,
      }),
    },
    [`/${c.path}/{id}`]: {
      get: operation(tag, {
        operationId: `get${record}`,
        summary: c.get.summary,
        scope: read,
        pathParameters: [c.get.id],
        query: c.get.query,
        success: { status: 200, description: `The ${record.toLowerCase()}`, schema: schemaRef(record) },
        errors: [404],
      }),
    },
  };
}

/** Campaigns and the channels they are broadcast on. */
function campaignPaths(): Record<string, JsonSchema> {
  return {
    ...collectionPaths({
      path: 'campaigns',
      list: {
        summary: 'List campaigns (a job-board client sees those broadcast on its channel)',
        query: ListCampaignsQuery,
      },
      create: {
        summary: 'Create a campaign (status draft, until a manager publishes it)',
        description: 'The created campaign, with its embeds',
        errors: [413, 415, 422],
      },
      get: { summary: 'Get one campaign', id: idParameter('id', "The campaign's id"), query: GetCampaignQuery },
    }),
    '/channels': {
      get: channelsOperation(
        'listChannels',
        "List the company's channels (with the Entity option: the company-wide ones)",
        [],
        [],
      ),
    },
    '/entities/{entity_id}/channels': {
      get: channelsOperation(
        'listEntityChannels',
        "List an entity's channels (companies with the Entity option)",
        [idParameter('entity_id', "The entity's id")],
        [404],
      ),
    },
  };
}

/** A plain array of channels, not paginated: the company's or an entity's. */
function channelsOperation(
  operationId: string,
  summary: string,
  pathParameters: JsonSchema[],
  errors: number[],
): JsonSchema {
  return operation('Campaigns', {
    operationId,
    summary,
    scope: 'campaigns_read',
    pathParameters,
    success: { status: 200, description: 'The channels', schema: listOf('Channel') },
    errors,
  });
}

const CREATED_APPLICANT_DESCRIPTION = 'The applicant with its address, pools and created applications';

/** Applicants, and the job-board entry point that creates them. */
function applicantPaths(): Record<string, JsonSchema> {
  return {
    ...collectionPaths({
      path: 'applicants',
      list: { summary: 'List applicants', query: ListApplicantsQuery },
      create: {
        summary: 'Create an applicant, with its applications (company clients)',
        description: CREATED_APPLICANT_DESCRIPTION,
        schema: 'CreatedApplicant',
        errors: [409, 413, 415, 422],
      },
      get: {
        summary: 'Get one applicant, by id or email address',
        id: idParameter('id', "The applicant's id, or its email address", { type: 'string', minLength: 1 }),
        query: GetApplicantQuery,
      },
    }),
    '/jobboards/applicants': {
      post: operation('Applicants', {
        operationId: 'createJobboardApplicant',
        summary:
          'Create an applicant of a company, with its applications (job-board clients; each campaign must be broadcast on the board)',
        scope: 'applicants_write',
        body: 'CreateJobboardApplicantBody',
        success: { status: 201, description: CREATED_APPLICANT_DESCRIPTION, schema: schemaRef('CreatedApplicant') },
        errors: [409, 413, 415, 422],
      }),
    },
  };
}

/** An applicant's applications. */
function applicationPaths(): Record<string, JsonSchema> {
  return collectionPaths({
    path: 'applications',
    list: { summary: 'List applications (a job-board client: those it created)', query: ListApplicationsQuery },
    create: {
      summary:
        'Create an application of an existing applicant (by id or email) to a campaign that is online, draft or standby',
      description: 'The application with its comments and tags',
      errors: [409, 413, 415, 422],
    },
    get: { summary: 'Get one application', id: idParameter('id', "The application's id"), query: GetApplicationQuery },
  });
}

export function buildRecruitmentApiDocument(version: string): Record<string, unknown> {
  return {
    ...documentOpening(
      'Recruitment API (jobboard-connector sandbox)',
      version,
      [
        "The recruitment service's API as the jobboard-connector sandbox implements it: campaigns (job offers), applicants, applications and channels.",
        '',
        `Authentication: \`POST ${API_ROOT}/jwt\` with an API client's key pair answers a token that lives ${TOKEN_LIFETIME_SECONDS / 3600} hours; every other call sends it as \`Authorization: Bearer <token>\`. Each endpoint needs a scope; job-board clients get ${JOBBOARD_SCOPES.map((s) => `\`${s}\``).join(', ')} and see the campaigns broadcast on their channel.`,
        '',
        `Limits: ${RATE_LIMIT_PER_MINUTE} requests a minute per API client, answered **403** \`rate_limited\` with \`Retry-After\` beyond (not 429). Lists take \`page\` and \`per_page\` (at most 50) and answer a JSON array with the \`${PAGINATION_HEADER}\` header (JSON). Query parameters nest with brackets (\`status[date][gte]\`); empty ones are ignored.`,
        '',
        'Errors: `{"error": {"code", "message", "details": [{"field", "message"}]}}`, with 400 for a malformed body, 401 for a missing, invalid or expired token, 403 for a missing scope or the rate limit, 404, 409 for a duplicate, 413 for a body too large, 415 for a body that is not JSON and 422 for a broken rule; a method a path does not have is answered 405 `method_not_allowed` with `Allow` listing those it has. Files are base64 with a `mime_type` and are processed after the answer: `resume_url` appears later.',
      ].join('\n'),
    ),
    servers: [
      { url: API_ROOT, description: 'The API root, relative to this document (the sandbox serves it at its origin)' },
    ],
    security: [{ bearerToken: [] }],
    tags: [
      { name: 'Authentication', description: "Tokens for an API client's key pair" },
      { name: 'Campaigns', description: 'Job offers, and the channels they are broadcast on' },
      { name: 'Applicants', description: 'Candidate accounts, and the job-board entry point that creates them' },
      { name: 'Applications', description: "An applicant's applications to campaigns" },
    ],
    paths: {
      ...authenticationPaths(),
      ...campaignPaths(),
      ...applicantPaths(),
      ...applicationPaths(),
    },
    components: {
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: `A token from \`POST ${API_ROOT}/jwt\`, or one the client signs itself: HS256 with the secret key, \`iss\` the private key, \`iat\`, and optionally \`exp\` and \`aud\` (the API host).`,
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, name]) => [name, errorResponse(Number(status))]),
      ),
      schemas: {
        ...componentSchemas(
          { Campaign, Applicant, Application, CreatedApplicant, Channel, TokenResponse, ErrorBody },
          'output',
        ),
        PaginationHeader: jsonSchemaOf(PaginationHeader),
        ...componentSchemas(
          {
            TokenRequest,
            CampaignInput,
            CreateCampaignBody,
            CreateApplicantBody,
            CreateJobboardApplicantBody,
            CreateApplicationBody,
          },
          'input',
        ),
      },
    },
  };
}
