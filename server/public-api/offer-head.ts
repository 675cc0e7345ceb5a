// The tags of an offer's page in the document's head, for links shared in
// chats and social networks (Open Graph, Twitter card) and for search engines
// (title, description, canonical URL): built from the offer's JobPosting, the
// one list GET /embed/campaigns/head writes for boards that render on their
// server and the widget sets while it shows the offer.
// No imports: the widget's bundle takes this module.

/**
 * One tag: the attribute that names it and its name (its key in the head),
 * then its value: a <link rel href> for `rel`, else a <meta … content>.
 */
export type HeadTag = [attribute: 'name' | 'property' | 'rel', name: string, value: string];

/** The element and its value's attribute, for a tag's naming attribute. */
export const elementOf = (attribute: HeadTag[0]): ['link', 'href'] | ['meta', 'content'] =>
  attribute === 'rel' ? ['link', 'href'] : ['meta', 'content'];

export interface OfferHead {
  title: string;
  tags: HeadTag[];
}

/** What the head is built from: the offer's JobPosting (GET /api/campaigns/:id/jobposting). */
export interface HeadPosting {
  title: string;
  description: string;
  hiringOrganization: { name: string };
  url?: string;
  /** The board's image for its offers (BOARD_OG_IMAGE): the link preview's picture. */
  image?: string;
}

/** The description's length: what search results and link previews show. */
export const DESCRIPTION_MAX = 160;

/** The references sanitised HTML holds: sanitize-html writes these alone, every other character as it is. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/** The sanitised HTML as plain text on one line, cut at a word within DESCRIPTION_MAX characters. */
export function plainDescription(html: string): string {
  const text = html
    // Inline tags join their words ("<strong>things</strong>."); the others part them.
    .replace(/<\/?(a|b|em|i|s|strong|u)\b[^>]*>/gi, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim();
  // Cut at the last word that fits, with an ellipsis.
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX).replace(/\s*\S*$/, '')}…` : text;
}

/** The offer's title and head tags; the URL ones only when the JobPosting has a url (BOARD_OFFER_URL), og:image when it has an image (BOARD_OG_IMAGE). */
export function offerHead(posting: HeadPosting): OfferHead {
  const title = `${posting.title} – ${posting.hiringOrganization.name}`;
  const description = plainDescription(posting.description);
  const url = posting.url;
  const tags: HeadTag[] = [
    ['name', 'description', description],
    ['property', 'og:type', 'website'],
    ['name', 'twitter:card', 'summary'],
  ];
  if (url) tags.push(['rel', 'canonical', url], ['property', 'og:url', url]);
  if (posting.image) tags.push(['property', 'og:image', posting.image]);
  for (const [attribute, prefix] of [
    ['property', 'og:'],
    ['name', 'twitter:'],
  ] as const)
    tags.push([attribute, `${prefix}title`, title], [attribute, `${prefix}description`, description]);
  return { title, tags };
}
