// The language of a page the proxy writes for people (the candidate's
// receipt, the board's dashboard): a valid ?lang=, else the best of the
// browser's Accept-Language among the widget's languages, else the page's
// fallback (English; the board's language for the dashboard).
import type { Request } from 'express';
import { LOCALES } from '../../contract/index.ts';
import type { Locale } from '../../contract/index.ts';

export function pageLanguageOf(req: Request, fallback: Locale = 'en'): Locale {
  const asked = req.query.lang;
  if (typeof asked === 'string' && (LOCALES as readonly string[]).includes(asked)) return asked as Locale;
  if (req.get('Accept-Language') === undefined) return fallback;
  // The fallback first: what a wildcard (`*`) gets.
  const accepted = req.acceptsLanguages(fallback, ...LOCALES.filter((l) => l !== fallback));
  return accepted === false ? fallback : (accepted as Locale);
}
