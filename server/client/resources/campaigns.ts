// Campaigns (job offers): API rules: Endpoints. Scope campaigns_read for
// reads, campaigns_write for create.
import type { z } from 'zod';
import { Campaign, CreateCampaignBody, GetCampaignQuery, ListCampaignsQuery } from '../../contract/index.ts';
import type { CampaignEmbed, CampaignInput, CampaignStatus } from '../../contract/index.ts';
import { toSearchParams } from '../query.ts';
import { checkInput, embedKeysOf, idSegment, listAll, readPage, readRecord } from '../resource.ts';
import type { ListOptions, Page, RequestOptions, ResourceContext, WithEmbeds } from '../resource.ts';

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
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** `GET /campaigns`: one page of campaigns, newest first unless `sort`/`order` say otherwise. */
  async list<const E extends CampaignEmbed = never>(query: CampaignListQuery<E> = {}, options?: ListOptions): Promise<Page<CampaignWith<E>>> {
    const url = `${this.#ctx.baseUrl}/campaigns`;
    checkInput(ListCampaignsQuery, query, 'GET', url);
    const embedKeys = embedKeysOf(query.embed);
    return await this.#ctx.transport.send({
      method: 'GET',
      path: 'campaigns',
      query: toSearchParams(query),
      kind: 'read',
      auth: true,
      read: (body, response) => readPage<CampaignWith<E>>(Campaign, body, response, embedKeys, options?.onInvalidRecord),
      options,
    });
  }

  /**
   * Every campaign matching `query`, across all pages:
   * `for await (const campaign of client.campaigns.listAll({ channels: ['jobboard_demo'] }))`.
   */
  listAll<const E extends CampaignEmbed = never>(query: CampaignListQuery<E> = {}, options?: ListOptions): AsyncIterable<CampaignWith<E>> {
    return listAll((page) => this.list<E>({ ...query, page }, options), query.page ?? 1, `${this.#ctx.baseUrl}/campaigns`);
  }

  /** `GET /campaigns/:id`, with the embeds asked for present in the result's type. */
  async get<const E extends CampaignEmbed = never>(id: number, params: { embed?: readonly E[] } = {}, options?: RequestOptions): Promise<CampaignWith<E>> {
    const url = `${this.#ctx.baseUrl}/campaigns/${id}`;
    const path = `campaigns/${idSegment(id, 'id', 'GET', url)}`;
    checkInput(GetCampaignQuery, params, 'GET', url);
    const embedKeys = embedKeysOf(params.embed);
    return await this.#ctx.transport.send({
      method: 'GET',
      path,
      query: toSearchParams(params),
      kind: 'read',
      auth: true,
      read: (body) => readRecord<CampaignWith<E>>(Campaign, body, embedKeys),
      options,
    });
  }

  /** `POST /campaigns`: creates a campaign (`manage_name` required; `unit_id` when the company uses entities). */
  async create(campaign: CampaignCreateInput, options?: RequestOptions): Promise<Campaign> {
    const url = `${this.#ctx.baseUrl}/campaigns`;
    const body = checkInput(CreateCampaignBody, { campaign }, 'POST', url);
    return await this.#ctx.transport.send({
      method: 'POST',
      path: 'campaigns',
      json: body,
      kind: 'create',
      auth: true,
      read: (answer) => readRecord<Campaign>(Campaign, answer, []),
      options,
    });
  }
}
