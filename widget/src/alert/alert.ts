// The "Create an alert" panel under the list of offers: the current search as
// an Atom feed (its URL to copy, and a link), and, when the proxy hands alerts
// to the board's mailing (ALERTS=webhook), an email with its consent, then a
// confirmation step. Nothing is sent before the candidate confirms: the form's
// "Continue" only checks and shows what will be sent. A module of its own
// (widget-alert-<hash>.js), loaded once a list is shown, so widget.js stays small.
import { html, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues, TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import { loadConfig, url } from '../internal/api.ts';
import type { CampaignQuery, FieldProblem, WidgetConfig } from '../internal/api.ts';
import { defineElement } from '../internal/define.ts';
import { JobboardElement } from '../internal/jobboard-element.ts';
import { feedUrlOf } from '../../../server/public-api/feed-url.ts';
import type { AlertBody } from '../../../server/public-api/schemas.ts';
import { styles } from './alert.styles.ts';

/** closed: the button only; form: the feed and the email form; confirm: what will be sent, and the button that sends it. */
type Step = 'closed' | 'form' | 'confirm' | 'sending' | 'done';

/** The board, as the candidate knows it: the page's host name. */
const board = (): string => location.hostname;

/**
 * @tag jobboard-alert
 * @summary The current search as a feed, or an email alert through the board's mailing.
 */
export class JobboardAlert extends JobboardElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = { query: { attribute: false } };

  /** The list's query (listQuery): the search the alert follows. */
  query: CampaignQuery = {};
  private config: WidgetConfig | undefined;
  private step: Step = 'closed';
  private email = '';
  private consent = false;
  /** What the candidate must correct (a field of the form), or why sending failed. */
  private problem = '';
  private copied = false;

  /** The endpoint whose config was asked for. */
  private configOf: string | undefined;

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Asked at the first update, not on connection: an endpoint the list set before this module
    // defined the element is the element's again only then (asked on connection, the config came
    // from the board's own origin, which a board's policy refuses).
    if (this.configOf !== this.endpoint) {
      const endpoint = (this.configOf = this.endpoint);
      loadConfig(endpoint).then(
        (config) => {
          if (this.configOf !== endpoint) return;
          this.config = config;
          this.requestUpdate();
        },
        () => {},
      );
    }
    // Another search is another alert: the panel starts again from its feed.
    if (changed.has('query') && this.step === 'done') this.step = 'form';
  }

  private feedUrl(): string {
    return new URL(feedUrlOf(url(this.endpoint, ''), this.query, this.language.locale), location.href).href;
  }

  private go(step: Step, focus: string): void {
    this.step = step;
    this.problem = '';
    this.requestUpdate();
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(focus)?.focus());
  }

  private readonly toggle = (): void => {
    if (this.step === 'closed') this.go('form', '#alert-title');
    else this.go('closed', '#alert-toggle');
  };

  private readonly copy = async (): Promise<void> => {
    await navigator.clipboard?.writeText(this.feedUrl()).catch(() => {});
    this.copied = true;
    this.requestUpdate();
  };

  /** "Continue": checks the form, sends nothing; the next step shows what "Confirm the alert" will send. */
  private readonly review = (e: SubmitEvent): void => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    this.email = (form.elements.namedItem('email') as HTMLInputElement).value.trim();
    this.consent = (form.elements.namedItem('consent') as HTMLInputElement).checked;
    if (!form.checkValidity()) {
      this.problem = msg('Enter your email address and accept to receive the offers of this search.');
      this.requestUpdate();
      return;
    }
    this.go('confirm', '#confirm-title');
  };

  private readonly send = async (): Promise<void> => {
    this.step = 'sending';
    this.requestUpdate();
    const body: AlertBody = { email: this.email, search: this.query, consent: true, lang: this.language.locale };
    try {
      const res = await fetch(url(this.endpoint, '/api/alerts'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.ok) return this.go('done', '#alert-done');
      const problem = (await res.json().catch(() => ({}))) as { errors?: FieldProblem[] };
      this.step = 'form';
      this.problem = problem.errors?.some((p) => p.field === 'email')
        ? msg('Enter a valid email address.')
        : msg('The alert could not be created. Try again in a moment.');
    } catch {
      this.step = 'confirm';
      this.problem = msg('The alert could not be sent. Check your connection and try again.');
    }
    this.requestUpdate();
  };

  private renderFeed(): TemplateResult {
    const feed = this.feedUrl();
    return html`<p id="feed-help">
        ${msg('Follow this search in a feed reader: its new offers appear there as they are published.')}
      </p>
      <p class="feed">
        <input
          id="feed-url"
          part="input"
          readonly
          .value=${feed}
          aria-label=${msg('Feed address of this search')}
          aria-describedby="feed-help"
        />
        <button type="button" part="button" @click=${this.copy}>${msg('Copy the address')}</button>
        <a href=${feed} target="_blank" rel="noopener">${msg('Open the feed')}</a>
      </p>
      <p role="status" class="muted">${this.copied ? msg('Address copied.') : nothing}</p>`;
  }

  private renderForm(): TemplateResult {
    const host = board();
    return html`<form @submit=${this.review} novalidate>
      <h3>${msg('By email')}</h3>
      <p class="field">
        <label for="alert-email">${msg('Your email')}</label>
        <input
          id="alert-email"
          name="email"
          part="input"
          type="email"
          autocomplete="email"
          required
          .value=${this.email}
        />
      </p>
      <p class="field check">
        <input id="alert-consent" name="consent" type="checkbox" required .checked=${this.consent} />
        <label for="alert-consent"
          >${msg(
            str`I agree that ${host} emails me the new offers of this search. I can stop them from any of its emails.`,
          )}</label
        >
      </p>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      <button type="submit" part="button" class="primary">${msg('Continue')}</button>
    </form>`;
  }

  private renderConfirm(): TemplateResult {
    return html`<div class="confirm">
      <h3 id="confirm-title" tabindex="-1">${msg('Confirm the alert')}</h3>
      <p>${msg(str`${board()} will email the new offers of this search to ${this.email}.`)}</p>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      <p class="actions">
        <button
          type="button"
          part="button"
          class="primary"
          id="alert-confirm"
          ?disabled=${this.step === 'sending'}
          @click=${this.send}
        >
          ${msg('Confirm the alert')}
        </button>
        <button type="button" part="button" @click=${() => this.go('form', '#alert-email')}>${msg('Change')}</button>
      </p>
    </div>`;
  }

  protected override renderBody(): unknown {
    const alerts = this.config?.alerts;
    if (!alerts?.feed) return nothing;
    const open = this.step !== 'closed';
    const email = alerts.email
      ? this.step === 'form'
        ? this.renderForm()
        : this.step === 'done'
          ? html`<p id="alert-done" class="success" role="status" tabindex="-1">
              ${msg(str`Alert created: ${board()} will email you the new offers of this search.`)}
            </p>`
          : this.renderConfirm()
      : nothing;
    return html`<button
        id="alert-toggle"
        type="button"
        part="button"
        aria-expanded=${open ? 'true' : 'false'}
        aria-controls="alert-panel"
        @click=${this.toggle}
      >
        ${msg('Create an alert')}
      </button>
      ${
        open
          ? html`<section id="alert-panel" class="panel" part="alert" aria-labelledby="alert-title">
              <h2 id="alert-title" tabindex="-1">${msg('Alert for this search')}</h2>
              ${this.step === 'form' || !alerts.email ? this.renderFeed() : nothing} ${email}
            </section>`
          : nothing
      }`;
  }
}

defineElement('jobboard-alert', JobboardAlert);

declare global {
  interface HTMLElementTagNameMap {
    'jobboard-alert': JobboardAlert;
  }
}
