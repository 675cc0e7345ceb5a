// An offer's HTML as the page shows it: parsed in an inert template through
// the widget's Trusted Types policy (trusted-types.ts), and only its allowed
// part (html-allowlist.ts) built anew in the page. Where the page refused
// that policy, its text, paragraph by paragraph, built without parsing HTML.
import { allowedCopy } from './html-allowlist.ts';
import { parseInert } from './trusted-types.ts';

const BLOCK = /<\/?(?:p|br|li|ul|ol|h[1-6]|div|blockquote|hr)\b[^>]*>/i;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** `text` with its character references read (the proxy writes &amp; &lt; &gt; &quot;); any other left as it is. */
function decode(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
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
