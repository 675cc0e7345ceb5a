import { html, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues, TemplateResult } from 'lit';
import { msg } from '@lit/localize';
import type { CampaignSummary } from '../internal/api.ts';
import { renderCaptcha } from '../internal/captcha.ts';
import { heading } from '../internal/heading.ts';
import { JobboardElement } from '../internal/jobboard-element.ts';
import { problemMessage } from '../internal/messages.ts';
import { ApplicationController } from './application-controller.ts';
import { countFormSteps } from './form-funnel.ts';
import { fieldAttributes } from './fields.ts';
import { renderForm } from './apply-form.ts';
import { styles } from './apply.styles.ts';
import type * as Spontaneous from './spontaneous.ts';

/** Spontaneous applications' module, loaded once a config says the board takes some. */
let spontaneous: typeof Spontaneous | undefined;

/** Chromium's scheduler.yield(): a promise that settles once the browser ran what is due; elsewhere, none to wait for. */
const yieldToBrowser = (): Promise<void> | undefined =>
  (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler?.yield?.();

/** The end of an application: received (delivered or queued), or applied already. */
function renderOutcome(form: ApplicationController, level: number): TemplateResult {
  if (form.phase === 'already-applied') {
    return html`<div id="outcome" class="outcome" part="outcome" tabindex="-1">
      ${heading(level, msg('Already applied'))}
      <p>${problemMessage('already_applied')}</p>
    </div>`;
  }
  return html`<div id="outcome" class="outcome success" part="outcome" tabindex="-1">
    ${heading(level, msg('Application received'))}
    <p>${msg('Thank you. The recruiter will contact you by email if your profile matches.')}</p>
    ${form.outcome === 'queued' ? html`<p>${msg('It will be transmitted to the recruiter shortly.')}</p>` : nothing}
    ${form.receipt ? html`<p><a part="receipt" href=${form.receipt}>${msg('Follow your application')}</a></p>` : nothing}
  </div>`;
}

/**
 * The apply form for one offer, usable alone: fields and rules from the
 * proxy's `/api/config`, per-field overrides by attribute, resume upload with
 * progress and cancel, safe retry, and a clear outcome. The offer is checked
 * first: for a closed or unknown one, the form is not shown.
 *
 * @tag jobboard-apply
 * @summary Apply form for one job offer.
 *
 * @event jobboard-apply-submit - The candidate sent a valid form. `detail: { campaignId }`.
 * @event jobboard-upload-progress - Upload progress. `detail: { campaignId, loaded, total }` (bytes).
 * @event jobboard-apply-success - Application received. `detail: { campaignId, status: 'delivered' | 'queued' }`.
 * @event jobboard-apply-error - Submission failed. `detail: { campaignId, code }` with the proxy's problem code, `network_error` or `upload_cancelled`.
 *
 * @slot captcha - Filled by the widget itself with the captcha when the proxy asks for one.
 *
 * @csspart form - The `<form>` element.
 * @csspart field - Each field wrapper (label, input, help and error).
 * @csspart label - Each field label.
 * @csspart input - Each input, select and textarea.
 * @csspart help - Help text under a field (the resume size limit...).
 * @csspart error - An error message under a field.
 * @csspart error-summary - The list of problems shown (and focused) after a failed submit.
 * @csspart submit-button - The send button.
 * @csspart button - Other buttons (cancel, retry, send again).
 * @csspart progress - The upload progress bar.
 * @csspart outcome - The final message (received, queued, already applied), or why there is no form (the offer is no longer available, the form is not set up on this site).
 * @csspart receipt - The link to the candidate's receipt page on the proxy, in the received message.
 * @csspart status - The visually hidden live region.
 *
 * @cssproperty --jobboard-color-primary - Buttons, links and progress (default #1d4ed8; #93c5fd dark).
 * @cssproperty --jobboard-color-on-primary - Text on primary buttons.
 * @cssproperty --jobboard-color-text - Body text.
 * @cssproperty --jobboard-color-muted - Help text.
 * @cssproperty --jobboard-color-background - Background.
 * @cssproperty --jobboard-color-surface - Panels (error summary, outcome).
 * @cssproperty --jobboard-color-border - Input borders.
 * @cssproperty --jobboard-color-error - Error text and borders.
 * @cssproperty --jobboard-color-success - Success text and borders.
 * @cssproperty --jobboard-color-focus - Focus ring.
 * @cssproperty --jobboard-font-family - Font (default system-ui).
 * @cssproperty --jobboard-font-size - Base font size (default 1rem).
 * @cssproperty --jobboard-radius - Corner radius (default 6px).
 * @cssproperty --jobboard-spacing - Base spacing (default 1rem).
 */
export class JobboardApply extends JobboardElement {
  static override styles = styles;
  /** Lit's reactive properties, declared without decorators, whose helpers would weigh on the script-tag bundle. */
  static override properties: PropertyDeclarations = {
    campaignId: { attribute: 'campaign-id', type: Number },
    companyId: { attribute: 'company-id', type: Number },
    offer: { attribute: false },
    consentUrl: { attribute: 'consent-url' },
    noDraft: { attribute: 'no-draft', type: Boolean },
    noQuickApply: { attribute: 'no-quick-apply', type: Boolean },
    headingLevel: { attribute: 'heading-level', type: Number },
    // The `field-*` properties, one per rule the form table lets a board set.
    ...Object.fromEntries(fieldAttributes.map((f) => [f.property, { attribute: f.attribute }])),
  };

  private readonly form = new ApplicationController(this, this.language);

  /** The offer's id in the catalogue. */
  campaignId = 0;
  /** Without `campaign-id`: a spontaneous application to this company (one the board takes them for), no offer. */
  companyId = 0;
  /**
   * The offer, when the page has it already (`<jobboard-campaigns>` gives its open
   * offer): with the same id, it is not fetched again to check that it is open.
   */
  offer: CampaignSummary | undefined;
  /** Link to the board's privacy policy beside the consent box; falls back to the proxy's `consent_url`. */
  consentUrl = '';
  /** Do not keep the draft (typed text in sessionStorage, the chosen resume in IndexedDB). */
  noDraft = false;
  /** No "Remember me on this device": the candidate's details are neither kept for the next applications nor read. */
  noQuickApply = false;
  /** Level (1 to 6) of the form's headings, to fit the page's outline: 3 under an h2, for example. */
  headingLevel = 2;
  /**
   * `required`, `optional` or `hidden` for the first name.
   * @attr field-first-name
   * @default ''
   */
  declare fieldFirstName: string;
  /**
   * `required`, `optional` or `hidden` for the last name.
   * @attr field-last-name
   * @default ''
   */
  declare fieldLastName: string;
  /**
   * `required`, `optional` or `hidden` for the phone (country code and number).
   * @attr field-phone
   * @default ''
   */
  declare fieldPhone: string;
  /**
   * `required`, `optional` or `hidden` for the resume.
   * @attr field-resume
   * @default ''
   */
  declare fieldResume: string;
  /**
   * `required`, `optional` or `hidden` for the cover letter.
   * @attr field-cover-letter
   * @default ''
   */
  declare fieldCoverLetter: string;
  /**
   * `required`, `optional` or `hidden` for the portfolio URL.
   * @attr field-bio-url
   * @default ''
   */
  declare fieldBioUrl: string;
  /**
   * `required`, `optional` or `hidden` for the consent box.
   * @attr field-consent
   * @default ''
   */
  declare fieldConsent: string;
  /**
   * `required`, `optional` or `hidden` for the partner newsletter opt-in.
   * @attr field-newsletter
   * @default ''
   */
  declare fieldNewsletter: string;
  /**
   * `required`, `optional` or `hidden` for the job-alert opt-in.
   * @attr field-job-alert
   * @default ''
   */
  declare fieldJobAlert: string;

  constructor() {
    super();
    for (const { property } of fieldAttributes) (this as unknown as Record<string, string>)[property] = '';
  }

  /** The shadow root, where the funnel counts the form's steps. */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    return countFormSteps(this, super.createRenderRoot());
  }

  /**
   * Inside another element's shadow root (the catalogue's open offer), the
   * form's first render waits for the browser to run what is due (Chromium's
   * scheduler.yield): the offer and its form then render in two tasks, not in
   * one that holds the page longer.
   */
  protected override async scheduleUpdate(): Promise<void> {
    if (!this.hasUpdated && this.getRootNode() instanceof ShadowRoot) await yieldToBrowser();
    await super.scheduleUpdate();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') || changed.has('campaignId')) void this.form.load();
  }

  protected override updated(): void {
    const container = this.querySelector<HTMLElement>('[slot=captcha]');
    const captcha = this.form.config?.captcha;
    if (this.form.phase === 'form' && captcha && !container) {
      const div = document.createElement('div');
      div.slot = 'captcha';
      this.append(div);
      renderCaptcha(div, captcha.provider, captcha.site_key, (token) => {
        this.form.captchaToken = token;
      }).catch(() => this.form.showBanner({ code: 'captcha_unavailable', retry: false }));
    }
  }

  /** Re-opens an empty form after a success, for another application. */
  reset(): void {
    this.form.reset();
  }

  protected override renderBody(): TemplateResult {
    const { phase, config } = this.form;
    let body: TemplateResult | typeof nothing;
    // `all` or a list of ids, non-empty when some company takes them (takesAnySpontaneous, not imported:
    // shared with the spontaneous module, it would be a chunk of its own).
    if (config?.spontaneous_applications.length && !spontaneous)
      void import('./spontaneous.ts').then((m) => {
        spontaneous = m;
        this.requestUpdate();
      });
    if (!this.campaignId && !this.companyId) {
      body = html`<p class="error">${msg('No job offer was chosen for this form.')}</p>`;
    } else if (phase === 'loading') {
      body = html`<p><span class="spinner" aria-hidden="true"></span> ${msg('Loading the form…')}</p>`;
    } else if (phase === 'gone' || phase === 'refused') {
      body = html`<p id="outcome" class="outcome" part="outcome">
        ${problemMessage(phase === 'gone' ? 'campaign_not_found' : 'origin_not_allowed')}
      </p>`;
    } else if (phase === 'error' || !config) {
      body = html`<div class="summary">
        <p>${msg('The form could not be loaded. Check your connection and try again.')}</p>
        <button type="button" part="button" @click=${this.form.reload}>${msg('Try again')}</button>
      </div>`;
    } else if (phase === 'success' || phase === 'already-applied') {
      body = renderOutcome(this.form, this.headingLevel);
    } else {
      // A spontaneous form waits for its module, whose heading says it is no offer's.
      body = renderForm(this.form, this.language.tag, this.consentUrl, !this.noQuickApply);
      body = spontaneous ? spontaneous.around(this, config, body) : this.campaignId ? body : nothing;
    }
    return html`${body}
      <div class="visually-hidden" role="status" part="status">${this.form.announcement}</div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'jobboard-apply': JobboardApply;
  }
}
