// The tags of an offer's page in the document's head, for links shared in
// chats and social networks (Open Graph, Twitter card) and for search engines
// (title, description, canonical URL): built from the offer's JobPosting, the
// one list GET /embed/campaigns/head writes for boards that render on their
// server and the widget sets while it shows the offer.
// No imports: the widget's bundle takes this module.

/** One tag: the attribute that names it (its key in the head) and the one that carries its value. */
export interface HeadTag {
  tag: 'meta' | 'link';
  key: [name: 'name' | 'property' | 'rel', value: string];
  value: [name: 'content' | 'href', value: string];
}

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
}

/** The description's length: what search results and link previews show. */
export const DESCRIPTION_MAX = 160;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The sanitised HTML as plain text on one line, cut at a word within DESCRIPTION_MAX characters. */
export function plainDescription(html: string): string {
  const text = html
    // Inline tags join their words ("<strong>things</strong>."); the others part them.
    .replace(/<\/?(a|b|em|i|s|strong|u)\b[^>]*>/gi, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x?[\da-f]+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= DESCRIPTION_MAX) return text;
  const cut = text.slice(0, DESCRIPTION_MAX - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > DESCRIPTION_MAX / 2 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

/** The offer's title and head tags; the URL ones only when the JobPosting has a url (BOARD_OFFER_URL). */
export function offerHead(posting: HeadPosting): OfferHead {
  const title = `${posting.title} – ${posting.hiringOrganization.name}`;
  const description = plainDescription(posting.description);
  const meta = (key: HeadTag['key'], content: string): HeadTag => ({ tag: 'meta', key, value: ['content', content] });
  const url = posting.url;
  return {
    title,
    tags: [
      meta(['name', 'description'], description),
      ...(url ? [{ tag: 'link', key: ['rel', 'canonical'], value: ['href', url] } satisfies HeadTag] : []),
      meta(['property', 'og:type'], 'website'),
      meta(['property', 'og:title'], title),
      meta(['property', 'og:description'], description),
      ...(url ? [meta(['property', 'og:url'], url)] : []),
      meta(['name', 'twitter:card'], 'summary'),
      meta(['name', 'twitter:title'], title),
      meta(['name', 'twitter:description'], description),
    ],
  };
}
