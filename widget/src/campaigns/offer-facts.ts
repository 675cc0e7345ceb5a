// An offer's facts, in a card of the list and in the opened offer.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { msg } from '@lit/localize';
import type { CampaignDetail, CampaignSummary } from '../internal/api.ts';
import { formatDate, formatPlace, formatSalary } from '../internal/format.ts';
import { jobTypeLabel, workingTimeLabel } from '../internal/labels.ts';
import { colon } from '../internal/localize.ts';

/** Place, contract, hours, salary and start, each when known; opened, the place is the whole address. `tag` is the language for Intl. */
export function renderFacts(c: CampaignSummary | CampaignDetail, tag: string): TemplateResult {
  const salary = formatSalary(tag, c.salary_min, c.salary_max);
  const start = formatDate(tag, c.job_start_date);
  const place = formatPlace(c);
  return html`<dl class="meta">
    ${
      place
        ? html`<div>
            <dt>${msg('Place')}${colon()}</dt>
            <dd>${place}</dd>
          </div>`
        : nothing
    }
    ${
      c.job_type
        ? html`<div>
            <dt>${msg('Contract')}${colon()}</dt>
            <dd>${jobTypeLabel(c.job_type)}</dd>
          </div>`
        : nothing
    }
    ${
      c.working_time
        ? html`<div>
            <dt>${msg('Working time')}${colon()}</dt>
            <dd>${workingTimeLabel(c.working_time)}</dd>
          </div>`
        : nothing
    }
    ${
      salary
        ? html`<div>
            <dt>${msg('Salary')}${colon()}</dt>
            <dd>${salary}</dd>
          </div>`
        : nothing
    }
    ${
      start
        ? html`<div>
            <dt>${msg('Start')}${colon()}</dt>
            <dd>${start}</dd>
          </div>`
        : nothing
    }
  </dl>`;
}
