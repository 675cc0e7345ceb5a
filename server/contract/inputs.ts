// Input objects and the bodies of the create endpoints (API rules:
// Resources, Endpoints). Objects are strict: an unknown field is an error that names it,
// so a typo never silently drops data.
import { z } from 'zod';
import { ATTACHMENT_TYPES, JOB_TYPES, LOCALES, RESUME_TYPES, WORKING_TIMES } from './values.ts';

const text = (max: number) => z.string().max(max);
const isoDate = z.iso.date({ error: 'must be a date in the format YYYY-MM-DD' });
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048);

/** A file as the API takes it. Rule: base64 and mime_type are required together. */
function fileSchema<T extends readonly [string, ...string[]]>(types: T) {
  return z.strictObject({
    base64: z
      .base64({
        error: (iss) => (iss.input === undefined ? 'is required together with mime_type' : 'must be base64 text'),
      })
      .min(1, 'must not be empty'),
    mime_type: z.enum(types, {
      error: (iss) =>
        iss.input === undefined ? 'is required together with base64' : `must be one of: ${types.join(', ')}`,
    }),
  });
}

/** Resume object. Rule: both base64 and mime_type are needed to upload a resume. */
export const ResumeInput = fileSchema(RESUME_TYPES);
export type ResumeInput = z.infer<typeof ResumeInput>;

/** Comment attachment. Rule: both base64 and mime_type are needed to upload an attachment. */
export const AttachmentInput = fileSchema(ATTACHMENT_TYPES);
export type AttachmentInput = z.infer<typeof AttachmentInput>;

export const CommentInput = z.strictObject({
  content: text(20_000).optional(),
  attachment: AttachmentInput.optional(),
});
export type CommentInput = z.infer<typeof CommentInput>;

/** "Object or Array of Objects" in the spec; always an array once parsed. */
function oneOrMany<T extends z.ZodType>(item: T) {
  return z.union([z.array(item), item]).transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[]);
}

export const ApplicantAddressInput = z.strictObject({
  lat: z.number().min(-90).max(90).optional(),
  lon: z.number().min(-180).max(180).optional(),
  name: text(500).optional(),
  street_number: text(50).optional(),
  street: text(200).optional(),
  zipcode: text(20).optional(),
  city: text(200).optional(),
  country: text(100).optional(),
  iso_country: text(3).optional(),
});
export type ApplicantAddressInput = z.infer<typeof ApplicantAddressInput>;

export const ApplicationInput = z.strictObject({
  campaign_id: z.int().positive(),
  source: text(100).optional(),
  resume: ResumeInput.optional(),
  comments: oneOrMany(CommentInput).optional(),
  tags: z.array(text(100)).optional(),
});
export type ApplicationInput = z.infer<typeof ApplicationInput>;

/** Application nested in an applicant: no resume there (POST /applicants and /jobboards/applicants). */
export const NestedApplicationInput = ApplicationInput.omit({ resume: true });
export type NestedApplicationInput = z.infer<typeof NestedApplicationInput>;

const applicantFields = {
  email: z.email({ error: 'must be a valid email address' }).max(254),
  first_name: text(100).optional(),
  last_name: text(100).optional(),
  locale: z.enum(LOCALES, { error: `must be one of: ${LOCALES.join(', ')}` }).optional(),
  phone_code: z
    .string()
    .regex(/^\+?[0-9]{1,4}$/, 'must be a country calling code such as +33')
    .optional(),
  phone_number: z
    .string()
    .regex(/^[0-9 .()-]{4,20}$/, 'must be a phone number without country code')
    .optional(),
  avatar_url: httpUrl.optional(),
  iso_country: text(3).optional(),
  is_partner_newsletter_active: z.boolean().optional(),
  is_campaign_alert_active: z.boolean().optional(),
  is_legals_accepted_by_manager: z.boolean().optional(),
  bio_url: httpUrl.optional(),
  resume: ResumeInput.optional(),
  address: ApplicantAddressInput.optional(),
  applications: oneOrMany(NestedApplicationInput).optional(),
};

export const ApplicantInput = z.strictObject({
  ...applicantFields,
  pools: z.array(z.int().positive()).optional(),
});
export type ApplicantInput = z.infer<typeof ApplicantInput>;

/** Applicant of POST /jobboards/applicants: the applicant fields except pools and tags. */
export const JobboardApplicantInput = z.strictObject(applicantFields);
export type JobboardApplicantInput = z.infer<typeof JobboardApplicantInput>;

export const CampaignAddressInput = z.strictObject({
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  street_number: text(50).optional(),
  street: text(200).optional(),
  postal_code: text(20).optional(),
  city: text(200).optional(),
  country: text(100).optional(),
  name: text(500).optional(),
});
export type CampaignAddressInput = z.infer<typeof CampaignAddressInput>;

export const CampaignInput = z
  .strictObject({
    manage_name: text(255).min(1, 'is required'),
    name: text(255).optional(),
    description: text(100_000).optional(),
    profile: text(100_000).optional(),
    job_type: z.enum(JOB_TYPES, { error: `must be one of (case sensitive): ${JOB_TYPES.join(', ')}` }).optional(),
    contract_duration: z.int().positive().optional(),
    job_start_date: isoDate.optional(),
    date_end: isoDate.optional(),
    working_time: z
      .enum(WORKING_TIMES, { error: `must be one of (case sensitive): ${WORKING_TIMES.join(', ')}` })
      .optional(),
    salary_min: z.int().nonnegative().optional().describe('At most salary_max, when both are given'),
    salary_max: z.int().nonnegative().optional().describe('At least salary_min, when both are given'),
    unit_id: z.int().positive().optional(),
    address: CampaignAddressInput.optional(),
  })
  .refine((c) => c.salary_min === undefined || c.salary_max === undefined || c.salary_min <= c.salary_max, {
    path: ['salary_max'],
    message: 'must be greater than or equal to salary_min',
  });
export type CampaignInput = z.infer<typeof CampaignInput>;

// ---- Request bodies ----

/** POST /jwt */
export const TokenRequest = z.strictObject({
  private_key: z.string().min(1, 'is required'),
  secret_key: z.string().min(1, 'is required'),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

/** POST /applications. Rule: applicant_id or applicant_email must be given. */
export const CreateApplicationBody = z
  .strictObject({
    campaign_id: z.int().positive(),
    applicant_id: z.int().positive().optional(),
    applicant_email: z.email({ error: 'must be a valid email address' }).optional(),
    application: ApplicationInput.omit({ campaign_id: true }).optional(),
  })
  .refine((b) => b.applicant_id !== undefined || b.applicant_email !== undefined, {
    path: ['applicant_id'],
    message: 'applicant_id or applicant_email is required',
  })
  // The same rule, as JSON Schema says it (for the OpenAPI document).
  .meta({
    description: 'Names the applicant by applicant_id or applicant_email (one of them at least).',
    anyOf: [{ required: ['applicant_id'] }, { required: ['applicant_email'] }],
  });
export type CreateApplicationBody = z.infer<typeof CreateApplicationBody>;

/** POST /applicants */
export const CreateApplicantBody = z.strictObject({ applicant: ApplicantInput });
export type CreateApplicantBody = z.infer<typeof CreateApplicantBody>;

/** POST /jobboards/applicants */
export const CreateJobboardApplicantBody = z.strictObject({
  company_id: z.int().positive(),
  applicant: JobboardApplicantInput,
});
export type CreateJobboardApplicantBody = z.infer<typeof CreateJobboardApplicantBody>;

/** POST /campaigns */
export const CreateCampaignBody = z.strictObject({ campaign: CampaignInput });
export type CreateCampaignBody = z.infer<typeof CreateCampaignBody>;
