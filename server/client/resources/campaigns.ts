// Campaigns (job offers): API rules: Endpoints. Scope campaigns_read for
// reads, campaigns_write for create.
import type { z } from 'zod';
import { Campaign, CreateCampaignBody, GetCampaignQuery, ListCampaignsQuery } from '../../contract/index.ts';
import type { CampaignEmbed, CampaignInput, CampaignStatus } from '../../contract/index.ts';
import type { Api, ListOptions, Page, RequestOptions, WithEmbeds } from '../resource.ts';

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

export class Campaigns {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /** `GET /campaigns`: one page of campaigns, newest first unless `sort`/`order` say otherwise. */
  list<const E extends CampaignEmbed = never>(
    query: CampaignListQuery<E> = {},
    options?: ListOptions,
  ): Promise<Page<CampaignWith<E>>> {
    return this.#api.list('campaigns', ListCampaignsQuery, Campaign, query, options);
  }

  /**
   * Every campaign matching `query`, across all pages:
   * `for await (const campaign of client.campaigns.listAll({ channels: ['jobboard_demo'] }))`.
   */
  listAll<const E extends CampaignEmbed = never>(
    query: CampaignListQuery<E> = {},
    options?: ListOptions,
  ): AsyncIterable<CampaignWith<E>> {
    return this.#api.listAll('campaigns', ListCampaignsQuery, Campaign, query, options);
  }

  /** `GET /campaigns/:id`, with the embeds asked for present in the result's type. */
  get<const E extends CampaignEmbed = never>(
    id: number,
    params: { embed?: readonly E[] } = {},
    options?: RequestOptions,
  ): Promise<CampaignWith<E>> {
    return this.#api.get('campaigns', id, GetCampaignQuery, Campaign, params, options);
  }

  /** `POST /campaigns`: creates a campaign (`manage_name` required; `unit_id` when the company uses entities). */
  create(campaign: CampaignCreateInput, options?: RequestOptions): Promise<Campaign> {
    return this.#api.create('campaigns', CreateCampaignBody, { campaign }, Campaign, options);
  }
}
