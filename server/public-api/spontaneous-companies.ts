// Which companies take spontaneous applications through a board: the proxy's
// SPONTANEOUS_APPLICATIONS, given to the widget as GET /api/config's
// spontaneous_applications. One reading of it for the proxy and the widget.

/** `all` (every company of the catalogue), or the companies' ids; an empty list: none. */
export type SpontaneousCompanies = 'all' | readonly number[];

/** Whether `companyId` takes spontaneous applications under `companies`. */
export function takesSpontaneous(companies: SpontaneousCompanies, companyId: number): boolean {
  return companies === 'all' || companies.includes(companyId);
}

/** Whether any company does: the board takes spontaneous applications at all. */
export function takesAnySpontaneous(companies: SpontaneousCompanies): boolean {
  return companies === 'all' || companies.length > 0;
}
