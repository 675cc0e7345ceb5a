import { html, isServer } from 'lit';
import type { PropertyDeclarations, PropertyValues, TemplateResult } from 'lit';
import { listCampaigns, getCampaign } from '../internal/api.ts';
import type { CampaignDetail, CampaignPage, CampaignQuery } from '../internal/api.ts';
import { JobboardCampaignSelectEvent } from '../internal/events.ts';
import { sendFunnel } from '../internal/funnel.ts';
import { prepareFormatters, useRendered } from '../internal/format.ts';
import { headingLevel } from '../internal/heading.ts';
import { JobboardElement } from '../internal/jobboard-element.ts';
import { Loader } from '../internal/loader.ts';
import { besideModulesLoad } from '../internal/pinned-modules.ts';
import { styles } from './campaigns.styles.ts';
import { HeadJobPosting } from './head-job-posting.ts';
import { listQuery } from './list-query.ts';
import { renderDetail } from './offer-detail.ts';
import { renderList } from './offer-list.ts';
import { OfferRoute } from './offer-route.ts';
import { prerenderedPosting, prerenderedState } from './prerendered-state.ts';
import type { SavedOffers } from './saved.ts';
import { changedFilter, renderSearch, submittedQuery } from './search-form.ts';
import type { PrerenderedCampaigns } from '../../../server/public-api/embed.ts';

/** Attributes of `<jobboard-campaigns>` handed down to its apply form. */
const forwarded = /^(field-.+|no-draft|no-quick-apply|consent-url)$/;

/**
 * The board's broadcast offers with text search, filters and paging; choosing
 * one shows its description, profile and apply form (`<jobboard-apply>`).
 * `field-*`, `no-draft`, `no-quick-apply` and `consent-url` attributes are passed to that form.
 * `company-id`, `job-type` and `city` fix a filter (a company's page on the
 * board): the candidate cannot change it, and its filter is not shown.
 *
 * The open offer and the list's search, filters and page live in the page's
 * query string (`?offer=21&q=nurse`), so an offer has a URL to share or
 * bookmark, a reload keeps it, and Back and Forward move between list and
 * offer. While an offer is open, its schema.org `JobPosting` is in the
 * document's head for search engines.
 *
 * Each offer, in the list and opened, has a "Save" toggle; the saved offers
 * are kept in the board origin's localStorage only (id, title, company,
 * city), and the list's "My saved offers (n)" button shows them, each checked
 * with the proxy (one closed since is said so, with a search for similar
 * offers).
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
export class JobboardCampaigns extends JobboardElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    perPage: { attribute: 'per-page', type: Number },
    headingLevel: { attribute: 'heading-level', type: Number },
    offerParam: { attribute: 'offer-param' },
    routing: {},
    noStructuredData: { attribute: 'no-structured-data', type: Boolean },
    companyId: { attribute: 'company-id', type: Number },
    jobType: { attribute: 'job-type' },
    city: {},
    prerendered: { attribute: false },
  };

  private readonly route = new OfferRoute(this, () => this.handleNavigate());
  private readonly list = new Loader<CampaignPage>(this);
  private readonly offer = new Loader<CampaignDetail>(this);
  private readonly structuredData = new HeadJobPosting(this);
  /** The id of the offer shown, from a click or the URL; null on the list. */
  private openId: number | null = null;
  /** Whether the candidate unfolded the filters (they fold on a narrow element only). */
  private filtersOpen = false;
  /** The pages of the list and the offers the funnel counted as shown: each once, however often it renders. */
  private readonly counted = new WeakSet<object>();
  /** The offers saved on this device (saved.ts, a module loaded after the first render): their toggles, count and view. */
  private saved: SavedOffers | undefined;

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
  /** Lists this company's offers only (a company's page on the board). */
  companyId: number | undefined;
  /** Lists offers of this contract type only; its filter is not shown. */
  jobType: string | undefined;
  /** Lists offers in this city only; its filter is not shown. */
  city: string | undefined;
  /**
   * The state the element was rendered with on the server: shown as it is,
   * without fetching it again. The proxy's GET /embed/campaigns sets it and
   * embeds it in the element as JSON, which the browser reads back.
   */
  prerendered: PrerenderedCampaigns | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) return;
    this.prerendered ??= prerenderedState(this);
    const { tag } = this.language;
    if (this.prerendered) {
      // Hydrated with the texts the server formatted; Intl is set up after, for what the candidate opens next.
      useRendered(this.prerendered.formatted);
      const prepare = () => prepareFormatters(tag);
      void this.updateComplete.then(prepare, prepare);
    } else {
      // In tasks of their own, while the offers are on their way.
      prepareFormatters(tag);
    }
    const posting = prerenderedPosting(this);
    // Into the head, where it is for an offer opened in the browser, and from where it leaves with the offer.
    if (posting && this.prerendered?.offer?.detail) this.structuredData.adopt(posting);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Lit's server rendering calls no controller: the language (for dates and money) is resolved here.
    if (isServer) this.language.hostUpdate();
    const state = this.prerendered;
    if (!this.hasUpdated && state) {
      // The first render must be the server's, for hydration: the URL is read after it.
      this.route.query = state.query;
      this.list.show(state.list);
      this.openId = state.offer?.id ?? null;
      if (state.offer) this.offer.show(state.offer.detail ?? null, state.offer.detail ? 'ready' : 'gone');
      return;
    }
    // The first update reads the URL (the element's attributes are known by then).
    if (!this.hasUpdated && this.route.routed) this.readUrl();
    if (
      changed.has('endpoint') ||
      changed.has('perPage') ||
      changed.has('companyId') ||
      changed.has('jobType') ||
      changed.has('city')
    )
      void this.load();
  }

  protected override firstUpdated(): void {
    // After the first render, which must be the server's for hydration; no toggles when the module cannot load.
    if (besideModulesLoad())
      void import('./saved.ts').then(
        (m) => (this.saved = new m.SavedOffers(this, this.handleSelect, this.handleSearch)),
        Boolean,
      );
    if (!this.prerendered) return;
    // A filter the candidate chose before the element took the server's list over applies now.
    const changed = changedFilter(this.renderRoot);
    if (changed) changed.form!.requestSubmit();
    // A board may have rendered the list for another URL than the page's (a cached fragment): the URL wins.
    else if (this.route.routed && this.readUrl()) void this.load();
  }

  protected override updated(): void {
    this.countShown();
    // The alert panel's module (widget-alert-<hash>.js), once a list is shown: its <jobboard-alert> waits for it.
    if (this.openId === null && besideModulesLoad()) import('../alert/alert.ts').catch(() => {});
    const apply = this.renderRoot.querySelector('jobboard-apply');
    if (!apply) return;
    for (const attr of this.attributes) {
      if (forwarded.test(attr.name) && apply.getAttribute(attr.name) !== attr.value)
        apply.setAttribute(attr.name, attr.value);
    }
  }

  /** The funnel: a page of the list (its offers) or an offer, counted the first time it is shown. */
  private countShown(): void {
    const listed = this.openId === null;
    const shown = listed ? this.list : this.offer;
    const value = shown.status === 'ready' ? shown.value : null;
    if (!value || this.counted.has(value)) return;
    this.counted.add(value);
    const ids = listed ? this.list.value!.items.map((o) => o.id) : [this.openId!];
    sendFunnel(this.endpoint, listed ? 'listed' : 'opened', ids);
  }

  /** Takes the list's query and the open offer from the page's URL; answers whether the list's query changed. */
  private readUrl(): boolean {
    const { offer, changed } = this.route.read();
    void this.showOffer(offer);
    return changed;
  }

  /** Loads the list for the query; also what the retry button does. */
  private load(): Promise<boolean> {
    return this.list.run((signal) => listCampaigns(this.endpoint, listQuery(this.route.query, this), signal));
  }

  /** Shows an offer (settles once it is fetched) or, with null, the list. */
  private async showOffer(id: number | null): Promise<void> {
    if (id === this.openId) return;
    this.openId = id;
    this.structuredData.show(null);
    if (id === null) {
      this.offer.show(null);
      return;
    }
    const shown = await this.offer.run(() => getCampaign(this.endpoint, id));
    if (shown && this.offer.status === 'ready') void this.structuredData.load(id);
  }

  /** Back or Forward: the URL says what to show. */
  private handleNavigate(): void {
    if (!this.route.routed) return;
    const wasOpen = this.openId;
    if (this.readUrl()) void this.load();
    // Back to the list: focus the offer the candidate had opened, as the element's own back button does.
    if (wasOpen !== null && this.openId === null) void this.focusOffer(wasOpen);
  }

  /** Lists the offers of the search form, or of a query (a closed saved offer's similar ones). */
  private readonly handleSearch = (search: SubmitEvent | CampaignQuery): void => {
    this.route.query = search instanceof Event ? submittedQuery(search) : search;
    this.route.write(this.openId, false);
    void this.load();
  };

  private readonly handleToggleFilters = (): void => {
    this.filtersOpen = !this.filtersOpen;
    this.requestUpdate();
  };

  private readonly handlePage = (page: number): void => {
    this.route.query = { ...this.route.query, page };
    this.route.write(this.openId, false);
    void this.load().then(async () => {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#count')?.focus();
    });
  };

  private readonly handleSelect = async (e: MouseEvent, offer: { id: number }): Promise<void> => {
    // A click with a modifier opens the link in a new tab or window, as on any link.
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    this.dispatchEvent(new JobboardCampaignSelectEvent(offer.id));
    const shown = this.showOffer(offer.id);
    this.route.write(offer.id, true);
    await shown;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#detail-title, #detail-error')?.focus();
  };

  /** The "Apply" buttons: focus on the apply form's heading, which brings the form on screen. */
  private readonly handleApply = (): void => {
    this.renderRoot.querySelector<HTMLElement>('#apply-title')?.focus();
  };

  /** Like a link to the list: a new history entry, so the browser's Back returns to the offer. */
  private handleBack(): void {
    const id = this.openId;
    void this.showOffer(null);
    this.route.write(null, true);
    if (id !== null) void this.focusOffer(id);
  }

  private async focusOffer(id: number): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[data-offer="${id}"]`)?.focus();
  }

  protected override renderBody(): TemplateResult {
    const { route } = this;
    const tag = this.language.tag;
    // Room is kept for the apply form's headings, two levels below the offer's title.
    const level = Math.min(headingLevel(this.headingLevel), 4);
    if (this.openId !== null) {
      return renderDetail({
        offer: this.offer,
        level,
        tag,
        endpoint: this.endpoint,
        lang: this.lang,
        onBack: this.handleBack,
        onApply: this.handleApply,
        saved: this.saved,
      });
    }
    if (this.saved?.open) return this.saved.view(level);
    return html`${renderSearch({
        query: route.query,
        facets: this.list.value?.facets,
        onSearch: this.handleSearch,
        fixed: { job_type: this.jobType, city: this.city },
        filtersOpen: this.filtersOpen,
        onToggleFilters: this.handleToggleFilters,
      })}
      ${renderList({
        list: this.list,
        level,
        tag,
        route: route.routed ? route : null,
        onSelect: this.handleSelect,
        onPage: this.handlePage,
        onRetry: this.load,
        saved: this.saved,
      })} <jobboard-alert .endpoint=${this.endpoint} .query=${listQuery(route.query, this)}></jobboard-alert>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'jobboard-campaigns': JobboardCampaigns;
  }
}
