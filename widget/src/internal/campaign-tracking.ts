// Campaign tracking: the utm_* of the visit's landing URL, kept in
// sessionStorage when an element of the widget first connects (the first
// landing of the session that carries any wins; absent ones, and those that
// break the proxy's rule, are not kept), and posted with the apply form when
// the proxy tracks them (/api/config `track_utm`). A proxy that does not
// drops what was kept.
import { keepUtm } from '../../../server/public-api/campaign-tracking.ts';
import type { Utm } from '../../../server/public-api/campaign-tracking.ts';

const KEY = 'jobboard-utm';

/**
 * Keeps the page URL's utm_* unless the session kept some already. A URL
 * without any does not touch the storage: a page's first access to it costs
 * Chromium about a millisecond, in the task that connects the element.
 */
export function keepLandingUtm(): void {
  try {
    const params = new URLSearchParams(location.search);
    const { utm } = keepUtm((name) => params.get(name));
    if (Object.keys(utm).length === 0 || sessionStorage.getItem(KEY) !== null) return;
    sessionStorage.setItem(KEY, JSON.stringify(utm));
  } catch {
    // Storage disabled (privacy mode, sandboxed iframe), or no page (server rendering): nothing is tracked.
  }
}

/**
 * The kept utm_*, checked again: a session entry written by an older widget,
 * or by hand, gives only values that keep to the rule.
 */
export function keptUtm(): Utm {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Record<string, unknown>;
    return keepUtm((field) => kept[field]).utm;
  } catch {
    // See keepLandingUtm; a corrupt entry gives nothing.
    return {};
  }
}

/** Sets the kept utm_* on the form when `track`, else forgets them. */
export function postUtm(data: FormData, track: boolean): void {
  try {
    if (!track) {
      sessionStorage.removeItem(KEY);
      return;
    }
    for (const [name, value] of Object.entries(keptUtm())) data.set(name, value);
  } catch {
    // See keepLandingUtm.
  }
}
