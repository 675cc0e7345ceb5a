// What crosses from the proxy's server rendering of <jobboard-campaigns>
// (GET /embed/campaigns) to the browser: the state the element was rendered
// with, embedded as JSON in the fragment, so the script hydrates it without
// fetching it again; and the renderer's interface. Types only.
import type { ListPreset, ListUrlParam } from './list-params.ts';
import type { CampaignDetail, CampaignList } from './schemas.ts';

export interface PrerenderedCampaigns {
  /** The list's search, filters and page, as in the URL. */
  query: Partial<Record<ListUrlParam, string | number>>;
  list: CampaignList;
  /** The open offer: its detail, or null when it is closed or unknown. */
  offer: { id: number; detail: CampaignDetail | null } | null;
  /** The salaries, dates and counts as the server formatted them, by what they show: the browser hydrates with them without setting up Intl first. Set by the renderer. */
  formatted?: Record<string, string>;
}

/** The element's attributes and state for one server rendering. */
export interface EmbedRenderInput {
  /** The proxy's URL as the board's visitors reach it (from its own configuration, never from the request); empty for the page's own origin. */
  endpoint: string;
  /** The query parameter of the open offer's id (the element's offer-param). */
  offerParam: string;
  lang: 'en' | 'fr' | 'es';
  perPage: number;
  /** The filters the board fixed (the element's company-id, job-type and city attributes); undefined when not fixed. */
  presets: Partial<Record<ListPreset, string | number | undefined>>;
  state: PrerenderedCampaigns;
  /** The open offer's schema.org JobPosting, for search engines. */
  jobPosting: object | null;
}

/** The server renderer, built from the widget's sources into dist/ssr/render.js. */
export interface EmbedRenderer {
  /** The <jobboard-campaigns> element with its shadow DOM rendered (declarative shadow DOM) and its state. */
  renderCampaigns(input: EmbedRenderInput): Promise<string>;
}
