// The list's search, filters and page and the open offer, kept in the page's
// query string (`?offer=21&q=nurse`): an offer has a URL to share or
// bookmark, a reload keeps it, and Back and Forward move between list and
// offer. With `routing="none"` the URL is left to the board's own router.
import { isServer } from 'lit';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CampaignQuery } from '../internal/api.ts';
import { LIST_URL_PARAMS } from '../../../server/public-api/list-params.ts';
import { urlListQuery, urlOfferId } from './list-query.ts';

/** What the route needs of its element. */
export interface RouteHost extends ReactiveControllerHost {
  offerParam: string;
  routing: 'query' | 'none';
}

export class OfferRoute implements ReactiveController {
  /** The list's search, filters and page. */
  query: CampaignQuery = {};
  private readonly host: RouteHost;
  /** Called when Back or Forward changed the page's URL (routed or not). */
  private readonly onNavigate: () => void;

  constructor(host: RouteHost, onNavigate: () => void) {
    this.host = host;
    this.onNavigate = onNavigate;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('popstate', this.onNavigate);
  }

  hostDisconnected(): void {
    window.removeEventListener('popstate', this.onNavigate);
  }

  get routed(): boolean {
    return this.host.routing !== 'none';
  }

  /** Takes the list's query from the page's URL and answers the open offer's id there (null for the list); `changed` tells whether the query changed. */
  read(): { offer: number | null; changed: boolean } {
    const query = urlListQuery(location.search);
    const changed = LIST_URL_PARAMS.some((name) => query[name] !== this.query[name]);
    this.query = query;
    return { offer: urlOfferId(location.search, this.host.offerParam), changed };
  }

  /** Writes the list's query and the open offer into the page's URL: a new history entry or the current one. */
  write(offer: number | null, push: boolean): void {
    if (!this.routed) return;
    const url = new URL(location.href);
    this.setParams(url.searchParams, offer);
    if (url.href === location.href) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(history.state, '', url);
  }

  /** The link to an offer, relative (a query string) so that the server can write it too. */
  href(offer: number): string {
    const params = new URLSearchParams(isServer ? '' : location.search);
    this.setParams(params, offer);
    return `?${params}`;
  }

  /** The list's state and the open offer (or none) as query parameters, beside the page's own. */
  private setParams(params: URLSearchParams, offer: number | null): void {
    for (const name of LIST_URL_PARAMS) {
      const value = this.query[name];
      if (value === undefined || value === '' || (name === 'page' && value === 1)) params.delete(name);
      else params.set(name, String(value));
    }
    if (offer === null) params.delete(this.host.offerParam);
    else params.set(this.host.offerParam, String(offer));
  }
}
