// The proxy's public HTTP API (server/proxy/PUBLIC-API.md), on `fetch` for
// JSON and `XMLHttpRequest` for the upload: XHR is the only way to report
// upload progress over HTTP/1.1, and `abort()` is the candidate's cancel.
// No ky, no zod here: every kilobyte is paid by every visitor of the board.

export type FieldRule = 'required' | 'optional' | 'hidden';

export type FieldName =
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'phone'
  | 'resume'
  | 'cover_letter'
  | 'bio_url'
  | 'consent'
  | 'is_partner_newsletter_active'
  | 'is_campaign_alert_active';

export interface WidgetConfig {
  locales: string[];
  resume: { types: string[]; max_bytes: number };
  fields: Partial<Record<FieldName, FieldRule>>;
  consent_url: string | null;
  captcha: { provider: 'turnstile' | 'hcaptcha'; site_key: string } | null;
}

export interface CampaignSummary {
  id: number;
  company_id: number;
  company_name: string;
  name: string;
  job_type: string | null;
  working_time: string | null;
  city: string | null;
  country: string | null;
  salary_min: number | null;
  salary_max: number | null;
  job_start_date: string | null;
  contract_duration: string | number | null;
  updated_at: string;
}

export interface CampaignDetail extends CampaignSummary {
  description: string | null;
  profile: string | null;
  address: {
    street_number: string | null;
    street: string | null;
    postal_code: string | null;
    city: string | null;
    country: string | null;
    name: string | null;
  } | null;
  date_end: string | null;
}

export interface CampaignPage {
  items: CampaignSummary[];
  page: number;
  per_page: number;
  total: number;
  last_page: number;
  facets: {
    job_types: string[];
    working_times: string[];
    cities: string[];
    companies: { id: number; name: string }[];
  };
}

export interface CampaignQuery {
  q?: string;
  job_type?: string;
  working_time?: string;
  city?: string;
  page?: number;
  per_page?: number;
}

export interface FieldProblem {
  field: string;
  code: string;
  message?: string;
}

export interface Problem {
  status: number;
  code: string;
  errors?: FieldProblem[];
}

/** An answer that is not 2xx, carrying the proxy's stable problem `code`. */
export class ProblemError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(`The proxy answered ${problem.status} ${problem.code}.`);
    this.problem = problem;
  }
}

/** The request never got an answer (offline, connection dropped, CORS). */
export class NetworkError extends Error {}

/** The candidate cancelled the upload. */
export class AbortedError extends Error {}

export interface SubmitResult {
  status: 'delivered' | 'queued';
  reference: string;
  campaign_id: number;
}

function url(endpoint: string, path: string): string {
  return `${endpoint.replace(/\/+$/, '')}${path}`;
}

function toProblem(status: number, body: unknown): Problem {
  const b = (body && typeof body === 'object' ? body : {}) as Partial<Problem>;
  return {
    status,
    code: typeof b.code === 'string' ? b.code : status >= 500 ? 'internal_error' : 'malformed_request',
    ...(Array.isArray(b.errors) ? { errors: b.errors } : {}),
  };
}

async function getJson<T>(href: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(href, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw new AbortedError('aborted');
    throw new NetworkError(`GET ${href} failed`, { cause: error });
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new ProblemError(toProblem(res.status, body));
  return body as T;
}

export function getConfig(endpoint: string): Promise<WidgetConfig> {
  return getJson(url(endpoint, '/api/config'));
}

export function listCampaigns(endpoint: string, query: CampaignQuery, signal?: AbortSignal): Promise<CampaignPage> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return getJson(url(endpoint, `/api/campaigns${search ? `?${search}` : ''}`), signal);
}

export function getCampaign(endpoint: string, id: number): Promise<CampaignDetail> {
  return getJson(url(endpoint, `/api/campaigns/${encodeURIComponent(id)}`));
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
      else reject(new ProblemError(toProblem(xhr.status, parsed)));
    });
    xhr.addEventListener('error', () => reject(new NetworkError('POST /api/applications failed')));
    xhr.addEventListener('timeout', () => reject(new NetworkError('POST /api/applications timed out')));
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
