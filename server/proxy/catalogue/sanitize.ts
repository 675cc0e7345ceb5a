// Campaign HTML comes from recruiters' editors and is shown inside a job
// board's page, so it is sanitised once, on the way into the store, with
// sanitize-html and a short allowlist: text structure and links only. No
// scripts, no event handlers, no style attributes or <style> (nothing can
// escape the card), no images or frames, and links only to http(s)/mailto.
import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'a',
  'hr',
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Dropped with their content: anything executable or stylistic.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'template',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
    'title',
    'head',
  ],
  disallowedTagsMode: 'discard',
  transformTags: {
    // The card owns the page's top headings; the description's start at h3.
    h1: 'h3',
    h2: 'h3',
    // Links open elsewhere and give the target no handle on the board's page.
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...(attribs.href !== undefined ? { href: attribs.href } : {}),
        rel: 'noopener noreferrer nofollow ugc',
        target: '_blank',
      },
    }),
  },
};

/** Sanitised HTML of a campaign field; null stays null, blank becomes null. */
export function sanitizeCampaignHtml(html: string | null | undefined): string | null {
  if (html === null || html === undefined) return null;
  const clean = sanitizeHtml(html, OPTIONS).trim();
  return clean === '' ? null : clean;
}

/** Block boundaries become spaces so "<li>Lyon</li><li>Paris</li>" gives two words. */
const BLOCK_TAG = /<\/?(p|br|li|ul|ol|h[1-6]|div|blockquote|tr|td|th|hr)\b[^>]*>/gi;

/**
 * HTML as sanitizeCampaignHtml writes it: tags of its allowlist with quoted
 * attribute values (&, <, > and " escaped), text with &, < and > escaped.
 */
const SANITIZED_SHAPE = new RegExp(
  `^(?:[^<>&]|&(?:amp|lt|gt);|</?(?:${ALLOWED_TAGS.join('|')})(?: [a-z]+="[^"<>]*")*(?: /)?>)*$`,
);

/** True when the HTML has the shape sanitizeCampaignHtml writes (every stored description has): its text is read without a parser. */
export function hasSanitizedShape(html: string): boolean {
  return SANITIZED_SHAPE.test(html);
}

/** Plain text of any HTML, through sanitize-html's parser. */
export function parsedText(html: string | null | undefined): string {
  return htmlText(html, false);
}

/** Plain text of HTML, for the search index. */
export function htmlToText(html: string | null | undefined): string {
  // The parser is most of a catalogue write's time: sanitised HTML needs none to drop its tags.
  return htmlText(html, true);
}

function htmlText(html: string | null | undefined, shortcut: boolean): string {
  if (html === null || html === undefined) return '';
  const spaced = html.replace(BLOCK_TAG, ' $&');
  const text =
    shortcut && hasSanitizedShape(html)
      ? spaced.replace(/<[^>]*>/g, '')
      : sanitizeHtml(spaced, { allowedTags: [], allowedAttributes: {}, nonTextTags: OPTIONS.nonTextTags });
  // sanitize-html writes text with &, < and > escaped only (a no-break space as itself, which \s takes).
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}
