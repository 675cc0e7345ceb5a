// What a board forwards from its page's query string to GET /embed/campaigns,
// for boards built on Node (exported by jobboard-connector/proxy). Apart from
// prerendered.ts, whose every value is in the widget's bundle.
import { DEFAULT_OFFER_PARAM, LIST_URL_PARAMS } from './prerendered.ts';

/**
 * The board page's query parameters that a board forwards to
 * GET /embed/campaigns, and only these: a link to the board's page can carry
 * any parameter. A board whose element has offer-param forwards that one in
 * place of `offer`.
 */
export const FORWARDED_PAGE_PARAMS = [DEFAULT_OFFER_PARAM, ...LIST_URL_PARAMS] as const;
