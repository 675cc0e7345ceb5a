// Handlers throw ApiError; one middleware (app.ts) turns it into the API's
// error body {"error": {"code", "message", "details"}}.
import type { z } from 'zod';
import { ERROR_STATUS, detailsFromIssues } from '../contract/index.ts';
import type { ErrorCode, ErrorDetail } from '../contract/index.ts';

/** A detail may carry extra machine-readable keys (existing_id on 409s). */
export type Detail = ErrorDetail & Record<string, unknown>;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Detail[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: Detail[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
    this.headers = headers;
  }
}

export function notFound(what: string): ApiError {
  return new ApiError('not_found', `${what} was not found.`);
}

/** One rule broken on one field: a 422 with its code. */
export function ruleBroken(code: ErrorCode, field: string, message: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(code, `${field}: ${message}`, [{ field, message, ...extra }]);
}

/**
 * Maps a zod failure to an ApiError. Issues that are rules of section 7 get
 * their own 422 code when they are the only kind of problem; anything
 * structural (wrong type, unknown field) makes it a 400 invalid_request that
 * lists every field.
 */
export function fromZod(error: z.ZodError, what: string, prefix: readonly PropertyKey[] = []): ApiError {
  const details = detailsFromIssues(error.issues, prefix);
  const codes = new Set(error.issues.map((issue) => ruleCodeOf(issue)));
  const only = codes.size === 1 ? [...codes][0] : undefined;
  const code: ErrorCode = only ?? 'invalid_request';
  const summary = details.map((d) => `${d.field === '' ? '(body)' : d.field} ${d.message}`).join('; ');
  return new ApiError(code, `Invalid ${what}: ${summary}`, details);
}

function ruleCodeOf(issue: z.core.$ZodIssue): ErrorCode {
  const last = String(issue.path.at(-1) ?? '');
  if (issue.message.includes('required together with')) return 'file_incomplete';
  if (issue.message.includes('status[value] is required')) return 'status_value_required';
  if (issue.message.includes('applicant_id or applicant_email')) return 'applicant_reference_required';
  if (last === 'job_type' && issue.code === 'invalid_value') return 'invalid_job_type';
  if (last === 'working_time' && issue.code === 'invalid_value') return 'invalid_working_time';
  if ((last === 'page' || last === 'per_page') && issue.path.length === 1) return 'page_out_of_range';
  return 'invalid_request';
}
