// The catalogue's own records: what the proxy keeps of each broadcast
// campaign, already sanitised, flattened for search and for the public API.
import type { CampaignStatus } from '../../contract/index.ts';

export interface CatalogueAddress {
  street_number: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  name: string | null;
}

export interface CatalogueCampaign {
  id: number;
  company_id: number;
  company_name: string | null;
  name: string | null;
  status: CampaignStatus;
  job_type: string | null;
  working_time: string | null;
  city: string | null;
  country: string | null;
  salary_min: number | null;
  salary_max: number | null;
  job_start_date: string | null;
  contract_duration: number | null;
  date_end: string | null;
  updated_at: string;
  /** Sanitised HTML (see sanitize.ts), or null. */
  description: string | null;
  /** Sanitised HTML (see sanitize.ts), or null. */
  profile: string | null;
  address: CatalogueAddress | null;
  /** Orders the list: last activation, else creation time. */
  listed_at: string;
}

export interface Catalogue {
  /** From the local store; never calls upstream. */
  getCampaign(id: number): CatalogueCampaign | undefined;
  /** Time of the last complete, successful sync; null before the first. */
  lastSyncedAt(): Date | null;
  /** True before the first sync and when the last one is older than SYNC_INTERVAL_SECONDS. */
  isStale(): boolean;
  /**
   * Re-checks one campaign upstream (priority high: an application waits on
   * it) and updates the store. Resolves undefined when the campaign is not
   * found, no longer broadcast on the board's channel, or not open for
   * applications. Rejects with the client's error when upstream cannot answer
   * (the caller decides whether to trust the local copy then).
   */
  refreshCampaign(id: number): Promise<CatalogueCampaign | undefined>;
}
