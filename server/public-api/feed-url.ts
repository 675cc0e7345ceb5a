// The Atom feed of a search, GET /feeds/offers.atom with the list's
// parameters: the alert panel (a module of the widget of its own, which
// brings this file with it, not widget.js) shows it, and the proxy's
// alert.requested event carries it. No imports.
/** The Atom feed of a search (GET /feeds/offers.atom), which takes the list's parameters. */
export const FEED_PATH = '/feeds/offers.atom';

/**
 * The feed of one search, for an alert: the list's parameters but its page
 * (new offers come first, not the page the candidate was on), in `lang`.
 * `origin`: the proxy's address, or '' for a path. One spelling for the
 * widget's alert panel and the proxy's alert.requested event.
 */
export function feedUrlOf(origin: string, params: Record<string, string | number | undefined>, lang: string): string {
  const query = new URLSearchParams();
  // In name order: one search, one address, whoever writes it.
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (value !== undefined && value !== '' && name !== 'page') query.set(name, String(value));
  }
  query.set('lang', lang);
  return `${origin.replace(/\/+$/, '')}${FEED_PATH}?${query}`;
}
