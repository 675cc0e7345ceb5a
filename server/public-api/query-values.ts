// Rules of query values that several parameters of the proxy's public HTTP
// API share, each with its message written once.
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
