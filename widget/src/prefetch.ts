// What the elements already in the page will show, asked for as soon as
// widget.js runs (start-early.ts), before their code is defined and before the
// page language's texts are in: a <jobboard-apply>'s config and offer, and a
// <jobboard-campaigns>'s list and the offer it opens from the page's URL, with
// its apply form's config. The elements then take those answers (loadConfig
// keeps the config; a request of the same URL takes the answer asked for
// ahead) rather than asking again, one round trip later.
import { listQuery, urlListQuery, urlOfferId } from './campaigns/list-query.ts';
import { prerenderedState } from './campaigns/prerendered-state.ts';
import { loadConfig, prefetchCampaign, prefetchList } from './internal/api.ts';
import { DEFAULT_OFFER_PARAM } from '../../server/public-api/list-params.ts';

/** Asks ahead for what the elements under `root` that are not defined yet will show, the open offer read from `search` (the page's query string). */
export function prefetchAnswers(root: ParentNode, search = location.search): void {
  for (const form of root.querySelectorAll('jobboard-apply:not(:defined)')) {
    const endpoint = form.getAttribute('endpoint') ?? '';
    loadConfig(endpoint).catch(() => undefined);
    const id = Number(form.getAttribute('campaign-id'));
    if (Number.isSafeInteger(id) && id > 0) prefetchCampaign(endpoint, id);
  }
  for (const catalogue of root.querySelectorAll('jobboard-campaigns:not(:defined)')) {
    // Shown as the server rendered it: it asks for nothing at start.
    if (prerenderedState(catalogue)) continue;
    const endpoint = catalogue.getAttribute('endpoint') ?? '';
    // Left to the board's router, it reads nothing from the URL.
    const routed = catalogue.getAttribute('routing') !== 'none';
    const id = routed ? urlOfferId(search, catalogue.getAttribute('offer-param') ?? DEFAULT_OFFER_PARAM) : null;
    if (id !== null) {
      prefetchCampaign(endpoint, id);
      loadConfig(endpoint).catch(() => undefined);
    }
    // The attributes as the element reads them (Lit's Number conversion for the numbers).
    const number = (name: string) => (catalogue.hasAttribute(name) ? Number(catalogue.getAttribute(name)) : undefined);
    const fixed = {
      companyId: number('company-id'),
      jobType: catalogue.getAttribute('job-type') ?? undefined,
      city: catalogue.getAttribute('city') ?? undefined,
      perPage: number('per-page'),
    };
    prefetchList(endpoint, listQuery(routed ? urlListQuery(search) : {}, fixed));
  }
}
