// The board's funnel (server/proxy/README.md, "The funnel"): one
// navigator.sendBeacon to the element's proxy per step, with no cookie and
// nothing naming the visitor, sent only once the proxy's /api/config says it
// counts its funnel, with the campaign parameters the widget keeps for the
// form when the board tracks them (`track_utm`).
import type { BeaconStage, FunnelBeacon } from '../../../server/public-api/funnel.ts';
import { loadConfig, url } from './api.ts';
import { keptUtm } from './campaign-tracking.ts';

/** Counts `stage` of the offers `ids` (a page of the list, or one offer) at the proxy of `endpoint`. */
export function sendFunnel(endpoint: string, stage: BeaconStage, ids: number[]): void {
  loadConfig(endpoint)
    .then((config) => {
      if (!config.funnel || ids.length === 0) return;
      const { utm_source, utm_campaign } = config.track_utm ? keptUtm() : {};
      const beacon: FunnelBeacon = { stage, campaign_ids: ids, utm_source, utm_campaign };
      navigator.sendBeacon(url(endpoint, '/api/funnel'), JSON.stringify(beacon));
    })
    // No config, an endpoint that is no web URL: nothing counted, nothing for the candidate to see.
    .catch(() => {});
}
