// The service's text is data: every string of a campaign record, nested
// ones included, loses its control characters as the record is mapped
// (public-api/control-characters.ts says which), so that one offer with a
// stray NUL is stored, shown and searched like any other.
import { withoutControlCharacters } from '../../public-api/control-characters.ts';

/** A copy of `value` whose every string, at any depth, is without control characters. */
export function withCleanStrings<T>(value: T): T {
  if (typeof value === 'string') return withoutControlCharacters(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withCleanStrings(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withCleanStrings(item)])) as T;
  }
  return value;
}
