// An offer's facts, in a card of the list and in the opened offer.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import type { CampaignDetail, CampaignSummary } from '../internal/api.ts';
import { formatDate, formatPlace, formatSalary } from '../internal/format.ts';
import { jobTypeLabel, workingTimeLabel } from '../internal/labels.ts';
import { colon } from '../internal/localize.ts';

/**
 * Place, contract, hours, salary and start, each when known; opened, the place is the whole address. Then the
 * day the offer was published (none from a proxy that does not tell it). `tag` is the language for Intl.
 */
export function renderFacts(c: CampaignSummary | CampaignDetail, tag: string): TemplateResult {
  const salary = formatSalary(tag, c.salary_min, c.salary_max);
  const start = formatDate(tag, c.job_start_date);
  const published = formatDate(tag, c.published_at);
  const place = formatPlace(c);
  return html`<dl class="meta">
      ${fact(msg('Place'), place)} ${fact(msg('Contract'), c.job_type && jobTypeLabel(c.job_type))}
      ${fact(msg('Working time'), c.working_time && workingTimeLabel(c.working_time))} ${fact(msg('Salary'), salary)}
      ${fact(msg('Start'), start)}
    </dl>
    ${
      published
        ? html`<p class="published">
            <time datetime=${c.published_at.slice(0, 10)}>${msg(str`Published on ${published}`)}</time>
          </p>`
        : nothing
    }`;
}

/** One fact, its term and its value; none when the value is unknown. */
function fact(term: string, value: string | null | undefined) {
  return value
    ? html`<div>
        <dt>${term}${colon()}</dt>
        <dd>${value}</dd>
      </div>`
    : nothing;
}
