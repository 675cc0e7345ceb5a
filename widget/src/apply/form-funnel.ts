// The funnel's steps of an apply form: `started` at the candidate's first
// input into it (once per form and offer), `submitted` at each send tried,
// whether or not the form then finds errors. Listened to on the element's
// shadow root, where both events of its form bubble to, for the element's life.
import type { BeaconStage } from '../../../server/public-api/funnel.ts';
import { sendFunnel } from '../internal/funnel.ts';

/** Counts the steps of the form of `host` in `root`, its render root; answers the root. */
export function countFormSteps<R extends HTMLElement | DocumentFragment>(
  host: { endpoint: string; campaignId: number },
  root: R,
): R {
  /** The offer whose form the candidate started here (0: none yet). */
  let started = 0;
  const send = (stage: BeaconStage) => {
    if (host.campaignId) sendFunnel(host.endpoint, stage, [host.campaignId]);
  };
  root.addEventListener('input', () => {
    if (host.campaignId !== started) send('started');
    started = host.campaignId;
  });
  root.addEventListener('submit', () => send('submitted'));
  return root;
}
