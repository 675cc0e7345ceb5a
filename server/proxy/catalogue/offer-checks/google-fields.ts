// Google's job-posting properties (Search Central, "Job posting structured
// data"), read from the JobPosting the proxy publishes for an offer
// (job-posting.ts): what search engines see, fallbacks included.
import type { CatalogueCampaign } from '../types.ts';

/** The properties Google requires: a posting without one is not shown in its job search. */
export const GOOGLE_REQUIRED = ['title', 'description', 'datePosted', 'hiringOrganization', 'jobLocation'] as const;

/** The properties Google recommends (jobLocationType and applicantLocationRequirements go with remote jobs only). */
export const GOOGLE_RECOMMENDED = [
  'validThrough',
  'employmentType',
  'baseSalary',
  'identifier',
  'directApply',
] as const;

export type GoogleProperty = (typeof GOOGLE_REQUIRED)[number] | (typeof GOOGLE_RECOMMENDED)[number];

/** A published JobPosting, read loosely: the checks look for what is absent or empty. */
export type PublishedPosting = Record<string, unknown> & {
  title?: unknown;
  description?: unknown;
  hiringOrganization?: { name?: unknown };
  jobLocation?: unknown;
  jobLocationType?: unknown;
};

const blank = (value: unknown): boolean => value === undefined || value === null || String(value).trim() === '';

/**
 * Why a property counts as missing for a reader of the posting, or null when
 * it is there. Beyond absence: a description that only repeats the title (the
 * posting's fallback), the hiring organisation's stand-in name (the service
 * gave none), a place-less job published as remote.
 */
function whyMissing(property: GoogleProperty, posting: PublishedPosting, c: CatalogueCampaign): string | null {
  const value = posting[property];
  switch (property) {
    case 'description':
      if (blank(value)) return 'description';
      return value === posting.title ? 'description (the offer has none: the posting repeats its title)' : null;
    case 'hiringOrganization':
      if (blank(posting.hiringOrganization?.name)) return 'hiringOrganization';
      return c.company_name === null || c.company_name.trim() === ''
        ? `hiringOrganization (the service gives no company name: the posting says "${String(posting.hiringOrganization?.name)}")`
        : null;
    case 'jobLocation':
      if (value !== undefined) return null;
      return posting.jobLocationType === 'TELECOMMUTE'
        ? 'jobLocation (neither the offer nor its company has an address with a country, so the posting calls the job remote: TELECOMMUTE)'
        : 'jobLocation';
    default:
      return blank(value) ? property : null;
  }
}

/** The properties of `list` missing from the posting, each said as a reader would find it. */
export function missingProperties(
  list: readonly GoogleProperty[],
  posting: PublishedPosting,
  c: CatalogueCampaign,
): string[] {
  return list.map((property) => whyMissing(property, posting, c)).filter((why): why is string => why !== null);
}
