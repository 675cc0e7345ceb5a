// The catalogue's search form: the text box and one filter per facet. The
// element keeps the query; this renders it and reads it back from the form.
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { msg } from '@lit/localize';
import type { CampaignPage, CampaignQuery } from '../internal/api.ts';
import { jobTypeLabel, workingTimeLabel } from '../internal/labels.ts';

/**
 * A filter; `all` is its no-filter option, a text of its own per filter so that it
 * agrees with the filter's noun ("Toutes les villes"). `labelOf` shows each value
 * in the widget's language, the value sent stays the API's.
 */
function renderFacet(
  query: CampaignQuery,
  name: keyof CampaignQuery,
  label: string,
  all: string,
  values: string[],
  labelOf: (v: string) => string = String,
): TemplateResult {
  const current = query[name];
  return html`<div class="filter">
    <label for="filter-${name}">${label}</label>
    <select id="filter-${name}" name=${name} part="input">
      <option value="">${all}</option>
      ${values.map((v) => html`<option value=${v} ?selected=${v === current}>${labelOf(v)}</option>`)}
    </select>
  </div>`;
}

/** The form; `onSearch` gets its submit event (Enter, the button, or a filter changed). */
export function renderSearch(query: CampaignQuery, facets: CampaignPage['facets'] | undefined, onSearch: (e: SubmitEvent) => void): TemplateResult {
  return html`<form role="search" part="search" class="search" aria-label=${msg('Search offers')} @submit=${onSearch} @change=${handleFilterChange}>
    <div class="filter grow">
      <label for="q">${msg('Keywords')}</label>
      <input id="q" name="q" type="search" part="input" maxlength="200" .value=${query.q ?? ''} @change=${(e: Event) => e.stopPropagation()} />
    </div>
    ${renderFacet(query, 'job_type', msg('Contract type'), msg('All contract types'), facets?.job_types ?? [], jobTypeLabel)}
    ${renderFacet(query, 'working_time', msg('Working time'), msg('All working times'), facets?.working_times ?? [], workingTimeLabel)}
    ${renderFacet(query, 'city', msg('City'), msg('All cities'), facets?.cities ?? [])}
    <button type="submit" part="button" class="primary">${msg('Search')}</button>
  </form>`;
}

function handleFilterChange(e: Event): void {
  // Filters apply at once; the text box waits for Enter or the search button.
  (e.currentTarget as HTMLFormElement).requestSubmit();
}

/** The query the submitted form asks for, from its first page. */
export function submittedQuery(e: SubmitEvent): CampaignQuery {
  e.preventDefault();
  const form = new FormData(e.target as HTMLFormElement);
  const value = (name: string): string | undefined => {
    const v = form.get(name);
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  return { q: value('q'), job_type: value('job_type'), working_time: value('working_time'), city: value('city'), page: 1 };
}
