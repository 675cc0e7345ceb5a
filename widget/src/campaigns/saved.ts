// Saved offers: the "Save" toggle of each offer, the list's "My saved offers
// (n)" button and the view of the saved offers, each checked with the proxy
// (an offer closed since is shown so, with a search for similar ones). A
// module of its own, loaded by the catalogue after its first render: widget.js
// carries only where these go.
import { css, html, nothing } from 'lit';
import type { CSSResult, ReactiveControllerHost, TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import { url } from '../internal/api.ts';
import type { CampaignDetail, CampaignQuery } from '../internal/api.ts';
import { heading } from '../internal/heading.ts';
import { openSavedStore } from './saved-store.ts';
import type { SavedOffer, SavedStore } from './saved-store.ts';

/** What the saved offers need of their element. */
export interface SavedHost extends ReactiveControllerHost, HTMLElement {
  endpoint: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** What the proxy said of a saved offer in the view: `unknown` while it is asked, or when it could not be. */
type Check = 'open' | 'closed' | 'unknown';

const styles: CSSResult = css`
  .saved-head {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    align-items: center;
    justify-content: space-between;
  }
  button[aria-pressed='true'] {
    background: var(--_primary);
    color: var(--_on-primary);
  }
  .closed {
    font-weight: 700;
  }
  .saved-actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) / 2);
  }
`;

/** The first word of a title that says something (three letters or more): what similar offers are searched by. */
export function similarQuery(offer: SavedOffer): CampaignQuery {
  const word = (offer.name ?? '').match(/[\p{L}\p{N}]{3,}/u)?.[0];
  return word ? { q: word } : offer.city ? { city: offer.city } : {};
}

/**
 * What the proxy says of a saved offer now: its details, `closed` (404 or
 * 410), or `unknown` (offline, or any other answer). Asked past the
 * browser's cache, which may hold the offer from before it closed; an
 * unchanged one is answered 304.
 */
async function checkOffer(endpoint: string, id: number): Promise<CampaignDetail | Exclude<Check, 'open'>> {
  try {
    const res = await fetch(url(endpoint, `/api/campaigns/${id}`), {
      cache: 'no-cache',
      headers: { accept: 'application/json' },
    });
    if (res.ok) return (await res.json()) as CampaignDetail;
    return res.status === 404 || res.status === 410 ? 'closed' : 'unknown';
  } catch {
    return 'unknown';
  }
}

export class SavedOffers {
  /** Whether the element shows the saved offers' view in place of the list. */
  open = false;
  private readonly host: SavedHost;
  private readonly store: SavedStore | null;
  private readonly select: (e: MouseEvent, offer: { id: number }) => void;
  private readonly search: (query: CampaignQuery) => void;
  /** What the live region says: the count, once it changed (not as the list first shows), or that nothing could be kept. */
  private said = '';
  /** Whether the last toggle could not be kept (storage full or blocked since): then said visibly too. */
  private failed = false;
  private readonly checks = new Map<number, Check>();

  constructor(
    host: SavedHost,
    select: (e: MouseEvent, offer: { id: number }) => void,
    search: (query: CampaignQuery) => void,
    storage?: () => Storage,
  ) {
    this.host = host;
    this.select = select;
    this.search = search;
    this.store = openSavedStore(host.endpoint, storage);
    const root = host.renderRoot;
    // Beside the element's own styles, as Lit adopts them (no <style>: a strict CSP would refuse it).
    if (root instanceof ShadowRoot && styles.styleSheet)
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles.styleSheet];
    // Saved or removed in another tab of the board.
    window.addEventListener('storage', (e) => {
      if (e.key === this.store?.key) host.requestUpdate();
    });
    host.requestUpdate();
  }

  private get count(): string {
    const n = this.store?.list().length ?? 0;
    return msg(str`My saved offers (${n})`);
  }

  /** The toggle of an offer, in the list and on its page; nothing when this browser keeps nothing. */
  toggle(offer: SavedOffer): TemplateResult | typeof nothing {
    const { store } = this;
    if (!store) return nothing;
    const saved = store.has(offer.id);
    return html`<button
      type="button"
      part="button"
      class="save-toggle"
      aria-pressed=${saved ? 'true' : 'false'}
      @click=${() => this.flip(offer, !saved)}
    >
      ${saved ? msg('Saved') : msg('Save')}<span class="visually-hidden">: ${offer.name}</span>
    </button>`;
  }

  private flip(offer: SavedOffer, save: boolean): void {
    this.failed = !(save ? this.store!.save(offer) : this.store!.remove(offer.id));
    this.said = this.failed
      ? msg('This browser could not keep the change: its storage is full or blocked.')
      : this.count;
    this.host.requestUpdate();
  }

  /** The list's button to the saved offers, with their count, and the live region that says it as it changes. */
  header(): TemplateResult | typeof nothing {
    if (!this.store) return nothing;
    return html`<button type="button" part="button" id="saved-open" @click=${() => this.show(true)}>
        ${this.count}
      </button>
      <span class=${this.failed ? 'error' : 'visually-hidden'} role="status">${this.said}</span>`;
  }

  /** Opens or closes the view; the focus goes to its heading, or back to its button. */
  private show(open: boolean): void {
    this.open = open;
    this.said = '';
    this.host.requestUpdate();
    if (open) void this.checkAll();
    void this.host.updateComplete.then(() =>
      this.host.renderRoot.querySelector<HTMLElement>(open ? '#saved-title' : '#saved-open')?.focus(),
    );
  }

  /** Asks the proxy for each saved offer: open (what is kept is refreshed), closed, or unknown (offline). */
  private async checkAll(): Promise<void> {
    const store = this.store!;
    await Promise.all(
      store.list().map(async (kept) => {
        const answer = await checkOffer(this.host.endpoint, kept.id);
        // Unless it was removed meanwhile.
        if (typeof answer === 'object' && store.has(kept.id)) store.save(answer);
        this.checks.set(kept.id, typeof answer === 'object' ? 'open' : answer);
        this.host.requestUpdate();
      }),
    );
  }

  private remove(offer: SavedOffer): void {
    this.flip(offer, false);
    void this.host.updateComplete.then(() => this.host.renderRoot.querySelector<HTMLElement>('#saved-title')?.focus());
  }

  /** One saved offer: its title (a button that opens it, while open), company, city, and what can be done. */
  private item(offer: SavedOffer, level: number): TemplateResult {
    const check = this.checks.get(offer.id) ?? 'unknown';
    const title =
      check === 'closed'
        ? offer.name
        : html`<button
            type="button"
            class="link"
            part="offer-title"
            data-offer=${offer.id}
            @click=${(e: MouseEvent) => {
              this.open = false;
              this.select(e, offer);
            }}
          >
            ${offer.name}
          </button>`;
    return html`<li class="offer" part="offer">
      ${heading(level, title)}
      <p class="company">${offer.company_name}</p>
      ${offer.city ? html`<p>${offer.city}</p>` : nothing}
      ${check === 'closed' ? html`<p class="closed">${msg('Offer filled or closed')}</p>` : nothing}
      <div class="saved-actions">
        ${
          check === 'closed'
            ? html`<button
                type="button"
                part="button"
                @click=${() => {
                  this.open = false;
                  this.search(similarQuery(offer));
                  void this.host.updateComplete.then(() =>
                    this.host.renderRoot.querySelector<HTMLElement>('#count')?.focus(),
                  );
                }}
              >
                ${msg('See similar offers')}<span class="visually-hidden">: ${offer.name}</span>
              </button>`
            : nothing
        }
        <button type="button" part="button" @click=${() => this.remove(offer)}>
          ${msg('Remove')}<span class="visually-hidden">: ${offer.name}</span>
        </button>
      </div>
    </li>`;
  }

  /** The view of the saved offers, in place of the search and the list; `level` is that of the offers' titles. */
  view(level: number): TemplateResult {
    const offers = this.store?.list() ?? [];
    return html`<section class="detail" aria-labelledby="saved-title">
      <button type="button" part="button" class="back" @click=${() => this.show(false)}>
        ← ${msg('Back to offers')}
      </button>
      ${heading(level, msg('My saved offers'), 'saved-title')}
      <p class="count" role="status">${this.count}</p>
      ${
        offers.length === 0
          ? html`<p class="state">${msg('No saved offer yet: save offers from the list to find them here.')}</p>`
          : html`<ul class="list" part="list">
              ${offers.map((o) => this.item(o, level + 1))}
            </ul>`
      }
    </section>`;
  }
}
