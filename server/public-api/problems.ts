// Every problem code the proxy answers with (problem+json, RFC 9457), its HTTP
// status and its one title, and every per-field code of a problem's `errors`
// with its English sentence. No imports: the widget tests that it has a
// message for each code in every language it speaks.

export const PROBLEMS = {
  validation_failed: { status: 422, title: 'Some fields are not valid' },
  malformed_request: { status: 400, title: 'Malformed request' },
  idempotency_key_missing: { status: 400, title: 'Idempotency-Key header missing' },
  unauthorized: { status: 401, title: 'Authentication required' },
  origin_not_allowed: { status: 403, title: 'Origin not allowed' },
  not_found: { status: 404, title: 'Not found' },
  funnel_disabled: { status: 404, title: 'The funnel is not counted on this board' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  campaign_not_found: { status: 404, title: 'Job offer not found' },
  campaign_gone: { status: 410, title: 'This job offer is closed' },
  sitemap_not_configured: { status: 404, title: 'Sitemap not configured' },
  feed_not_configured: { status: 404, title: 'Feed not configured' },
  alerts_not_configured: { status: 404, title: 'Alerts by email not configured' },
  already_applied: { status: 409, title: 'Already applied' },
  idempotency_key_in_progress: { status: 409, title: 'Submission still being handled' },
  upload_too_slow: { status: 408, title: 'The form arrived too slowly' },
  request_too_large: { status: 413, title: 'Request too large' },
  file_too_large: { status: 413, title: 'The resume is too large' },
  unsupported_file_type: { status: 415, title: 'This file type is not accepted' },
  campaign_closed: { status: 422, title: 'This job offer is closed' },
  captcha_failed: { status: 422, title: 'The anti-robot check failed' },
  beacon_invalid: { status: 422, title: 'The beacon is not one the funnel counts' },
  beacon_offer_unknown: { status: 422, title: 'The beacon names an offer this board does not broadcast' },
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key already used' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  not_ready: { status: 503, title: 'Job offers not available yet' },
  server_busy: { status: 503, title: 'Too many applications being received at once' },
  storage_full: { status: 503, title: 'No room to store more applications right now' },
  delivery_blocked: { status: 503, title: 'Applications cannot be delivered to the recruiter right now' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

/**
 * Every per-field `code` in a problem's `errors` (422 validation_failed, 413
 * file_too_large, 415 unsupported_file_type), with the proxy's English
 * sentence beside it (the widget says each in the candidate's language).
 */
export const FIELD_PROBLEMS = {
  required: 'This field is required.',
  invalid_email: 'Enter a valid email address.',
  invalid_url: 'Enter a web address starting with http:// or https://.',
  invalid_phone: 'Enter a valid phone number.',
  invalid_value: 'This value is not accepted.',
  too_long: 'This text is too long.',
  consent_required: 'You must accept the processing of your data to apply.',
  file_required: 'Attach your resume.',
  file_too_large: 'The resume is too large.',
  unsupported_file_type: 'This file type is not accepted.',
} as const satisfies Record<string, string>;

export type FieldCode = keyof typeof FIELD_PROBLEMS;
export const FIELD_CODES = Object.keys(FIELD_PROBLEMS) as FieldCode[];

/**
 * What some field problems say beside their code, in their `reason`: why a
 * value was refused where the code alone does not tell the candidate what
 * to change. A client that knows none of them reads the code.
 */
export const FIELD_REASONS = {
  place_unknown: 'No offer in this city has a known position.',
  search_too_long: 'This search took too long.',
} as const satisfies Record<string, string>;

export type FieldReason = keyof typeof FIELD_REASONS;
export const FIELD_REASON_CODES = Object.keys(FIELD_REASONS) as FieldReason[];
