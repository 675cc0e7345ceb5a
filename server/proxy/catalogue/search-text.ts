// What a campaign is found by, and how a candidate's words become a full-text
// query: the store indexes each campaign's title, company and the rest of its
// texts (SQLite FTS5, accents and case folded by its tokenizer), and the
// candidate's input is never handed to FTS5 as query syntax.
import { htmlToText } from './sanitize.ts';
import type { CatalogueCampaign } from './types.ts';

/** Lower case without accents, so "developpeur" finds "Développeur". */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The texts a campaign is searched in, by column of the full-text index: a match in the title ranks above one in the company, above one in the rest. */
export function searchColumns(c: CatalogueCampaign): { title: string; company: string; body: string } {
  const body = [c.city, c.country, c.job_type, c.working_time, htmlToText(c.description), htmlToText(c.profile)]
    .filter(Boolean)
    .join(' \n ');
  return { title: c.name ?? '', company: c.company_name ?? '', body };
}

/**
 * Words in a search, at most: a longer query adds cost, not precision. Each
 * word must begin a word of the offer, so every word is one more list of
 * matches the index walks.
 */
export const MAX_SEARCH_WORDS = 5;

/**
 * The shortest word searched for. A one-letter prefix ("a"*) matches most of
 * the index's words, which the index holds no list for: each such word cost a
 * merge of them all. A one-letter word finds little a candidate wants ("C",
 * "R"), so it is dropped rather than matched.
 */
export const MIN_SEARCH_WORD_LENGTH = 2;

/**
 * The words of a candidate's search as the index is searched for them:
 * folded, split on what is not a letter or digit (as the index's tokenizer
 * splits), words shorter than MIN_SEARCH_WORD_LENGTH dropped, the first
 * MAX_SEARCH_WORDS kept.
 */
function searchWords(q: string): string[] {
  const words = foldForSearch(q).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => [...w].length >= MIN_SEARCH_WORD_LENGTH).slice(0, MAX_SEARCH_WORDS);
}

/**
 * The FTS5 MATCH expression for a candidate's search, or null when it has no
 * word to search (only punctuation, or only one-letter words). Each word is
 * quoted and a prefix ("dev" finds "Développeur"), all required: no
 * operator, column filter or quote of the input reaches FTS5, so no input is
 * a syntax error.
 */
export function matchExpression(q: string): string | null {
  const words = searchWords(q);
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ');
}

/**
 * A search's time budget, in milliseconds of the store's work: a search that
 * would take longer is stopped and refused. The words, their number and the
 * ranked matches are bounded first; the budget catches what those bounds
 * miss, so that no search holds the process (and every request behind it)
 * for long.
 */
export const SEARCH_BUDGET_MS = 50;

/** Thrown by the store when a search spent its time budget: answered 422 naming what made it costly, its words (q) or its place (near). */
export class SearchOverBudgetError extends Error {
  readonly budgetMs: number;
  readonly field: 'q' | 'near';

  constructor(budgetMs: number, field: 'q' | 'near') {
    super(`the search took more than its ${budgetMs} ms budget and was stopped`);
    this.name = 'SearchOverBudgetError';
    this.budgetMs = budgetMs;
    this.field = field;
  }
}
