// The language of a page the proxy writes for people (the candidate's
// receipt, the board's dashboard): a valid ?lang=, else the best of the
// browser's Accept-Language among the widget's languages, else English.
import type { Request } from 'express';
import { LOCALES } from '../../contract/index.ts';
import type { Locale } from '../../contract/index.ts';

const BY_PREFERENCE = ['en', ...LOCALES.filter((l) => l !== 'en')];

export function pageLanguageOf(req: Request): Locale {
  const asked = req.query.lang;
  if (typeof asked === 'string' && (LOCALES as readonly string[]).includes(asked)) return asked as Locale;
  if (req.get('Accept-Language') === undefined) return 'en';
  // English first: what a wildcard (`*`) gets.
  const accepted = req.acceptsLanguages(...BY_PREFERENCE);
  return accepted === false ? 'en' : (accepted as Locale);
}
