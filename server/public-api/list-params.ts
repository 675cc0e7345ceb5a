// The list's state in a board page's query string, under the proxy's own
// query names (GET /api/campaigns): the widget routes with them, and a board
// that renders on its server forwards them to GET /embed/campaigns.
// No imports: the widget's bundle takes these constants from here.

/**
 * The list's search, filters and page in the board page's query string, so a
 * board passes its query string on to GET /embed/campaigns as it is.
 */
export const LIST_URL_PARAMS = ['q', 'job_type', 'working_time', 'city', 'page'] as const;
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
