// The catalogue's facets kept as counts of online offers per value, updated
// from each written or removed row (its old values out, its new values in)
// rather than read again from the whole table after a change: at 50,000
// offers with thousands of cities and companies, a read of every value
// takes tens of milliseconds, an update of the counts a few microseconds.

/** What a campaign row holds that the facets count. */
export interface FacetColumns {
  status: string;
  job_type: string | null;
  working_time: string | null;
  city: string | null;
  company_id: number;
  company_name: string | null;
}

/** The counted columns, the names of the facet lists they make (catalogue/types.ts Facets). */
export const COUNTED = { job_types: 'job_type', working_times: 'working_time', cities: 'city' } as const;
type Counted = keyof typeof COUNTED;

/**
 * SQLite's order of TEXT (BINARY: UTF-8 bytes, that is code points), which
 * the facet lists follow. UTF-16 units compare alike except that surrogates
 * (code points above U+FFFF) must come after U+E000–U+FFFF.
 */
export function inCodePointOrder(a: string, b: string): number {
  const units = Math.min(a.length, b.length);
  for (let i = 0; i < units; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}
const codePointRank = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;

/** Online offers per value of each facet, and per company. */
export class FacetCounts {
  readonly values: Record<Counted, Map<string, number>> = {
    job_types: new Map(),
    working_times: new Map(),
    cities: new Map(),
  };
  readonly companies = new Map<number, number>();

  /** Counts `n` more offers (less, when negative) with these columns; values falling to zero leave the lists. */
  count(row: FacetColumns, n: 1 | -1): void {
    if (row.status !== 'online') return;
    for (const facet of Object.keys(COUNTED) as Counted[]) {
      const value = row[COUNTED[facet]];
      if (value !== null) bump(this.values[facet], value, n);
    }
    bump(this.companies, row.company_id, n);
  }

  /** The values of a facet among online offers, in SQLite's order. */
  list(facet: Counted): string[] {
    return [...this.values[facet].keys()].sort(inCodePointOrder);
  }
}

function bump<K>(counts: Map<K, number>, key: K, n: number) {
  const left = (counts.get(key) ?? 0) + n;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

/** True when a row's change moves nothing the facets show. */
export const sameFacets = (a: FacetColumns, b: FacetColumns): boolean =>
  a.status === b.status &&
  a.job_type === b.job_type &&
  a.working_time === b.working_time &&
  a.city === b.city &&
  a.company_id === b.company_id &&
  a.company_name === b.company_name;
