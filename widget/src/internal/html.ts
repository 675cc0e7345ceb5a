// An offer's HTML as the page shows it: parsed in an inert template through
// the widget's Trusted Types policy (trusted-types.ts), and only its allowed
// part (html-allowlist.ts) built anew in the page. Where the page refused
// that policy, its text, paragraph by paragraph, built without parsing HTML.
import { allowedCopy } from './html-allowlist.ts';
import { parseInert } from './trusted-types.ts';

const BLOCK = /<\/?(?:p|br|li|h\d|div|blockquote)\b[^>]*>/i;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: '\u00a0' };

/** `text` with the character references the proxy writes read; any other left as it is. */
function decode(text: string): string {
  return text.replace(/&(\w+|#39);/g, (whole, name: string) => NAMED[name] ?? whole);
}

/** The text of `html`, one paragraph per block, for a page that refused the widget's policy: no HTML is parsed. */
export function asText(html: string): DocumentFragment {
  const out = document.createDocumentFragment();
  for (const block of html.split(BLOCK)) {
    const text = decode(block.replace(/<[^>]*>?/g, '')).trim();
    if (text !== '') out.appendChild(document.createElement('p')).textContent = text;
  }
  return out;
}

/** A fragment holding the allowed part of `html`, ready to insert. */
export function sanitize(html: string): DocumentFragment {
  const inert = parseInert(html);
  return inert === null ? asText(html) : allowedCopy(inert, document);
}
