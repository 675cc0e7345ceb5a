// Test helpers for one delivery attempt: an outbox row as the worker claims
// it, and the 422 refusal the client throws for createApplicant.
import { ValidationError } from '../../client/index.ts';
import type { ErrorDetail } from '../../client/index.ts';
import type { OutboxRow } from '../storage/outbox/application-store.ts';

/** Where the client's errors of createApplicant say they were sent. */
export const CREATE_APPLICANT = { method: 'POST', url: 'http://upstream/v2/jobboards/applicants' };

/** The service's 422 answer to createApplicant: its error code and the field problems it listed. */
export function refusedByService(code: string, details: ErrorDetail[], message = 'refused'): ValidationError {
  return new ValidationError({ ...CREATE_APPLICANT, status: 422, code, message, details });
}

/** Row r1 (campaign 12 of company 3, from ada@example.org, without a resume) in its first attempt, with `overrides`. */
export function deliveringRow(overrides: Partial<OutboxRow> = {}): OutboxRow {
  return {
    reference: 'r1',
    created_at: 0,
    campaign_id: 12,
    company_id: 3,
    payload: { applicant: { email: 'ada@example.org' }, cover_letter: 'Hello' },
    resume_bytes: null,
    resume_type: null,
    status: 'delivering',
    attempts: 1,
    next_attempt_at: 0,
    dead_letter_at: 0,
    answered: null,
    outcome: null,
    last_error: null,
    last_attempt_at: 0,
    delivered_at: null,
    upstream_applicant_id: null,
    upstream_application_id: null,
    ended_at: null,
    erased_at: null,
    erased_by: null,
    unconfirmed_send: 0,
    source_dropped: 0,
    utm: null,
    receipt_token: null,
    company_status: null,
    status_checked_at: null,
    ...overrides,
  };
}
