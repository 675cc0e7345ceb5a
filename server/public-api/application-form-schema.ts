// The multipart form of POST /api/applications as a zod schema, from the
// form's table (application-form.ts) under a board's field modes: what
// /api/openapi.json documents of it.
import { z } from 'zod';
import { JobboardApplicantInput, LOCALES } from '../contract/index.ts';
import { APPLICATION_FORM, postedName, upstreamName } from './application-form.ts';
import type { ConfigurableField, FieldKind, FieldMode, FormField } from './application-form.ts';
import { MAX_UTM_CHARS, UTM_FIELDS } from './campaign-tracking.ts';
import { MAX_RESUME_PAGES, RESUME_PAGES_FIELD } from './resume-pages.ts';
import { OfferId } from './schemas.ts';

const checkbox = z.enum(['true', 'on', '1', 'false', 'off', '0']).describe('Ticked when true, on or 1');
/** What a required checkbox (the consent) must send: the proxy refuses the form unless it is ticked. */
const ticked = z.enum(['true', 'on', '1']).describe('Must be ticked: true, on or 1');
/** What each kind of text field looks like, as the document's example (a client generating a sample sends it). */
const EXAMPLE_OF_KIND: Partial<Record<FieldKind, string>> = {
  email: 'ada@example.org',
  text: 'Ada',
  'tel-code': '+33',
  tel: '6 12 34 56 78',
  url: 'https://ada.example/portfolio',
  textarea: 'I would love to work with you.',
};

const applicantShape = JobboardApplicantInput.shape as Record<string, z.ZodType>;

/**
 * A text field's schema: the contract's for the applicant field it fills (the
 * proxy checks the value with it), else a string within the field's maxlength.
 * Required, a blank value counts as absent: it must hold a non-space.
 */
function textSchema(field: FormField, required: boolean): z.ZodType {
  const contract = applicantShape[upstreamName(field)];
  let schema = (contract instanceof z.ZodOptional ? contract.unwrap() : (contract ?? z.string())) as z.ZodString;
  if (field.maxlength !== undefined) schema = schema.max(field.maxlength);
  if (required && schema.safeParse(' ').success) schema = schema.regex(/\S/, 'must not be blank');
  const example = EXAMPLE_OF_KIND[field.kind];
  return example === undefined ? schema : schema.meta({ examples: [example] });
}

/**
 * The resume: its type is read from its bytes, whatever type it is sent as
 * (the operation's encoding lists the types). An empty file is no resume:
 * refused when the board requires one, the same as none when it does not.
 */
function resumeSchema(required: boolean): z.ZodType {
  const file = z.file();
  const size = required
    ? 'not empty (an empty file is no resume: 422 validation_failed on resume)'
    : 'an empty file is no resume';
  return (required ? file.min(1) : file.optional()).describe(
    `The file: pdf, jpg, png, doc or docx, read from its bytes whatever type it is sent as (any other: 415 unsupported_file_type, saying what the bytes are in detected_type when known; with other fields' problems, one 422 validation_failed lists them all, this one included), ${size}, at most resume.max_bytes of GET /api/config; or, in its place, the photos of its pages in ${RESUME_PAGES_FIELD}`,
  );
}

/** Photos of a paper resume's pages, in the resume's place: the proxy assembles them into one PDF. */
const resumePagesSchema = z
  .array(z.file().min(1))
  .min(1)
  .max(MAX_RESUME_PAGES)
  .optional()
  .describe(
    `In the place of resume (both: 422 validation_failed on ${RESUME_PAGES_FIELD}): photos of a paper resume's pages, one file per page repeated in their order, at most ${MAX_RESUME_PAGES} (a sixth: 422 invalid_value), each a jpg or png read from its bytes (else 422 or 415 unsupported_file_type), all together at most resume.max_bytes. The proxy assembles them into one PDF, one page per photo, sent as the resume`,
  );

/** Rules between fields, said on the field that needs another (the proxy checks them). */
const NEEDS: Partial<Record<string, { field: string; rule: string }>> = {
  phone_number: {
    field: 'phone_code',
    rule: 'Needs phone_code, the country calling code: a number without it is refused (422 validation_failed on phone_code)',
  },
};

/** The schema of one form field, by its kind in the form's table and whether the proxy requires it. */
function formFieldSchema(field: FormField, required: boolean): z.ZodType {
  const optional = (schema: z.ZodType) => (required ? schema : schema.optional());
  switch (field.kind) {
    case 'checkbox':
      return required ? ticked : checkbox.optional();
    case 'file':
      return resumeSchema(required);
    case 'textarea':
      return optional(textSchema(field, required).describe('Sent upstream as an application comment'));
    case 'url':
      return optional(textSchema(field, required).describe('An http or https address'));
    default:
      return optional(textSchema(field, required));
  }
}

/** A campaign parameter: any text; one that breaks the rule (campaign-tracking.ts) is dropped, never refused. */
const utmSchema = z.string().optional();

/**
 * The multipart form of POST /api/applications under a board's field modes
 * (FORM_FIELDS), from the form's table: the email always required, the other
 * fields required or optional as the board set them, hidden ones left out
 * (the proxy does not read them). Documentation: the applications module
 * checks the form with the same table and modes.
 */
export function applicationFormSchema(fields: Record<ConfigurableField, FieldMode>, spontaneous = false) {
  const modeOf = (field: FormField): FieldMode =>
    field.rule === 'email' ? 'required' : fields[field.rule as ConfigurableField];
  const shown = APPLICATION_FORM.filter((field) => modeOf(field) !== 'hidden');
  const schemaOf = (field: FormField): z.ZodType => {
    const schema = formFieldSchema(field, modeOf(field) === 'required');
    const needs = NEEDS[postedName(field)];
    return needs === undefined ? schema : schema.describe(needs.rule);
  };
  const dependentRequired = Object.fromEntries(
    shown.flatMap((field) => {
      const needs = NEEDS[postedName(field)];
      return needs === undefined ? [] : [[postedName(field), [needs.field]]];
    }),
  );
  return z
    .object({
      // Exactly one of the two: an application to an offer, or a spontaneous one to a company that takes them
      // (the offer's id is required where no company takes them).
      campaign_id: spontaneous
        ? OfferId.optional().describe(
            'The job offer applied to; exactly one of campaign_id and company_id (both, or neither: 422 validation_failed)',
          )
        : OfferId.describe(
            'The job offer applied to; company_id in its place (a spontaneous application) needs SPONTANEOUS_APPLICATIONS',
          ),
      company_id: z.coerce
        .number()
        .int()
        .positive()
        .optional()
        .describe(
          'A spontaneous application (no offer): the company applied to, in place of campaign_id, one that GET /api/config lists in spontaneous_applications (or all) and that has an offer on the board; else 404 not_found',
        ),
      locale: z.enum(LOCALES).optional(),
      website: z.string().optional().describe('Honeypot: hidden from people, must stay empty'),
      captcha_token: z.string().optional(),
      ...Object.fromEntries(shown.map((field) => [postedName(field), schemaOf(field)])),
      // The pages go with the resume: a board that hides the resume does not read them either.
      ...(shown.some((field) => field.kind === 'file') ? { [RESUME_PAGES_FIELD]: resumePagesSchema } : {}),
      ...Object.fromEntries(
        UTM_FIELDS.map((name) => [
          name,
          utmSchema.describe(
            `The ${name} of the landing URL, kept when at most ${MAX_UTM_CHARS} printable characters (code points), else dropped (the application is taken without it); ignored when GET /api/config says track_utm false`,
          ),
        ]),
      ),
    })
    .meta({ dependentRequired });
}
