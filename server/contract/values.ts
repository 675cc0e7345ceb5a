// Allowed values of the recruitment API, defined once. Case matters: the
// service compares job_type and working_time exactly (API rules: Allowed values).

export const JOB_TYPES = [
  'Fixed term contract',
  'Permanent contract',
  'Interim Contract',
  'Professional Contract',
  'Alternating',
  'Freelance',
  'Internship',
  'IVB',
  'Tenured',
  'Other',
] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const WORKING_TIMES = [
  'Full time',
  'Part time',
  'Part time - Morning',
  'Part time - Afternoon',
  'Half time',
  'Custom',
] as const;
export type WorkingTime = (typeof WORKING_TIMES)[number];

/** The service publishes salaries without a currency; its customers are in the euro area, so euros are assumed. */
export const SALARY_CURRENCY = 'EUR';

export const LOCALES = ['fr', 'en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** Types a resume may have (API rules: Files). */
export const RESUME_TYPES = ['pdf', 'jpg', 'png', 'doc', 'docx'] as const;
export type ResumeType = (typeof RESUME_TYPES)[number];

/** Types a comment attachment may have: the resume types and xlsx. */
export const ATTACHMENT_TYPES = [...RESUME_TYPES, 'xlsx'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** The MIME type of each short file type name the API uses. */
export const MIME_TYPE_OF: Record<AttachmentType, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  png: 'image/png',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export const CAMPAIGN_STATUSES = ['online', 'standby', 'draft', 'archived'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Rule (API rules: States): an application can be created only for a campaign in one of these statuses. */
export const OPEN_CAMPAIGN_STATUSES = ['online', 'draft', 'standby'] as const satisfies readonly CampaignStatus[];

export function isCampaignOpenForApplications(status: CampaignStatus): boolean {
  return (OPEN_CAMPAIGN_STATUSES as readonly CampaignStatus[]).includes(status);
}

/** Rule (API rules: States): status history exists only for changes made after this day. */
export const STATUS_HISTORY_START = '2021-05-06';

export const SCOPES = [
  'applications_read',
  'applications_write',
  'applicants_read',
  'applicants_write',
  'campaigns_read',
  'campaigns_write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes a job-board API client gets (API rules: Allowed values). */
export const JOBBOARD_SCOPES = [
  'applicants_write',
  'applications_read',
  'applications_write',
  'campaigns_read',
] as const satisfies readonly Scope[];

/** Embed values accepted per endpoint (API rules: Endpoints). */
export const APPLICATION_EMBEDS = ['applicant', 'campaign', 'comments', 'skills', 'status_history', 'tags'] as const;
export type ApplicationEmbed = (typeof APPLICATION_EMBEDS)[number];
export const APPLICANT_EMBEDS = ['address', 'applications', 'pools'] as const;
export type ApplicantEmbed = (typeof APPLICANT_EMBEDS)[number];
export const CAMPAIGN_EMBEDS = ['address', 'channels', 'entity', 'tags', 'unit'] as const;
export type CampaignEmbed = (typeof CAMPAIGN_EMBEDS)[number];

export const CAMPAIGN_ORDERS = ['created_at', 'last_activation_at', 'name'] as const;
export const SORTS = ['asc', 'desc'] as const;

/** Pagination limits (API rules: Pagination). */
export const PER_PAGE_MAX = 50;
export const PER_PAGE_DEFAULT = 50;

/** A token from POST /jwt lives 4 hours (API rules: Allowed values). */
export const TOKEN_LIFETIME_SECONDS = 4 * 60 * 60;

/** Requests per minute per API client (API rules: Allowed values); beyond, 403 rate_limited. */
export const RATE_LIMIT_PER_MINUTE = 120;

/** Name of the pagination response header; its value is JSON (our decision). */
export const PAGINATION_HEADER = 'X-Pagination';
