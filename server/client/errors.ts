// Typed errors of the client: one base class, one
// subclass per failure a program branches on. Every message names the method
// and the URL so a log line alone says which call failed.
import { ErrorBody } from '../contract/index.ts';
import type { ErrorDetail } from '../contract/index.ts';

export type { ErrorDetail };

export interface ApiErrorInit {
  method: string;
  url: string;
  status?: number | undefined;
  code: string;
  message: string;
  details?: readonly ErrorDetail[] | undefined;
  cause?: unknown;
  /** Attempts made before giving up (1 when the request was not retried). */
  attempts?: number | undefined;
}

/** Base of every error the client throws. */
export class ApiError extends Error {
  override name = 'ApiError';
  /** HTTP status; undefined when no answer came back (connection, timeout) or nothing was sent. */
  readonly status: number | undefined;
  /** The API's error code (`campaign_not_open`, `rate_limited`...) or a client code (`connection_failed`...). */
  readonly code: string;
  /** Per-field problems, `field` a dotted path such as `applicant.email`. */
  readonly details: readonly ErrorDetail[];
  readonly method: string;
  readonly url: string;
  readonly attempts: number;

  constructor(init: ApiErrorInit) {
    super(formatMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.method = init.method;
    this.url = init.url;
    this.attempts = init.attempts ?? 1;
  }
}

function formatMessage(init: ApiErrorInit): string {
  const head =
    init.status === undefined
      ? `${init.method} ${init.url}`
      : `${init.method} ${init.url} answered ${init.status} ${init.code}`;
  const fields = (init.details ?? []).map((d) => `${d.field}: ${d.message}`).join('; ');
  return `${head}: ${init.message}${fields === '' ? '' : ` (${fields})`}`;
}

/** 400 or 422: the request broke a rule; `details` names the fields. Also thrown before sending when the input breaks the contract (status undefined). */
export class ValidationError extends ApiError {
  override name = 'ValidationError';
}

/** 401: the key pair is wrong, or the token was refused even after one renewal. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}

/** 403 `missing_scope`: the API client lacks the scope this endpoint needs. */
export class PermissionError extends ApiError {
  override name = 'PermissionError';
}

/** 403 `rate_limited`, thrown only once the client stopped waiting (see `retry.maxRateLimitWaits`). */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** What the server asked to wait, from `Retry-After`. */
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit & { retryAfterMs: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/** 409: `applicant_exists` or `application_exists`. */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
  /** Id of the applicant or application that already exists, when the server says (`details[].existing_id`). */
  readonly existingId: number | undefined;

  constructor(init: ApiErrorInit & { existingId: number | undefined }) {
    super(init);
    this.existingId = init.existingId;
  }
}

/** 5xx, after the retries the policy allowed. */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

/**
 * No answer: connection refused, reset, DNS failure. `mayHaveReachedServer`
 * tells a caller whether a create could have happened (reset after sending)
 * or surely did not (refused, unknown host).
 */
export class ConnectionError extends ApiError {
  override name = 'ConnectionError';
  readonly mayHaveReachedServer: boolean;

  constructor(init: ApiErrorInit & { mayHaveReachedServer: boolean }) {
    super(init);
    this.mayHaveReachedServer = init.mayHaveReachedServer;
  }
}

/** No complete answer within the per-request timeout. The request may have reached the server. */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
}

/** An answer that breaks the contract; `details` name the offending fields (`data.3.job_type`). */
export class SchemaError extends ApiError {
  override name = 'SchemaError';
}

/**
 * `Retry-After` as milliseconds: delay-seconds or an HTTP date (RFC 9110).
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export interface ErrorResponseInfo {
  method: string;
  url: string;
  status: number;
  /** The body text, parsed here against the API's error shape. */
  bodyText: string;
  retryAfterMs: number | undefined;
  attempts: number;
}

/** Turns an error answer into the matching error class. */
export function errorFromResponse(info: ErrorResponseInfo): ApiError {
  const { status } = info;
  let code = `http_${status}`;
  let message = 'the server answered without the API error body';
  let details: readonly ErrorDetail[] = [];
  let existingId: number | undefined;
  try {
    const raw: unknown = JSON.parse(info.bodyText);
    const parsed = ErrorBody.safeParse(raw);
    if (parsed.success) ({ code, message, details } = parsed.data.error);
    existingId = existingIdOf(raw);
  } catch {
    if (info.bodyText.trim() !== '') message = info.bodyText.trim().slice(0, 200);
  }
  const init: ApiErrorInit = {
    method: info.method,
    url: info.url,
    status,
    code,
    message,
    details,
    attempts: info.attempts,
  };
  if (status === 400 || status === 422) return new ValidationError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403 && code === 'rate_limited')
    return new RateLimitError({ ...init, retryAfterMs: info.retryAfterMs });
  if (status === 403) return new PermissionError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError({ ...init, existingId });
  if (status >= 500) return new ServerError(init);
  return new ApiError(init);
}

/** `existing_id` of the first detail that has one (the sandbox's 409 bodies carry it). */
function existingIdOf(raw: unknown): number | undefined {
  const details = (raw as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    const id = (detail as { existing_id?: unknown } | null)?.existing_id;
    if (typeof id === 'number' && Number.isInteger(id)) return id;
  }
  return undefined;
}
