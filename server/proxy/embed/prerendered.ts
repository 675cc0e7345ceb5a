// What crosses from the proxy's server rendering of <jobboard-campaigns> to
// the browser: the state the element was rendered with, embedded as JSON in
// the fragment, so the script hydrates it without fetching it again. No
// imports but types: the widget bundle takes LIST_URL_PARAMS from here.
import type { CampaignDetail, CampaignList } from '../schemas.ts';

/**
 * The list's state in the board page's query string, under the proxy's own
 * query names (GET /api/campaigns), so a board passes its query string on to
 * GET /embed/campaigns as it is.
 */
export const LIST_URL_PARAMS = ['q', 'job_type', 'working_time', 'city', 'page'] as const;
export type ListUrlParam = (typeof LIST_URL_PARAMS)[number];

/**
 * The query parameter of the open offer's id, unless the element's
 * offer-param renames it. The element writes its default out as 'offer', so
 * that its manifest shows the value.
 */
export const DEFAULT_OFFER_PARAM = 'offer';

export interface PrerenderedCampaigns {
  /** The list's search, filters and page, as in the URL. */
  query: Partial<Record<ListUrlParam, string | number>>;
  list: CampaignList;
  /** The open offer: its detail, or null when it is closed or unknown. */
  offer: { id: number; detail: CampaignDetail | null } | null;
}

/** The element's attributes and state for one server rendering. */
export interface EmbedRenderInput {
  /** The proxy's URL as the board's visitors reach it (from its own configuration, never from the request); empty for the page's own origin. */
  endpoint: string;
  /** The query parameter of the open offer's id (the element's offer-param). */
  offerParam: string;
  lang: 'en' | 'fr' | 'es';
  perPage: number;
  state: PrerenderedCampaigns;
  /** The open offer's schema.org JobPosting, for search engines. */
  jobPosting: object | null;
}

/** The server renderer, built from the widget's sources into dist/ssr/render.js. */
export interface EmbedRenderer {
  /** The <jobboard-campaigns> element with its shadow DOM rendered (declarative shadow DOM) and its state. */
  renderCampaigns(input: EmbedRenderInput): Promise<string>;
}
