// What the elements already in the page will show, asked for as soon as
// widget.js runs (start-early.ts), before their code is defined and before the
// page language's texts are in: a <jobboard-apply>'s config and offer, and the
// offer a <jobboard-campaigns> opens from the page's URL, with its apply
// form's config. The elements then take those answers (loadConfig keeps the
// config; getCampaign takes an offer asked for ahead) rather than asking
// again, one round trip later.
import { prerenderedState } from './campaigns/prerendered-state.ts';
import { DEFAULT_OFFER_PARAM } from './campaigns/offer-param.ts';
import { loadConfig, prefetchCampaign } from './internal/api.ts';

/** Asks ahead for what the elements under `root` that are not defined yet will show, the open offer read from `search` (the page's query string). */
export function prefetchAnswers(root: ParentNode, search = location.search): void {
  for (const form of root.querySelectorAll('jobboard-apply:not(:defined)')) {
    const endpoint = form.getAttribute('endpoint') ?? '';
    loadConfig(endpoint).catch(() => undefined);
    const id = Number(form.getAttribute('campaign-id'));
    if (Number.isSafeInteger(id) && id > 0) prefetchCampaign(endpoint, id);
  }
  for (const catalogue of root.querySelectorAll('jobboard-campaigns:not(:defined)')) {
    // Left to the board's router, or shown as the server rendered it: it reads no offer from the URL at start.
    if (catalogue.getAttribute('routing') === 'none' || prerenderedState(catalogue)) continue;
    const id = Number(new URLSearchParams(search).get(catalogue.getAttribute('offer-param') ?? DEFAULT_OFFER_PARAM));
    if (!Number.isSafeInteger(id) || id <= 0) continue;
    const endpoint = catalogue.getAttribute('endpoint') ?? '';
    prefetchCampaign(endpoint, id);
    loadConfig(endpoint).catch(() => undefined);
  }
}
