// The list of offers: how many were found, a card per offer with the link
// that opens it, and the pages; or why there is no list.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import { ProblemError } from '../internal/api.ts';
import type { CampaignPage, CampaignSummary } from '../internal/api.ts';
import { formatNumber } from '../internal/format.ts';
import { heading } from '../internal/heading.ts';
import type { Loader } from '../internal/loader.ts';
import { originNotAllowed } from '../internal/localize.ts';
import { renderFacts } from './offer-facts.ts';
import type { OfferRoute } from './offer-route.ts';
import type { SavedOffers } from './saved.ts';

/** What the list shows and what it tells its element. */
export interface ListView {
  list: Loader<CampaignPage>;
  /** Level of the offers' titles. */
  level: number;
  /** The language for Intl. */
  tag: string;
  /** Writes the links to offers; null when the element keeps out of the URL (the titles are buttons). */
  route: OfferRoute | null;
  onSelect: (e: MouseEvent, offer: CampaignSummary) => void;
  onPage: (page: number) => void;
  onRetry: () => void;
  /** The saved offers' toggles and button, once their module is in. */
  saved: SavedOffers | undefined;
}

function renderOffers(view: ListView, data: CampaignPage): TemplateResult {
  const { list, level, route, onSelect, onPage } = view;
  if (data.items.length === 0) {
    return html`<p class="state">${msg('No offer matches your search. Try other keywords or fewer filters.')}</p>`;
  }
  return html`<ul class="list" part="list" aria-busy=${list.status === 'loading' ? 'true' : 'false'}>
      ${data.items.map(
        (c) =>
          html`<li class="offer" part="offer">
            ${heading(
              level,
              route
                ? html`<a
                    class="link"
                    part="offer-title"
                    data-offer=${c.id}
                    href=${route.href(c.id)}
                    @click=${(e: MouseEvent) => onSelect(e, c)}
                    >${c.name}</a
                  >`
                : html`<button
                    type="button"
                    class="link"
                    part="offer-title"
                    data-offer=${c.id}
                    @click=${(e: MouseEvent) => onSelect(e, c)}
                  >
                    ${c.name}
                  </button>`,
            )}
            <p class="company">${c.company_name}</p>
            ${renderFacts(c, view.tag)}
            <div class="save">${view.saved?.toggle(c)}</div>
          </li>`,
      )}
    </ul>
    ${
      data.last_page > 1
        ? html`<nav class="pagination" part="pagination" aria-label=${msg('Pages')}>
            <button type="button" part="button" ?disabled=${data.page <= 1} @click=${() => onPage(data.page - 1)}>
              ${msg('Previous page')}
            </button>
            <span>${msg(str`Page ${data.page} of ${data.last_page}`)}</span>
            <button
              type="button"
              part="button"
              ?disabled=${data.page >= data.last_page}
              @click=${() => onPage(data.page + 1)}
            >
              ${msg('Next page')}
            </button>
          </nav>`
        : nothing
    }`;
}

/** Why the proxy refused the search's place, in the candidate's words; undefined for any other failure. */
function placeRefused(error: unknown): string | undefined {
  const problem = error instanceof ProblemError ? error.errors?.find((p) => p.field === 'near') : undefined;
  return !problem
    ? undefined
    : problem.reason === 'place_unknown'
      ? msg('No offer in this town has a known position. Enter another town, or a position like 45.76,4.84.')
      : problem.reason === 'search_too_long'
        ? msg('This search took too long. Choose a smaller radius or add a filter.')
        : msg('This place is not understood. Enter a town, or a position like 45.76,4.84.');
}

/** The count of offers found (a live region, focused after a change of page), then the list. */
export function renderList(view: ListView): TemplateResult {
  const { status, value } = view.list;
  const total = value?.total;
  let body: TemplateResult;
  if (status === 'refused') {
    body = html`<p class="state error-box">${originNotAllowed()}</p>`;
  } else if (status === 'error' && placeRefused(view.list.error)) {
    // The connection is fine: trying again would be refused the same way.
    body = html`<p class="state error-box" id="near-refused">${placeRefused(view.list.error)}</p>`;
  } else if (status === 'error' || status === 'gone') {
    body = html`<div class="state error-box">
      <p>${msg('The offers could not be loaded. Check your connection and try again.')}</p>
      <button type="button" part="button" @click=${view.onRetry}>${msg('Try again')}</button>
    </div>`;
  } else if (!value) {
    // A quiet outline of the list to come, so that nothing jumps when it arrives.
    body = html`<p class="state"><span class="spinner" aria-hidden="true"></span> ${msg('Loading offers…')}</p>
      <ul class="skeleton" aria-hidden="true">
        ${Array.from({ length: 3 }, () => html`<li class="offer"></li>`)}
      </ul>`;
  } else {
    body = renderOffers(view, value);
  }
  return html`<div class="save">
      <p id="count" class="count" part="count" role="status" tabindex="-1">
        ${status === 'ready' && total !== undefined ? (total === 1 ? msg('1 offer') : msg(str`${formatNumber(view.tag, total)} offers`)) : nothing}
      </p>
      ${view.saved?.header()}
    </div>
    ${body}`;
}
