// The check the proxy makes at start, before it listens: it signs in with its
// keys, asks a job-board-only call whether they are a job board's, and counts
// the offers its channel lists. Only an answer that proves a configuration
// mistake stops the start (UpstreamCheckError, one line saying what is wrong
// and what to do); a service that cannot be reached, or answers something
// else, is no proof: the proxy starts and queues, as it would without the check.
//
// The job-board-only call is POST /jobboards/applicants with an empty body: a
// company's keys are refused (403 wrong_client_kind) and keys without the
// scope too (403 missing_scope) before the body is read; a job board's get a
// validation error, and nothing is created either way.
import { z } from 'zod';
import { ErrorBody, JOBBOARD_SCOPES, PAGINATION_HEADER, PaginationHeader, TokenResponse } from '../contract/index.ts';
import type { ProxyConfig } from './config.ts';

/** A configuration mistake the service's answer proves; its message is the one line to print. */
export class UpstreamCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamCheckError';
  }
}

export type UpstreamCheck =
  | { outcome: 'checked'; offers: number }
  /** The service could not say (no answer, 5xx, rate limit, an answer we cannot read): the start goes on. */
  | { outcome: 'unverified'; reason: string };

export interface UpstreamCheckOptions {
  fetch?: typeof fetch;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

/** An answer that proves nothing: the check ends, the start goes on. */
class Inconclusive extends Error {}

interface Answer {
  status: number;
  code: string;
  message: string;
  body: unknown;
  headers: Headers;
}

const CampaignsPage = z.array(z.object({ company_id: z.int() }).loose());
const ChannelList = z.array(z.object({ value: z.string() }).loose());

/** What the configured keys and channel are worth to the service; throws UpstreamCheckError on a proven mistake. */
export async function checkUpstream(config: Pick<ProxyConfig, 'upstream' | 'channel' | 'allowEmptyCatalogue'>, options: UpstreamCheckOptions = {}): Promise<UpstreamCheck> {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = config.upstream.url;
  const keys = 'UPSTREAM_PRIVATE_KEY/UPSTREAM_SECRET_KEY';
  const scopes = JOBBOARD_SCOPES.join(', ');

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<Answer> {
    let response: Response;
    let text: string;
    try {
      response = await send(`${base}${path}`, {
        method,
        headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new Inconclusive(`${method} ${path}: no answer (${error instanceof Error ? error.message : String(error)})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const error = ErrorBody.safeParse(json);
    const code = error.success ? error.data.error.code : '-';
    // A 5xx, the rate limit (403 on this service) or a 429 say nothing of the configuration.
    if (response.status >= 500 || response.status === 429 || code === 'rate_limited') {
      throw new Inconclusive(`${method} ${path} answered ${response.status} ${code}`);
    }
    return { status: response.status, code, message: error.success ? error.data.error.message : '', body: json, headers: response.headers };
  }

  const refused = (answer: Answer) =>
    new UpstreamCheckError(
      `${keys} were refused by the recruitment API at ${base} (${answer.status} ${answer.code}): no API client has this pair. Copy both keys of your job-board API client again, the secret key being the one issued with that private key.`,
    );
  const lacksScope = (answer: Answer) =>
    new UpstreamCheckError(
      `${keys} are a job-board API client's without a scope the proxy needs (${answer.status} missing_scope: ${answer.message}): give that client the scopes ${scopes} in the recruitment service, then start again.`,
    );

  try {
    // Signing in.
    const signIn = await call('POST', '/jwt', { private_key: config.upstream.privateKey, secret_key: config.upstream.secretKey });
    if (signIn.status === 404) {
      throw new UpstreamCheckError(`UPSTREAM_URL ${base} answered 404 to POST /jwt: it is not the recruitment API's root. Set UPSTREAM_URL to the API's address ending in /v2, as given with your keys.`);
    }
    if (signIn.status === 400 || signIn.status === 401 || signIn.status === 403) throw refused(signIn);
    const token = TokenResponse.safeParse(signIn.body);
    if (signIn.status !== 200 || !token.success) throw new Inconclusive(`POST /jwt answered ${signIn.status} without a token`);
    const bearer = token.data.token;

    // A job board's keys, with the scope to deliver?
    const probe = await call('POST', '/jobboards/applicants', {}, bearer);
    if (probe.status === 401) throw refused(probe);
    if (probe.code === 'missing_scope') throw lacksScope(probe);
    if (probe.code === 'wrong_client_kind') {
      const page = await call('GET', '/campaigns?per_page=1', undefined, bearer);
      const campaigns = CampaignsPage.safeParse(page.body);
      const company = campaigns.success && campaigns.data[0] !== undefined ? ` (company ${campaigns.data[0].company_id})` : '';
      throw new UpstreamCheckError(
        `${keys} are a company's API keys${company}, not a job board's: create a job-board API client (scopes ${scopes}) in the recruitment service, and set its keys. A company's keys read the company's own offers but cannot deliver a single application.`,
      );
    }

    // Does the channel list offers? The same campaigns the catalogue syncs: online, broadcast on it.
    const list = await call('GET', `/campaigns?channels=${encodeURIComponent(config.channel)}&status=online&per_page=1`, undefined, bearer);
    if (list.code === 'missing_scope') throw lacksScope(list);
    if (list.status !== 200) throw new Inconclusive(`GET /campaigns answered ${list.status} ${list.code}`);
    const pagination = PaginationHeader.safeParse(safeJson(list.headers.get(PAGINATION_HEADER)));
    const offers = pagination.success ? pagination.data['total-count'] : Array.isArray(list.body) ? list.body.length : 0;
    if (offers > 0) return { outcome: 'checked', offers };

    const channels = await call('GET', '/channels', undefined, bearer);
    const values = ChannelList.safeParse(channels.body);
    const known = channels.status === 200 && values.success ? [...new Set(values.data.map((c) => c.value))] : [];
    if (known.length > 0 && !known.includes(config.channel)) {
      throw new UpstreamCheckError(
        `JOBBOARD_CHANNEL=${config.channel} is not a channel of these keys (theirs: ${known.join(', ')}): set JOBBOARD_CHANNEL to your job board's channel value, as given with your keys.`,
      );
    }
    if (!config.allowEmptyCatalogue) {
      throw new UpstreamCheckError(
        `JOBBOARD_CHANNEL=${config.channel} lists no online offer: check the channel value given with your keys; if your board legitimately starts with no offer, start with --allow-empty-catalogue (or ALLOW_EMPTY_CATALOGUE=true).`,
      );
    }
    return { outcome: 'checked', offers: 0 };
  } catch (error) {
    if (error instanceof Inconclusive) return { outcome: 'unverified', reason: error.message };
    throw error;
  }
}

function safeJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
