// What the applications module needs from its neighbours, as small
// interfaces: A's Catalogue and the client of server/client satisfy them.
import type { CampaignStatus } from '../../contract/index.ts';

export interface ApplicationsCatalogue {
  /** The receipt page also names the offer (its title and company) when the catalogue gives them. */
  getCampaign(
    id: number,
  ):
    | { id: number; company_id: number; status: CampaignStatus; name?: string | null; company_name?: string | null }
    | undefined;
  isStale(): boolean;
  /** A company of the catalogue (one with an offer online on the board), for a spontaneous application; undefined when none. */
  getCompany(id: number): { id: number; name: string | null } | undefined;
  refreshCampaign(id: number): Promise<{ id: number; company_id: number; status: CampaignStatus } | undefined>;
}

/** Milliseconds, like Date.now(): the same clock the upstream client takes. */
export type { Clock } from '../../client/index.ts';
