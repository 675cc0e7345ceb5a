// What the applications module needs from its neighbours, as small
// interfaces: A's Catalogue and the client of server/client satisfy them.
import type { CampaignStatus } from '../../contract/index.ts';

export interface ApplicationsCatalogue {
  getCampaign(id: number): { id: number; company_id: number; status: CampaignStatus } | undefined;
  isStale(): boolean;
  refreshCampaign(id: number): Promise<{ id: number; company_id: number; status: CampaignStatus } | undefined>;
}

/** Milliseconds, like Date.now(): the same clock the upstream client takes. */
export type { Clock } from '../../client/index.ts';
