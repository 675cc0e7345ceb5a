import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import {
  AbortedError,
  NetworkError,
  ProblemError,
  loadConfig,
  submitApplication,
} from '../internal/api.ts';
import type { FieldName, FieldRule, Upload, WidgetConfig } from '../internal/api.ts';
import { renderCaptcha } from '../internal/captcha.ts';
import { clearDraft, loadDraft, saveDraft } from '../internal/draft.ts';
import type { Draft } from '../internal/draft.ts';
import {
  JobboardApplyErrorEvent,
  JobboardApplySubmitEvent,
  JobboardApplySuccessEvent,
  JobboardUploadProgressEvent,
} from '../internal/events.ts';
import { formatBytes } from '../internal/format.ts';
import { heading } from '../internal/heading.ts';
import { colon, fieldMessage, getLocale, problemMessage, resolveLocale, useLocale } from '../internal/localize.ts';
import type { Locale } from '../internal/localize.ts';
import { uuid } from '../internal/uuid.ts';
import { styles } from './apply.styles.ts';

type Phase = 'loading' | 'config-error' | 'form' | 'uploading' | 'success' | 'already-applied';

/** Text inputs whose values are kept in the session draft. */
const draftFields = ['email', 'first_name', 'last_name', 'phone_code', 'phone_number', 'cover_letter', 'bio_url'];

/** Where the proxy's per-field error names land in this form. */
const fieldOfProblem: Record<string, string> = {
  phone_code: 'phone_code',
  phone_number: 'phone_number',
  phone: 'phone_number',
  is_legals_accepted_by_manager: 'consent',
};

const defaultPhoneCode: Record<Locale, string> = { fr: '+33', es: '+34', en: '+44' };

/**
 * The apply form for one offer, usable alone: fields and rules from the
 * proxy's `/api/config`, per-field overrides by attribute, resume upload with
 * progress and cancel, safe retry, and a clear outcome.
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
 * @csspart outcome - The final message (received, queued, already applied).
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
@localized()
export class JobboardApply extends LitElement {
  static override styles = styles;

  private config: WidgetConfig | null = null;
  private values: Draft = {};
  private idempotencyKey: string | null = null;
  /** Set by any edit once a key exists: edited content needs a new key. */
  private editedSinceKey = false;
  private upload: Upload | null = null;
  private captchaToken = '';
  private lastAnnouncedQuarter = -1;
  private localeChange: Promise<void> = Promise.resolve();

  @state() private phase: Phase = 'loading';
  @state() private errors: Record<string, string> = {};
  @state() private summary: string[] = [];
  @state() private banner: { code: string; retry: boolean } | null = null;
  @state() private progress = 0;
  @state() private outcome: 'delivered' | 'queued' | null = null;
  @state() private announcement = '';
  @state() private resume: File | null = null;

  /** Base URL of the proxy; empty for the page's own origin. */
  @property() endpoint = '';
  /** The offer's id in the catalogue. */
  @property({ attribute: 'campaign-id', type: Number }) campaignId = 0;
  /** Language: `fr`, `en` or `es`. Defaults to the page's `lang`, then the browser's. */
  @property() override lang = '';
  /** Link to the board's privacy policy beside the consent box; falls back to the proxy's `consent_url`. */
  @property({ attribute: 'consent-url' }) consentUrl = '';
  /** Do not keep typed text in sessionStorage. */
  @property({ attribute: 'no-draft', type: Boolean }) noDraft = false;
  /** Level (1 to 6) of the form's headings, to fit the page's outline: 3 under an h2, for example. */
  @property({ attribute: 'heading-level', type: Number }) headingLevel = 2;
  /** `required`, `optional` or `hidden` for the first name. */
  @property({ attribute: 'field-first-name' }) fieldFirstName = '';
  /** `required`, `optional` or `hidden` for the last name. */
  @property({ attribute: 'field-last-name' }) fieldLastName = '';
  /** `required`, `optional` or `hidden` for the phone (country code and number). */
  @property({ attribute: 'field-phone' }) fieldPhone = '';
  /** `required`, `optional` or `hidden` for the resume. */
  @property({ attribute: 'field-resume' }) fieldResume = '';
  /** `required`, `optional` or `hidden` for the cover letter. */
  @property({ attribute: 'field-cover-letter' }) fieldCoverLetter = '';
  /** `required`, `optional` or `hidden` for the portfolio URL. */
  @property({ attribute: 'field-bio-url' }) fieldBioUrl = '';
  /** `required`, `optional` or `hidden` for the consent box. */
  @property({ attribute: 'field-consent' }) fieldConsent = '';
  /** `required`, `optional` or `hidden` for the partner newsletter opt-in. */
  @property({ attribute: 'field-newsletter' }) fieldNewsletter = '';
  /** `required`, `optional` or `hidden` for the job-alert opt-in. */
  @property({ attribute: 'field-job-alert' }) fieldJobAlert = '';

  override connectedCallback(): void {
    super.connectedCallback();
    this.localeChange = useLocale(resolveLocale(this).locale);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.upload?.abort();
  }

  protected override async getUpdateComplete(): Promise<boolean> {
    await this.localeChange;
    return super.getUpdateComplete();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('lang') && this.isConnected) this.localeChange = useLocale(resolveLocale(this).locale);
    if (changed.has('endpoint') || changed.has('campaignId')) void this.loadForm();
  }

  protected override updated(): void {
    const container = this.querySelector<HTMLElement>('[slot=captcha]');
    const captcha = this.config?.captcha;
    if (this.phase === 'form' && captcha && !container) {
      const div = document.createElement('div');
      div.slot = 'captcha';
      this.append(div);
      renderCaptcha(div, captcha.provider, captcha.site_key, (token) => {
        this.captchaToken = token;
      }).catch(() => {
        this.banner = { code: 'captcha_unavailable', retry: false };
      });
    }
  }

  private get locale(): { locale: Locale; tag: string } {
    return resolveLocale(this);
  }

  private async loadForm(): Promise<void> {
    this.phase = 'loading';
    try {
      this.config = await loadConfig(this.endpoint);
    } catch {
      this.phase = 'config-error';
      return;
    }
    this.values = this.noDraft ? {} : loadDraft(this.endpoint, this.campaignId);
    this.values.phone_code ??= defaultPhoneCode[this.locale.locale];
    this.phase = 'form';
  }

  /**
   * The rule for a field: the attribute override wins, except that a field the
   * proxy requires stays required (the proxy would refuse the form anyway).
   */
  private rule(name: FieldName): FieldRule {
    if (name === 'email') return 'required';
    const fromProxy = this.config?.fields[name] ?? 'optional';
    const overrides: Partial<Record<FieldName, string>> = {
      first_name: this.fieldFirstName,
      last_name: this.fieldLastName,
      phone: this.fieldPhone,
      resume: this.fieldResume,
      cover_letter: this.fieldCoverLetter,
      bio_url: this.fieldBioUrl,
      consent: this.fieldConsent,
      is_partner_newsletter_active: this.fieldNewsletter,
      is_campaign_alert_active: this.fieldJobAlert,
    };
    const wanted = overrides[name];
    if (fromProxy === 'required' || !wanted || !['required', 'optional', 'hidden'].includes(wanted)) return fromProxy;
    return wanted as FieldRule;
  }

  private control(id: string): HTMLInputElement | HTMLTextAreaElement | null {
    return this.renderRoot.querySelector(`input#${id}, textarea#${id}`);
  }

  /** The error of one control, from the browser's constraint validation and the proxy's rules. */
  private check(id: string): string | null {
    const el = this.control(id);
    if (!el) return null;
    if (id === 'resume') return this.checkResume();
    const v = el.validity;
    if (v.valueMissing) return fieldMessage(id === 'consent' ? 'consent_required' : 'required');
    if (id === 'email' && (v.typeMismatch || v.patternMismatch)) return fieldMessage('invalid_email');
    if (id === 'bio_url' && (v.typeMismatch || !/^$|^https?:\/\//i.test(el.value))) return fieldMessage('invalid_url');
    if (id.startsWith('phone_') && v.patternMismatch) return fieldMessage('invalid_phone');
    if (v.tooLong) return fieldMessage('too_long');
    return null;
  }

  private checkResume(): string | null {
    const config = this.config;
    if (!config) return null;
    if (!this.resume) return this.rule('resume') === 'required' ? fieldMessage('file_required') : null;
    const extension = this.resume.name.split('.').pop()?.toLowerCase() ?? '';
    const types = config.resume.types.map((t) => t.toLowerCase());
    if (!types.includes(extension === 'jpeg' ? 'jpg' : extension)) return fieldMessage('unsupported_file_type');
    if (this.resume.size > config.resume.max_bytes) {
      return fieldMessage('file_too_large', formatBytes(this.locale.tag, config.resume.max_bytes));
    }
    return null;
  }

  private setError(id: string, message: string | null): void {
    const { [id]: _old, ...rest } = this.errors;
    this.errors = message ? { ...rest, [id]: message } : rest;
  }

  private handleInput(e: Event): void {
    const el = e.target as HTMLInputElement;
    if (!el.id) return;
    if (this.idempotencyKey) this.editedSinceKey = true;
    if (el.id === 'resume') this.resume = el.files?.[0] ?? null;
    if (draftFields.includes(el.id)) {
      this.values = { ...this.values, [el.id]: el.value };
      if (!this.noDraft) saveDraft(this.endpoint, this.campaignId, this.values);
    }
    // Once an error is shown, it updates as the candidate fixes the field.
    if (el.id in this.errors || el.type === 'file' || el.type === 'checkbox') this.setError(el.id, this.check(el.id));
  }

  private handleBlur(e: FocusEvent): void {
    const el = e.target as HTMLElement;
    // Errors after interaction only: a field is judged once the candidate leaves it with a value.
    if (el.id && el.id !== 'website' && (el as HTMLInputElement).value) this.setError(el.id, this.check(el.id));
  }

  private async handleSubmit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    if (this.phase !== 'form') return;
    const ids = [...this.renderRoot.querySelectorAll<HTMLElement>('form input[id], form textarea[id]')]
      .map((el) => el.id)
      .filter((id) => id !== 'website');
    const errors: Record<string, string> = {};
    for (const id of ids) {
      const message = this.check(id);
      if (message) errors[id] = message;
    }
    this.errors = errors;
    this.banner = null;
    if (Object.keys(errors).length > 0) {
      await this.showSummary();
      return;
    }
    await this.send();
  }

  private async showSummary(): Promise<void> {
    this.summary = Object.keys(this.errors);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#error-summary')?.focus();
  }

  private formData(): FormData {
    const form = this.renderRoot.querySelector('form')!;
    const data = new FormData(form);
    data.set('campaign_id', String(this.campaignId));
    data.set('locale', this.locale.locale);
    if (data.has('consent')) {
      data.delete('consent');
      data.set('is_legals_accepted_by_manager', 'true');
    }
    if (!this.resume) data.delete('resume');
    if (this.config?.captcha) data.set('captcha_token', this.captchaToken);
    // Empty optional text fields are left out rather than sent blank.
    for (const [name, value] of [...data.entries()]) {
      if (value === '' && name !== 'website') data.delete(name);
    }
    if (!data.has('phone_number')) data.delete('phone_code');
    return data;
  }

  private async send(): Promise<void> {
    const body = this.formData();
    if (!this.idempotencyKey || this.editedSinceKey) {
      this.idempotencyKey = uuid();
      this.editedSinceKey = false;
    }
    const campaignId = this.campaignId;
    this.phase = 'uploading';
    this.progress = 0;
    this.lastAnnouncedQuarter = -1;
    this.announce(msg('Sending your application…'));
    this.dispatchEvent(new JobboardApplySubmitEvent(campaignId));
    this.upload = submitApplication(this.endpoint, body, this.idempotencyKey, (loaded, total) => {
      this.progress = Math.round((loaded / total) * 100);
      const quarter = Math.floor(this.progress / 25);
      if (quarter !== this.lastAnnouncedQuarter) {
        this.lastAnnouncedQuarter = quarter;
        this.announce(msg(str`Upload ${this.progress}%`));
      }
      this.dispatchEvent(new JobboardUploadProgressEvent(campaignId, loaded, total));
    });
    try {
      const result = await this.upload.result;
      const status = result?.status === 'queued' ? 'queued' : 'delivered';
      this.outcome = status;
      this.phase = 'success';
      this.idempotencyKey = null;
      clearDraft(this.endpoint, campaignId);
      this.values = {};
      this.announce(msg('Application received.'));
      this.dispatchEvent(new JobboardApplySuccessEvent(campaignId, status));
      await this.focusOutcome();
    } catch (error) {
      await this.handleFailure(error, campaignId);
    } finally {
      this.upload = null;
    }
  }

  private async handleFailure(error: unknown, campaignId: number): Promise<void> {
    let code = 'internal_error';
    this.phase = 'form';
    if (error instanceof AbortedError) {
      code = 'upload_cancelled';
      this.banner = { code, retry: false };
    } else if (error instanceof NetworkError) {
      code = 'network_error';
      this.banner = { code, retry: true };
    } else if (error instanceof ProblemError) {
      const problem = error.problem;
      code = problem.code;
      if (code === 'already_applied') {
        this.phase = 'already-applied';
        this.idempotencyKey = null;
        clearDraft(this.endpoint, campaignId);
      } else if (code === 'idempotency_key_in_progress') {
        this.banner = { code, retry: true };
      } else if (code === 'file_too_large' || code === 'unsupported_file_type') {
        const limit = this.config ? formatBytes(this.locale.tag, this.config.resume.max_bytes) : undefined;
        this.errors = { ...this.errors, resume: fieldMessage(code, limit) };
      } else if (problem.errors?.length) {
        const errors: Record<string, string> = {};
        for (const fieldError of problem.errors) {
          const id = fieldOfProblem[fieldError.field] ?? fieldError.field;
          const target = this.control(id) ? id : null;
          if (target) errors[target] = fieldMessage(fieldError.code);
        }
        this.errors = errors;
        // A problem on a field this form does not show still needs saying.
        if (Object.keys(errors).length < problem.errors.length) this.banner = { code, retry: false };
      } else {
        if (code === 'idempotency_key_reused') this.idempotencyKey = null;
        this.banner = { code, retry: false };
      }
    }
    this.dispatchEvent(new JobboardApplyErrorEvent(campaignId, code));
    if (this.phase === 'already-applied') {
      this.announce(problemMessage(code));
      await this.focusOutcome();
    } else {
      await this.showSummary();
    }
  }

  private async focusOutcome(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#outcome')?.focus();
  }

  private announce(text: string): void {
    this.announcement = text;
  }

  private handleCancel(): void {
    this.upload?.abort();
  }

  private handleRetry(): void {
    this.banner = null;
    void this.send();
  }

  private handleSummaryLink(e: Event, id: string): void {
    e.preventDefault();
    this.control(id)?.focus();
  }

  private handleReloadConfig(): void {
    void this.loadForm();
  }

  /** Re-opens an empty form after a success, for another application. */
  reset(): void {
    this.outcome = null;
    this.errors = {};
    this.summary = [];
    this.banner = null;
    this.resume = null;
    void this.loadForm();
  }

  private labelOf(id: string): string {
    const labels: Record<string, () => string> = {
      email: () => msg('Email'),
      first_name: () => msg('First name'),
      last_name: () => msg('Last name'),
      phone_code: () => msg('Country code'),
      phone_number: () => msg('Phone number'),
      resume: () => msg('Resume'),
      cover_letter: () => msg('Cover letter'),
      bio_url: () => msg('Portfolio or profile URL'),
      consent: () => msg('Consent to data processing'),
      is_partner_newsletter_active: () => msg('Partner newsletter'),
      is_campaign_alert_active: () => msg('Job alerts'),
    };
    return labels[id]?.() ?? id;
  }

  private describedBy(id: string, help: boolean): string | typeof nothing {
    const ids = [help ? `${id}-help` : '', this.errors[id] ? `${id}-error` : ''].filter(Boolean);
    return ids.length ? ids.join(' ') : nothing;
  }

  private renderError(id: string): TemplateResult | typeof nothing {
    const error = this.errors[id];
    return error ? html`<p id="${id}-error" class="field-error error" part="error">${error}</p>` : nothing;
  }

  private renderLabel(id: string, required: boolean): TemplateResult {
    return html`<label for=${id} part="label"
      >${this.labelOf(id)}
      ${required ? html`<span class="req">${msg('(required)')}</span>` : html`<span class="opt">${msg('(optional)')}</span>`}</label
    >`;
  }

  private renderText(
    id: FieldName,
    type: string,
    autocomplete: string,
    extra: { maxlength?: number; inputmode?: string } = {},
  ): TemplateResult | typeof nothing {
    const rule = this.rule(id);
    if (rule === 'hidden') return nothing;
    const required = rule === 'required';
    return html`<div class="field" part="field">
      ${this.renderLabel(id, required)}
      <input
        id=${id}
        name=${id}
        type=${type}
        part="input"
        autocomplete=${autocomplete}
        maxlength=${extra.maxlength ?? nothing}
        .value=${this.values[id] ?? ''}
        ?required=${required}
        aria-invalid=${this.errors[id] ? 'true' : 'false'}
        aria-describedby=${this.describedBy(id, false)}
      />
      ${this.renderError(id)}
    </div>`;
  }

  private renderPhone(): TemplateResult | typeof nothing {
    const rule = this.rule('phone');
    if (rule === 'hidden') return nothing;
    const required = rule === 'required';
    return html`<fieldset class="field phone" part="field">
      <legend part="label">
        ${msg('Phone')}
        ${required ? html`<span class="req">${msg('(required)')}</span>` : html`<span class="opt">${msg('(optional)')}</span>`}
      </legend>
      <div class="phone-row">
        <div class="code">
          <label for="phone_code" part="label">${msg('Country code')}</label>
          <input
            id="phone_code"
            name="phone_code"
            type="text"
            part="input"
            inputmode="tel"
            autocomplete="tel-country-code"
            pattern="\\+[0-9]{1,4}"
            maxlength="5"
            .value=${this.values.phone_code ?? ''}
            ?required=${required}
            aria-invalid=${this.errors.phone_code ? 'true' : 'false'}
            aria-describedby=${this.describedBy('phone_code', false)}
          />
        </div>
        <div class="number">
          <label for="phone_number" part="label">${msg('Phone number')}</label>
          <input
            id="phone_number"
            name="phone_number"
            type="tel"
            part="input"
            autocomplete="tel-national"
            pattern="[0-9 .\\-\\(\\)]{4,20}"
            .value=${this.values.phone_number ?? ''}
            ?required=${required}
            aria-invalid=${this.errors.phone_number ? 'true' : 'false'}
            aria-describedby=${this.describedBy('phone_number', false)}
          />
        </div>
      </div>
      ${this.renderError('phone_code')} ${this.renderError('phone_number')}
    </fieldset>`;
  }

  private renderResume(config: WidgetConfig): TemplateResult | typeof nothing {
    const rule = this.rule('resume');
    if (rule === 'hidden') return nothing;
    const { tag } = this.locale;
    const types = config.resume.types.map((t) => t.toUpperCase());
    const accept = config.resume.types.map((t) => `.${t}`).join(',');
    const limit = formatBytes(tag, config.resume.max_bytes);
    return html`<div class="field" part="field">
      ${this.renderLabel('resume', rule === 'required')}
      <div class="file">
        <input
          id="resume"
          name="resume"
          type="file"
          part="input"
          class="file-input"
          accept=${accept}
          ?required=${rule === 'required'}
          aria-invalid=${this.errors.resume ? 'true' : 'false'}
          aria-describedby=${this.describedBy('resume', true)}
        />
        <span class="file-button" part="button" aria-hidden="true">${msg('Choose a file')}</span>
        <span class="file-name" aria-hidden="true">${this.resume?.name ?? msg('No file chosen')}</span>
      </div>
      <p id="resume-help" class="help muted" part="help">
        ${msg(str`${types.join(', ')}, up to ${limit}.`)}
      </p>
      ${this.renderError('resume')}
    </div>`;
  }

  private renderCoverLetter(): TemplateResult | typeof nothing {
    const rule = this.rule('cover_letter');
    if (rule === 'hidden') return nothing;
    return html`<div class="field" part="field">
      ${this.renderLabel('cover_letter', rule === 'required')}
      <textarea
        id="cover_letter"
        name="cover_letter"
        part="input"
        rows="6"
        maxlength="10000"
        .value=${this.values.cover_letter ?? ''}
        ?required=${rule === 'required'}
        aria-invalid=${this.errors.cover_letter ? 'true' : 'false'}
        aria-describedby=${this.describedBy('cover_letter', true)}
      ></textarea>
      <p id="cover_letter-help" class="help muted" part="help">
        ${msg('Up to 10,000 characters.')}
      </p>
      ${this.renderError('cover_letter')}
    </div>`;
  }

  private renderCheckbox(id: FieldName, label: TemplateResult | string): TemplateResult | typeof nothing {
    const rule = this.rule(id);
    if (rule === 'hidden') return nothing;
    return html`<div class="field check" part="field">
      <input
        id=${id}
        name=${id}
        type="checkbox"
        part="input"
        value="true"
        ?required=${rule === 'required'}
        aria-invalid=${this.errors[id] ? 'true' : 'false'}
        aria-describedby=${this.describedBy(id, false)}
      />
      <label for=${id} part="label">${label}</label>
      ${this.renderError(id)}
    </div>`;
  }

  private renderConsent(config: WidgetConfig): TemplateResult | typeof nothing {
    const href = this.consentUrl || config.consent_url;
    const required = this.rule('consent') === 'required';
    const text = msg('I agree to the processing of my personal data to handle this application.');
    const suffix = required ? html` <span class="req">${msg('(required)')}</span>` : nothing;
    return html`${this.renderCheckbox('consent', html`${text}${suffix}`)}
    ${href && this.rule('consent') !== 'hidden'
      ? html`<p class="help consent-link">
          <a href=${href} target="_blank" rel="noopener noreferrer">${msg('Read the privacy policy (opens in a new tab)')}</a>
        </p>`
      : nothing}`;
  }

  private renderSummary(): TemplateResult | typeof nothing {
    const fields = this.summary.filter((id) => this.errors[id]);
    if (fields.length === 0 && !this.banner) return nothing;
    return html`<div id="error-summary" class="summary" part="error-summary" tabindex="-1" aria-labelledby="summary-title">
      <p id="summary-title" class="summary-title">
        ${this.banner ? problemMessage(this.banner.code) : msg('The form has problems. Correct them and send it again.')}
      </p>
      ${fields.length
        ? html`<ul>
            ${fields.map(
              (id) => html`<li>
                <a href="#${id}" @click=${(e: Event) => this.handleSummaryLink(e, id)}>${this.labelOf(id)}${colon()} ${this.errors[id]}</a>
              </li>`,
            )}
          </ul>`
        : nothing}
      ${this.banner?.retry
        ? html`<button type="button" part="button" class="primary" @click=${this.handleRetry}>${msg('Send again')}</button>`
        : nothing}
    </div>`;
  }

  private renderForm(config: WidgetConfig): TemplateResult {
    const uploading = this.phase === 'uploading';
    return html`<form part="form" novalidate @submit=${this.handleSubmit} @input=${this.handleInput} @change=${this.handleInput} @focusout=${this.handleBlur}>
      ${this.renderSummary()}
      <p class="muted">${msg('Fields marked (required) must be filled in.')}</p>
      <fieldset class="plain" ?disabled=${uploading}>
        <legend class="visually-hidden">${msg('Your application')}</legend>
        ${this.renderText('email', 'email', 'email')} ${this.renderText('first_name', 'text', 'given-name')}
        ${this.renderText('last_name', 'text', 'family-name')} ${this.renderPhone()} ${this.renderResume(config)}
        ${this.renderCoverLetter()} ${this.renderText('bio_url', 'url', 'url')} ${this.renderConsent(config)}
        ${this.renderCheckbox('is_partner_newsletter_active', msg('Send me news from the recruiter’s partners'))}
        ${this.renderCheckbox('is_campaign_alert_active', msg('Send me similar job offers by email'))}
        <div class="hp" aria-hidden="true">
          <label for="website">${msg('Leave this field empty')}</label>
          <input id="website" name="website" type="text" tabindex="-1" autocomplete="off" />
        </div>
        ${config.captcha ? html`<div class="captcha"><slot name="captcha"></slot></div>` : nothing}
      </fieldset>
      ${uploading
        ? html`<div class="uploading">
            <label for="progress">${msg(str`Sending your application: ${this.progress}%`)}</label>
            <progress id="progress" part="progress" max="100" .value=${this.progress}></progress>
            <button type="button" part="button" @click=${this.handleCancel}>${msg('Cancel')}</button>
          </div>`
        : html`<button type="submit" part="submit-button" class="primary">${msg('Send my application')}</button>`}
    </form>`;
  }

  private renderOutcome(): TemplateResult {
    if (this.phase === 'already-applied') {
      return html`<div id="outcome" class="outcome" part="outcome" tabindex="-1">
        ${heading(this.headingLevel, msg('Already applied'))}
        <p>${problemMessage('already_applied')}</p>
      </div>`;
    }
    return html`<div id="outcome" class="outcome success" part="outcome" tabindex="-1">
      ${heading(this.headingLevel, msg('Application received'))}
      <p>${msg('Thank you. The recruiter will contact you by email if your profile matches.')}</p>
      ${this.outcome === 'queued' ? html`<p>${msg('It will be transmitted to the recruiter shortly.')}</p>` : nothing}
    </div>`;
  }

  protected override render(): TemplateResult {
    let body: TemplateResult;
    if (!this.campaignId) {
      body = html`<p class="error">${msg('No job offer was chosen for this form.')}</p>`;
    } else if (this.phase === 'loading') {
      body = html`<p><span class="spinner" aria-hidden="true"></span> ${msg('Loading the form…')}</p>`;
    } else if (this.phase === 'config-error' || !this.config) {
      body = html`<div class="summary">
        <p>${msg('The form could not be loaded. Check your connection and try again.')}</p>
        <button type="button" part="button" @click=${this.handleReloadConfig}>${msg('Try again')}</button>
      </div>`;
    } else if (this.phase === 'success' || this.phase === 'already-applied') {
      body = this.renderOutcome();
    } else {
      body = this.renderForm(this.config);
    }
    // The language of the texts, for screen readers, when it is not the page's.
    return html`<div lang=${getLocale()}>
      ${body}
      <div class="visually-hidden" role="status" part="status">${this.announcement}</div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'jobboard-apply': JobboardApply;
  }
}
