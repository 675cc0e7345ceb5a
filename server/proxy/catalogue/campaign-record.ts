// The catalogue's record of an upstream campaign, and whether a campaign is
// broadcast on the board's channel.
import type { Campaign } from '../../contract/index.ts';
import { withCleanStrings } from './clean-strings.ts';
import { sanitizeCampaignHtml } from './sanitize.ts';
import type { CatalogueCampaign } from './types.ts';

/** The catalogue's record of an upstream campaign, its HTML sanitised, its strings without control characters. */
export function toCatalogueCampaign(c: Campaign): CatalogueCampaign {
  const address = c.address ?? null;
  return withCleanStrings({
    id: c.id,
    company_id: c.company_id,
    company_name: c.company_name ?? null,
    name: c.name,
    status: c.status,
    job_type: c.job_type,
    working_time: c.working_time,
    city: address?.city ?? null,
    country: address?.country ?? null,
    salary_min: c.salary_min,
    salary_max: c.salary_max,
    job_start_date: c.job_start_date,
    contract_duration: c.contract_duration,
    date_end: c.date_end,
    updated_at: c.updated_at,
    description: sanitizeCampaignHtml(c.description),
    profile: sanitizeCampaignHtml(c.profile),
    address:
      address === null
        ? null
        : {
            street_number: address.street_number,
            street: address.street,
            postal_code: address.postal_code,
            city: address.city,
            country: address.country,
            name: address.name,
            latitude: address.latitude,
            longitude: address.longitude,
          },
    listed_at: c.last_activation_at ?? c.created_at,
  });
}
export function isBroadcastOn(c: Campaign, channel: string): boolean {
  // Without the channels embed we trust the upstream filter.
  return c.channels === undefined || c.channels.some((ch) => ch.value === channel);
}
