import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { getCampaign, listCampaigns } from '../internal/api.ts';
import type { CampaignDetail, CampaignPage, CampaignQuery, CampaignSummary } from '../internal/api.ts';
import { JobboardCampaignSelectEvent } from '../internal/events.ts';
import { formatDate, formatNumber, formatSalary } from '../internal/format.ts';
import { heading, headingLevel } from '../internal/heading.ts';
import { sanitize } from '../internal/html.ts';
import { jobTypeLabel, workingTimeLabel } from '../internal/labels.ts';
import { LocaleController } from '../internal/locale-controller.ts';
import { colon, getLocale } from '../internal/localize.ts';
import { styles } from './campaigns.styles.ts';

/** Attributes of `<jobboard-campaigns>` handed down to its apply form. */
const forwarded = /^(field-.+|no-draft|consent-url)$/;

/**
 * The board's broadcast offers with text search, filters and paging; choosing
 * one shows its description, profile and apply form (`<jobboard-apply>`).
 * `field-*`, `no-draft` and `consent-url` attributes are passed to that form.
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
 */
@localized()
export class JobboardCampaigns extends LitElement {
  static override styles = styles;

  private listRequest: AbortController | null = null;
  private readonly language = new LocaleController(this);
  private lastSelectedId: number | null = null;

  @state() private query: CampaignQuery = {};
  @state() private data: CampaignPage | null = null;
  @state() private listStatus: 'loading' | 'ready' | 'error' = 'loading';
  @state() private selected: CampaignDetail | null = null;
  @state() private detailStatus: 'idle' | 'loading' | 'error' = 'idle';

  /** Base URL of the proxy; empty for the page's own origin. */
  @property() endpoint = '';
  /** Language: `fr`, `en` or `es`. Defaults to the page's `lang`, then the browser's. */
  @property() override lang = '';
  /** Offers per page (1 to 50). */
  @property({ attribute: 'per-page', type: Number }) perPage = 10;
  /**
   * Level (1 to 4) of the offers' titles, in the list and opened, to fit the page's
   * outline; the opened offer's sections are one level below, its apply form's headings two.
   */
  @property({ attribute: 'heading-level', type: Number }) headingLevel = 2;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.listRequest?.abort();
  }

  protected override async getUpdateComplete(): Promise<boolean> {
    await this.language.ready;
    return super.getUpdateComplete();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') || changed.has('perPage')) void this.load();
  }

  protected override updated(): void {
    const apply = this.renderRoot.querySelector('jobboard-apply');
    if (!apply) return;
    for (const attr of this.attributes) {
      if (forwarded.test(attr.name) && apply.getAttribute(attr.name) !== attr.value) apply.setAttribute(attr.name, attr.value);
    }
  }

  /** The opened offer's heading level; room is kept for the apply form's headings two levels below. */
  private get level(): number {
    return Math.min(headingLevel(this.headingLevel), 4);
  }

  private async load(): Promise<void> {
    this.listRequest?.abort();
    const request = new AbortController();
    this.listRequest = request;
    this.listStatus = 'loading';
    try {
      const perPage = Math.min(50, Math.max(1, Math.trunc(this.perPage) || 10));
      this.data = await listCampaigns(this.endpoint, { ...this.query, per_page: perPage }, request.signal);
      this.listStatus = 'ready';
    } catch {
      // A newer search replaced this one: its answer no longer matters.
      if (request.signal.aborted) return;
      this.listStatus = 'error';
    }
  }

  private handleSearch(e: SubmitEvent): void {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const value = (name: string): string | undefined => {
      const v = form.get(name);
      return typeof v === 'string' && v.trim() ? v.trim() : undefined;
    };
    this.query = { q: value('q'), job_type: value('job_type'), working_time: value('working_time'), city: value('city'), page: 1 };
    void this.load();
  }

  private handleFilterChange(e: Event): void {
    // Filters apply at once; the text box waits for Enter or the search button.
    (e.currentTarget as HTMLFormElement).requestSubmit();
  }

  private handlePage(page: number): void {
    this.query = { ...this.query, page };
    void this.load().then(async () => {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#count')?.focus();
    });
  }

  private async handleSelect(offer: CampaignSummary): Promise<void> {
    this.lastSelectedId = offer.id;
    this.dispatchEvent(new JobboardCampaignSelectEvent(offer.id));
    this.detailStatus = 'loading';
    try {
      this.selected = await getCampaign(this.endpoint, offer.id);
      this.detailStatus = 'idle';
    } catch {
      this.detailStatus = 'error';
    }
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#detail-title, #detail-error')?.focus();
  }

  private async handleBack(): Promise<void> {
    this.selected = null;
    this.detailStatus = 'idle';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[data-offer="${this.lastSelectedId}"]`)?.focus();
  }

  private handleRetry(): void {
    void this.load();
  }

  /** A filter; `labelOf` shows each value in the widget's language, the value sent stays the API's. */
  private renderFacet(name: keyof CampaignQuery, label: string, values: string[], labelOf: (v: string) => string = String): TemplateResult {
    const current = this.query[name];
    return html`<div class="filter">
      <label for="filter-${name}">${label}</label>
      <select id="filter-${name}" name=${name} part="input">
        <option value="">${msg('All')}</option>
        ${values.map((v) => html`<option value=${v} ?selected=${v === current}>${labelOf(v)}</option>`)}
      </select>
    </div>`;
  }

  private renderSearch(): TemplateResult {
    const facets = this.data?.facets;
    return html`<form role="search" part="search" class="search" aria-label=${msg('Search offers')} @submit=${this.handleSearch} @change=${this.handleFilterChange}>
      <div class="filter grow">
        <label for="q">${msg('Keywords')}</label>
        <input id="q" name="q" type="search" part="input" maxlength="200" .value=${this.query.q ?? ''} @change=${(e: Event) => e.stopPropagation()} />
      </div>
      ${this.renderFacet('job_type', msg('Contract type'), facets?.job_types ?? [], jobTypeLabel)}
      ${this.renderFacet('working_time', msg('Working time'), facets?.working_times ?? [], workingTimeLabel)}
      ${this.renderFacet('city', msg('City'), facets?.cities ?? [])}
      <button type="submit" part="button" class="primary">${msg('Search')}</button>
    </form>`;
  }

  private renderMeta(c: CampaignSummary): TemplateResult {
    const salary = formatSalary(this.language.tag, c.salary_min, c.salary_max);
    const start = formatDate(this.language.tag, c.job_start_date);
    const place = [c.city, c.country].filter(Boolean).join(', ');
    return html`<dl class="meta">
      ${place ? html`<div><dt>${msg('Place')}${colon()}</dt><dd>${place}</dd></div>` : nothing}
      ${c.job_type ? html`<div><dt>${msg('Contract')}${colon()}</dt><dd>${jobTypeLabel(c.job_type)}</dd></div>` : nothing}
      ${c.working_time ? html`<div><dt>${msg('Working time')}${colon()}</dt><dd>${workingTimeLabel(c.working_time)}</dd></div>` : nothing}
      ${salary ? html`<div><dt>${msg('Salary')}${colon()}</dt><dd>${salary}</dd></div>` : nothing}
      ${start ? html`<div><dt>${msg('Start')}${colon()}</dt><dd>${start}</dd></div>` : nothing}
    </dl>`;
  }

  private renderList(): TemplateResult {
    if (this.listStatus === 'loading' && !this.data) {
      return html`<p class="state"><span class="spinner" aria-hidden="true"></span> ${msg('Loading offers…')}</p>`;
    }
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
              html`<button type="button" class="link" part="offer-title" data-offer=${c.id} @click=${() => this.handleSelect(c)}>${c.name}</button>`,
            )}
            <p class="company">${c.company_name}</p>
            ${this.renderMeta(c)}
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
    if (this.detailStatus === 'error' || !this.selected) {
      return html`${back}<p id="detail-error" class="state error" tabindex="-1">${msg('This offer could not be loaded. It may have been closed.')}</p>`;
    }
    const c = this.selected;
    const a = c.address;
    const address = a
      ? [a.name, [a.street_number, a.street].filter(Boolean).join(' '), [a.postal_code, a.city].filter(Boolean).join(' '), a.country]
          .filter(Boolean)
          .join(', ')
      : '';
    return html`<article class="detail" part="detail">
      ${back}
      ${heading(this.level, c.name, 'detail-title')}
      <p class="company">${c.company_name}</p>
      ${this.renderMeta(c)}
      ${address ? html`<p>${msg('Address')}${colon()} ${address}</p>` : nothing}
      ${c.date_end ? html`<p>${msg(str`Applications close on ${formatDate(this.language.tag, c.date_end)}.`)}</p>` : nothing}
      ${c.description ? html`<section part="description">${heading(this.level + 1, msg('The job'))}<div class="rich">${sanitize(c.description)}</div></section>` : nothing}
      ${c.profile ? html`<section part="description">${heading(this.level + 1, msg('The profile'))}<div class="rich">${sanitize(c.profile)}</div></section>` : nothing}
      <section class="apply">
        ${heading(this.level + 1, msg('Apply'))}
        <jobboard-apply
          part="apply"
          endpoint=${this.endpoint}
          campaign-id=${c.id}
          heading-level=${this.level + 2}
          lang=${this.lang || nothing}
        ></jobboard-apply>
      </section>
    </article>`;
  }

  private renderBody(): TemplateResult {
    if (this.selected || this.detailStatus !== 'idle') return this.renderDetail();
    const total = this.data?.total;
    return html`${this.renderSearch()}
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
    return html`<div lang=${getLocale()}>${this.renderBody()}</div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'jobboard-campaigns': JobboardCampaigns;
  }
}
