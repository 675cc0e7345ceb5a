// The list's state in a board page's query string, under the proxy's own
// query names (GET /api/campaigns): the widget routes with them, and a board
// that renders on its server forwards them to GET /embed/campaigns.
// No imports: the widget's bundle takes these constants from here.

/**
 * The list's search, filters and page in the board page's query string, so a
 * board passes its query string on to GET /embed/campaigns as it is.
 */
export const LIST_URL_PARAMS = [
  'q',
  'job_type',
  'working_time',
  'city',
  'near',
  'radius_km',
  'salary_min',
  'sort',
  'page',
] as const;
export type ListUrlParam = (typeof LIST_URL_PARAMS)[number];

/**
 * The query parameter of the open offer's id, unless the element's
 * offer-param renames it. The element writes its default out as 'offer', so
 * that its manifest shows the value.
 */
export const DEFAULT_OFFER_PARAM = 'offer';

/**
 * The board page's query parameters that a board forwards to
 * GET /embed/campaigns, and only these: a link to the board's page can carry
 * any parameter. A board whose element has offer-param forwards that one in
 * place of `offer`. Exported by jobboard-connector/proxy.
 */
export const FORWARDED_PAGE_PARAMS = [DEFAULT_OFFER_PARAM, ...LIST_URL_PARAMS] as const;

/** The list's orders: by relevance to `q`, newest first, nearest to `near` first. */
export const LIST_SORTS = ['relevance', 'date', 'distance'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** The radius of a `near` search without radius_km, and the widest one asked, in kilometres. */
export const DEFAULT_RADIUS_KM = 25;
export const MAX_RADIUS_KM = 500;

/**
 * The filters a board fixes on its element (a company's page on the board,
 * with the element's company-id, job-type and city attributes): the query
 * parameter of GET /embed/campaigns that renders each on the server, by the
 * list parameter it fixes.
 */
export const LIST_PRESETS = {
  company_id: 'preset_company_id',
  job_type: 'preset_job_type',
  city: 'preset_city',
} as const;
export type ListPreset = keyof typeof LIST_PRESETS;
