// The offer checks on the dashboard: each offer the catalogue lists against
// the law of job ads and Google's fields (catalogue/offer-checks/), as
// `jobboard-connector offers check` runs them. Run again only when the
// catalogue changes (its version), not at every view: a large catalogue is
// tens of thousands of offers to read.
import type { Locale } from '../../contract/values.ts';
import type { OfferReport } from '../../public-api/offer-checks.ts';
import { offerProblems } from '../catalogue/offer-checks/index.ts';
import type { CatalogueStore } from '../catalogue/types.ts';

/** The offers with a problem, at most this many shown (the command lists them all). */
export const MAX_CHECKED_OFFERS_SHOWN = 100;

/** What the dashboard shows of the checks: the first offers with problems, and how many have any. */
export interface OfferChecksView {
  offers: OfferReport[];
  total: number;
}

export function offerChecksOf(
  store: Pick<CatalogueStore, 'listedIds' | 'get' | 'search' | 'version'>,
  now: () => number,
  /** The board's language (BOARD_LANG), which the ads' text must be in. */
  lang: Locale,
): () => OfferChecksView {
  let last: { version: number; view: OfferChecksView } | undefined;
  return () => {
    const version = store.version();
    if (last?.version !== version) {
      const withProblems = offerProblems(store, { now: new Date(now()), lang }).filter((o) => o.problems.length > 0);
      last = { version, view: { offers: withProblems.slice(0, MAX_CHECKED_OFFERS_SHOWN), total: withProblems.length } };
    }
    return last.view;
  };
}
