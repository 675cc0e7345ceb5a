// One call to the API, from budget token to parsed record. ky sends each
// attempt (URL joining, query string, JSON body, network-error detection);
// the loop around it is ours because the retry decision depends on things ky's
// retry cannot see: a budget token per attempt, one token renewal on 401, a
// server-wide pause on `rate_limited`, and whether a create may already have
// reached the server.
import ky, { NetworkError as KyNetworkError } from 'ky';
import type { KyInstance } from 'ky';
import type { z } from 'zod';
import { detailsFromIssues } from '../contract/index.ts';
import type { ErrorDetail } from '../contract/index.ts';
import type { TokenCache } from './auth.ts';
import type { ApiError } from './errors.ts';
import type { StreamedBody } from './streamed-json.ts';
import { StreamedRequestError, sendStreamed } from './streamed-request.ts';
import type { Clock, Priority, RequestBudget } from './budget.ts';
import {
  ConnectionError,
  RateLimitError,
  SchemaError,
  ServerError,
  TimeoutError,
  errorFromResponse,
  parseRetryAfter,
} from './errors.ts';

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /** Budget priority. Default: 'low' for reads, 'high' for creates. */
  priority?: Priority;
  /**
   * Lets a create be retried after a failure that may have reached the server
   * (timeout, reset connection, 5xx). Only when repeating it cannot duplicate
   * anything, for example because the caller checks for 409 afterwards.
   */
  safeToRetry?: boolean;
  signal?: AbortSignal;
  /** Per-attempt timeout in ms, until the whole answer is read. */
  timeout?: number;
}

export interface RetryPolicy {
  /** Retries after network errors, timeouts and 5xx (default 3). */
  limit: number;
  /** First backoff step in ms (default 250); doubles each retry, with full jitter. */
  baseDelayMs: number;
  /** Ceiling of one backoff step in ms (default 8,000). */
  maxDelayMs: number;
  /** How many `rate_limited` answers to wait out before throwing RateLimitError (default 5). */
  maxRateLimitWaits: number;
  /**
   * Longest wait taken from a `Retry-After` header, in ms (default 60,000: the
   * service's rate-limit window). A longer ask (a misconfigured gateway's
   * `Retry-After: 86400`) would freeze the shared budget; after this long the
   * call is tried again, and the error keeps the server's own `retryAfterMs`.
   */
  maxRetryAfterMs: number;
}

/** One HTTP attempt as seen by `onAttempt` (metrics). */
export interface AttemptRecord {
  method: string;
  url: string;
  /** The answer's status; undefined when none came (timeout, network error). */
  status: number | undefined;
  /** From sending until the whole answer was read, or the attempt failed. */
  seconds: number;
}

/** What sends a create whose body is streamed (ClientOptions.streamedBodies). */
export type StreamedBodySender = 'node:http' | 'fetch';

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof fetch | undefined;
  streamedBodies: StreamedBodySender;
  onAttempt: ((attempt: AttemptRecord) => void) | undefined;
  clock: Clock;
  retry: RetryPolicy;
  timeout: number;
  budget: RequestBudget;
  random: () => number;
  /** The bearer token of every call with `auth` (POST /jwt itself is sent without). */
  tokens: TokenCache;
}

/** A response that breaks the contract; turned into SchemaError with method and URL. */
export class ContractViolation extends Error {
  readonly details: readonly ErrorDetail[];
  constructor(message: string, details: readonly ErrorDetail[] = []) {
    super(message);
    this.details = details;
  }
}

/** Parses `value` with a contract schema, naming the failing fields under `prefix`. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = detailsFromIssues(result.error.issues, prefix);
  throw new ContractViolation(
    `the answer breaks the contract at ${details.map((d) => d.field || '(root)').join(', ')}`,
    details,
  );
}

export interface Call<T> {
  method: 'GET' | 'POST';
  /** Relative to the /v2 root, without a leading slash: `campaigns/12`. */
  path: string;
  query?: URLSearchParams | undefined;
  json?: unknown;
  /** A body streamed instead of `json` (a create carrying StreamedFiles); opened anew for each attempt. */
  body?: StreamedBody | undefined;
  /** A create is repeated only when it surely did not reach the server, or when the caller says it is safe. */
  kind: 'read' | 'create';
  /** False only for POST /jwt. */
  auth: boolean;
  /** Parses the answer's JSON body; throws ContractViolation. */
  read: (body: unknown, response: Response) => T;
  options: RequestOptions | undefined;
}

type Attempt =
  | { kind: 'answer'; response: Response; text: string }
  | { kind: 'timeout' }
  | { kind: 'connection'; reached: boolean; cause: unknown };

/**
 * Error codes of a connection that failed before the request was written, so
 * the server cannot have acted on it. Anything else (reset, closed, timeout
 * after connecting) may have reached the server.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export class Transport {
  readonly #options: TransportOptions;
  readonly #ky: KyInstance;
  readonly #base: string;
  readonly #tokens: TokenCache;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#tokens = options.tokens;
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#ky = ky.create({
      prefix: this.#base,
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      headers: { accept: 'application/json' },
    });
  }

  async send<T>(call: Call<T>): Promise<T> {
    const options = call.options ?? {};
    const priority = options.priority ?? (call.kind === 'create' ? 'high' : 'low');
    const query = call.query?.toString() ?? '';
    const url = `${this.#base}/${call.path}${query === '' ? '' : `?${query}`}`;
    const retry = this.#options.retry;
    let attempts = 0;
    let failures = 0;
    let rateLimitWaits = 0;
    let renewedToken = false;

    for (;;) {
      const token = call.auth ? await this.#tokens.get(options.signal) : undefined;
      await this.#options.budget.acquire(priority, options.signal);
      attempts++;
      const attempt = await this.#attempt(call, token, options, url);

      if (attempt.kind === 'answer' && attempt.response.ok) {
        return this.#read(call, attempt, url, attempts);
      }

      let error: ApiError;
      let serverDelayMs: number | undefined;
      if (attempt.kind === 'answer') {
        const { response } = attempt;
        const askedMs = parseRetryAfter(response.headers.get('retry-after'), this.#options.clock.now());
        error = errorFromResponse({
          method: call.method,
          url,
          status: response.status,
          bodyText: attempt.text,
          retryAfterMs: askedMs,
          attempts,
        });
        serverDelayMs = askedMs === undefined ? undefined : Math.min(askedMs, retry.maxRetryAfterMs);
        // A refused token is renewed once per call: it expired early or was revoked.
        if (response.status === 401 && token !== undefined && !renewedToken) {
          renewedToken = true;
          this.#tokens.invalidate(token);
          continue;
        }
        // The server refused the request without acting on it: wait and repeat, creates included.
        if (error instanceof RateLimitError && rateLimitWaits < retry.maxRateLimitWaits) {
          rateLimitWaits++;
          this.#options.budget.pauseFor(serverDelayMs ?? this.#backoff(rateLimitWaits));
          continue;
        }
        if (!(error instanceof ServerError)) throw error;
      } else if (attempt.kind === 'timeout') {
        error = new TimeoutError({
          method: call.method,
          url,
          code: 'timeout',
          message: `no complete answer within ${options.timeout ?? this.#options.timeout} ms`,
          attempts,
        });
      } else {
        error = new ConnectionError({
          method: call.method,
          url,
          code: 'connection_failed',
          message: `${describeCause(attempt.cause)}${attempt.reached ? '' : ' (the request was not sent)'}`,
          cause: attempt.cause,
          attempts,
          mayHaveReachedServer: attempt.reached,
        });
      }

      const mayRepeat =
        call.kind === 'read' || options.safeToRetry === true || (attempt.kind === 'connection' && !attempt.reached);
      if (!mayRepeat || failures >= retry.limit) throw error;
      failures++;
      await sleep(serverDelayMs ?? this.#backoff(failures), options.signal);
    }
  }

  /** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^(n-1))]. */
  #backoff(failure: number): number {
    const { baseDelayMs, maxDelayMs } = this.#options.retry;
    return Math.round(this.#options.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (failure - 1)));
  }

  async #attempt(
    call: Call<unknown>,
    token: string | undefined,
    options: RequestOptions,
    url: string,
  ): Promise<Attempt> {
    const started = performance.now();
    const attempt = await this.#exchange(call, token, options, url);
    this.#options.onAttempt?.({
      method: call.method,
      url,
      status: attempt.kind === 'answer' ? attempt.response.status : undefined,
      seconds: (performance.now() - started) / 1000,
    });
    return attempt;
  }

  async #exchange(
    call: Call<unknown>,
    token: string | undefined,
    options: RequestOptions,
    url: string,
  ): Promise<Attempt> {
    const timeoutMs = options.timeout ?? this.#options.timeout;
    const timer = new AbortController();
    const handle = setTimeout(() => timer.abort(new Error('timeout')), timeoutMs);
    const signal = options.signal === undefined ? timer.signal : AbortSignal.any([options.signal, timer.signal]);
    try {
      const headers: Record<string, string> = {};
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      if (call.body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(call.body.length);
        // node:http frees each chunk of a streamed body once written; fetch cannot say when it has.
        if (this.#options.streamedBodies === 'node:http') {
          const { response, text } = await sendStreamed(url, {
            method: call.method,
            headers: { accept: 'application/json', ...headers },
            body: call.body,
            signal,
          });
          return { kind: 'answer', response, text };
        }
      }
      const response = await this.#ky(call.path, {
        method: call.method,
        searchParams: call.query,
        ...(call.body === undefined ? { json: call.json } : { body: call.body.open() }),
        headers,
        signal,
      });
      const text = await response.text();
      return { kind: 'answer', response, text };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timer.signal.aborted) return { kind: 'timeout' };
      const failure = connectionFailure(error);
      if (failure === undefined) throw error;
      return failure;
    } finally {
      clearTimeout(handle);
    }
  }

  #read<T>(call: Call<T>, attempt: { response: Response; text: string }, url: string, attempts: number): T {
    try {
      let body: unknown;
      try {
        body = JSON.parse(attempt.text);
      } catch {
        throw new ContractViolation(
          `the answer is not JSON (content-type ${attempt.response.headers.get('content-type') ?? 'missing'})`,
        );
      }
      return call.read(body, attempt.response);
    } catch (error) {
      if (!(error instanceof ContractViolation)) throw error;
      throw new SchemaError({
        method: call.method,
        url,
        status: attempt.response.status,
        code: 'schema_mismatch',
        message: error.message,
        details: error.details,
        attempts,
      });
    }
  }
}

/**
 * Undici reports network failures as TypeError('fetch failed' | 'terminated')
 * with the socket error as cause; the node:http path as StreamedRequestError.
 */
function connectionFailure(error: unknown): Attempt | undefined {
  const isNetwork =
    error instanceof KyNetworkError ||
    error instanceof StreamedRequestError ||
    (error instanceof TypeError && (error.message === 'fetch failed' || error.message === 'terminated'));
  if (!isNetwork) return undefined;
  const raw = error instanceof KyNetworkError || error instanceof StreamedRequestError ? error.cause : error;
  const code = errorCode(raw);
  return { kind: 'connection', reached: code === undefined || !NOT_SENT_CODES.has(code), cause: raw };
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Object; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeCause(cause: unknown): string {
  const code = errorCode(cause);
  const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : undefined;
  return [cause instanceof Error ? cause.message : String(cause), inner, code]
    .filter((s) => s !== undefined && s !== '')
    .join(': ');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
