// Numbers, money, dates and sizes in the widget's language.
import { msg } from '@lit/localize';

import { SALARY_CURRENCY as currency } from '../../../server/contract/values.ts';
import type { CampaignDetail, CampaignSummary } from './api.ts';

// Building an Intl formatter is the expensive part; a list renders dozens of
// salaries and dates, so one formatter per language and kind is kept.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = formatters.get(key) as T | undefined;
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f;
}

// The texts a server rendering formatted, by what they show: the element
// hydrates with them, without setting up Intl in the task that runs the script.
const rendered = new Map<string, string>();
let recording: Map<string, string> | undefined;

function text(key: string, format: () => string): string {
  const known = rendered.get(key);
  if (known !== undefined) return known;
  const formatted = format();
  recording?.set(key, formatted);
  return formatted;
}

/** Records each text formatted from now on; the function returned stops and gives them, for the browser's useRendered. */
export function recordFormatted(): () => Record<string, string> {
  const record = new Map<string, string>();
  recording = record;
  return () => {
    recording = undefined;
    return Object.fromEntries(record);
  };
}

/** The texts the server formatted (recordFormatted), used as they are; what is not text is left out. */
export function useRendered(texts: unknown): void {
  if (typeof texts !== 'object' || texts === null) return;
  for (const [key, value] of Object.entries(texts)) if (typeof value === 'string') rendered.set(key, value);
}

export function formatSalary(tag: string, min: number | null, max: number | null): string | null {
  const one = min ?? max;
  if (one === null) return null;
  return text(`salary:${tag}:${min}:${max}`, () => {
    const f = cached(
      `salary:${tag}`,
      () => new Intl.NumberFormat(tag, { style: 'currency', currency, maximumFractionDigits: 0 }),
    );
    return min !== null && max !== null && min !== max ? f.formatRange(min, max) : f.format(one);
  });
}

/**
 * Builds the salary, date and number formatters of `tag`, one step a task, so
 * that the task that shows the offers does not build them. The page's first
 * Intl call sets up ICU in one call in Chromium, which would block the page
 * that long (BENCHMARKS.md, "Figures behind the code"). V8 sets it up in
 * parts, which these steps call one at a time: the language's data, the list
 * of languages ICU has (which asking for the segmenter's languages builds,
 * and nothing else), then each kind of formatter's own.
 */
export function prepareFormatters(tag: string): void {
  const steps = [
    () => new Intl.Locale(tag).maximize(),
    () => Intl.Segmenter.supportedLocalesOf(tag),
    () => formatSalary(tag, 1, 2),
    () => formatDate(tag, '2000-01-01'),
    () => formatNumber(tag, 1),
  ];
  const next = () => {
    steps.shift()?.();
    if (steps.length > 0) setTimeout(next);
  };
  setTimeout(next);
}

/** A calendar date (`2026-01-05`) shown as a date, with no timezone shift. */
export function formatDate(tag: string, isoDate: string | null): string | null {
  if (!isoDate) return null;
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return null;
  return text(`date:${tag}:${isoDate.slice(0, 10)}`, () =>
    cached(`date:${tag}`, () => new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' })).format(date),
  );
}

/**
 * A file size limit (`10 MB`, `10 Mo`), written without Intl on purpose: the
 * first Intl call of a page sets up ICU (see prepareFormatters), and the
 * apply form shows this on its first render (see BENCHMARKS.md).
 */
export function formatBytes(locale: string, bytes: number): string {
  const mb = bytes / (1024 * 1024);
  const [value, unit] = mb >= 1 ? [Math.round(mb * 10) / 10, msg('MB')] : [Math.round(bytes / 1024), msg('KB')];
  const text = String(value);
  return `${locale.startsWith('en') ? text : text.replace('.', ',')}\u00a0${unit}`;
}

/** A count (`10,000`, `10 000`), without Intl for the same reason as formatBytes. */
export function formatCount(locale: string, n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, locale.startsWith('en') ? ',' : '\u00a0');
}

export function formatNumber(tag: string, n: number): string {
  return text(`number:${tag}:${n}`, () => cached(`number:${tag}`, () => new Intl.NumberFormat(tag)).format(n));
}

/**
 * Where the job is, each part once: `12 rue X, 44000 Nantes, France`. The
 * address's street and postal code when it has them (its city and country,
 * else the offer's); else its name, which the service describes as the
 * complete address for display (it often repeats the city and country);
 * else the offer's city and country.
 */
export function formatPlace(c: CampaignSummary & { address?: CampaignDetail['address'] }): string {
  const a = c.address;
  const street = [a?.street_number, a?.street].filter(Boolean).join(' ');
  const line = [street, [a?.postal_code, a?.city || c.city].filter(Boolean).join(' '), a?.country || c.country]
    .filter(Boolean)
    .join(', ');
  return street || a?.postal_code ? line : a?.name || line;
}
