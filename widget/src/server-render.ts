// Server rendering of <jobboard-campaigns>, for the proxy's GET /embed/campaigns:
// the element with its shadow DOM already rendered (declarative shadow DOM),
// its state as JSON for the browser to hydrate from, and the open offer's
// JobPosting. Built for Node by vite.ssr.config.ts into dist/ssr/render.js
// (Node runs no decorators from TypeScript sources).
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { EmbedRenderInput, EmbedRenderer } from '../../server/public-api/embed.ts';
import { JobboardCampaigns } from './campaigns/campaigns.ts';
import { defineElement } from './internal/define.ts';
import { recordFormatted } from './internal/format.ts';
import { useLocale } from './internal/localize.ts';
import { scriptJson } from './internal/script-json.ts';

defineElement('jobboard-campaigns', JobboardCampaigns);

function template(input: EmbedRenderInput) {
  const posting =
    input.jobPosting === null ? '' : `<script type="application/ld+json">${scriptJson(input.jobPosting)}</script>`;
  return html`<jobboard-campaigns
    endpoint=${input.endpoint}
    lang=${input.lang}
    offer-param=${input.offerParam}
    per-page=${input.perPage}
    company-id=${ifDefined(input.presets.company_id)}
    job-type=${ifDefined(input.presets.job_type)}
    city=${ifDefined(input.presets.city)}
    .prerendered=${input.state}
    >${unsafeHTML(posting)}</jobboard-campaigns
  >`;
}

// The texts' language is one per process: renderings take turns, each in its language.
let queue: Promise<unknown> = Promise.resolve();

export const renderCampaigns: EmbedRenderer['renderCampaigns'] = (input) => {
  const rendering = queue.then(async () => {
    await useLocale(input.lang);
    const stop = recordFormatted();
    const html = await collectResult(render(template(input))).catch((error: unknown) => {
      stop();
      throw error;
    });
    // The state, with the texts the rendering formatted, goes in as the element's last child.
    const state = `<script type="application/json" data-jobboard-state>${scriptJson({ ...input.state, formatted: stop() })}</script>`;
    const end = html.lastIndexOf('</jobboard-campaigns');
    return html.slice(0, end) + state + html.slice(end);
  });
  queue = rendering.catch(() => undefined);
  return rendering;
};
