// The catalogue's search form: the text box, one filter per facet (but those
// the board fixed), a place with its radius, and a minimum salary. The element
// keeps the query; this renders it and reads it back from the form. "Near me"
// asks the browser for the candidate's position on its click only.
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import type { CampaignPage, CampaignQuery } from '../internal/api.ts';
import { jobTypeLabel, workingTimeLabel } from '../internal/labels.ts';
import { DEFAULT_RADIUS_KM } from '../../../server/public-api/list-params.ts';

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
  values: string[] | undefined,
  labelOf: (v: string) => string = String,
): TemplateResult | undefined {
  const current = query[name];
  return values === undefined
    ? undefined
    : html`<div class="filter">
        <label for="filter-${name}">${label}</label>
        <select id="filter-${name}" name=${name} part="input">
          <option value="">${all}</option>
          ${values.map((v) => html`<option value=${v} ?selected=${v === current}>${labelOf(v)}</option>`)}
        </select>
      </div>`;
}

/** A text the candidate types: it applies on Enter or the search button, not on each change. */
const typed = (e: Event) => e.stopPropagation();

/**
 * Fills the place with the browser's position (asked now, on the candidate's
 * click), then searches; or says why there is none, under the place.
 */
function nearMe(e: Event): void {
  const form = (e.currentTarget as HTMLElement).closest('form')!;
  // Written here, not rendered: no state of the element holds it, and the next click clears it.
  const status = form.querySelector('#near-status')!;
  const refused = (denied: boolean) => {
    status.textContent = denied
      ? msg('Your position was not shared. Allow it in your browser, or enter a town.')
      : msg('Your position could not be found. Enter a town.');
  };
  status.textContent = '';
  if (!navigator.geolocation) return refused(false);
  navigator.geolocation.getCurrentPosition(
    ({ coords }) => {
      // About a hundred metres: enough for a radius in kilometres.
      form.near.value = `${coords.latitude.toFixed(3)},${coords.longitude.toFixed(3)}`;
      form.requestSubmit();
    },
    (error) => refused(error.code === error.PERMISSION_DENIED),
  );
}

/** The radius choices, in order (a test checks it: no sort in every browser): the proxy's default, sent as no radius, among them. */
const RADII_KM = [10, DEFAULT_RADIUS_KM, 50, 100];

/** The filters of the query in use, the text box aside: the count the folded filters' button shows. */
export function activeFilters(query: CampaignQuery): number {
  const { job_type, working_time, city, near, salary_min } = query;
  return [job_type, working_time, city, near, salary_min].filter((value) => value !== undefined && value !== '').length;
}

/** What the form shows and tells its element. */
export interface SearchView {
  query: CampaignQuery;
  facets: CampaignPage['facets'] | undefined;
  /** Gets the form's submit event (Enter, the button, or a filter changed). */
  onSearch: (e: SubmitEvent) => void;
  /** Filters the board fixed: not shown. */
  fixed: CampaignQuery;
  /** On a narrow element the filters fold behind one button; whether the candidate unfolded them. */
  filtersOpen: boolean;
  onToggleFilters: () => void;
}

/**
 * The form: the text box, then the filters, which fold behind a "Filters (n)"
 * button when the element is narrow (a phone), so that offers show in the
 * first screen.
 */
export function renderSearch(view: SearchView): TemplateResult {
  const { query, onSearch, fixed, filtersOpen } = view;
  const f = view.facets ?? { job_types: [], working_times: [], cities: [] };
  return html`<div class="search-box">
    <form
      role="search"
      part="search"
      class="search"
      aria-label=${msg('Search offers')}
      @submit=${onSearch}
      @change=${handleFilterChange}
    >
      <div class="filter grow">
        <label for="q">${msg('Keywords')}</label>
        <input id="q" name="q" type="search" part="input" maxlength="200" .value=${query.q ?? ''} @change=${typed} />
      </div>
      <button
        type="button"
        part="button"
        class="filters-toggle"
        aria-expanded=${filtersOpen ? 'true' : 'false'}
        aria-controls="filters"
        @click=${view.onToggleFilters}
      >
        ${msg(str`Filters (${activeFilters(query)})`)}
      </button>
      <div id="filters" class="filters ${filtersOpen ? 'open' : ''}">
        ${renderFacet(query, 'job_type', msg('Contract type'), msg('All contract types'), fixed.job_type ? undefined : f.job_types, jobTypeLabel)}
        ${renderFacet(query, 'working_time', msg('Working time'), msg('All working times'), f.working_times, workingTimeLabel)}
        ${renderFacet(query, 'city', msg('City'), msg('All cities'), fixed.city ? undefined : f.cities)}
        <div class="filter">
          <label for="near">${msg('Near')}</label>
          <input
            id="near"
            name="near"
            part="input"
            maxlength="100"
            aria-describedby="near-status"
            .value=${query.near ?? ''}
            @change=${typed}
          />
          <button type="button" part="button" @click=${nearMe}>${msg('Near me')}</button>
          <p id="near-status" class="error" role="status"></p>
        </div>
        <div class="filter">
          <label for="filter-radius_km">${msg('Within')}</label>
          <select id="filter-radius_km" name="radius_km" part="input">
            ${RADII_KM.map((km) => {
              const value = km === DEFAULT_RADIUS_KM ? '' : String(km);
              return html`<option value=${value} ?selected=${value === String(query.radius_km ?? '')}>
                ${km} km
              </option>`;
            })}
          </select>
        </div>
        <div class="filter">
          <label for="salary_min">${msg('Minimum salary')}</label>
          <input
            id="salary_min"
            name="salary_min"
            type="number"
            min="0"
            step="1000"
            part="input"
            .value=${query.salary_min ?? ''}
            @change=${typed}
          />
        </div>
      </div>
      <button type="submit" part="button" class="primary">${msg('Search')}</button>
    </form>
  </div>`;
}

function handleFilterChange(e: Event): void {
  // Filters apply at once; the text box waits for Enter or the search button.
  (e.currentTarget as HTMLFormElement).requestSubmit();
}

/**
 * An option of a filter the candidate changed since `root` was rendered (in
 * the server's rendering, before the element took it over, nothing heard the
 * change): one selected or not other than as rendered. The first option of a
 * filter is left out: it is the one shown when none was rendered selected.
 */
export const changedFilter = (root: ParentNode): HTMLOptionElement | undefined =>
  [...root.querySelectorAll('option')].find((option) => option.index && option.selected !== option.defaultSelected);

/** The query the submitted form asks for, from its first page. */
export function submittedQuery(e: SubmitEvent): CampaignQuery {
  e.preventDefault();
  const form = new FormData(e.target as HTMLFormElement);
  const value = (name: string): string | undefined => {
    const v = form.get(name);
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const near = value('near');
  // A radius alone is no filter: the proxy refuses it without a place.
  return {
    q: value('q'),
    job_type: value('job_type'),
    working_time: value('working_time'),
    city: value('city'),
    near,
    radius_km: near && value('radius_km'),
    salary_min: value('salary_min'),
    page: 1,
  };
}
