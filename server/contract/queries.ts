// Query strings of the list endpoints (API rules: Endpoints), as parsed objects: `status[value]=x` arrives as
// { status: { value: 'x' } } (bracket notation, parsed with `qs`). Values come
// in as strings and are coerced here; defaults and maxima are applied here.
import { z } from 'zod';
import {
  APPLICANT_EMBEDS,
  APPLICATION_EMBEDS,
  CAMPAIGN_EMBEDS,
  CAMPAIGN_ORDERS,
  CAMPAIGN_STATUSES,
  PER_PAGE_DEFAULT,
  PER_PAGE_MAX,
  SORTS,
} from './values.ts';

const isoDate = z.iso.date({ error: 'must be a date in the format YYYY-MM-DD' });

/** "true"/"false" (or a boolean): anything else is an error rather than a guess. */
export const queryBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1'),
]);

/**
 * A comma-separated list of allowed values, or an array of them. Empty items
 * are ignored ("Empty parameters are ignored").
 */
export function commaList<T extends readonly [string, ...string[]]>(allowed: T) {
  const item = z.enum(allowed, { error: `is not an allowed value; allowed: ${allowed.join(', ')}` });
  return z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter((s) => s !== ''))
    .pipe(z.array(item));
}

/** Comma-separated free values (channel values). */
const freeCommaList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter((s) => s !== ''));

/**
 * Out-of-range pages are answered 422 rather than clamped (our decision): a
 * client asking for per_page=500 learns the maximum instead of silently
 * getting 50 and missing records.
 */
export const paginationQuery = {
  page: z.coerce
    .number({ error: 'must be a whole number from 1' })
    .int('must be a whole number from 1')
    .min(1, 'must be a whole number from 1')
    .default(1),
  per_page: z.coerce
    .number({ error: `must be a whole number from 1 to ${PER_PAGE_MAX}` })
    .int(`must be a whole number from 1 to ${PER_PAGE_MAX}`)
    .min(1, `must be a whole number from 1 to ${PER_PAGE_MAX}`)
    .max(PER_PAGE_MAX, `must be a whole number from 1 to ${PER_PAGE_MAX}`)
    .default(PER_PAGE_DEFAULT),
  sort: z.enum(SORTS, { error: `must be one of: ${SORTS.join(', ')}` }).default('desc'),
};

/**
 * `embed` of the applications endpoints. Besides the plain values,
 * `status_history:<status_value>` restricts the history to one status.
 */
const unknownApplicationEmbed = `is not an allowed value; allowed: ${APPLICATION_EMBEDS.join(', ')}, status_history:<status_value>`;

export const ApplicationEmbedParam = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter((s) => s !== ''))
  .pipe(
    z.array(
      // A union rather than a check, so that the documents list the values as an enum.
      z.union([
        z.enum(APPLICATION_EMBEDS, { error: unknownApplicationEmbed }),
        z
          .string()
          .regex(/^status_history:./, { error: unknownApplicationEmbed })
          .describe('status_history:<status_value> keeps the changes to one status'),
      ]),
    ),
  );

export const ListApplicationsQuery = z
  .strictObject({
    embed: ApplicationEmbedParam.optional(),
    campaign_id: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .positive()
      .optional(),
    is_complete: queryBoolean.optional(),
    source: z.string().optional(),
    status: z
      .strictObject({
        value: z
          .string()
          .min(1)
          .optional()
          .describe(
            'Required with status[date][gte] or status[date][lte]: without it they are answered 422 status_value_required',
          ),
        date: z
          .strictObject({ gte: isoDate.optional(), lte: isoDate.optional() })
          .optional()
          .describe(
            'Needs status[value]: the applications whose current status, status[value], was set on these days (inclusive, UTC)',
          ),
      })
      .optional(),
    order: z.enum(['created_at'], { error: 'must be created_at' }).default('created_at'),
    ...paginationQuery,
  })
  // Rule (API rules: Errors): the status[date] filter requires status[value].
  .refine((q) => q.status?.date === undefined || q.status.value !== undefined, {
    path: ['status', 'value'],
    message: 'status[value] is required when status[date] is used',
  });
export type ListApplicationsQuery = z.infer<typeof ListApplicationsQuery>;

export const GetApplicationQuery = z.strictObject({ embed: ApplicationEmbedParam.optional() });

export const ListApplicantsQuery = z.strictObject({
  embed: commaList(APPLICANT_EMBEDS).optional(),
  keywords: z.string().max(200).optional(),
  is_partner_newsletter_active: queryBoolean.optional(),
  is_campaign_alert_active: queryBoolean.optional(),
  order: z.enum(['created_at'], { error: 'must be created_at' }).default('created_at'),
  ...paginationQuery,
});
export type ListApplicantsQuery = z.infer<typeof ListApplicantsQuery>;

export const GetApplicantQuery = z.strictObject({ embed: commaList(APPLICANT_EMBEDS).optional() });

export const ListCampaignsQuery = z.strictObject({
  embed: commaList(CAMPAIGN_EMBEDS).optional(),
  status: commaList(CAMPAIGN_STATUSES).optional(),
  channels: freeCommaList.optional(),
  order: z.enum(CAMPAIGN_ORDERS, { error: `must be one of: ${CAMPAIGN_ORDERS.join(', ')}` }).default('created_at'),
  ...paginationQuery,
});
export type ListCampaignsQuery = z.infer<typeof ListCampaignsQuery>;

export const GetCampaignQuery = z.strictObject({ embed: commaList(CAMPAIGN_EMBEDS).optional() });
