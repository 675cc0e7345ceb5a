// Campaigns (job offers): API rules: Endpoints. Scope campaigns_read for
// reads, campaigns_write for create.
import type { z } from 'zod';
import { Campaign, CreateCampaignBody, GetCampaignQuery, ListCampaignsQuery } from '../../contract/index.ts';
import type { CampaignEmbed, CampaignInput, CampaignStatus } from '../../contract/index.ts';
import { Collection } from '../resource.ts';
import type { Api, RequestOptions, WithEmbeds } from '../resource.ts';

/** A campaign with the embeds `E` present. */
export type CampaignWith<E extends CampaignEmbed = never> = WithEmbeds<Campaign, E>;

/** Query of GET /campaigns: the contract's query input, with embeds, statuses and channels as arrays. */
export type CampaignListQuery<E extends CampaignEmbed = CampaignEmbed> = Omit<
  z.input<typeof ListCampaignsQuery>,
  'embed' | 'status' | 'channels' | 'page' | 'per_page'
> & {
  /** Embedding in lists is announced as deprecated by the service; prefer `get(id, { embed })`. */
  embed?: readonly E[];
  /** Default: every status. */
  status?: CampaignStatus | readonly CampaignStatus[];
  /** Only campaigns broadcast on one of these channel values. */
  channels?: readonly string[];
  page?: number;
  /** 1 to 50 (default 50). */
  per_page?: number;
};

export type CampaignCreateInput = z.input<typeof CampaignInput>;

/**
 * `list` and `listAll` of GET /campaigns (newest first unless `sort`/`order`
 * say otherwise), `get` and `create`:
 * `for await (const campaign of client.campaigns.listAll({ channels: ['jobboard_demo'] }))`.
 */
export class Campaigns extends Collection<CampaignEmbed, CampaignListQuery, Campaign, number> {
  constructor(api: Api) {
    super(api, { path: 'campaigns', listQuery: ListCampaignsQuery, getQuery: GetCampaignQuery, record: Campaign });
  }

  /** `POST /campaigns`: creates a campaign (`manage_name` required; `unit_id` when the company uses entities). */
  create(campaign: CampaignCreateInput, options?: RequestOptions): Promise<Campaign> {
    return this.api.create('campaigns', CreateCampaignBody, { campaign }, Campaign, options);
  }
}
