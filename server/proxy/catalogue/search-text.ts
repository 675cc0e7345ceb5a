// What a campaign is found by: the words of its name, company, place, type
// and texts, folded, as the store keeps them for search.
import { htmlToText } from './sanitize.ts';
import type { CatalogueCampaign } from './types.ts';

/** Lower case without accents, so "developpeur" finds "Développeur". */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** The folded text a campaign is searched in. */
export function searchText(c: CatalogueCampaign): string {
  return foldForSearch([c.name, c.company_name, c.city, c.country, c.job_type, htmlToText(c.description), htmlToText(c.profile)].filter(Boolean).join(' \n '));
}
