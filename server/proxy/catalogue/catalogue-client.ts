// The two calls the catalogue makes of the recruitment API's client: a page of
// the campaigns broadcast on the board's channel, and one campaign.
import type { Campaign, PaginationHeader } from '../../contract/index.ts';
import type { InvalidRecord } from '../../client/resource.ts';
import type { Logger } from 'pino';
import type { CatalogueCopy } from './types.ts';

type Priority = 'high' | 'low';

export interface SyncQuery {
  channels: string[];
  status: ['online'];
  embed: ['address', 'channels'];
  page: number;
  per_page: number;
  order?: 'last_activation_at';
  sort?: 'desc';
}

/** The two client calls the catalogue makes (the client of server/client satisfies it). */
export interface CatalogueClient {
  campaigns: {
    list(
      query: SyncQuery,
      options: { priority: Priority; signal?: AbortSignal; onInvalidRecord?: (record: InvalidRecord) => void },
    ): Promise<{ data: Campaign[]; pagination: Pick<PaginationHeader, 'next-page'> }>;
    get(
      id: number,
      query: { embed: ['address', 'channels'] },
      options: { priority: Priority; signal?: AbortSignal },
    ): Promise<Campaign>;
  };
}

/** What reads offers upstream and writes them through to the copy the instances share: the sync's and a refresh's. */
export interface UpstreamReaderDeps {
  /** The board's channel: an offer is listed while it is broadcast on it. */
  config: { channel: string };
  client: CatalogueClient;
  copy: CatalogueCopy;
  log: Logger;
}
