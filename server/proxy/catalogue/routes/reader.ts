// Answers of GET /api/campaigns and GET /api/campaigns/:id, serialised once
// per catalogue version and query: page views then cost a map lookup, and
// the ETag (a hash of the bytes) lets browsers and CDNs revalidate for free.
import { CampaignListQuery, coordinatesOf } from '../../../public-api/schemas.ts';
import type { CampaignDetail, CampaignList, CampaignSummary } from '../../../public-api/schemas.ts';
import { jsonAnswer } from '../../http/http-cache.ts';
import { validationProblem } from '../../http/problem.ts';
import type { ProblemError } from '../../http/problem.ts';
import type { JsonAnswer } from '../../http/http-cache.ts';
import { companyAddressOf, jobPosting, offerUrlOf } from '../job-posting.ts';
import { foldForSearch } from '../search-text.ts';
import type { SearchOverBudgetError } from '../search-text.ts';
import type { CampaignFilters, CatalogueCampaign, CatalogueStore, GeoPoint } from '../types.ts';
import { versionCache } from '../version-cache.ts';

export type { JsonAnswer };

export interface CatalogueReader {
  /**
   * Throws a validation problem when `near` names a city none of whose offers
   * has a position, and the store's SearchOverBudgetError when it stopped the
   * search at its time budget.
   */
  list(query: CampaignListQuery): Promise<JsonAnswer<CampaignList>>;
  /** The store's filters for a list query (`near` resolved to a point, throwing as list does): for other views of the list, like the feed. */
  filtersOf(query: CampaignListQuery): CampaignFilters;
  /** undefined when the campaign is not listed (not in the store, or not online). */
  detail(id: number): JsonAnswer<CampaignDetail> | undefined;
  /** The listed campaign's schema.org JobPosting (typed in job-posting.ts); undefined as for detail. */
  jobPosting(id: number): JsonAnswer<object> | undefined;
  /** True when the offer was listed and is closed now (410 Gone); false for one never seen (404) or still listed. */
  closed(id: number): boolean;
}

function summary(c: CatalogueCampaign): CampaignSummary {
  return {
    id: c.id,
    company_id: c.company_id,
    company_name: c.company_name,
    name: c.name,
    job_type: c.job_type as CampaignSummary['job_type'],
    working_time: c.working_time as CampaignSummary['working_time'],
    city: c.city,
    country: c.country,
    salary_min: c.salary_min,
    salary_max: c.salary_max,
    job_start_date: c.job_start_date,
    contract_duration: c.contract_duration,
    updated_at: c.updated_at,
    published_at: c.listed_at,
  };
}

function detail(c: CatalogueCampaign): CampaignDetail {
  return { ...summary(c), description: c.description, profile: c.profile, address: c.address, date_end: c.date_end };
}

const answer = jsonAnswer;

/**
 * The 422 of a search the store stopped at its time budget (the app's error
 * handler answers it, for every route that searches): it names the
 * parameter to change and how, never the words searched.
 */
export function searchOverBudgetProblem(error: SearchOverBudgetError): ProblemError {
  return validationProblem([
    error.field === 'q'
      ? {
          field: 'q',
          code: 'invalid_value',
          reason: 'search_too_long',
          message:
            'this search took too long: search fewer or longer words, or add a filter such as a city or a job type',
        }
      : {
          field: 'near',
          code: 'invalid_value',
          reason: 'search_too_long',
          message:
            'this search near a place took too long: give a smaller radius_km, or add a filter such as a city or a job type',
        },
  ]);
}

/** The list's parameters, in the order of the query schema. */
const LIST_PARAMS = CampaignListQuery.keyof().options;

/** The parameters the store reads with case and accents ignored: one key for "LYON" and "lyon". */
const FOLDED_PARAMS: ReadonlySet<string> = new Set<keyof CampaignListQuery>(['city', 'near']);

/**
 * The answer cache's key of a list query: every parameter of the query
 * schema, and only those (a route's own parameters, like the embed's lang,
 * do not tell two lists apart), so a parameter added to the schema is in the
 * key without a word here.
 */
export function listKey(query: CampaignListQuery): string {
  const values = LIST_PARAMS.map((name) => {
    const value = query[name];
    return FOLDED_PARAMS.has(name) && typeof value === 'string' ? foldForSearch(value) : (value ?? null);
  });
  return `list:${JSON.stringify(values)}`;
}

export function createCatalogueReader(
  store: CatalogueStore,
  options: {
    maxCachedAnswers?: number;
    boardOfferUrl?: string | null;
    boardImage?: string | null;
    now?: () => Date;
  } = {},
): CatalogueReader {
  const now = options.now ?? (() => new Date());
  // One cache for the three kinds of answer, told apart by their keys (a list's answer is a promise).
  const cached = versionCache<JsonAnswer | Promise<JsonAnswer> | undefined>(
    () => store.version(),
    options.maxCachedAnswers ?? 1000,
  );

  // The routes keep one parsed query per query string: its key is built once.
  const listKeys = new WeakMap<CampaignListQuery, string>();
  const cachedListKey = (query: CampaignListQuery): string => {
    let key = listKeys.get(query);
    if (key === undefined) {
      key = listKey(query);
      listKeys.set(query, key);
    }
    return key;
  };

  /** Where `near` is: its coordinates, or the average position of its city's offers. */
  const placeOf = (near: string): GeoPoint => {
    const place = coordinatesOf(near) ?? store.placeOf(near);
    if (place !== undefined) return place;
    throw validationProblem([
      {
        field: 'near',
        code: 'invalid_value',
        reason: 'place_unknown',
        message: 'no offer in this city has a known position: give another city, or LATITUDE,LONGITUDE like 45.76,4.84',
      },
    ]);
  };

  const filtersOf = (query: CampaignListQuery): CampaignFilters => {
    const { near, ...filters } = query;
    return { ...filters, near: near === undefined ? undefined : placeOf(near) };
  };

  const listed = (id: number): CatalogueCampaign | undefined => {
    const c = store.get(id);
    return c === undefined || c.status !== 'online' ? undefined : c;
  };

  return {
    filtersOf,
    list(query) {
      return cached(cachedListKey(query), async () => {
        const { items, total } = await store.searchAsync(filtersOf(query));
        const list: CampaignList = {
          items: items.map(summary),
          page: query.page,
          per_page: query.per_page,
          total,
          last_page: Math.max(1, Math.ceil(total / query.per_page)),
          facets: store.facets() as CampaignList['facets'],
        };
        return answer(list);
      }) as Promise<JsonAnswer<CampaignList>>;
    },
    detail(id) {
      return cached(`detail:${id}`, () => {
        const c = listed(id);
        return c === undefined ? undefined : answer(detail(c));
      }) as JsonAnswer<CampaignDetail> | undefined;
    },
    closed(id) {
      if (store.gone(id)) return true;
      const c = store.get(id);
      return c !== undefined && c.status !== 'online';
    },
    jobPosting(id) {
      return cached(`posting:${id}`, () => {
        const c = listed(id);
        return c === undefined
          ? undefined
          : answer(
              jobPosting(c, {
                offerUrl: offerUrlOf(options.boardOfferUrl ?? null, c.id),
                companyAddress: companyAddressOf(store, c),
                now: now(),
                image: options.boardImage,
              }),
            );
      }) as JsonAnswer<object> | undefined;
    },
  };
}
