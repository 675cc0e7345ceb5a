// Rules of values that several inputs of the proxy share (query parameters,
// form fields, its settings), each written once.
import { z } from 'zod';

/** Query values: an empty or blank parameter counts as absent ("?city=&q=%20" is no filter). */
export const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A whole number from 1 to `max`, `fallback` when the parameter is absent or blank. */
export function wholeNumberUpTo(max: number, fallback: number) {
  const error = `must be a whole number from 1 to ${max}`;
  return z.preprocess(
    blankAsAbsent,
    z.coerce.number({ error }).int(error).min(1, error).max(max, error).default(fallback),
  );
}

/** An id of the service written as text (an offer's, a company's): a positive whole number that JavaScript holds exactly; undefined when it is not one. */
export function serviceIdOf(text: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
}
