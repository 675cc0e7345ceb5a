// zod schemas of the proxy's public HTTP API (README.md beside them):
// the proxy parses query strings with them, /api/openapi.json is generated
// from them, and the widget takes their types (import type only: zod stays
// out of its bundle).
import { z } from 'zod';
import { JOB_TYPES, LOCALES, PER_PAGE_MAX, RESUME_TYPES, WORKING_TIMES } from '../contract/index.ts';
import { CONFIGURABLE_FIELDS, FIELD_MODES } from './application-form.ts';
import { FIELD_CODES, FIELD_REASON_CODES } from './problems.ts';
import { blankAsAbsent, wholeNumberUpTo } from './query-values.ts';
import { DEFAULT_OFFER_PARAM, DEFAULT_RADIUS_KM, LIST_PRESETS, LIST_SORTS, MAX_RADIUS_KM } from './list-params.ts';

/** `near` as coordinates ("45.76,4.84"), or null when it names a city. */
export function coordinatesOf(near: string): { lat: number; lon: number } | null {
  const found = /^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/.exec(near.trim());
  return found === null ? null : { lat: Number(found[1]), lon: Number(found[2]) };
}

const radiusRange = `must be a number of kilometres from 1 to ${MAX_RADIUS_KM}`;

/** The list's parameters, each on its own (CampaignListQuery adds the rules between them). */
const CampaignListFields = z.object({
  q: z
    .preprocess(blankAsAbsent, z.string().trim().max(200, 'must be at most 200 characters').optional())
    .describe(
      'Words to find in the name, company, description, profile or city: every word must begin a word of the offer ("dev" finds "Développeur"), accents and case ignored. Only letters and digits count: quotes, operators and other punctuation are not query syntax. Words of one letter are dropped; at most 5 words are read.',
    ),
  company_id: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: 'must be a company id' })
      .int('must be a company id')
      .positive('must be a company id')
      .optional(),
  ),
  job_type: z.preprocess(
    blankAsAbsent,
    z.enum(JOB_TYPES, { error: `must be one of: ${JOB_TYPES.join(', ')}` }).optional(),
  ),
  working_time: z.preprocess(
    blankAsAbsent,
    z.enum(WORKING_TIMES, { error: `must be one of: ${WORKING_TIMES.join(', ')}` }).optional(),
  ),
  city: z
    .preprocess(blankAsAbsent, z.string().trim().max(100, 'must be at most 100 characters').optional())
    .describe('Exact city name, case and accents ignored.'),
  near: z
    .preprocess(
      blankAsAbsent,
      z
        .string()
        .trim()
        .max(100, 'must be at most 100 characters')
        .refine((v) => {
          const point = coordinatesOf(v);
          return point === null || (Math.abs(point.lat) <= 90 && Math.abs(point.lon) <= 180);
        }, 'must be LATITUDE,LONGITUDE in degrees (latitude from -90 to 90, longitude from -180 to 180), like 45.76,4.84, or a city name')
        .optional(),
    )
    .describe(
      `Only offers within radius_km of this place: LATITUDE,LONGITUDE in degrees (like 45.76,4.84), or a city name (case and accents ignored), which stands for the average position of that city's offers. Offers without coordinates are left out. A city with no offer with coordinates is a validation_failed problem.`,
    ),
  radius_km: z
    .preprocess(
      blankAsAbsent,
      z.coerce.number({ error: radiusRange }).min(1, radiusRange).max(MAX_RADIUS_KM, radiusRange).optional(),
    )
    .describe(
      `The radius of near, in kilometres (great-circle distance); ${DEFAULT_RADIUS_KM} by default. Only with near.`,
    ),
  salary_min: z
    .preprocess(
      blankAsAbsent,
      z.coerce
        .number({ error: 'must be a whole amount from 0' })
        .int('must be a whole amount from 0')
        .min(0, 'must be a whole amount from 0')
        .max(10_000_000, 'must be at most 10000000')
        .optional(),
    )
    .describe(
      'Only offers that pay at least this much a year (a month for internships): their salary_max, else their salary_min. Offers without salary are left out.',
    ),
  sort: z
    .preprocess(blankAsAbsent, z.enum(LIST_SORTS, { error: `must be one of: ${LIST_SORTS.join(', ')}` }).optional())
    .describe(
      'relevance: best match of q first (a match in the name counts most, then the company, then the texts), newest first without q; date: newest first; distance: nearest to near first (needs near). Default: relevance with q, else date.',
    ),
  page: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: 'must be a whole number from 1' })
      .int('must be a whole number from 1')
      .min(1, 'must be a whole number from 1')
      .max(100_000, 'must be at most 100000')
      .default(1),
  ),
  per_page: wholeNumberUpTo(PER_PAGE_MAX, 20),
});

/** The rules between the list's parameters: what needs near. */
function needsNear(
  query: { near?: string | undefined; radius_km?: number | undefined; sort?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (query.near !== undefined) return;
  const give = 'give near (LATITUDE,LONGITUDE or a city name)';
  if (query.sort === 'distance')
    ctx.addIssue({
      code: 'custom',
      path: ['sort'],
      message: `distance needs a place to measure from: ${give}, or sort by relevance or date`,
    });
  if (query.radius_km !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['radius_km'],
      message: `is the radius around near: ${give}, or leave radius_km out`,
    });
}

export const CampaignListQuery = CampaignListFields.superRefine(needsNear);
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

/**
 * An offer's id as the proxy reads it, in a path, a query or a form: a whole
 * number from 1 to 2^53 − 1 (zod's int bounds: the largest number JavaScript
 * holds exactly; a larger id would be read as another). The documents take
 * their bounds from here.
 */
export const OfferId = z.coerce
  .number({ error: 'must be the id of a job offer' })
  .int('must be the id of a job offer')
  .positive('must be the id of a job offer');

/** The query of GET /embed/campaigns/head. */
export const OfferHeadQuery = z.object({ offer: OfferId.describe("The offer's id") });

/** The language of a page or a feed the proxy writes: the widget's languages. */
const PageLanguage = z.enum(LOCALES, { error: `must be one of: ${LOCALES.join(', ')}` }).default('en');

/** The query of GET /feeds/offers.atom: the list's, and the feed's language (its title and xml:lang). */
export const FeedQuery = CampaignListFields.extend({ lang: PageLanguage }).superRefine(needsNear);
export type FeedQuery = z.infer<typeof FeedQuery>;

/** The search an alert follows: the list's parameters (and their rules), without its page. */
export const AlertSearch = CampaignListFields.omit({ page: true }).superRefine(needsNear);

/** The body of POST /api/alerts: nothing is sent to the board before the candidate has confirmed, which this request is. */
export const AlertRequest = z.object({
  email: z
    .email({ error: 'must be a valid email address, like jane@example.com' })
    .max(254, 'must be at most 254 characters')
    .describe('The address the board sends the new offers to'),
  search: AlertSearch.describe("The list's parameters of the search (GET /api/campaigns), without page"),
  consent: z
    .literal(true, { error: "must be true: the candidate agreed that the board emails them this search's new offers" })
    .describe("The candidate ticked the consent to the board's emails"),
  lang: PageLanguage.describe("The language of the widget, and of the alert's feed"),
});
export type AlertRequest = z.infer<typeof AlertRequest>;
/** The body as a client writes it (the search's values as typed, strings or numbers). */
export type AlertBody = z.input<typeof AlertRequest>;

export const AlertAnswer = z.object({
  status: z.literal('requested').describe("Handed to the board's mailing (its webhook), which sends the offers"),
  feed_url: z.string().describe("The search's Atom feed"),
});
export type AlertAnswer = z.infer<typeof AlertAnswer>;

/** The query of GET /embed/campaigns: the list's, the language and the open offer. */
export const EmbedQuery = CampaignListFields.extend({
  lang: PageLanguage,
  offer: OfferId.optional().describe("The open offer's id, under the name offer_param gives (`offer` by default)."),
  offer_param: z
    .string()
    .regex(
      /^[A-Za-z][A-Za-z0-9_-]{0,39}$/,
      "must be a query parameter's name (a letter, then letters, digits, - or _), the element's offer-param, like job",
    )
    .default(DEFAULT_OFFER_PARAM)
    .describe(
      "The element's offer-param: the query parameter that holds the open offer's id on the board's page. Give it when the element renames `offer`.",
    ),
  [LIST_PRESETS.company_id]: CampaignListFields.shape.company_id.describe(
    "The element's company-id: the list shows this company's offers only, whatever the candidate asks.",
  ),
  [LIST_PRESETS.job_type]: CampaignListFields.shape.job_type.describe(
    "The element's job-type: fixed, its filter hidden.",
  ),
  [LIST_PRESETS.city]: CampaignListFields.shape.city.describe("The element's city: fixed, its filter hidden."),
}).superRefine(needsNear);

/** The sitemap protocol's limit per file (GET /sitemap.xml); a board with more lists its newest offers. */
export const SITEMAP_MAX_URLS = 50_000;

export const CampaignSummary = z.object({
  id: z.int(),
  company_id: z.int(),
  company_name: z.string().nullable(),
  name: z.string().nullable(),
  job_type: z.enum(JOB_TYPES).nullable(),
  working_time: z.enum(WORKING_TIMES).nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  salary_min: z.int().nullable(),
  salary_max: z.int().nullable(),
  job_start_date: z.iso.date().nullable(),
  contract_duration: z.int().nullable().describe('In months'),
  updated_at: z.iso.datetime({ offset: true }),
  published_at: z.iso
    .datetime({ offset: true })
    .describe(
      "When the offer was published: its last activation, else its creation. The widget shows its date; the list's date sort and the JobPosting's datePosted use it too.",
    ),
});
export type CampaignSummary = z.infer<typeof CampaignSummary>;

export const CampaignAddress = z.object({
  street_number: z.string().nullable(),
  street: z.string().nullable(),
  postal_code: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  name: z.string().nullable(),
  latitude: z
    .number()
    .nullable()
    .describe('Degrees; null when the offer has no coordinates (a search near a place leaves it out)'),
  longitude: z.number().nullable().describe('Degrees; null when the offer has no coordinates'),
});

export const CampaignDetail = CampaignSummary.extend({
  description: z
    .string()
    .nullable()
    .describe(
      'Sanitised HTML: p, br, strong, b, em, i, u, s, ul, ol, li, h3-h6, blockquote, hr and http(s)/mailto links',
    ),
  profile: z.string().nullable().describe('Sanitised HTML, as description'),
  address: CampaignAddress.nullable(),
  date_end: z.iso.date().nullable(),
});
export type CampaignDetail = z.infer<typeof CampaignDetail>;

/** The employment types Google for Jobs reads. */
export const EMPLOYMENT_TYPES = [
  'FULL_TIME',
  'PART_TIME',
  'CONTRACTOR',
  'TEMPORARY',
  'INTERN',
  'VOLUNTEER',
  'PER_DIEM',
  'OTHER',
] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

/**
 * What GET /api/campaigns/:id/jobposting answers, for the OpenAPI document and
 * the tests. catalogue/job-posting.ts builds it, typed with schema-dts;
 * server/public-api/README.md ("JobPosting") says where each property comes from.
 */
export const JobPostingAnswer = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('JobPosting'),
    title: z.string(),
    description: z.string().describe('Sanitised HTML: the description, then the profile'),
    datePosted: z.iso.datetime({ offset: true }),
    validThrough: z.iso
      .datetime({ offset: true })
      .describe('The end date, else 60 days after the later of listing and now'),
    hiringOrganization: z.object({ '@type': z.literal('Organization'), name: z.string() }),
    jobLocation: z
      .object({
        '@type': z.literal('Place'),
        address: z.object({
          '@type': z.literal('PostalAddress'),
          streetAddress: z.string().optional(),
          postalCode: z.string().optional(),
          addressLocality: z.string().optional(),
          addressCountry: z.string().optional(),
        }),
      })
      .optional()
      .describe(
        "The offer's address, else its company's; absent when neither has a country (the job is then TELECOMMUTE)",
      ),
    jobLocationType: z
      .literal('TELECOMMUTE')
      .optional()
      .describe('When neither the offer nor its company has an address with a country'),
    employmentType: z.union([z.enum(EMPLOYMENT_TYPES), z.array(z.enum(EMPLOYMENT_TYPES))]).optional(),
    baseSalary: z
      .object({
        '@type': z.literal('MonetaryAmount'),
        currency: z.string(),
        value: z.object({
          '@type': z.literal('QuantitativeValue'),
          minValue: z.int().optional(),
          maxValue: z.int().optional(),
          unitText: z.enum(['YEAR', 'MONTH']),
        }),
      })
      .optional(),
    identifier: z.object({ '@type': z.literal('PropertyValue'), name: z.string(), value: z.string() }),
    directApply: z.literal(true),
    url: z
      .url()
      .optional()
      .describe('The offer on the board: BOARD_OFFER_URL with its id; absent without BOARD_OFFER_URL'),
    image: z
      .url()
      .optional()
      .describe("The board's image for its offers (BOARD_OG_IMAGE), the og:image of a shared link; absent without it"),
  })
  .strict()
  .describe('The offer as a schema.org JobPosting (https://schema.org/JobPosting), JSON-LD');
export type JobPostingAnswer = z.infer<typeof JobPostingAnswer>;

export const CampaignList = z.object({
  items: z.array(CampaignSummary),
  page: z.int(),
  per_page: z.int(),
  total: z.int(),
  last_page: z.int(),
  facets: z
    .object({
      job_types: z.array(z.enum(JOB_TYPES)),
      working_times: z.array(z.enum(WORKING_TIMES)),
      cities: z.array(z.string()),
      companies: z.array(z.object({ id: z.int(), name: z.string().nullable() })),
    })
    .describe('Values present in the whole catalogue (not only this page or filter), for filter lists'),
});
export type CampaignList = z.infer<typeof CampaignList>;

export const ConfigResponse = z.object({
  locales: z.array(z.enum(LOCALES)),
  resume: z.object({ types: z.array(z.enum(RESUME_TYPES)), max_bytes: z.int() }),
  fields: z.object({
    email: z.literal('required'),
    ...Object.fromEntries(CONFIGURABLE_FIELDS.map((f) => [f, z.enum(FIELD_MODES)])),
  }),
  consent_url: z.string().nullable(),
  captcha: z.object({ provider: z.enum(['turnstile', 'hcaptcha']), site_key: z.string() }).nullable(),
  track_utm: z
    .boolean()
    .describe("Whether the widget keeps the landing URL's utm_* parameters and posts them with the form (TRACK_UTM)"),
  funnel: z
    .boolean()
    .describe("Whether the widget sends the funnel's beacons, POST /api/funnel (FUNNEL): false, it sends none"),
  alerts: z
    .object({
      feed: z.boolean().describe("Whether a search's Atom feed is served, GET /feeds/offers.atom (BOARD_OFFER_URL)"),
      email: z
        .boolean()
        .describe("Whether POST /api/alerts hands an alert to the board's own mailing (ALERTS=webhook)"),
    })
    .describe('What the "Create an alert" panel offers'),
  spontaneous_applications: z
    .union([z.literal('all'), z.array(z.int().positive())])
    .describe(
      'The companies that take spontaneous applications, POST /api/applications with company_id (SPONTANEOUS_APPLICATIONS): all (every company of the catalogue), or their ids; empty: none',
    ),
});
export type ConfigResponse = z.infer<typeof ConfigResponse>;

export const FieldProblemSchema = z.object({
  field: z.string(),
  code: z.enum(FIELD_CODES).describe('Stable code the widget maps to a localised message'),
  message: z.string(),
  reason: z
    .enum(FIELD_REASON_CODES)
    .optional()
    .describe(
      'Why, where the code alone does not say what to change (a stable code): place_unknown (near names a city none of whose offers has a position), search_too_long (the search took too long)',
    ),
  detected_type: z
    .string()
    .optional()
    .describe(
      "unsupported_file_type: what the file's bytes are, when known (an extension such as txt, zip, exe, xlsx, heic), whatever its name says",
    ),
});

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    code: z.string().describe('Stable code the widget maps to a localised message'),
    errors: z.array(FieldProblemSchema).optional(),
  })
  .describe('RFC 9457 problem details, served as application/problem+json');
export type FieldProblem = z.infer<typeof FieldProblemSchema>;
export type ProblemBody = z.infer<typeof ProblemSchema>;
/** What a problem says, as the proxy's ProblemError and the widget's both hold it. */
export type Problem = Pick<ProblemBody, 'status' | 'code' | 'errors'>;

export const ApplicationAnswer = z.object({
  status: z.enum(['delivered', 'queued']),
  reference: z.string(),
  campaign_id: z
    .int()
    .nullable()
    .describe('The offer applied to; null for a spontaneous application (kind spontaneous)'),
  kind: z
    .enum(['offer', 'spontaneous'])
    .describe('An application to an offer (campaign_id), or a spontaneous one to a company (company_id posted)'),
  receipt_url: z
    .string()
    .describe(
      "The candidate's receipt page on the proxy (/applications/receipt/<token>): absolute with PUBLIC_ORIGIN, else root-relative to the proxy's origin",
    ),
});

export const HealthAnswer = z.object({ status: z.literal('ok') });

export const ReadyAnswer = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), z.object({ status: z.string() }).catchall(z.unknown())),
});
