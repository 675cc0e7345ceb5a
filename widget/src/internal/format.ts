// Numbers, money, dates and sizes through Intl, in the widget's language.

/**
 * The recruitment service publishes salaries without a currency; its
 * customers are in the euro area, so euros are assumed.
 */
const currency = 'EUR';

export function formatSalary(tag: string, min: number | null, max: number | null): string | null {
  const f = new Intl.NumberFormat(tag, { style: 'currency', currency, maximumFractionDigits: 0 });
  if (min !== null && max !== null && min !== max) return f.formatRange(min, max);
  const one = min ?? max;
  return one === null ? null : f.format(one);
}

/** A calendar date (`2026-01-05`) shown as a date, with no timezone shift. */
export function formatDate(tag: string, isoDate: string | null): string | null {
  if (!isoDate) return null;
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

export function formatBytes(tag: string, bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return new Intl.NumberFormat(tag, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(mb);
  return new Intl.NumberFormat(tag, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }).format(bytes / 1024);
}

export function formatList(tag: string, items: string[]): string {
  return new Intl.ListFormat(tag, { type: 'disjunction' }).format(items);
}

export function formatNumber(tag: string, n: number): string {
  return new Intl.NumberFormat(tag).format(n);
}
