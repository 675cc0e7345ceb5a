// The application form: every field checked with the contract's schemas and
// the board's field configuration (FORM_FIELDS), each problem mapped to the
// per-field code of public-api/problems.ts so the widget can say it in the
// candidate's language.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { JobboardApplicantInput, LOCALES } from '../../contract/index.ts';
import {
  APPLICATION_FORM,
  fieldOf,
  invalidCodeOf,
  postedName,
  refusesControlCharacters,
} from '../../public-api/application-form.ts';
import type { ConfigurableField, FieldMode } from '../../public-api/application-form.ts';
import { UTM_FIELDS, keepUtm } from '../../public-api/campaign-tracking.ts';
import type { KeptUtm, Utm } from '../../public-api/campaign-tracking.ts';
import { FIELD_PROBLEMS } from '../../public-api/problems.ts';
import { serviceIdOf } from '../../public-api/query-values.ts';
import type { FieldCode } from '../../public-api/problems.ts';
import type { FieldProblem } from '../http/problem.ts';
import type { ParsedForm } from './multipart.ts';
import { NO_CAMPAIGN } from '../storage/outbox/application-store.ts';
import type { ApplicationPayload } from '../storage/outbox/application-store.ts';

function problem(field: string, code: FieldCode, message?: string): FieldProblem {
  return { field, code, message: message ?? FIELD_PROBLEMS[code] };
}

/** Checkbox values: `true`, `on` or `1` is ticked; absent or `false` is not. */
function checkbox(value: string | undefined): boolean | 'invalid' {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'on' || v === '1') return true;
  if (v === 'false' || v === '' || v === 'off' || v === '0') return false;
  return 'invalid';
}

export interface CheckedForm {
  /** The offer applied to; NO_CAMPAIGN for a spontaneous application (then companyId says to whom). */
  campaignId: number;
  /** The company of a spontaneous application (company_id); undefined for an application to an offer. */
  companyId?: number;
  payload: ApplicationPayload;
  /** The email as the candidate typed it, trimmed (for the per-email limit). */
  email: string;
  captchaToken: string | undefined;
  /** The campaign parameters posted (TRACK_UTM), null when none or not tracked. */
  utm: Utm | null;
  /** The campaign parameters posted that broke the rule, left out of `utm`. */
  droppedUtm: KeptUtm['dropped'];
}

/**
 * The campaign parameters of a form (utm_*, as the widget posts them) that
 * keep to the rule (public-api/campaign-tracking.ts); one cut by the form's
 * limit is too long. A bad one is dropped, never refused: the candidate did
 * not write it and could not mend it.
 */
export function checkUtm(form: ParsedForm): KeptUtm {
  const kept = keepUtm((name) => (form.truncated.has(name) ? undefined : form.fields.get(name)));
  for (const name of UTM_FIELDS) if (form.truncated.has(name)) kept.dropped.push({ name, fault: 'too_long' });
  return kept;
}

const applicantShape = JobboardApplicantInput.shape;

/** Where the application goes: an offer (campaign_id) or a company (company_id), never both; undefined with its problems added. */
function checkTarget(
  campaign: string | undefined,
  company: string | undefined,
  errors: FieldProblem[],
): { campaignId: number; companyId?: number } | undefined {
  if (campaign !== undefined && company !== undefined) {
    errors.push(
      problem(
        'company_id',
        'invalid_value',
        'Send campaign_id (an application to that offer) or company_id (a spontaneous application to that company), not both.',
      ),
    );
    return undefined;
  }
  if (company !== undefined) {
    const companyId = serviceIdOf(company);
    if (companyId !== undefined) return { campaignId: NO_CAMPAIGN, companyId };
    errors.push(problem('company_id', 'invalid_value', 'Must be the id of a company.'));
    return undefined;
  }
  if (campaign === undefined) {
    errors.push(
      problem(
        'campaign_id',
        'required',
        'Send campaign_id (the job offer), or company_id for a spontaneous application to a company that takes them.',
      ),
    );
    return undefined;
  }
  const campaignId = serviceIdOf(campaign);
  if (campaignId !== undefined) return { campaignId };
  errors.push(problem('campaign_id', 'invalid_value', 'Must be the id of a job offer.'));
  return undefined;
}

/** The one-line text fields of the form (the email, the phone and the cover letter have their own rules). */
const LINE_FIELDS = APPLICATION_FORM.filter((f) => f.kind === 'text' || f.kind === 'url').map(postedName);
/** The opt-in checkboxes (the consent has its own rule). */
const OPT_IN_FIELDS = APPLICATION_FORM.filter((f) => f.kind === 'checkbox' && f.rule !== 'consent');
/** The consent's form name: the applicant field it fills, ticked or left out. */
const CONSENT = postedName(fieldOf('consent'));
/** The cover letter: sent upstream as an application comment, not an applicant field, with a limit of its own. */
const COVER_LETTER = postedName(fieldOf('cover_letter'));
const MAX_COVER_LETTER_CHARS = fieldOf('cover_letter').maxlength;
/** The board's rule (FORM_FIELDS) of each form name: the phone's two controls share one. */
const RULE_OF = new Map<string, string>(APPLICATION_FORM.map((f) => [postedName(f), f.rule]));

/** Which per-field code a contract issue on this applicant field becomes. */
function codeFor(field: string, issue: z.core.$ZodIssue): FieldCode {
  return issue.code === 'too_big' ? 'too_long' : invalidCodeOf(field);
}

/**
 * Checks the text fields of a parsed form against the contract and the
 * field configuration. Answers the field problems (empty when valid) and,
 * when valid, the payload to store.
 */
export function checkForm(
  form: ParsedForm,
  fields: Record<ConfigurableField, FieldMode>,
  trackUtm = false,
): { errors: FieldProblem[]; checked?: CheckedForm } {
  const errors: FieldProblem[] = [];
  const raw = (name: string): string | undefined => {
    const v = form.fields.get(name);
    if (v === undefined) return undefined;
    const t = v.trim();
    return t === '' ? undefined : t;
  };
  const modeOf = (name: string): FieldMode =>
    (fields as Record<string, FieldMode>)[RULE_OF.get(name) ?? name] ?? 'optional';
  /** The value of a text field the board shows; undefined when hidden or empty. */
  const text = (name: string): string | undefined => {
    const mode = modeOf(name);
    if (mode === 'hidden') return undefined;
    const v = raw(name);
    if (form.truncated.has(name)) {
      errors.push(problem(name, 'too_long'));
      return undefined;
    }
    if (v === undefined && mode === 'required') errors.push(problem(name, 'required'));
    return v;
  };

  // campaign_id, or company_id for a spontaneous application: exactly one of the two
  const target = checkTarget(raw('campaign_id'), raw('company_id'), errors);

  // email: always required
  const email = raw('email');
  if (form.truncated.has('email')) errors.push(problem('email', 'too_long'));
  else if (email === undefined) errors.push(problem('email', 'required'));

  const applicant: Record<string, unknown> = {};
  if (email !== undefined && !form.truncated.has('email')) applicant.email = email;
  for (const name of LINE_FIELDS) {
    const v = text(name);
    if (v !== undefined) applicant[name] = v;
  }
  const phoneNumber = text('phone_number');
  const phoneCode = modeOf('phone_code') === 'hidden' ? undefined : raw('phone_code');
  if (phoneNumber !== undefined) {
    applicant.phone_number = phoneNumber;
    if (phoneCode === undefined)
      errors.push(problem('phone_code', 'required', 'Choose the country calling code of the number.'));
    else applicant.phone_code = phoneCode;
  } else if (phoneCode !== undefined && !/^\+?[0-9]{1,4}$/.test(phoneCode)) {
    errors.push(problem('phone_code', 'invalid_phone'));
  }
  const locale = raw('locale');
  if (locale !== undefined) {
    if ((LOCALES as readonly string[]).includes(locale)) applicant.locale = locale;
    else errors.push(problem('locale', 'invalid_value', `Must be one of ${LOCALES.join(', ')}.`));
  }

  // consent and opt-ins
  const consent = checkbox(form.fields.get(CONSENT));
  if (consent === 'invalid') errors.push(problem(CONSENT, 'invalid_value', 'Send true when ticked.'));
  else if (modeOf(CONSENT) === 'required' && !consent) errors.push(problem(CONSENT, 'consent_required'));
  else if (modeOf(CONSENT) !== 'hidden' && consent) applicant[CONSENT] = true;
  for (const field of OPT_IN_FIELDS) {
    const name = postedName(field);
    const v = checkbox(form.fields.get(name));
    if (v === 'invalid') errors.push(problem(name, 'invalid_value', 'Send true when ticked.'));
    else if (fields[field.rule] === 'required' && !v) errors.push(problem(name, 'required'));
    else if (fields[field.rule] !== 'hidden') applicant[name] = v;
  }

  // cover letter: its own limit (the API would take 20,000 in a comment)
  const coverLetter = text(COVER_LETTER);
  if (coverLetter !== undefined && target?.companyId !== undefined) {
    // The service keeps comments on an application only: with no offer, there is none to carry it.
    errors.push(
      problem(
        COVER_LETTER,
        'invalid_value',
        'A spontaneous application carries no cover letter (the recruiter receives your profile and resume): leave it empty.',
      ),
    );
  } else if (coverLetter !== undefined && [...coverLetter].length > MAX_COVER_LETTER_CHARS) {
    errors.push(problem(COVER_LETTER, 'too_long', `At most ${MAX_COVER_LETTER_CHARS} characters.`));
  }

  // No control character in a candidate's text, each refused on its own field (unless refused already).
  for (const [name, value] of [...Object.entries(applicant), [COVER_LETTER, coverLetter] as const]) {
    if (typeof value === 'string' && refusesControlCharacters(name, value) && !errors.some((e) => e.field === name)) {
      errors.push(
        problem(name, invalidCodeOf(name), 'Remove the invisible control characters (such as NUL) from this text.'),
      );
    }
  }

  // the contract's own rules on every applicant field, each issue on its field
  const seen = new Set(errors.map((e) => e.field));
  for (const [name, value] of Object.entries(applicant)) {
    const schema = applicantShape[name as keyof typeof applicantShape];
    const result = schema.safeParse(value);
    if (!result.success && !seen.has(name)) {
      const issue = result.error.issues[0];
      if (issue !== undefined) errors.push(problem(name, codeFor(name, issue)));
      seen.add(name);
    }
  }

  // Not tracked (TRACK_UTM=false): not read at all, as any other name the proxy ignores.
  const { utm, dropped } = trackUtm ? checkUtm(form) : { utm: {}, dropped: [] };

  if (errors.length > 0 || target === undefined) return { errors };
  const payload: ApplicationPayload = { applicant: applicant as ApplicationPayload['applicant'] };
  if (coverLetter !== undefined) payload.cover_letter = coverLetter;
  return {
    errors,
    checked: {
      ...target,
      payload,
      email: email ?? '',
      captchaToken: raw('captcha_token'),
      utm: Object.keys(utm).length === 0 ? null : utm,
      droppedUtm: dropped,
    },
  };
}

/**
 * What makes two submissions "the same body" for Idempotency-Key: every
 * field but the captcha token (a retry may carry a fresh one) and the
 * resume's bytes, or its pages' (not their file names).
 */
export function fingerprintOf(form: ParsedForm): string {
  const hash = createHash('sha256');
  const names = [...form.fields.keys()].filter((n) => n !== 'captcha_token').sort();
  for (const name of names) hash.update(`${name}\u0000${form.fields.get(name) ?? ''}\u0000`);
  hash.update('resume\u0000');
  if (form.resume !== undefined) hash.update(form.resume.sha256);
  // The photos of a resume's pages, in their order (none: the fingerprint a form without pages always had).
  for (const page of form.pages) hash.update(`\u0000page\u0000${page.sha256}`);
  return hash.digest('hex');
}

/** The key of the per-email counter: a hash, so no address sits in the counters. */
export function emailBucket(email: string): string {
  return `email:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
}
