// Spontaneous applications (to a company, with no offer), apart from the
// apply form's module, which has no bytes to spare: loaded by the form once
// its config says the board takes some. The heading that tells such a form
// from an offer's, and, under an offer's form, the entry to one at the
// offer's company.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import type { CampaignSummary, WidgetConfig } from '../internal/api.ts';
import { heading } from '../internal/heading.ts';
import { takesSpontaneous } from '../../../server/public-api/spontaneous-companies.ts';

/** What this module reads of the apply element. */
interface Host extends HTMLElement {
  endpoint: string;
  campaignId: number;
  companyId: number;
  offer: CampaignSummary | undefined;
  headingLevel: number;
  requestUpdate(): void;
}

/** The forms whose entry was opened: the spontaneous form then shows under them. */
const opened = new WeakSet<Host>();

/**
 * The apply form as this module shows it: a spontaneous one under a heading
 * that says so (and names the company when the page gave its offer); an
 * offer's with the entry under it.
 */
export function around(host: Host, config: WidgetConfig, form: TemplateResult): TemplateResult {
  if (host.campaignId) return html`${form}${entry(host, config)}`;
  const name = host.offer?.company_name;
  return html`${heading(
    host.headingLevel,
    name ? msg(str`Spontaneous application — ${name}`) : msg('Spontaneous application'),
  )}${form}`;
}

/**
 * Under an offer's form, when its company takes spontaneous applications:
 * a button that names the company (it is not another offer), then the
 * spontaneous form itself, an apply element with the company and no offer.
 */
function entry(host: Host, config: WidgetConfig): TemplateResult | typeof nothing {
  const offer = host.offer;
  if (!offer || !takesSpontaneous(config.spontaneous_applications, offer.company_id)) return nothing;
  const name = offer.company_name ?? '';
  if (!opened.has(host)) {
    return html`<p class="spontaneous">
      <button
        type="button"
        part="button"
        @click=${() => {
          opened.add(host);
          host.requestUpdate();
        }}
      >
        ${msg(str`Spontaneous application at ${name}`)}
      </button>
    </p>`;
  }
  return html`<jobboard-apply
    endpoint=${host.endpoint}
    company-id=${offer.company_id}
    .offer=${offer}
    heading-level=${host.headingLevel}
    lang=${host.lang || nothing}
  ></jobboard-apply>`;
}
