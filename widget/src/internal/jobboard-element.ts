// What both elements share: the proxy's address, the language and its texts,
// the lang of the rendered texts, and keeping the landing URL's utm_*.
import { LitElement, html } from 'lit';
import type { PropertyDeclarations, TemplateResult } from 'lit';
import { keepLandingUtm } from './campaign-tracking.ts';
import { LocaleController } from './locale-controller.ts';
import { textLocale } from './localize.ts';

export abstract class JobboardElement extends LitElement {
  /** Lit's reactive properties, declared without decorators, whose helpers would weigh on the script-tag bundle. */
  static override properties: PropertyDeclarations = { endpoint: {}, lang: {} };

  protected readonly language = new LocaleController(this);

  /** Base URL of the proxy; empty for the page's own origin. */
  endpoint = '';
  /** Language: `fr`, `en` or `es`. Defaults to the page's `lang`, then the browser's. */
  override lang = '';

  override connectedCallback(): void {
    super.connectedCallback();
    // Either element may be on the page the visitor lands on; the form is often on a later one.
    keepLandingUtm();
  }

  protected override getUpdateComplete(): Promise<boolean> {
    return this.language.settled(() => super.getUpdateComplete());
  }

  /** Renders wait for the texts of the element's language: no English first that French then replaces, moving the page. */
  protected override async scheduleUpdate(): Promise<void> {
    await this.language.ready;
    super.scheduleUpdate();
  }

  protected override render(): TemplateResult {
    // The language of the texts, for screen readers, when it is not the page's.
    return html`<div lang=${textLocale()}>${this.renderBody()}</div>`;
  }

  /** What the element shows, in its language. */
  protected abstract renderBody(): unknown;
}
