// Campaign HTML comes from recruiters' editors and is shown inside a job
// board's page, so it is sanitised once, on the way into the store, with
// sanitize-html and a short allowlist: text structure and links only. No
// scripts, no event handlers, no style attributes or <style> (nothing can
// escape the card), no images or frames, and links only to http(s)/mailto.
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'a', 'hr'],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Dropped with their content: anything executable or stylistic.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'title', 'head'],
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

/** Plain text of HTML, for the search index. */
export function htmlToText(html: string | null | undefined): string {
  if (html === null || html === undefined) return '';
  // Block boundaries become spaces so "<li>Lyon</li><li>Paris</li>" gives two words.
  const spaced = html.replace(/<\/?(p|br|li|ul|ol|h[1-6]|div|blockquote|tr|td|th|hr)\b[^>]*>/gi, ' $&');
  // sanitize-html writes text with &, < and > escaped only (a no-break space as itself, which \s takes).
  return sanitizeHtml(spaced, { allowedTags: [], allowedAttributes: {}, nonTextTags: OPTIONS.nonTextTags })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
