import { LitElement, html, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues, TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import type { CampaignSummary, FieldName } from '../internal/api.ts';
import { renderCaptcha } from '../internal/captcha.ts';
import { formatBytes, formatCount } from '../internal/format.ts';
import { heading } from '../internal/heading.ts';
import { LocaleController } from '../internal/locale-controller.ts';
import { colon, problemMessage, textLocale } from '../internal/localize.ts';
import { ApplicationController } from './application-controller.ts';
import { controls, groups } from './fields.ts';
import type { FormControl } from './fields.ts';
import { label, statement } from './labels.ts';
import { styles } from './apply.styles.ts';
import { webUrlOrWarn } from '../internal/web-url.ts';

/** Input attributes of each kind of one-line text control. */
const inputs: Partial<Record<FormControl['kind'], { type: string; pattern?: string; inputmode?: string; wrapper?: string }>> = {
  email: { type: 'email' },
  text: { type: 'text' },
  'tel-code': { type: 'text', pattern: '\\+[0-9]{1,4}', inputmode: 'tel', wrapper: 'code' },
  tel: { type: 'tel', pattern: '[0-9 .\\-\\(\\)]{4,20}', wrapper: 'number' },
  url: { type: 'url' },
};

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
export class JobboardApply extends LitElement {
  static override styles = styles;
  /** Lit's reactive properties, declared without decorators, whose helpers cost the script-tag bundle 0.45 KB gzipped. */
  static override properties: PropertyDeclarations = {
    endpoint: {},
    campaignId: { attribute: 'campaign-id', type: Number },
    offer: { attribute: false },
    lang: {},
    consentUrl: { attribute: 'consent-url' },
    noDraft: { attribute: 'no-draft', type: Boolean },
    headingLevel: { attribute: 'heading-level', type: Number },
    fieldFirstName: { attribute: 'field-first-name' },
    fieldLastName: { attribute: 'field-last-name' },
    fieldPhone: { attribute: 'field-phone' },
    fieldResume: { attribute: 'field-resume' },
    fieldCoverLetter: { attribute: 'field-cover-letter' },
    fieldBioUrl: { attribute: 'field-bio-url' },
    fieldConsent: { attribute: 'field-consent' },
    fieldNewsletter: { attribute: 'field-newsletter' },
    fieldJobAlert: { attribute: 'field-job-alert' },
  };

  private readonly localeController = new LocaleController(this);
  private readonly form = new ApplicationController(this, {
    override: (rule) => this.override(rule),
    language: () => this.localeController,
  });

  /** Base URL of the proxy; empty for the page's own origin. */
  endpoint = '';
  /** The offer's id in the catalogue. */
  campaignId = 0;
  /**
   * The offer, when the page has it already (`<jobboard-campaigns>` gives its open
   * offer): with the same id, it is not fetched again to check that it is open.
   */
  offer: CampaignSummary | undefined;
  /** Language: `fr`, `en` or `es`. Defaults to the page's `lang`, then the browser's. */
  override lang = '';
  /** Link to the board's privacy policy beside the consent box; falls back to the proxy's `consent_url`. */
  consentUrl = '';
  /** Do not keep typed text in sessionStorage. */
  noDraft = false;
  /** Level (1 to 6) of the form's headings, to fit the page's outline: 3 under an h2, for example. */
  headingLevel = 2;
  /** `required`, `optional` or `hidden` for the first name. */
  fieldFirstName = '';
  /** `required`, `optional` or `hidden` for the last name. */
  fieldLastName = '';
  /** `required`, `optional` or `hidden` for the phone (country code and number). */
  fieldPhone = '';
  /** `required`, `optional` or `hidden` for the resume. */
  fieldResume = '';
  /** `required`, `optional` or `hidden` for the cover letter. */
  fieldCoverLetter = '';
  /** `required`, `optional` or `hidden` for the portfolio URL. */
  fieldBioUrl = '';
  /** `required`, `optional` or `hidden` for the consent box. */
  fieldConsent = '';
  /** `required`, `optional` or `hidden` for the partner newsletter opt-in. */
  fieldNewsletter = '';
  /** `required`, `optional` or `hidden` for the job-alert opt-in. */
  fieldJobAlert = '';

  protected override getUpdateComplete(): Promise<boolean> {
    return this.localeController.settled(() => super.getUpdateComplete());
  }

  /** Renders wait for the texts of the element's language: no English first that French then replaces, moving the page. */
  protected override async scheduleUpdate(): Promise<void> {
    await this.localeController.ready;
    super.scheduleUpdate();
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

  /** The `field-*` property of a rule, named after its attribute (`field-bio-url` is `fieldBioUrl`). */
  private override(rule: FieldName): string {
    const attribute = controls.find((c) => c.rule === rule)?.attribute;
    const name = attribute?.replace(/-(.)/g, (_all, letter: string) => letter.toUpperCase());
    return name ? String((this as unknown as Record<string, unknown>)[name] ?? '') : '';
  }

  /** Re-opens an empty form after a success, for another application. */
  reset(): void {
    this.form.reset();
  }

  private handleSubmit(e: SubmitEvent): void {
    e.preventDefault();
    void this.form.submit();
  }

  private handleSummaryLink(e: Event, id: string): void {
    e.preventDefault();
    this.form.control(id)?.focus();
  }

  private describedBy(id: string, help: boolean): string | typeof nothing {
    const ids = [help ? `${id}-help` : '', this.form.errors[id] ? `${id}-error` : ''].filter(Boolean);
    return ids.length ? ids.join(' ') : nothing;
  }

  private renderError(id: string): TemplateResult | typeof nothing {
    const error = this.form.errors[id];
    return error ? html`<p id="${id}-error" class="field-error error" part="error">${error}</p>` : nothing;
  }

  private renderMark(required: boolean): TemplateResult {
    return required ? html`<span class="req">${msg('(required)')}</span>` : html`<span class="opt">${msg('(optional)')}</span>`;
  }

  private renderLabel(id: string, required: boolean): TemplateResult {
    return html`<label for=${id} part="label"
      >${label(id)}
      ${this.renderMark(required)}</label
    >`;
  }

  /** One-line text controls: email, names, phone, URL. */
  private renderInput(control: FormControl, required: boolean): TemplateResult {
    const { id } = control;
    const kind = inputs[control.kind]!;
    return html`<input
      id=${id}
      name=${id}
      type=${kind.type}
      part="input"
      inputmode=${kind.inputmode ?? nothing}
      autocomplete=${control.autocomplete ?? nothing}
      pattern=${kind.pattern ?? nothing}
      maxlength=${control.maxlength ?? nothing}
      .value=${this.form.values[id] ?? ''}
      ?required=${required}
      aria-invalid=${this.form.errors[id] ? 'true' : 'false'}
      aria-describedby=${this.describedBy(id, false)}
    />`;
  }

  /** Controls that share one rule (the phone's code and number), under one legend. */
  private renderGroup(group: FormControl[], required: boolean): TemplateResult {
    return html`<fieldset class="field ${group[0]!.rule}" part="field">
      <legend part="label">
        ${label(group[0]!.rule)}
        ${this.renderMark(required)}
      </legend>
      <div class="${group[0]!.rule}-row">
        ${group.map(
          (control) => html`<div class=${inputs[control.kind]?.wrapper ?? nothing}>
            <label for=${control.id} part="label">${label(control.id)}</label>
            ${this.renderInput(control, required)}
          </div>`,
        )}
      </div>
      ${group.map((control) => this.renderError(control.id))}
    </fieldset>`;
  }

  private renderResume(required: boolean): TemplateResult {
    const { config, resume } = this.form;
    const types = config!.resume.types;
    const limit = formatBytes(this.localeController.tag, config!.resume.max_bytes);
    return html`<div class="field" part="field">
      ${this.renderLabel('resume', required)}
      <div class="file">
        <input
          id="resume"
          name="resume"
          type="file"
          part="input"
          class="file-input"
          accept=${types.map((t) => `.${t}`).join(',')}
          ?required=${required}
          aria-invalid=${this.form.errors.resume ? 'true' : 'false'}
          aria-describedby=${this.describedBy('resume', true)}
        />
        <span class="file-button" part="button" aria-hidden="true">${msg('Choose a file')}</span>
        <span class="file-name" aria-hidden="true">${resume?.name ?? msg('No file chosen')}</span>
      </div>
      <p id="resume-help" class="help muted" part="help">
        ${msg(str`${types.map((t) => t.toUpperCase()).join(', ')}, up to ${limit}.`)}
      </p>
      ${this.renderError('resume')}
    </div>`;
  }

  private renderTextarea(control: FormControl, required: boolean): TemplateResult {
    const { id, maxlength } = control;
    return html`<div class="field" part="field">
      ${this.renderLabel(id, required)}
      <textarea
        id=${id}
        name=${id}
        part="input"
        rows="6"
        maxlength=${maxlength ?? nothing}
        .value=${this.form.values[id] ?? ''}
        ?required=${required}
        aria-invalid=${this.form.errors[id] ? 'true' : 'false'}
        aria-describedby=${this.describedBy(id, maxlength !== undefined)}
      ></textarea>
      ${maxlength === undefined
        ? nothing
        : html`<p id="${id}-help" class="help muted" part="help">
            ${msg(str`Up to ${formatCount(this.localeController.tag, maxlength)} characters.`)}
          </p>`}
      ${this.renderError(id)}
    </div>`;
  }

  /** The privacy policy's link: the consent-url attribute, else the proxy's consent_url; one that is not http(s) is not linked. */
  private consentHref(): string | undefined {
    const fromProxy = this.form.config?.consent_url;
    return (
      (this.consentUrl && webUrlOrWarn(this.consentUrl, 'consent-url')) ||
      (fromProxy ? webUrlOrWarn(fromProxy, 'CONSENT_URL (the proxy\'s consent_url)') : undefined)
    );
  }

  private renderCheckbox(id: string, required: boolean): TemplateResult {
    // The consent says it is required; the opt-ins are optional by nature.
    const suffix = id === 'consent' && required ? html` <span class="req">${msg('(required)')}</span>` : nothing;
    const href = id === 'consent' ? this.consentHref() : undefined;
    return html`<div class="field check" part="field">
        <input
          id=${id}
          name=${id}
          type="checkbox"
          part="input"
          value="true"
          ?required=${required}
          aria-invalid=${this.form.errors[id] ? 'true' : 'false'}
          aria-describedby=${this.describedBy(id, false)}
        />
        <label for=${id} part="label">${statement(id)}${suffix}</label>
        ${this.renderError(id)}
      </div>
      ${href
        ? html`<p class="help consent-link">
            <a href=${href} target="_blank" rel="noopener noreferrer">${msg('Read the privacy policy (opens in a new tab)')}</a>
          </p>`
        : nothing}`;
  }

  /** One field of the form: its controls as the rule (required, optional, hidden) says. */
  private renderField(group: FormControl[]): TemplateResult | typeof nothing {
    const control = group[0]!;
    const rule = this.form.rule(control.rule);
    if (rule === 'hidden') return nothing;
    const required = rule === 'required';
    if (group.length > 1) return this.renderGroup(group, required);
    if (control.kind === 'file') return this.renderResume(required);
    if (control.kind === 'textarea') return this.renderTextarea(control, required);
    if (control.kind === 'checkbox') return this.renderCheckbox(control.id, required);
    return html`<div class="field" part="field">
      ${this.renderLabel(control.id, required)} ${this.renderInput(control, required)} ${this.renderError(control.id)}
    </div>`;
  }

  private renderSummary(): TemplateResult | typeof nothing {
    const { banner, errors } = this.form;
    const fields = this.form.summary.filter((id) => errors[id]);
    if (fields.length === 0 && !banner) return nothing;
    return html`<div id="error-summary" class="summary" part="error-summary" tabindex="-1" aria-labelledby="summary-title">
      <p id="summary-title" class="summary-title">
        ${banner ? problemMessage(banner.code) : msg('The form has problems. Correct them and send it again.')}
      </p>
      ${fields.length
        ? html`<ul>
            ${fields.map(
              (id) => html`<li>
                <a href="#${id}" @click=${(e: Event) => this.handleSummaryLink(e, id)}>${label(id)}${colon()} ${errors[id]}</a>
              </li>`,
            )}
          </ul>`
        : nothing}
      ${banner?.retry
        ? html`<button type="button" part="button" class="primary" @click=${this.form.retry}>${msg('Send again')}</button>`
        : nothing}
    </div>`;
  }

  private renderForm(): TemplateResult {
    const uploading = this.form.phase === 'uploading';
    return html`<form part="form" novalidate @submit=${this.handleSubmit} @input=${this.form.input} @change=${this.form.input} @focusout=${this.form.leave}>
      ${this.renderSummary()}
      <p class="muted">${msg('Fields marked (required) must be filled in.')}</p>
      <fieldset class="plain" ?disabled=${uploading}>
        <legend class="visually-hidden">${msg('Your application')}</legend>
        ${groups().map((group) => this.renderField(group))}
        <!-- The honeypot: robots reading the HTML fill it; browsers and password managers must not
          (a candidate would be silently dropped), so it is not rendered and marked for each to skip. -->
        <div hidden inert>
          <label for="website">${msg('Leave this field empty')}</label>
          <input id="website" name="website" type="text" tabindex="-1" autocomplete="off" data-1p-ignore data-lpignore="true" data-bwignore data-form-type="other" />
        </div>
        ${this.form.config?.captcha ? html`<div class="captcha"><slot name="captcha"></slot></div>` : nothing}
      </fieldset>
      ${uploading
        ? html`<div class="uploading">
            <label for="progress">${msg(str`Sending your application: ${this.form.progress}%`)}</label>
            <progress id="progress" part="progress" max="100" .value=${this.form.progress}></progress>
            <button type="button" part="button" @click=${this.form.cancel}>${msg('Cancel')}</button>
          </div>`
        : html`<button type="submit" part="submit-button" class="primary">${msg('Send my application')}</button>`}
    </form>`;
  }

  private renderOutcome(): TemplateResult {
    if (this.form.phase === 'already-applied') {
      return html`<div id="outcome" class="outcome" part="outcome" tabindex="-1">
        ${heading(this.headingLevel, msg('Already applied'))}
        <p>${problemMessage('already_applied')}</p>
      </div>`;
    }
    return html`<div id="outcome" class="outcome success" part="outcome" tabindex="-1">
      ${heading(this.headingLevel, msg('Application received'))}
      <p>${msg('Thank you. The recruiter will contact you by email if your profile matches.')}</p>
      ${this.form.outcome === 'queued' ? html`<p>${msg('It will be transmitted to the recruiter shortly.')}</p>` : nothing}
    </div>`;
  }

  protected override render(): TemplateResult {
    const { phase, config } = this.form;
    let body: TemplateResult;
    if (!this.campaignId) {
      body = html`<p class="error">${msg('No job offer was chosen for this form.')}</p>`;
    } else if (phase === 'loading') {
      body = html`<p><span class="spinner" aria-hidden="true"></span> ${msg('Loading the form…')}</p>`;
    } else if (phase === 'gone' || phase === 'refused') {
      body = html`<p id="outcome" class="outcome" part="outcome">${problemMessage(phase === 'gone' ? 'campaign_not_found' : 'origin_not_allowed')}</p>`;
    } else if (phase === 'config-error' || !config) {
      body = html`<div class="summary">
        <p>${msg('The form could not be loaded. Check your connection and try again.')}</p>
        <button type="button" part="button" @click=${this.form.reload}>${msg('Try again')}</button>
      </div>`;
    } else if (phase === 'success' || phase === 'already-applied') {
      body = this.renderOutcome();
    } else {
      body = this.renderForm();
    }
    // The language of the texts, for screen readers, when it is not the page's.
    return html`<div lang=${textLocale()}>
      ${body}
      <div class="visually-hidden" role="status" part="status">${this.form.announcement}</div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'jobboard-apply': JobboardApply;
  }
}
