// The schema.org JobPosting of an offer, for search engines (Google for Jobs
// reads it): the same object in GET /api/campaigns/:id/jobposting, in the
// document's head while the widget shows the offer, and in the server-rendered
// fragment. The mapping from the service's fields is documented in
// server/public-api/README.md ("JobPosting").
// Types only, so nothing of schema-dts runs and it is a devDependency: no
// declaration the package exports reaches this module. Should one (a widget
// export returning the JobPosting type), schema-dts must become a dependency.
import type { JobPosting, Place, WithContext } from 'schema-dts';
import { SALARY_CURRENCY } from '../../contract/values.ts';
import type { JobType, WorkingTime } from '../../contract/values.ts';
import type { EmploymentType } from '../../public-api/schemas.ts';
import type { CatalogueAddress, CatalogueCampaign, CatalogueStore } from './types.ts';

/** The hiring organisation's name: the company's, or its number when the service gives none (Google requires a name). */
function companyName(c: CatalogueCampaign): string {
  return c.company_name ?? `Company ${c.company_id}`;
}

// Keyed by the contract's values, so that a value added to the contract does
// not compile until it is mapped here (and in server/public-api/README.md's table).

/** Google's employment types for the service's contract types (null: not said). */
const EMPLOYMENT_TYPE_OF_JOB: Record<JobType, EmploymentType | null> = {
  'Permanent contract': 'FULL_TIME',
  Tenured: 'FULL_TIME',
  'Fixed term contract': 'TEMPORARY',
  'Interim Contract': 'TEMPORARY',
  'Professional Contract': 'TEMPORARY',
  Alternating: 'INTERN',
  Internship: 'INTERN',
  IVB: 'INTERN',
  Freelance: 'CONTRACTOR',
  Other: 'OTHER',
};

/** Google's employment types for the service's working times. */
const EMPLOYMENT_TYPE_OF_TIME: Record<WorkingTime, EmploymentType | null> = {
  'Full time': 'FULL_TIME',
  'Part time': 'PART_TIME',
  'Part time - Morning': 'PART_TIME',
  'Part time - Afternoon': 'PART_TIME',
  'Half time': 'PART_TIME',
  Custom: null,
};

/** Both the contract's kind and its hours, once each: ["TEMPORARY", "PART_TIME"]. */
function employmentTypes(c: CatalogueCampaign): EmploymentType[] {
  // The catalogue holds only the contract's values (the sync refuses others); a missing one says nothing.
  const types = [
    c.job_type === null ? null : (EMPLOYMENT_TYPE_OF_JOB[c.job_type as JobType] ?? null),
    c.working_time === null ? null : (EMPLOYMENT_TYPE_OF_TIME[c.working_time as WorkingTime] ?? null),
  ];
  // A permanent contract says full time only if its hours do not say otherwise.
  if (types[0] === 'FULL_TIME' && types[1] === 'PART_TIME') types[0] = null;
  return [...new Set(types.filter((t): t is EmploymentType => t !== null))];
}

/** Days a JobPosting stays valid when the offer names no end date (server/public-api/README.md, "JobPosting"). */
export const DEFAULT_VALID_DAYS = 60;

function placeOf(a: CatalogueAddress | null, city: string | null, country: string | null): Place | undefined {
  const street = [a?.street_number, a?.street].filter(Boolean).join(' ');
  const locality = a?.city ?? city;
  // Google wants a country with every address: a city alone is not a place it can use.
  if (!country) return undefined;
  return {
    '@type': 'Place',
    address: {
      '@type': 'PostalAddress',
      ...(street ? { streetAddress: street } : {}),
      ...(a?.postal_code ? { postalCode: a.postal_code } : {}),
      ...(locality ? { addressLocality: locality } : {}),
      addressCountry: country,
    },
  };
}

/**
 * Where the job is: the offer's own address (its country, else the
 * company's), else the company's address (that of another of its offers).
 * With neither the job is taken as remote (TELECOMMUTE): the service has no
 * other word for it, and Google requires one or the other.
 */
function location(
  c: CatalogueCampaign,
  companyAddress: CatalogueAddress | null,
): Pick<JobPosting, 'jobLocation' | 'jobLocationType'> {
  const country = c.address?.country ?? c.country ?? companyAddress?.country ?? null;
  const ownPlace =
    c.address?.city || c.address?.street || c.city || c.country ? placeOf(c.address, c.city, country) : undefined;
  const place = ownPlace ?? placeOf(companyAddress, null, companyAddress?.country ?? null);
  return place ? { jobLocation: place } : { jobLocationType: 'TELECOMMUTE' };
}

/** The end date's last second, else DEFAULT_VALID_DAYS after the later of listing and `now` (an open offer always ends in the future). */
function validThrough(c: CatalogueCampaign, now: Date): string {
  if (c.date_end) return `${c.date_end}T23:59:59Z`;
  const from = Math.max(Date.parse(c.listed_at) || 0, now.getTime());
  return `${new Date(from + DEFAULT_VALID_DAYS * 86_400_000).toISOString().slice(0, 10)}T23:59:59Z`;
}

/** The company's newest offers searched for an address (its offers usually share one). */
const COMPANY_OFFERS_LOOKED_AT = 20;

/** An address of the offer's company, from another of its listed offers, for an offer without one (null: it has its own, or none is known). */
export function companyAddressOf(store: Pick<CatalogueStore, 'search'>, c: CatalogueCampaign): CatalogueAddress | null {
  if (c.address?.country) return null;
  const { items } = store.search({ company_id: c.company_id, page: 1, per_page: COMPANY_OFFERS_LOOKED_AT });
  return items.find((other) => other.address?.country)?.address ?? null;
}

export interface JobPostingContext {
  /** The offer's page on the board (BOARD_OFFER_URL); without it the object has no `url`. */
  offerUrl: string | null;
  /** An address of the offer's company, for an offer without one (null: none known). */
  companyAddress: CatalogueAddress | null;
  /** When the answer is built: the default validThrough counts from it. */
  now: Date;
  /** The image that stands for the offer (BOARD_OG_IMAGE): the service gives no company logo. */
  image?: string | null;
}

/** The offer's JobPosting, with every property Google requires and those it recommends that are known. */
export function jobPosting(
  c: CatalogueCampaign,
  { offerUrl, companyAddress, now, image }: JobPostingContext,
): WithContext<JobPosting> {
  const types = employmentTypes(c);
  const text = [c.description, c.profile].filter(Boolean).join('\n');
  // The service's salaries are gross, per year; per month for internships (documented with its fields).
  const unit = c.job_type === 'Internship' ? 'MONTH' : 'YEAR';
  return {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: c.name ?? '',
    description: text || (c.name ?? ''),
    datePosted: c.listed_at,
    validThrough: validThrough(c, now),
    hiringOrganization: { '@type': 'Organization', name: companyName(c) },
    ...location(c, companyAddress),
    ...(types.length > 0 ? { employmentType: types.length === 1 ? types[0] : types } : {}),
    ...(c.salary_min !== null || c.salary_max !== null
      ? {
          baseSalary: {
            '@type': 'MonetaryAmount',
            currency: SALARY_CURRENCY,
            value: {
              '@type': 'QuantitativeValue',
              ...(c.salary_min !== null ? { minValue: c.salary_min } : {}),
              ...(c.salary_max !== null ? { maxValue: c.salary_max } : {}),
              unitText: unit,
            },
          },
        }
      : {}),
    identifier: { '@type': 'PropertyValue', name: companyName(c), value: String(c.id) },
    directApply: true,
    ...(offerUrl ? { url: offerUrl } : {}),
    ...(image ? { image } : {}),
  };
}

/**
 * The offer's URL on the board: the template with the id in place of {id},
 * serialised by the URL parser so that a space or an accent the operator typed
 * arrives percent-encoded (sitemaps and JSON-LD want URLs as sent over HTTP).
 */
export function offerUrlOf(template: string | null, id: number): string | null {
  return template === null ? null : new URL(template.replace('{id}', String(id))).href;
}

/**
 * The board's list of offers, from the offer URL's template: the template
 * without the query parameter that holds the id, or with the path segment
 * that holds the id left out (https://jobs.acme.example/offres?offer={id} gives
 * https://jobs.acme.example/offres).
 */
export function listUrlOf(template: string | null): string | null {
  if (template === null) return null;
  const url = new URL(template.replace('{id}', '__id__'));
  for (const [name, value] of [...url.searchParams]) if (value.includes('__id__')) url.searchParams.delete(name);
  url.pathname = url.pathname.replace(/[^/]*__id__.*$/, '');
  url.hash = '';
  return url.href;
}
