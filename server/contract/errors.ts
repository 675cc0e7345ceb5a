// Error body and codes of the recruitment API (API rules: Errors, in API-RULES.md):
// {"error": {"code", "message", "details": [{"field", "message"}]}}.
import { z } from 'zod';

/** Every error code the API answers with, and its HTTP status. */
export const ERROR_STATUS = {
  malformed_json: 400,
  invalid_request: 400,
  missing_token: 401,
  invalid_token: 401,
  token_expired: 401,
  invalid_credentials: 401,
  missing_scope: 403,
  /** A company client calling a job-board endpoint, or the reverse. */
  wrong_client_kind: 403,
  rate_limited: 403,
  /** The sandbox's admin surface, asked by a web page of another origin. */
  origin_refused: 403,
  /** The sandbox's admin surface, asked under a host name that is not the sandbox's (DNS rebinding). */
  host_refused: 403,
  not_found: 404,
  /** A known path called with another method; the Allow header lists the right ones. */
  method_not_allowed: 405,
  applicant_exists: 409,
  application_exists: 409,
  payload_too_large: 413,
  file_too_large: 413,
  unsupported_media_type: 415,
  // A request rule broken (API rules: Errors, Resources, States): 422.
  campaign_not_open: 422,
  /** page below 1 or per_page outside 1..50: answered, not clamped. */
  page_out_of_range: 422,
  applicant_reference_required: 422,
  status_value_required: 422,
  file_incomplete: 422,
  file_type_mismatch: 422,
  invalid_job_type: 422,
  invalid_working_time: 422,
  source_not_allowed: 422,
  campaign_not_broadcast: 422,
  unit_required: 422,
  unknown_reference: 422,
  /** The sandbox's admin surface: two fields that cannot be sent together (channels and add_channels). */
  conflicting_fields: 422,
  server_error: 500,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorDetail = z.object({
  /** Path of the field, dotted: "applicant.applications.0.campaign_id". */
  field: z.string(),
  message: z.string(),
  /** On 409 applicant_exists / application_exists: the id of the existing record. */
  existing_id: z.int().optional(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(ErrorDetail).default([]),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Turns zod issues into the API's field details. */
export function detailsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): ErrorDetail[] {
  return issues.map((issue) => ({
    field: [...prefix, ...issue.path].map(String).join('.'),
    message: issue.message,
  }));
}
