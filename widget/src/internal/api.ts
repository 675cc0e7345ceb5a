// The proxy's public HTTP API (server/public-api/README.md), on `fetch` for
// JSON and `XMLHttpRequest` for the upload: XHR is the only way to report
// upload progress over HTTP/1.1, and `abort()` is the candidate's cancel.
// No ky, no zod here: every kilobyte is paid by every visitor of the board.

import type { z } from 'zod';
import type {
  CampaignDetail,
  CampaignList,
  CampaignListQuery,
  CampaignSummary,
  ConfigResponse,
  ApplicationAnswer,
  FieldProblem,
  Problem,
} from '../../../server/public-api/schemas.ts';
import type { ConfigurableField, FieldMode } from '../../../server/public-api/application-form.ts';
import { webUrlOrWarn } from './web-url.ts';

// The answers' types are the proxy's own schemas (type-only imports: nothing
// of zod or the server enters the bundle), so the two cannot disagree.
export type { CampaignDetail, CampaignSummary, FieldProblem, Problem };
export type FieldRule = FieldMode;
export type FieldName = 'email' | ConfigurableField;
/** `/api/config`; its schema builds `fields` from a list, so their names are spelled out here. */
export type WidgetConfig = Omit<ConfigResponse, 'fields'> & { fields: Partial<Record<FieldName, FieldRule>> };
export type CampaignPage = CampaignList;
/** Filters as the widget sends them: any of the query's parameters, as typed. */
export type CampaignQuery = { [K in keyof CampaignListQuery]?: string | number };
export type SubmitResult = z.infer<typeof ApplicationAnswer>;

// Each error names itself: a minifier renames the classes, and the console shows the name.

/**
 * An answer that is not 2xx, carrying the proxy's stable problem `code` (a
 * body that is not problem+json still has a status); the proxy's ProblemError
 * has the same shape.
 */
export class ProblemError extends Error implements Problem {
  override readonly name = 'ProblemError';
  readonly status: number;
  readonly code: string;
  readonly errors: FieldProblem[] | undefined;
  constructor(problem: Problem) {
    super(`The proxy answered ${problem.status} ${problem.code}.`);
    this.status = problem.status;
    this.code = problem.code;
    this.errors = problem.errors;
  }
}

/** The request never got an answer (offline, connection dropped, CORS). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

/** The candidate cancelled the upload. */
export class AbortedError extends Error {
  override readonly name = 'AbortedError';
}

/** The URL of a proxy route; throws, sending nothing, when the endpoint is not a web URL. */
export function url(endpoint: string, path: string): string {
  const checked = webUrlOrWarn(endpoint, 'endpoint');
  if (checked === undefined) throw new NetworkError('endpoint');
  return `${checked.replace(/\/+$/, '')}${path}`;
}

/** Proxies that refused this page's origin: each is named once in the console. */
const refusedBy = new Set<string>();

/** The proxy refused the page's origin: the form cannot work here until its operator allows it. */
export function isRefusal(error: unknown): boolean {
  return error instanceof ProblemError && error.code === 'origin_not_allowed';
}

function toProblem(status: number, body: unknown, endpoint: string): Problem {
  const b = (body && typeof body === 'object' ? body : {}) as Partial<Problem>;
  const code = typeof b.code === 'string' ? b.code : status >= 500 ? 'internal_error' : 'malformed_request';
  const proxy = endpoint || location.origin;
  if (code === 'origin_not_allowed' && !refusedBy.has(proxy)) {
    refusedBy.add(proxy);
    // For the board's developer: the candidate only reads that the form is not set up here.
    console.error(
      `jobboard widget: this page's origin ${location.origin} is not in the ALLOWED_ORIGINS of the proxy at ${proxy}; add it there.`,
    );
  }
  return { status, code, ...(Array.isArray(b.errors) ? { errors: b.errors } : {}) };
}

/** Answers asked for ahead (prefetch), by URL, until a getJson of that URL takes them. */
const ahead = new Map<string, Promise<unknown>>();

async function getJson<T>(endpoint: string, path: string, signal?: AbortSignal): Promise<T> {
  const href = url(endpoint, path);
  const early = ahead.get(href);
  if (early) {
    ahead.delete(href);
    return early as Promise<T>;
  }
  let res: Response;
  try {
    res = await fetch(href, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  } catch (error) {
    // Aborted too: whoever aborted no longer wants the answer.
    throw new NetworkError(`GET ${href} failed`, { cause: error });
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new ProblemError(toProblem(res.status, body, endpoint));
  return body as T;
}

/** Asks for GET `path` now; the next getJson of the same URL takes this answer rather than asking again. */
function prefetch(endpoint: string, path: string): void {
  let key: string;
  try {
    key = url(endpoint, path);
  } catch {
    // An endpoint that is not a web URL (the console says so): the element shows it when it asks.
    return;
  }
  if (ahead.has(key)) return;
  const pending = getJson(endpoint, path);
  // Its failure is the taker's to handle (or no one's, when none comes).
  pending.catch(() => undefined);
  ahead.set(key, pending);
}

export function getConfig(endpoint: string): Promise<WidgetConfig> {
  return getJson(endpoint, '/api/config');
}

/** The path of the list for `query`: its non-empty values, in its order. */
function listPath(query: CampaignQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return `/api/campaigns${search ? `?${search}` : ''}`;
}

export function listCampaigns(endpoint: string, query: CampaignQuery, signal?: AbortSignal): Promise<CampaignPage> {
  return getJson(endpoint, listPath(query), signal);
}

/** Asks for the list now; the next listCampaigns of the same query takes this answer. */
export function prefetchList(endpoint: string, query: CampaignQuery): void {
  prefetch(endpoint, listPath(query));
}

export function getCampaign(endpoint: string, id: number): Promise<CampaignDetail> {
  return getJson(endpoint, `/api/campaigns/${encodeURIComponent(id)}`);
}

/** Asks for an offer now; the next getCampaign of it takes this answer rather than asking again. */
export function prefetchCampaign(endpoint: string, id: number): void {
  prefetch(endpoint, `/api/campaigns/${encodeURIComponent(id)}`);
}

/** The offer's schema.org JobPosting, as the proxy builds it for search engines. */
export function getJobPosting(endpoint: string, id: number): Promise<object> {
  return getJson(endpoint, `/api/campaigns/${encodeURIComponent(id)}/jobposting`);
}

export interface Upload {
  result: Promise<SubmitResult>;
  abort(): void;
}

/**
 * Sends the application as multipart with its idempotency key. The same key
 * is sent again on a retry, so a retry after a dropped connection cannot
 * create a second application.
 */
export function submitApplication(
  endpoint: string,
  body: FormData,
  idempotencyKey: string,
  onProgress: (loaded: number, total: number) => void,
): Upload {
  const xhr = new XMLHttpRequest();
  const result = new Promise<SubmitResult>((resolve, reject) => {
    xhr.open('POST', url(endpoint, '/api/applications'));
    xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    });
    xhr.addEventListener('load', () => {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        // A proxy or load balancer may answer HTML; the status still tells.
      }
      if (xhr.status === 201 || xhr.status === 202) resolve(parsed as SubmitResult);
      else reject(new ProblemError(toProblem(xhr.status, parsed, endpoint)));
    });
    xhr.addEventListener('error', () => reject(new NetworkError('POST /api/applications failed')));
    xhr.addEventListener('abort', () => reject(new AbortedError('cancelled')));
    xhr.send(body);
  });
  return { result, abort: () => xhr.abort() };
}

const configs = new Map<string, Promise<WidgetConfig>>();

/** `/api/config`, fetched once per endpoint and page (a failure is not kept). */
export function loadConfig(endpoint: string): Promise<WidgetConfig> {
  let pending = configs.get(endpoint);
  if (!pending) {
    pending = getConfig(endpoint);
    configs.set(endpoint, pending);
    pending.catch(() => configs.delete(endpoint));
  }
  return pending;
}
