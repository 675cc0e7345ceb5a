// An injected fetch for the edge cases a real server can't produce on demand:
// answers POST /jwt itself and hands every other
// request to the test's handler, recording what was asked.
import { createClient } from '../index.ts';
import type { ClientOptions, RecruitmentClient } from '../index.ts';

export const BASE = 'http://api.test/v2';

export type Handler = (request: Request, call: number) => Response | Promise<Response>;

export interface FakeApi {
  client: RecruitmentClient;
  /** Requests other than POST /jwt, in order. */
  requests: Request[];
  /** POST /jwt requests. */
  tokenRequests: number;
  /** Authorization header of each recorded request. */
  tokensUsed: string[];
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function apiError(
  status: number,
  code: string,
  message = code,
  details: { field: string; message: string }[] = [],
  headers: Record<string, string> = {},
): Response {
  return json({ error: { code, message, details } }, status, headers);
}

/** A campaign record that satisfies the contract. */
export function campaign(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    company_id: 1,
    manage_name: `Campaign ${id}`,
    name: `Campaign ${id}`,
    description: null,
    profile: null,
    job_type: 'Permanent contract',
    contract_duration: null,
    job_start_date: null,
    date_end: null,
    working_time: 'Full time',
    salary_min: null,
    salary_max: null,
    unit_id: null,
    status: 'online',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    last_activation_at: null,
    ...extra,
  };
}

/** An application record that satisfies the contract. */
export function application(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    company_id: 1,
    campaign_id: 1,
    applicant_id: 1,
    source: null,
    status: 'new',
    is_complete: false,
    resume_url: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

export function pagination(page: number, last: number, total: number): Record<string, string> {
  return {
    'x-pagination': JSON.stringify({
      'total-count': total,
      'current-page': page,
      'next-page': page < last ? page + 1 : null,
      'last-page': last,
    }),
  };
}

export interface FakeOptions extends Partial<ClientOptions> {
  /** Lifetime of the tokens handed out, from `clock` (default 4 hours). */
  tokenLifetimeMs?: number;
}

export function fakeApi(handler: Handler, options: FakeOptions = {}): FakeApi {
  const state = { requests: [] as Request[], tokenRequests: 0, tokensUsed: [] as string[] };
  const clock = options.clock ?? Date;
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (init?.signal?.aborted || request.signal.aborted) throw request.signal.reason ?? init?.signal?.reason;
    if (new URL(request.url).pathname === '/v2/jwt') {
      state.tokenRequests++;
      const expires = new Date(clock.now() + (options.tokenLifetimeMs ?? 4 * 3600 * 1000));
      return json({ token: `token-${state.tokenRequests}`, expires_at: expires.toISOString() });
    }
    state.requests.push(request);
    state.tokensUsed.push(request.headers.get('authorization') ?? '');
    return handler(request, state.requests.length);
  };
  const { tokenLifetimeMs: _lifetime, ...clientOptions } = options;
  const client = createClient({
    baseUrl: BASE,
    privateKey: 'private',
    secretKey: 'secret',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    budget: { perMinute: 10_000 },
    ...clientOptions,
    fetch: fetchFn as typeof fetch,
  });
  return {
    client,
    requests: state.requests,
    get tokenRequests() {
      return state.tokenRequests;
    },
    tokensUsed: state.tokensUsed,
  };
}

/** A network failure as undici reports it: TypeError('fetch failed') caused by a socket error with a code. */
export function networkError(code: string): TypeError {
  const cause = Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });
  return new TypeError('fetch failed', { cause });
}
