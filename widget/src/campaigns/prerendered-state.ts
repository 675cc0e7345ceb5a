// What the proxy's GET /embed/campaigns puts inside the element it renders on
// the server: the state it rendered (JSON the browser reads back, to show it
// as it is rather than fetch it again) and the open offer's JobPosting.
import type { PrerenderedCampaigns } from '../../../server/public-api/embed.ts';

/** The state the server rendered the element with; undefined without one, or when a page altered it (it is rendered afresh rather than trusted). */
export function prerenderedState(host: Element): PrerenderedCampaigns | undefined {
  const text = host.querySelector(':scope > script[type="application/json"][data-jobboard-state]')?.textContent;
  // Without one, nothing is parsed: a JSON.parse('') that throws costs a page a few ms of stack collection.
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<PrerenderedCampaigns> | null;
    if (parsed && typeof parsed === 'object' && parsed.list && Array.isArray(parsed.list.items))
      return parsed as PrerenderedCampaigns;
  } catch {
    // Not JSON: the element fetches what it shows, as without server rendering.
  }
  return undefined;
}

/** The open offer's JobPosting script the server rendered beside the state. */
export function prerenderedPosting(host: Element): HTMLScriptElement | null {
  return host.querySelector<HTMLScriptElement>(':scope > script[type="application/ld+json"]');
}
