// An offer's text as the checks read it: title, description and profile as
// plain text, and a copy without accents of the same length, so that a
// pattern written without accents matches "âge" and "age" alike and the
// words it matched are quoted from the text itself, at the same place.
import { htmlToText } from '../sanitize.ts';
import type { CatalogueCampaign } from '../types.ts';

export interface OfferText {
  /** The text, in Unicode's composed form, apostrophes as ', spaces single: what quotes are taken from. */
  text: string;
  /** `text` without accents, character for character (same length, same places). */
  folded: string;
}

/**
 * Strips the accent of each letter that has one (é → e, Â → A), leaving any
 * other character, so that the copy keeps the text's length. Lower case is
 * left to the patterns' `i` flag: toLowerCase may change a length (İ).
 */
function foldAccents(text: string): string {
  return text.replace(/[\u00c0-\uffff]/g, (ch) => {
    const base = ch.normalize('NFD').replace(/\p{M}+/gu, '');
    return base.length === 1 ? base : ch;
  });
}

/** Text of one piece: composed characters, typographic apostrophes as ', runs of spaces as one. */
export function offerTextOf(pieces: readonly (string | null)[]): OfferText {
  const text = pieces
    .filter((p): p is string => p !== null && p.trim() !== '')
    .join('\n')
    .normalize('NFC')
    .replace(/[’ʼ‘`´]/g, "'")
    .replace(/[^\S\n]+/g, ' ');
  return { text, folded: foldAccents(text) };
}

/** What an offer says: its title, description and profile (HTML taken out). */
export function offerText(c: CatalogueCampaign): OfferText {
  return offerTextOf([c.name, htmlToText(c.description), htmlToText(c.profile)]);
}

/** The words at `index` of `text`, quoted short: at most `max` characters, cut with an ellipsis. */
export function quote(text: string, index: number, length: number, max = 60): string {
  const words = text
    .slice(index, index + length)
    .replace(/\s+/g, ' ')
    .trim();
  return `"${words.length <= max ? words : `${words.slice(0, max - 1).trimEnd()}…`}"`;
}
