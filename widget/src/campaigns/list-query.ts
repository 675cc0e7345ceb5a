// The query of the catalogue's list and its open offer, from the page's URL and
// the element's attributes: written once for the element (campaigns.ts,
// offer-route.ts) and for the answers asked for before it is defined
// (prefetch.ts). It imports no Lit, so that widget.js asks for them before Lit
// has run.
import type { CampaignQuery } from '../internal/api.ts';
import { LIST_URL_PARAMS } from '../../../server/public-api/list-params.ts';

/** The list's search, filters and page in a query string (`?q=nurse&page=2`). */
export function urlListQuery(search: string): CampaignQuery {
  const params = new URLSearchParams(search);
  const query: CampaignQuery = {};
  for (const name of LIST_URL_PARAMS) {
    const value = params.get(name)?.trim();
    if (value) query[name] = name === 'page' ? Math.max(1, Math.trunc(Number(value)) || 1) : value;
  }
  return query;
}

/** The open offer's id in a query string, under `param` (`?offer=21`); null for none, or for one that is not an id. */
export function urlOfferId(search: string, param: string): number | null {
  const id = Number(new URLSearchParams(search).get(param));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** What the board fixed with attributes: the filters (they win over the candidate's) and the page size. */
export interface FixedFilters {
  companyId: number | undefined;
  jobType: string | undefined;
  city: string | undefined;
  perPage: number | undefined;
}

/** The query the list is asked for: the candidate's, the board's fixed filters over it, and the page size (1 to 50, 10 by default). */
export function listQuery(query: CampaignQuery, fixed: FixedFilters): CampaignQuery {
  return {
    ...query,
    company_id: fixed.companyId ?? query.company_id,
    job_type: fixed.jobType || query.job_type,
    city: fixed.city || query.city,
    per_page: Math.min(50, Math.max(1, Math.trunc(fixed.perPage ?? 0) || 10)),
  };
}
