// Which language an offer is written in, told by its most common small words
// (articles, pronouns, prepositions: "the", "vous", "para"), counted for
// French, English and Spanish, the languages of the widget. A heuristic, not
// a language model: it needs a text of some length (a title alone says
// nothing), it names only these three, and it reads a bilingual text as
// whichever language has more of it. That is enough for the question the
// checks ask, "is this ad in French?", without a dependency.
import type { Locale } from '../../../contract/values.ts';

/** Common words of each language, without accents (the text is read folded). */
const COMMON_WORDS: Record<Locale, string> = {
  fr: 'le la les des du de un une et est vous nous pour dans sur avec par au aux ce cet cette ces qui que votre vos notre nos sont etre sera seront plus pas ne il elle ils elles on son sa ses leur leurs ou mais donc comme chez tout tous toute toutes tres aussi se en tu l d qu',
  en: 'the and of to in you your we our with for is are will be on at this that these those who what from as an by or it us have has can all their they which would should about into more',
  es: 'el la los las de del y es un una en para con por su sus nosotros usted tu al lo se como mas este esta estos estas son ser tiene muy tambien pero o hay que',
};

/** Each word counted for one language only: a word two languages share ("la", "en", "que") tells nothing. */
const LANGUAGE_OF: ReadonlyMap<string, Locale> = (() => {
  const seen = new Map<string, Locale | null>();
  for (const [locale, list] of Object.entries(COMMON_WORDS) as [Locale, string][]) {
    for (const word of list.split(' ')) seen.set(word, seen.has(word) && seen.get(word) !== locale ? null : locale);
  }
  return new Map([...seen].filter((entry): entry is [string, Locale] => entry[1] !== null));
})();

/** Fewer common words than this in a text and its language is not told. */
export const MIN_COMMON_WORDS = 8;

export interface LanguageGuess {
  /** The language with the most common words; null when the text has fewer than MIN_COMMON_WORDS. */
  language: Locale | null;
  /** How many common words of each language the text has. */
  counts: Record<Locale, number>;
}

/** The language of a text (folded: lower or upper case, without accents). */
export function guessLanguage(folded: string): LanguageGuess {
  const counts: Record<Locale, number> = { fr: 0, en: 0, es: 0 };
  for (const [word] of folded.toLowerCase().matchAll(/\p{L}+/gu)) {
    const locale = LANGUAGE_OF.get(word);
    if (locale !== undefined) counts[locale]++;
  }
  const total = counts.fr + counts.en + counts.es;
  if (total < MIN_COMMON_WORDS) return { language: null, counts };
  const [language] = (Object.entries(counts) as [Locale, number][]).reduce((best, entry) =>
    entry[1] > best[1] ? entry : best,
  );
  return { language, counts };
}

/**
 * True when a text reads as another language than `lang`: another language
 * has the most common words, and `lang` fewer than half as many. A text in
 * `lang` with a version in another beside it (a bilingual ad, which the law
 * allows when the French comes with it) is not.
 */
export function readsAsOtherLanguage(guess: LanguageGuess, lang: Locale): boolean {
  return guess.language !== null && guess.language !== lang && guess.counts[lang] * 2 < guess.counts[guess.language];
}
