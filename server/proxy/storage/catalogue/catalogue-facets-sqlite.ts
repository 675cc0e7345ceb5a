// The catalogue store's facets (catalogue-sqlite.ts): read from the table
// once, then kept up to date from each written or removed row, and the list
// itself kept until a write changes what it shows.
import type { DatabaseSync } from 'node:sqlite';
import type { Facets } from '../../catalogue/types.ts';
import { COUNTED, FacetCounts, sameFacets } from './catalogue-facet-counts.ts';
import type { FacetColumns } from './catalogue-facet-counts.ts';
import type { CatalogueStatements } from './catalogue-schema-sqlite.ts';

/** The online offers per non-null value of a column (from the column's index alone). */
const facetCounts = (column: 'job_type' | 'working_time' | 'city' | 'company_id') =>
  `SELECT ${column} AS v, count(*) AS n FROM campaigns WHERE status = 'online' AND ${column} IS NOT NULL GROUP BY ${column}`;
/** The order of the companies in the facets: by name (the default locale's), then id. */
const byName = new Intl.Collator().compare;

export class FacetCache {
  private readonly db: DatabaseSync;
  private readonly companyName: CatalogueStatements['companyName'];
  /** The facets, until a write changes what they show (a new title or text changes nothing there: most changes keep them). */
  private facets: Facets | undefined;
  /** The online offers per facet value, once read: then each write moves them (undefined: read them at the next facets()). */
  private counts: FacetCounts | undefined;
  /** The companies' names in the facets, read again for a company whose offers changed. */
  private readonly companyNames = new Map<number, string | null>();

  constructor(db: DatabaseSync, companyName: CatalogueStatements['companyName']) {
    this.db = db;
    this.companyName = companyName;
  }

  /** Every write of a row's columns goes through here: its old values out of the counts, its new ones in. */
  recount(before: FacetColumns | undefined, after: FacetColumns | undefined): void {
    if (before !== undefined && after !== undefined && sameFacets(before, after)) return;
    this.facets = undefined;
    const { counts, companyNames } = this;
    if (before !== undefined) companyNames.delete(before.company_id);
    if (after !== undefined) companyNames.delete(after.company_id);
    if (counts === undefined) return;
    if (before !== undefined) counts.count(before, -1);
    if (after !== undefined) counts.count(after, 1);
  }

  forget(): void {
    this.facets = undefined;
    this.counts = undefined;
    this.companyNames.clear();
  }

  /** The counts read from the table: once, and after a new copy. */
  private readCounts(): FacetCounts {
    const { db } = this;
    const read = new FacetCounts();
    for (const [facet, column] of Object.entries(COUNTED) as [
      keyof typeof COUNTED,
      (typeof COUNTED)[keyof typeof COUNTED],
    ][]) {
      for (const r of db.prepare(facetCounts(column)).all() as { v: string; n: number }[])
        read.values[facet].set(r.v, r.n);
    }
    for (const r of db.prepare(facetCounts('company_id')).all() as { v: number; n: number }[])
      read.companies.set(r.v, r.n);
    return read;
  }

  read(): Facets {
    if (this.facets !== undefined) return this.facets;
    const counts = (this.counts ??= this.readCounts());
    const { companyNames, companyName } = this;
    const companies = [...counts.companies.keys()].map((id) => {
      let name = companyNames.get(id);
      if (name === undefined) companyNames.set(id, (name = (companyName.get(id) as { name: string | null }).name));
      return { id, name };
    });
    companies.sort((a, b) => byName(a.name ?? '', b.name ?? '') || a.id - b.id);
    this.facets = {
      job_types: counts.list('job_types'),
      working_times: counts.list('working_times'),
      cities: counts.list('cities'),
      companies,
    };
    return this.facets;
  }
}
