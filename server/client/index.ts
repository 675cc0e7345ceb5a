// Typed client of the recruitment API. Start here:
//   const client = createClient({ baseUrl, privateKey, secretKey });
//   const page = await client.campaigns.list({ channels: ['career_fr'] });
import { TokenResponse } from '../contract/index.ts';
import { TokenCache } from './auth.ts';
import { RequestBudget } from './budget.ts';
import type { Clock, RequestBudgetOptions } from './budget.ts';
import { Applicants } from './resources/applicants.ts';
import { Applications } from './resources/applications.ts';
import { Campaigns } from './resources/campaigns.ts';
import { Channels } from './resources/channels.ts';
import { Entities } from './resources/entities.ts';
import { Jobboards } from './resources/jobboards.ts';
import { Api, readRecord } from './resource.ts';
import { Transport } from './transport.ts';
import type { AttemptRecord, RetryPolicy, StreamedBodySender } from './transport.ts';

export interface ClientOptions {
  /** The /v2 root, e.g. 'https://api.example/v2' or a sandbox's `url`. */
  baseUrl: string;
  privateKey: string;
  secretKey: string;
  /** Replaces globalThis.fetch (tests) for every call that goes through fetch: all of them unless `streamedBodies` is 'node:http'. */
  fetch?: typeof fetch;
  /**
   * How a create carrying a StreamedFile is sent (every other call goes
   * through fetch). 'node:http': each chunk of its base64 is encoded into one
   * buffer, reused once the socket has written it, so a delivery leaves no
   * garbage behind it. 'fetch': through `fetch`, which cannot say when a chunk
   * was written, so each chunk is a new buffer. Default: 'node:http', or
   * 'fetch' when `fetch` is given (an injected fetch then sees every call).
   */
  streamedBodies?: StreamedBodySender;
  /** Called after each HTTP attempt, answered or not, with its method, URL, status and duration (metrics). */
  onAttempt?: (attempt: AttemptRecord) => void;
  /** Time source in ms for token expiry and the budget (default Date). */
  clock?: Clock;
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in ms (default 10,000). */
  timeout?: number;
  /** The request budget: its size, or a RequestBudget shared with other clients of the same API client. Default 120/min. */
  budget?: Omit<RequestBudgetOptions, 'clock'> | RequestBudget;
  /** Renew the token this long before it expires (default 5 minutes). */
  renewMarginMs?: number;
}

export interface RecruitmentClient {
  readonly campaigns: Campaigns;
  readonly applicants: Applicants;
  readonly applications: Applications;
  readonly channels: Channels;
  readonly entities: Entities;
  readonly jobboards: Jobboards;
  /** The budget every call of this client spends from. */
  readonly budget: RequestBudget;
  /** Token state; `renewals` counts POST /jwt calls. */
  readonly tokens: TokenCache;
}

export const DEFAULT_RETRY: RetryPolicy = {
  limit: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRateLimitWaits: 5,
  maxRetryAfterMs: 60_000,
};

export function createClient(options: ClientOptions): RecruitmentClient {
  const clock = options.clock ?? Date;
  const budget =
    options.budget instanceof RequestBudget ? options.budget : new RequestBudget({ ...options.budget, clock });
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // The token cache fetches through the transport it serves (POST /jwt needs no token): built first, it
  // reaches the transport only when the first call asks for a token.
  const tokens = new TokenCache({
    clock,
    ...(options.renewMarginMs === undefined ? {} : { renewMarginMs: options.renewMarginMs }),
    // POST /jwt needs no token; it is safe to repeat and jumps the budget queue since every call waits for it.
    fetchToken: (signal) =>
      transport.send({
        method: 'POST',
        path: 'jwt',
        json: { private_key: options.privateKey, secret_key: options.secretKey },
        kind: 'create',
        auth: false,
        read: (body) => readRecord<TokenResponse>(TokenResponse, body, []),
        options: { priority: 'high', safeToRetry: true, ...(signal === undefined ? {} : { signal }) },
      }),
  });
  const transport: Transport = new Transport({
    baseUrl,
    fetch: options.fetch,
    streamedBodies: options.streamedBodies ?? (options.fetch === undefined ? 'node:http' : 'fetch'),
    onAttempt: options.onAttempt,
    clock,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    timeout: options.timeout ?? 10_000,
    budget,
    random: Math.random,
    tokens,
  });
  const api = new Api(transport, baseUrl);
  return {
    campaigns: new Campaigns(api),
    applicants: new Applicants(api),
    applications: new Applications(api),
    channels: new Channels(api),
    entities: new Entities(api),
    jobboards: new Jobboards(api),
    budget,
    tokens,
  };
}

export { DEFAULT_WINDOW_MS, MemoryLedger, RequestBudget } from './budget.ts';
export type { BudgetLedger, BudgetLimits, Clock, LedgerAnswer, Priority, RequestBudgetOptions } from './budget.ts';
export { TokenCache } from './auth.ts';
export type { AttemptRecord, RequestOptions, RetryPolicy, StreamedBodySender } from './transport.ts';
export type { InvalidRecord, ListOptions, Page, WithEmbeds } from './resource.ts';
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SchemaError,
  ServerError,
  TimeoutError,
  ValidationError,
} from './errors.ts';
export type { ApiErrorInit, ErrorDetail } from './errors.ts';
export { fileFromBlob, fileFromBuffer, fileFromPath, StreamedFile, UnsupportedFileError } from './files.ts';
export type { FileInput, FileOptions } from './files.ts';
export type { Campaigns, CampaignCreateInput, CampaignListQuery, CampaignWith } from './resources/campaigns.ts';
export type { Applicants, ApplicantCreateInput, ApplicantListQuery, ApplicantWith } from './resources/applicants.ts';
export type {
  Applications,
  ApplicationCreateInput,
  ApplicationEmbedValue,
  ApplicationListQuery,
  ApplicationWith,
} from './resources/applications.ts';
export type { Channels } from './resources/channels.ts';
export type { Entities } from './resources/entities.ts';
export type { Jobboards, JobboardApplicantCreateInput } from './resources/jobboards.ts';
export type {
  Application,
  Applicant,
  Campaign,
  Channel,
  CreatedApplicant,
  PaginationHeader,
} from '../contract/index.ts';
