// The application form, defined once: the fields a candidate fills in, in
// display order, with what the widget renders and what the proxy checks and
// sends upstream. No imports but its siblings' (themselves without any), so
// the browser bundle can take it whole.
// Adding a field means one entry here plus its labels in the widget's locales.

import { UTM_FIELDS } from './campaign-tracking.ts';
import { hasControlCharacters } from './control-characters.ts';
import type { FieldCode } from './problems.ts';

export const FIELD_MODES = ['required', 'optional', 'hidden'] as const;
export type FieldMode = (typeof FIELD_MODES)[number];

export type FieldKind = 'email' | 'text' | 'tel-code' | 'tel' | 'file' | 'textarea' | 'url' | 'checkbox';

export interface FormField {
  /** The control's id; also the form name posted, except where `posted` says otherwise. */
  readonly id: string;
  /** The form name posted to the proxy when it differs from the id. */
  readonly posted?: string;
  /**
   * The key a board configures (FORM_FIELDS, /api/config `fields`, and the
   * widget's `field-*` attribute); the phone's two controls share one.
   */
  readonly rule: string;
  /**
   * Where the value goes in POST /jobboards/applicants when that is not the
   * posted name (an applicant field of the same name): the cover letter is an
   * application comment.
   */
  readonly upstream?: string;
  /** The widget attribute that overrides the rule (on the first control of a rule; email is always required). */
  readonly attribute?: string;
  /** The rule's mode unless the board sets another (on the first control of a rule). */
  readonly defaultMode?: FieldMode;
  readonly kind: FieldKind;
  /**
   * Every value is the candidate's personal data, redacted from every log
   * line and cleared when an application is erased or its retention ends,
   * unless the field says `personal: false` (so a field added without a
   * thought is treated as personal).
   */
  readonly personal?: false;
  /** Typed text kept in the candidate's session draft (never files or consents). */
  readonly draft?: boolean;
  /**
   * Kept in the candidate's browser for their next applications when they
   * tick "Remember me on this device": contact details and links, never
   * what belongs to one offer (cover letter, consents, opt-ins).
   */
  readonly remember?: true;
  readonly autocomplete?: string;
  /** Longest value taken, in characters. */
  readonly maxlength?: number;
}

/**
 * An email address the proxy takes (the contract's rule, zod's email
 * pattern): the widget checks it before sending, since a browser's own
 * check takes addresses without a dot in their domain (name@example).
 */
export const EMAIL_PATTERN =
  // eslint-disable-next-line no-useless-escape -- written as zod writes it: a test compares the two
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** Longest cover letter taken, in characters (the service would take 20,000 in a comment). */
export const MAX_COVER_LETTER_CHARS = 10_000;

export const APPLICATION_FORM = [
  { id: 'email', rule: 'email', kind: 'email', draft: true, remember: true, autocomplete: 'email', maxlength: 254 },
  {
    id: 'first_name',
    remember: true,
    rule: 'first_name',
    attribute: 'field-first-name',
    defaultMode: 'required',
    kind: 'text',
    draft: true,
    autocomplete: 'given-name',
    maxlength: 100,
  },
  {
    id: 'last_name',
    remember: true,
    rule: 'last_name',
    attribute: 'field-last-name',
    defaultMode: 'required',
    kind: 'text',
    draft: true,
    autocomplete: 'family-name',
    maxlength: 100,
  },
  {
    id: 'phone_code',
    remember: true,
    rule: 'phone',
    attribute: 'field-phone',
    defaultMode: 'optional',
    kind: 'tel-code',
    draft: true,
    autocomplete: 'tel-country-code',
    maxlength: 5,
  },
  { id: 'phone_number', rule: 'phone', kind: 'tel', draft: true, remember: true, autocomplete: 'tel-national' },
  { id: 'resume', rule: 'resume', attribute: 'field-resume', defaultMode: 'required', kind: 'file' },
  {
    id: 'cover_letter',
    rule: 'cover_letter',
    upstream: 'comments',
    attribute: 'field-cover-letter',
    defaultMode: 'optional',
    kind: 'textarea',
    draft: true,
    maxlength: MAX_COVER_LETTER_CHARS,
  },
  {
    id: 'bio_url',
    remember: true,
    rule: 'bio_url',
    attribute: 'field-bio-url',
    defaultMode: 'optional',
    kind: 'url',
    draft: true,
    autocomplete: 'url',
    maxlength: 2048,
  },
  {
    id: 'consent',
    posted: 'is_legals_accepted_by_manager',
    rule: 'consent',
    attribute: 'field-consent',
    defaultMode: 'required',
    kind: 'checkbox',
    personal: false,
  },
  {
    id: 'is_partner_newsletter_active',
    rule: 'is_partner_newsletter_active',
    attribute: 'field-newsletter',
    defaultMode: 'optional',
    kind: 'checkbox',
    personal: false,
  },
  {
    id: 'is_campaign_alert_active',
    rule: 'is_campaign_alert_active',
    attribute: 'field-job-alert',
    defaultMode: 'optional',
    kind: 'checkbox',
    personal: false,
  },
] as const satisfies readonly FormField[];

/**
 * Form names the widget sets itself rather than the candidate: the offer (or,
 * for a spontaneous application, the company: exactly one of the two), the
 * language, the honeypot and the captcha answer.
 */
export const FORM_CONTEXT_FIELDS = ['campaign_id', 'company_id', 'locale', 'website', 'captcha_token'] as const;

type Entry = (typeof APPLICATION_FORM)[number];

/**
 * The form names that fill the applicant field of the same name in
 * POST /jobboards/applicants: every field but the resume (a file) and the
 * ones sent elsewhere (`upstream`).
 */
export type ApplicantFormName = Entry extends infer E
  ? E extends { upstream: string } | { kind: 'file' }
    ? never
    : E extends { posted: infer P }
      ? P
      : E extends { id: infer I }
        ? I
        : never
  : never;

/** The keys a board may configure (every rule but email, which is always required). */
export type ConfigurableField = Exclude<Entry['rule'], 'email'>;

/** The keys a board may configure, in display order. */
// The derived lists are pure calls of their whole computation, so the widget's bundler drops the ones it does not use
// (marking only the outer call would leave the filter/map calls of its arguments in the bundle).
export const CONFIGURABLE_FIELDS = /* @__PURE__ */ (() =>
  Array.from(new Set(APPLICATION_FORM.map((f) => f.rule).filter((rule) => rule !== 'email'))) as ConfigurableField[])();

/** Each configurable field's mode unless the board sets another. */
export const DEFAULT_FIELD_MODES = /* @__PURE__ */ (() =>
  Object.fromEntries(APPLICATION_FORM.flatMap((f) => ('defaultMode' in f ? [[f.rule, f.defaultMode]] : []))) as Record<
    ConfigurableField,
    FieldMode
  >)();

/** Every form name the proxy reads (the campaign parameters last, read unless TRACK_UTM=false); anything else in a posted form is ignored. */
export const FORM_FIELD_NAMES = /* @__PURE__ */ (() =>
  (FORM_CONTEXT_FIELDS as readonly string[]).concat(
    APPLICATION_FORM.filter((f) => f.kind !== 'file').map(postedName),
    UTM_FIELDS,
  ))();

/**
 * Every key a personal field's value may travel under: its control's id, the
 * name it is posted under, the applicant field it fills upstream, and its rule
 * (the phone's two controls share `phone`). The proxy's logs redact them.
 */
export const PERSONAL_FIELD_KEYS: readonly string[] = /* @__PURE__ */ (() =>
  Array.from(
    new Set(
      (APPLICATION_FORM as readonly FormField[])
        .filter((f) => f.personal !== false)
        .flatMap((f) => [f.id, postedName(f), upstreamName(f), f.rule]),
    ),
  ))();

/** The per-field code of a value the field's kind refuses (any other refusal is `invalid_value`). */
const INVALID_CODE_OF_KIND: Partial<Record<FieldKind, FieldCode>> = {
  email: 'invalid_email',
  url: 'invalid_url',
  'tel-code': 'invalid_phone',
  tel: 'invalid_phone',
  file: 'unsupported_file_type',
};

/** The per-field code for a refused value of the field posted as `formName`. */
export function invalidCodeOf(formName: string): FieldCode {
  const field: FormField | undefined = APPLICATION_FORM.find((f) => postedName(f) === formName);
  return (field && INVALID_CODE_OF_KIND[field.kind]) ?? 'invalid_value';
}

/**
 * True when a typed value holds a control character its field refuses (a
 * NUL above all: no store keeps it): a textarea keeps its tabs and line
 * breaks, any other field none.
 */
export function refusesControlCharacters(formName: string, value: string): boolean {
  const field: FormField | undefined = APPLICATION_FORM.find((f) => postedName(f) === formName);
  return hasControlCharacters(value, field?.kind === 'textarea' ? 'lines' : 'line');
}

/** The field of a rule: its first control (the phone's code, for `phone`). */
export function fieldOf<R extends Entry['rule']>(rule: R): Extract<Entry, { rule: R }> {
  return APPLICATION_FORM.find((f): f is Extract<Entry, { rule: R }> => f.rule === rule)!;
}

/** The form name a field is posted under. */
export function postedName(field: FormField): string {
  return field.posted ?? field.id;
}

/** The field of POST /jobboards/applicants a form field fills. */
export function upstreamName(field: FormField): string {
  return field.upstream ?? postedName(field);
}
