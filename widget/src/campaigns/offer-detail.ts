// The opened offer: its facts, description and profile, and its apply form;
// or why it cannot be shown. A button leads back to the list.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import type { CampaignDetail } from '../internal/api.ts';
import { formatDate } from '../internal/format.ts';
import { heading } from '../internal/heading.ts';
import { sanitize } from '../internal/html.ts';
import type { Loader } from '../internal/loader.ts';
import { renderFacts } from './offer-facts.ts';
import type { SavedOffers } from './saved.ts';

/** What the opened offer shows and what it tells its element. */
export interface DetailView {
  offer: Loader<CampaignDetail>;
  /** Level of the offer's title; its sections are one below, its apply form's headings two. */
  level: number;
  /** The language for Intl. */
  tag: string;
  /** The element's own, handed to its apply form. */
  endpoint: string;
  lang: string;
  onBack: () => void;
  /** Takes the candidate to the apply form (the "Apply" buttons). */
  onApply: () => void;
  /** The saved offers' toggle, once their module is in. */
  saved: SavedOffers | undefined;
}

export function renderDetail(view: DetailView): TemplateResult {
  const { offer, level, tag } = view;
  const back = html`<button type="button" part="button" class="back" @click=${view.onBack}>
    ← ${msg('Back to offers')}
  </button>`;
  if (offer.status === 'loading') {
    return html`${back}
      <p class="state"><span class="spinner" aria-hidden="true"></span> ${msg('Loading the offer…')}</p>`;
  }
  if (offer.status === 'gone') {
    return html`${back}
      <p id="detail-error" class="state" tabindex="-1">
        ${msg('This offer is no longer open. Other offers are waiting for you in the list.')}
      </p>`;
  }
  const c = offer.value;
  if (offer.status !== 'ready' || !c) {
    return html`${back}
      <p id="detail-error" class="state error" tabindex="-1">
        ${msg('This offer could not be loaded. It may have been closed.')}
      </p>`;
  }
  /** A titled section of the offer's own text (sanitised HTML); none when the offer has no such text. */
  const richSection = (title: string, text: string | null | undefined) =>
    text
      ? html`<section part="description">
          ${heading(level + 1, title)}
          <div class="rich">${sanitize(text)}</div>
        </section>`
      : nothing;
  const apply = html`<button type="button" part="button" class="primary" @click=${view.onApply}>
    ${msg('Apply')}
  </button>`;
  return html`<article class="detail" part="detail">
    ${back}
    <div class="detail-head">${heading(level, c.name, 'detail-title')} ${apply}</div>
    <p class="company">${c.company_name}</p>
    ${renderFacts(c, tag)}
    <div class="save">${view.saved?.toggle(c)}</div>
    ${c.date_end ? html`<p>${msg(str`Applications close on ${formatDate(tag, c.date_end)}.`)}</p>` : nothing}
    ${richSection(msg('The job'), c.description)} ${richSection(msg('The profile'), c.profile)}
    <div class="apply-sticky">${apply}</div>
    <section class="apply">
      ${heading(level + 1, msg('Apply'), 'apply-title')}
      <jobboard-apply
        part="apply"
        endpoint=${view.endpoint}
        campaign-id=${c.id}
        .offer=${c}
        heading-level=${level + 2}
        lang=${view.lang || nothing}
      ></jobboard-apply>
    </section>
  </article>`;
}
