import { LitElement, html, isServer, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues, TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import { ProblemError, getCampaign, getJobPosting, isRefusal, listCampaigns } from '../internal/api.ts';
import type { CampaignDetail, CampaignPage, CampaignQuery, CampaignSummary } from '../internal/api.ts';
import { JobboardCampaignSelectEvent } from '../internal/events.ts';
import { formatDate, formatNumber } from '../internal/format.ts';
import { heading, headingLevel } from '../internal/heading.ts';
import { sanitize } from '../internal/html.ts';
import { LocaleController } from '../internal/locale-controller.ts';
import { problemMessage, textLocale } from '../internal/localize.ts';
import { styles } from './campaigns.styles.ts';
import { HeadJobPosting } from './head-job-posting.ts';
import { renderFacts } from './offer-facts.ts';
import { renderSearch, submittedQuery } from './search-form.ts';
import { LIST_URL_PARAMS } from '../../../server/public-api/list-params.ts';
import type { PrerenderedCampaigns } from '../../../server/public-api/embed.ts';

/** Attributes of `<jobboard-campaigns>` handed down to its apply form. */
const forwarded = /^(field-.+|no-draft|consent-url)$/;

/**
 * The board's broadcast offers with text search, filters and paging; choosing
 * one shows its description, profile and apply form (`<jobboard-apply>`).
 * `field-*`, `no-draft` and `consent-url` attributes are passed to that form.
 *
 * The open offer and the list's search, filters and page live in the page's
 * query string (`?offer=21&q=nurse`), so an offer has a URL to share or
 * bookmark, a reload keeps it, and Back and Forward move between list and
 * offer. While an offer is open, its schema.org `JobPosting` is in the
 * document's head for search engines.
 *
 * @tag jobboard-campaigns
 * @summary Job offers with search, filters, details and apply form.
 *
 * @event jobboard-campaign-select - The candidate opened an offer. `detail: { campaignId }`.
 * @event jobboard-apply-submit - From the inner apply form, see `<jobboard-apply>`.
 * @event jobboard-upload-progress - From the inner apply form.
 * @event jobboard-apply-success - From the inner apply form.
 * @event jobboard-apply-error - From the inner apply form.
 *
 * @csspart search - The search and filter form.
 * @csspart input - The search box and filter selects.
 * @csspart button - Buttons (search, paging, back, retry).
 * @csspart count - The number of offers found.
 * @csspart list - The list of offers.
 * @csspart offer - One offer card.
 * @csspart offer-title - The button with the offer's title that opens it.
 * @csspart pagination - The paging navigation.
 * @csspart detail - The opened offer.
 * @csspart description - The offer's description and profile.
 * @csspart apply - The `<jobboard-apply>` inside the opened offer (its own parts are not exported).
 *
 * @cssproperty --jobboard-color-primary - Buttons, links (default #1d4ed8; #93c5fd dark).
 * @cssproperty --jobboard-color-on-primary - Text on primary buttons.
 * @cssproperty --jobboard-color-text - Body text.
 * @cssproperty --jobboard-color-muted - Secondary text.
 * @cssproperty --jobboard-color-background - Background.
 * @cssproperty --jobboard-color-surface - Offer cards.
 * @cssproperty --jobboard-color-border - Borders.
 * @cssproperty --jobboard-color-error - Errors.
 * @cssproperty --jobboard-color-focus - Focus ring.
 * @cssproperty --jobboard-font-family - Font.
 * @cssproperty --jobboard-font-size - Base font size.
 * @cssproperty --jobboard-radius - Corner radius.
 * @cssproperty --jobboard-spacing - Base spacing.
 * @cssproperty --jobboard-min-height - Room kept for the offers while they load, so the page below does not move (default 100vh).
 */
export class JobboardCampaigns extends LitElement {
  static override styles = styles;
  /** Lit's reactive properties, declared without decorators, whose helpers cost the script-tag bundle 0.45 KB gzipped. */
  static override properties: PropertyDeclarations = {
    query: { state: true }, data: { state: true }, listStatus: { state: true }, selected: { state: true }, detailStatus: { state: true },
    endpoint: {}, lang: {},
    perPage: { attribute: 'per-page', type: Number },
    headingLevel: { attribute: 'heading-level', type: Number },
    offerParam: { attribute: 'offer-param' },
    routing: {},
    noStructuredData: { attribute: 'no-structured-data', type: Boolean },
    prerendered: { attribute: false },
  };

  private listRequest: AbortController | null = null;
  private readonly language = new LocaleController(this);
  /** The id of the offer shown, from a click or the URL; null on the list. */
  private openId: number | null = null;
  private readonly structuredData = new HeadJobPosting();

  private query: CampaignQuery = {};
  private data: CampaignPage | null = null;
  /** `refused`: the proxy does not allow this page's origin. */
  private listStatus: 'loading' | 'ready' | 'error' | 'refused' = 'loading';
  private selected: CampaignDetail | null = null;
  /** `gone`: the service says the offer is closed or does not exist. */
  private detailStatus: 'idle' | 'loading' | 'error' | 'gone' = 'idle';

  /** Base URL of the proxy; empty for the page's own origin. */
  endpoint = '';
  /** Language: `fr`, `en` or `es`. Defaults to the page's `lang`, then the browser's. */
  override lang = '';
  /** Offers per page (1 to 50). */
  perPage = 10;
  /**
   * Level (1 to 4) of the offers' titles, in the list and opened, to fit the page's
   * outline; the opened offer's sections are one level below, its apply form's headings two.
   */
  headingLevel = 2;
  /** The query parameter that holds the open offer's id (`?offer=21`). */
  offerParam = 'offer';
  /** `none` keeps the open offer and the list's state out of the URL, for boards with their own router. */
  routing: 'query' | 'none' = 'query';
  /** Leaves the open offer's JobPosting out of the document's head. */
  noStructuredData = false;
  /**
   * The state the element was rendered with on the server: shown as it is,
   * without fetching it again. The proxy's GET /embed/campaigns sets it and
   * embeds it in the element as JSON, which the browser reads back.
   */
  prerendered: PrerenderedCampaigns | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.handlePopState);
    if (!this.hasUpdated) this.adoptServerRendering();
  }

  /** Reads the state and the JobPosting that GET /embed/campaigns put in the element. */
  private adoptServerRendering(): void {
    const state = this.querySelector(':scope > script[type="application/json"][data-jobboard-state]');
    if (state && !this.prerendered) {
      try {
        const parsed = JSON.parse(state.textContent ?? '') as Partial<PrerenderedCampaigns> | null;
        // A page that altered it is rendered afresh rather than trusted.
        if (parsed && typeof parsed === 'object' && parsed.list && Array.isArray(parsed.list.items)) this.prerendered = parsed as PrerenderedCampaigns;
      } catch {
        // Not JSON: the element fetches what it shows, as without server rendering.
      }
    }
    const posting = this.querySelector<HTMLScriptElement>(':scope > script[type="application/ld+json"]');
    if (posting && this.prerendered?.offer?.detail && !this.noStructuredData) {
      // Into the head, where it is for an offer opened in the browser, and from where it leaves with the offer.
      this.structuredData.adopt(posting);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.handlePopState);
    this.listRequest?.abort();
    this.structuredData.show(null);
  }

  protected override getUpdateComplete(): Promise<boolean> {
    return this.language.settled(() => super.getUpdateComplete());
  }

  /** Renders wait for the texts of the element's language: no English first that French then replaces, moving the page. */
  protected override async scheduleUpdate(): Promise<void> {
    await this.language.ready;
    super.scheduleUpdate();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Lit's server rendering calls no controller: the language (for dates and money) is resolved here.
    if (isServer) this.language.hostUpdate();
    if (!this.hasUpdated && this.prerendered) {
      // The first render must be the server's, for hydration: the URL is read after it.
      this.showPrerendered(this.prerendered);
      return;
    }
    // The first update reads the URL (the element's attributes are known by then).
    if (!this.hasUpdated && this.routed) this.readUrl();
    if (changed.has('endpoint') || changed.has('perPage')) void this.load();
  }

  protected override firstUpdated(): void {
    // A board may have rendered the list for another URL than the page's (a cached fragment): the URL wins.
    if (this.prerendered && this.routed && this.readUrl()) void this.load();
  }

  private showPrerendered(state: PrerenderedCampaigns): void {
    this.query = state.query;
    this.data = state.list;
    this.listStatus = 'ready';
    this.openId = state.offer?.id ?? null;
    this.selected = state.offer?.detail ?? null;
    this.detailStatus = state.offer && !state.offer.detail ? 'gone' : 'idle';
  }

  protected override updated(): void {
    const apply = this.renderRoot.querySelector('jobboard-apply');
    if (!apply) return;
    for (const attr of this.attributes) {
      if (forwarded.test(attr.name) && apply.getAttribute(attr.name) !== attr.value) apply.setAttribute(attr.name, attr.value);
    }
  }

  private get routed(): boolean {
    return this.routing !== 'none';
  }

  /** The opened offer's heading level; room is kept for the apply form's headings two levels below. */
  private get level(): number {
    return Math.min(headingLevel(this.headingLevel), 4);
  }

  /** Takes the list's query and the open offer from the page's URL; answers whether the list's query changed. */
  private readUrl(): boolean {
    const params = new URLSearchParams(location.search);
    const query: CampaignQuery = {};
    for (const name of LIST_URL_PARAMS) {
      const value = params.get(name)?.trim();
      if (value) query[name] = name === 'page' ? Math.max(1, Math.trunc(Number(value)) || 1) : value;
    }
    const listChanged = LIST_URL_PARAMS.some((name) => query[name] !== this.query[name]);
    this.query = query;
    const id = Number(params.get(this.offerParam));
    void this.showOffer(Number.isSafeInteger(id) && id > 0 ? id : null);
    return listChanged;
  }

  /** Writes the list's query and the open offer into the page's URL: a new history entry or the current one. */
  private writeUrl(push: boolean): void {
    if (!this.routed) return;
    const url = new URL(location.href);
    this.setUrlParams(url.searchParams, this.openId);
    if (url.href === location.href) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(history.state, '', url);
  }

  /** The list's state and the open offer (or none) as query parameters, beside the page's own. */
  private setUrlParams(params: URLSearchParams, offer: number | null): void {
    for (const name of LIST_URL_PARAMS) {
      const value = this.query[name];
      if (value === undefined || value === '' || (name === 'page' && value === 1)) params.delete(name);
      else params.set(name, String(value));
    }
    if (offer === null) params.delete(this.offerParam);
    else params.set(this.offerParam, String(offer));
  }

  /** The link to an offer, relative (a query string) so that the server can write it too. */
  private offerHref(id: number): string {
    const params = new URLSearchParams(isServer ? '' : location.search);
    this.setUrlParams(params, id);
    return `?${params}`;
  }

  private readonly handlePopState = (): void => {
    if (!this.routed) return;
    const wasOpen = this.openId;
    if (this.readUrl()) void this.load();
    // Back to the list: focus the offer the candidate had opened, as the element's own back button does.
    if (wasOpen !== null && this.openId === null) void this.focusOffer(wasOpen);
  };

  private async load(): Promise<void> {
    this.listRequest?.abort();
    const request = new AbortController();
    this.listRequest = request;
    this.listStatus = 'loading';
    try {
      const perPage = Math.min(50, Math.max(1, Math.trunc(this.perPage) || 10));
      const data = await listCampaigns(this.endpoint, { ...this.query, per_page: perPage }, request.signal);
      if (request.signal.aborted) return;
      this.data = data;
      this.listStatus = 'ready';
    } catch (error) {
      // A newer search replaced this one: its answer no longer matters.
      if (request.signal.aborted) return;
      this.listStatus = isRefusal(error) ? 'refused' : 'error';
    }
  }

  /** Shows an offer (settles once it is fetched) or, with null, the list. */
  private showOffer(id: number | null): Promise<void> {
    if (id === this.openId) return Promise.resolve();
    this.openId = id;
    this.selected = null;
    this.structuredData.show(null);
    this.detailStatus = id === null ? 'idle' : 'loading';
    return id === null ? Promise.resolve() : this.fetchOffer(id);
  }

  private async fetchOffer(id: number): Promise<void> {
    try {
      const offer = await getCampaign(this.endpoint, id);
      if (this.openId !== id) return;
      this.selected = offer;
      this.detailStatus = 'idle';
    } catch (error) {
      if (this.openId !== id) return;
      this.detailStatus = error instanceof ProblemError && error.problem.status === 404 ? 'gone' : 'error';
      return;
    }
    if (!this.noStructuredData) void this.fetchStructuredData(id);
  }

  /** Search engines read it from the head; without it the offer still works, so a failure is quiet. */
  private async fetchStructuredData(id: number): Promise<void> {
    const posting = await getJobPosting(this.endpoint, id).catch(() => null);
    if (posting && this.openId === id && this.isConnected) this.structuredData.show(posting);
  }

  private readonly handleSearch = (e: SubmitEvent): void => {
    this.query = submittedQuery(e);
    this.writeUrl(false);
    void this.load();
  };

  private handlePage(page: number): void {
    this.query = { ...this.query, page };
    this.writeUrl(false);
    void this.load().then(async () => {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#count')?.focus();
    });
  }

  private async handleSelect(e: MouseEvent, offer: CampaignSummary): Promise<void> {
    // A click with a modifier opens the link in a new tab or window, as on any link.
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    this.dispatchEvent(new JobboardCampaignSelectEvent(offer.id));
    const shown = this.showOffer(offer.id);
    this.writeUrl(true);
    await shown;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#detail-title, #detail-error')?.focus();
  }

  /** Like a link to the list: a new history entry, so the browser's Back returns to the offer. */
  private handleBack(): void {
    const id = this.openId;
    void this.showOffer(null);
    this.writeUrl(true);
    if (id !== null) void this.focusOffer(id);
  }

  private async focusOffer(id: number): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[data-offer="${id}"]`)?.focus();
  }

  private handleRetry(): void {
    void this.load();
  }

  private renderList(): TemplateResult {
    if (this.listStatus === 'loading' && !this.data) {
      // A quiet outline of the list to come, so that nothing jumps when it arrives.
      return html`<p class="state"><span class="spinner" aria-hidden="true"></span> ${msg('Loading offers…')}</p>
        <ul class="skeleton" aria-hidden="true">
          ${Array.from({ length: 3 }, () => html`<li class="offer"></li>`)}
        </ul>`;
    }
    if (this.listStatus === 'refused') return html`<p class="state error-box">${problemMessage('origin_not_allowed')}</p>`;
    if (this.listStatus === 'error') {
      return html`<div class="state error-box">
        <p>${msg('The offers could not be loaded. Check your connection and try again.')}</p>
        <button type="button" part="button" @click=${this.handleRetry}>${msg('Try again')}</button>
      </div>`;
    }
    const data = this.data!;
    if (data.items.length === 0) {
      return html`<p class="state">${msg('No offer matches your search. Try other keywords or fewer filters.')}</p>`;
    }
    return html`<ul class="list" part="list" aria-busy=${this.listStatus === 'loading' ? 'true' : 'false'}>
        ${data.items.map(
          (c) => html`<li class="offer" part="offer">
            ${heading(
              this.level,
              this.routed
                ? html`<a class="link" part="offer-title" data-offer=${c.id} href=${this.offerHref(c.id)} @click=${(e: MouseEvent) => this.handleSelect(e, c)}>${c.name}</a>`
                : html`<button type="button" class="link" part="offer-title" data-offer=${c.id} @click=${(e: MouseEvent) => this.handleSelect(e, c)}>${c.name}</button>`,
            )}
            <p class="company">${c.company_name}</p>
            ${renderFacts(c, this.language.tag)}
          </li>`,
        )}
      </ul>
      ${data.last_page > 1
        ? html`<nav class="pagination" part="pagination" aria-label=${msg('Pages')}>
            <button type="button" part="button" ?disabled=${data.page <= 1} @click=${() => this.handlePage(data.page - 1)}>${msg('Previous page')}</button>
            <span>${msg(str`Page ${data.page} of ${data.last_page}`)}</span>
            <button type="button" part="button" ?disabled=${data.page >= data.last_page} @click=${() => this.handlePage(data.page + 1)}>${msg('Next page')}</button>
          </nav>`
        : nothing}`;
  }

  private renderDetail(): TemplateResult {
    const back = html`<button type="button" part="button" class="back" @click=${this.handleBack}>← ${msg('Back to offers')}</button>`;
    if (this.detailStatus === 'loading') {
      return html`${back}<p class="state"><span class="spinner" aria-hidden="true"></span> ${msg('Loading the offer…')}</p>`;
    }
    if (this.detailStatus === 'gone') {
      return html`${back}<p id="detail-error" class="state" tabindex="-1">${msg('This offer is no longer open. Other offers are waiting for you in the list.')}</p>`;
    }
    if (this.detailStatus === 'error' || !this.selected) {
      return html`${back}<p id="detail-error" class="state error" tabindex="-1">${msg('This offer could not be loaded. It may have been closed.')}</p>`;
    }
    const c = this.selected;
    return html`<article class="detail" part="detail">
      ${back}
      ${heading(this.level, c.name, 'detail-title')}
      <p class="company">${c.company_name}</p>
      ${renderFacts(c, this.language.tag)}
      ${c.date_end ? html`<p>${msg(str`Applications close on ${formatDate(this.language.tag, c.date_end)}.`)}</p>` : nothing}
      ${c.description ? html`<section part="description">${heading(this.level + 1, msg('The job'))}<div class="rich">${sanitize(c.description)}</div></section>` : nothing}
      ${c.profile ? html`<section part="description">${heading(this.level + 1, msg('The profile'))}<div class="rich">${sanitize(c.profile)}</div></section>` : nothing}
      <section class="apply">
        ${heading(this.level + 1, msg('Apply'))}
        <jobboard-apply
          part="apply"
          endpoint=${this.endpoint}
          campaign-id=${c.id}
          .offer=${c}
          heading-level=${this.level + 2}
          lang=${this.lang || nothing}
        ></jobboard-apply>
      </section>
    </article>`;
  }

  private renderBody(): TemplateResult {
    if (this.openId !== null) return this.renderDetail();
    const total = this.data?.total;
    return html`${renderSearch(this.query, this.data?.facets, this.handleSearch)}
      <p id="count" class="count" part="count" role="status" tabindex="-1">
        ${this.listStatus === 'ready' && total !== undefined
          ? total === 1
            ? msg('1 offer')
            : msg(str`${formatNumber(this.language.tag, total)} offers`)
          : nothing}
      </p>
      ${this.renderList()}`;
  }

  protected override render(): TemplateResult {
    // The language of the texts, for screen readers, when it is not the page's.
    return html`<div lang=${textLocale()}>${this.renderBody()}</div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'jobboard-campaigns': JobboardCampaigns;
  }
}
