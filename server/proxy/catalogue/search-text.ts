// What a campaign is found by, and how a candidate's words become a full-text
// query: the store indexes each campaign's title, company and the rest of its
// texts (SQLite FTS5, accents and case folded by its tokenizer), and the
// candidate's input is never handed to FTS5 as query syntax.
import { htmlToText } from './sanitize.ts';
import type { CatalogueCampaign } from './types.ts';

/** Lower case without accents, so "developpeur" finds "Développeur". */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** The texts a campaign is searched in, by column of the full-text index: a match in the title ranks above one in the company, above one in the rest. */
export function searchColumns(c: CatalogueCampaign): { title: string; company: string; body: string } {
  const body = [c.city, c.country, c.job_type, c.working_time, htmlToText(c.description), htmlToText(c.profile)].filter(Boolean).join(' \n ');
  return { title: c.name ?? '', company: c.company_name ?? '', body };
}

/** Words in a search, at most: a longer query adds cost, not precision. */
const MAX_SEARCH_WORDS = 10;

/** A candidate's search as words (letters and digits, as the index's tokenizer splits them), folded: none when it is only punctuation. */
export function searchWords(q: string): string[] {
  return foldForSearch(q).match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_SEARCH_WORDS) ?? [];
}

/**
 * The FTS5 MATCH expression for a candidate's search words, all required,
 * or null when it has none. Each word is a prefix ("dev" finds
 * "Développeur"), written as the terms of the index it starts when
 * `termsOf` (by position) gives them (matching those terms is cheaper than a prefix,
 * which FTS5 merges into one list first), or as a prefix query otherwise.
 * Only words and terms, quoted, reach FTS5: no operator, column filter or
 * quote of the input, so no input is a syntax error.
 */
export function matchExpression(words: readonly string[], termsOf: readonly (readonly string[] | undefined)[] = []): string | null {
  if (words.length === 0) return null;
  const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`;
  return words
    .map((word, i) => {
      const terms = termsOf[i];
      if (terms === undefined || terms.length === 0) return `${quoted(word)}*`;
      return terms.length === 1 ? quoted(terms[0]!) : `(${terms.map(quoted).join(' OR ')})`;
    })
    .join(' AND ');
}
