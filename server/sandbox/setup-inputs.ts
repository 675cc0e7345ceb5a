// What the sandbox's setup functions take (companies, API clients, channels,
// entities, pools, campaign changes): the bodies of the admin routes, and the
// input of the demo seed. Its own module so setup depends on no HTTP route.
import { z } from 'zod';
import { CAMPAIGN_STATUSES, SCOPES } from '../contract/index.ts';

/** What the sandbox does with a second application of an applicant to a campaign (a sandbox setting, per company). */
export const DUPLICATE_APPLICATIONS = ['refuse', 'accept'] as const;

/** A company's sources list: the `source` values its applications may carry. */
const Sources = z
  .array(z.string().trim().min(1).max(100))
  .max(100)
  .refine((sources) => new Set(sources).size === sources.length, 'must not name a source twice');

export const CompanyBody = z.strictObject({
  name: z.string().min(1).max(200),
  entity_option: z.boolean().optional(),
  skills_option: z.boolean().optional(),
  sources: Sources.optional(),
  /** Tags the company authorises; absent or null: any tag is taken. */
  restricted_tags: z.array(z.string().min(1).max(100)).nullable().optional(),
  /**
   * 'refuse' (the default): a second application of an applicant to a
   * campaign is answered 409 application_exists. 'accept': it is created like
   * any other, as a service without that rule would.
   */
  duplicate_applications: z.enum(DUPLICATE_APPLICATIONS).optional(),
});
/** PATCH /_sandbox/companies/:id: the company settings that can change; `sources` replaces the list. */
export const CompanyPatchBody = CompanyBody.pick({ duplicate_applications: true, sources: true }).refine(
  (body) => body.duplicate_applications !== undefined || body.sources !== undefined,
  'give duplicate_applications, sources or both',
);
export const CompanyClientBody = z.strictObject({
  company_id: z.int().positive(),
  scopes: z.array(z.enum(SCOPES)).optional(),
  private_key: z.string().min(8).max(100).optional(),
  secret_key: z.string().min(8).max(100).optional(),
});
export const JobBoardClientBody = z.strictObject({
  channel: z.string().min(1).max(100),
  scopes: z.array(z.enum(SCOPES)).optional(),
  private_key: z.string().min(8).max(100).optional(),
  secret_key: z.string().min(8).max(100).optional(),
});
export const ClientBody = z.union([CompanyClientBody, JobBoardClientBody]);
export const ChannelBody = z.strictObject({
  company_id: z.int().positive(),
  value: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  entity_id: z.int().positive().optional(),
});
export const EntityBody = z.strictObject({
  company_id: z.int().positive(),
  name: z.string().min(1).max(200),
  units: z.array(z.string().min(1).max(200)).default([]),
});
export const PoolBody = z.strictObject({ company_id: z.int().positive(), name: z.string().min(1).max(200) });
const ChannelValues = z.array(z.string().min(1).max(100));
/** PATCH /_sandbox/campaigns/:id: `channels` replaces the set the campaign is broadcast on, `add_channels` adds to it (not both). */
export const CampaignPatchBody = z.strictObject({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  channels: ChannelValues.optional(),
  add_channels: ChannelValues.optional(),
  tags: z.array(z.string().min(1).max(100)).optional(),
});
