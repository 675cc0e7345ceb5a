// The apply form's code comes in a module of its own (widget.ts), after
// widget.js: a <jobboard-apply> already in the page asks for what it shows
// (the proxy's config and its offer) meanwhile, from widget.js, rather than
// once its module has arrived and defined it, one round trip later. The form
// then takes those answers (loadConfig keeps the config; getCampaign takes
// the offer asked for ahead).
import { loadConfig, prefetchCampaign } from './api.ts';

/** Asks ahead for the config and the offer of every apply form under `root` that is not defined yet. */
export function prefetchForms(root: ParentNode): void {
  for (const form of root.querySelectorAll('jobboard-apply:not(:defined)')) {
    const endpoint = form.getAttribute('endpoint') ?? '';
    loadConfig(endpoint).catch(() => undefined);
    const id = Number(form.getAttribute('campaign-id'));
    if (Number.isSafeInteger(id) && id > 0) prefetchCampaign(endpoint, id);
  }
}
