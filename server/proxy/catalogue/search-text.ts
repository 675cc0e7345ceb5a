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

/**
 * The FTS5 MATCH expression for a candidate's search, or null when it has no
 * word (only punctuation). Built from its words alone (letters and digits,
 * as the index's tokenizer splits them), each quoted and a prefix ("dev"
 * finds "Développeur"), all required: no operator, column filter or quote of
 * the input reaches FTS5, so no input is a syntax error.
 */
export function matchExpression(q: string): string | null {
  const words = foldForSearch(q).match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_SEARCH_WORDS) ?? [];
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ');
}
