// Handlers throw SandboxError; one middleware (app.ts) turns it into the API's
// error body {"error": {"code", "message", "details"}}.
import type { z } from 'zod';
import { ERROR_STATUS, detailsFromIssues } from '../contract/index.ts';
import type { ErrorCode, ErrorDetail } from '../contract/index.ts';

/** A detail may carry extra machine-readable keys (existing_id on 409s). */
export type Detail = ErrorDetail & Record<string, unknown>;

export class SandboxError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Detail[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: Detail[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
    this.headers = headers;
  }
}

export function notFound(what: string): SandboxError {
  return new SandboxError('not_found', `${what} was not found.`);
}

/** One rule broken on one field: a 422 with its code. */
export function ruleBroken(
  code: ErrorCode,
  field: string,
  message: string,
  extra: Record<string, unknown> = {},
): SandboxError {
  return new SandboxError(code, `${field}: ${message}`, [{ field, message, ...extra }]);
}

/**
 * Maps a zod failure to an SandboxError. Issues that are request rules (API rules: Errors) get
 * their own 422 code when they are the only kind of problem; anything
 * structural (wrong type, unknown field) makes it a 400 invalid_request that
 * lists every field.
 */
export function fromZod(error: z.ZodError, what: string, prefix: readonly PropertyKey[] = []): SandboxError {
  const issues = flatten(error.issues);
  const details = detailsFromIssues(issues, prefix);
  const codes = new Set(issues.map((issue) => ruleCodeOf(issue)));
  const only = codes.size === 1 ? [...codes][0] : undefined;
  const code: ErrorCode = only ?? 'invalid_request';
  const summary = details.map((d) => `${d.field === '' ? '(body)' : d.field} ${d.message}`).join('; ');
  return new SandboxError(code, `Invalid ${what}: ${summary}`, details);
}

/**
 * An unknown field is named back only when its name could be a field's: a
 * typo is then easy to find, and no other text of the request is echoed.
 */
const FIELD_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Unknown fields become one issue each. "Object or Array of Objects" fields are unions: report the issues of the
 * branch that matched the input's shape rather than a bare "Invalid input".
 */
function flatten(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    // One detail per unknown field, each with its own path, so a typo is easy to find.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) =>
        FIELD_NAME.test(key)
          ? ({ ...issue, path: [...issue.path, key], message: 'is not a known field' } as z.core.$ZodIssue)
          : ({
              ...issue,
              message: 'has a field whose name is not a field name (letters, digits and _ . -)',
            } as z.core.$ZodIssue),
      );
    }
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const shaped = issue.errors.find((branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0));
    if (shaped === undefined) {
      // No branch fits the input's type: say which types would.
      const expected = [
        ...new Set(
          issue.errors.flat().flatMap((i) => (i.code === 'invalid_type' && i.path.length === 0 ? [i.expected] : [])),
        ),
      ];
      return [{ ...issue, message: expected.length > 0 ? `must be of type ${expected.join(' or ')}` : issue.message }];
    }
    return flatten(shaped).map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as z.core.$ZodIssue);
  });
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
