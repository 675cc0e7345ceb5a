// The widget's own allowlist of an offer's HTML: the proxy already sanitises
// offer descriptions; this second, small allowlist keeps a compromised or
// misconfigured proxy from running script on the board. It copies the
// allowed part of a parsed tree; where the text is parsed is html.ts's and
// trusted-types.ts's concern.

const ALLOWED = /^(P|BR|UL|OL|LI|STRONG|B|EM|I|U|A|H[3-6]|BLOCKQUOTE|SPAN|DIV)$/;

const DANGEROUS = /^(SCRIPT|STYLE|IFRAME|OBJECT|EMBED|TEMPLATE|svg|math)$/i;

/**
 * The allowed part of `source`, built anew in `doc`: each node is visited once
 * and each kept one appended once (moving nodes instead costs a walk of their
 * subtree per move, and a description of 25,000 tags must take milliseconds).
 * An unknown formatting tag gives way to its children; dangerous ones go whole.
 */
export function allowedCopy(source: Node, doc: Document): DocumentFragment {
  const out = doc.createDocumentFragment();
  const stack: [Node, Node][] = [...source.childNodes].reverse().map((child) => [child, out]);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, parent] = next;
    if (node.nodeType === Node.TEXT_NODE) {
      parent.appendChild(doc.createTextNode(node.nodeValue ?? ''));
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const el = node as Element;
    if (DANGEROUS.test(el.tagName)) continue;
    let into = parent;
    if (ALLOWED.test(el.tagName)) {
      const copy = doc.createElement(el.tagName);
      const href = el.tagName === 'A' ? el.getAttribute('href')?.trim() : undefined;
      if (href !== undefined && /^(https?:|mailto:)/i.test(href)) copy.setAttribute('href', href);
      if (el.tagName === 'A') {
        copy.setAttribute('rel', 'noopener noreferrer');
        copy.setAttribute('target', '_blank');
      }
      parent.appendChild(copy);
      into = copy;
    }
    for (let i = el.childNodes.length - 1; i >= 0; i -= 1) stack.push([el.childNodes[i]!, into]);
  }
  return out;
}
