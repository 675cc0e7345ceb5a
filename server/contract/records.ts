// Response records. The spec names fields but not bodies; these shapes are
// our decision (documented in the README) and the sandbox, the client and the
// proxy all parse against them. Response objects tolerate extra fields so a
// newer service does not break older clients; embeds are optional keys.
import { z } from 'zod';
import { CAMPAIGN_STATUSES, JOB_TYPES, LOCALES, WORKING_TIMES } from './values.ts';

const timestamp = z.iso.datetime({ offset: true });
const date = z.iso.date();

export const Pool = z.object({ id: z.int(), name: z.string() });
export type Pool = z.infer<typeof Pool>;

export const Unit = z.object({ id: z.int(), name: z.string(), entity_id: z.int() });
export type Unit = z.infer<typeof Unit>;

export const Entity = z.object({ id: z.int(), name: z.string(), units: z.array(Unit) });
export type Entity = z.infer<typeof Entity>;

export const Channel = z.object({
  id: z.int(),
  value: z.string(),
  name: z.string(),
  entity_id: z.int().nullable(),
});
export type Channel = z.infer<typeof Channel>;

/** Parts of an address the service may leave empty: each a string or null. */
function nullableStrings<K extends string>(...keys: K[]) {
  return Object.fromEntries(keys.map((key) => [key, z.string().nullable()])) as Record<K, z.ZodNullable<z.ZodString>>;
}

export const ApplicantAddress = z.object({
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  ...nullableStrings('name', 'street_number', 'street', 'zipcode', 'city', 'country', 'iso_country'),
});
export type ApplicantAddress = z.infer<typeof ApplicantAddress>;

export const CampaignAddress = z.object({
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  ...nullableStrings('street_number', 'street', 'postal_code', 'city', 'country', 'name'),
});
export type CampaignAddress = z.infer<typeof CampaignAddress>;

export const Comment = z.object({
  id: z.int(),
  content: z.string().nullable(),
  /** Set once the asynchronous attachment upload is processed. */
  attachment_url: z.string().nullable(),
  created_at: timestamp,
});
export type Comment = z.infer<typeof Comment>;

export const Skill = z.object({ name: z.string() });
export type Skill = z.infer<typeof Skill>;

export const StatusChange = z.object({ value: z.string(), changed_at: timestamp });
export type StatusChange = z.infer<typeof StatusChange>;

/** Light entity and unit data reachable from an embedded campaign. */
export const LightEntity = z.object({ id: z.int(), name: z.string() });
export const LightUnit = z.object({ id: z.int(), name: z.string() });

export const Campaign = z.object({
  id: z.int(),
  company_id: z.int(),
  /** Not in the spec; the sandbox adds it so a job board can show who is hiring. */
  company_name: z.string().optional(),
  manage_name: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  profile: z.string().nullable(),
  job_type: z.enum(JOB_TYPES).nullable(),
  contract_duration: z.int().nullable(),
  job_start_date: date.nullable(),
  date_end: date.nullable(),
  working_time: z.enum(WORKING_TIMES).nullable(),
  salary_min: z.int().nullable(),
  salary_max: z.int().nullable(),
  unit_id: z.int().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
  created_at: timestamp,
  updated_at: timestamp,
  last_activation_at: timestamp.nullable(),
  // embeds
  address: CampaignAddress.nullable().optional(),
  channels: z.array(Channel).optional(),
  entity: LightEntity.nullable().optional(),
  tags: z.array(z.string()).optional(),
  unit: LightUnit.nullable().optional(),
});
export type Campaign = z.infer<typeof Campaign>;

export const LightApplicant = z.object({
  id: z.int(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});

export const LightCampaign = z.object({
  id: z.int(),
  name: z.string().nullable(),
  manage_name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  entity: LightEntity.nullable().optional(),
  unit: LightUnit.nullable().optional(),
});

export const Application = z.object({
  id: z.int(),
  company_id: z.int(),
  campaign_id: z.int(),
  applicant_id: z.int(),
  source: z.string().nullable(),
  /** A value set by a manager; 'complete' once a resume was uploaded with the application. */
  status: z.string(),
  is_complete: z.boolean(),
  /** Appears after the asynchronous upload is processed. */
  resume_url: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  // embeds
  applicant: LightApplicant.optional(),
  campaign: LightCampaign.optional(),
  comments: z.array(Comment).optional(),
  skills: z.array(Skill).optional(),
  status_history: z.array(StatusChange).optional(),
  tags: z.array(z.string()).optional(),
});
export type Application = z.infer<typeof Application>;

export const Applicant = z.object({
  id: z.int(),
  company_id: z.int(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  locale: z.enum(LOCALES).nullable(),
  phone_code: z.string().nullable(),
  phone_number: z.string().nullable(),
  avatar_url: z.string().nullable(),
  iso_country: z.string().nullable(),
  is_partner_newsletter_active: z.boolean(),
  is_campaign_alert_active: z.boolean(),
  is_legals_accepted_by_manager: z.boolean(),
  bio_url: z.string().nullable(),
  /** Appears after the asynchronous upload is processed. */
  resume_url: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  // embeds
  address: ApplicantAddress.nullable().optional(),
  applications: z.array(Application).optional(),
  pools: z.array(Pool).optional(),
});
export type Applicant = z.infer<typeof Applicant>;

/** POST /jobboards/applicants and POST /applicants answer the applicant with its created applications. */
export const CreatedApplicant = Applicant.extend({ applications: z.array(Application) });
export type CreatedApplicant = z.infer<typeof CreatedApplicant>;

export const TokenResponse = z.object({
  token: z.string(),
  /** ISO time at which the token stops being accepted. */
  expires_at: timestamp,
});
export type TokenResponse = z.infer<typeof TokenResponse>;
