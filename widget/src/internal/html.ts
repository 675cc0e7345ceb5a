// The proxy already sanitises offer descriptions; this second, small allowlist
// keeps a compromised or misconfigured proxy from running script on the board.

const allowedTags = new Set([
  'P', 'BR', 'UL', 'OL', 'LI', 'STRONG', 'B', 'EM', 'I', 'U', 'A', 'H3', 'H4', 'H5', 'H6',
  'BLOCKQUOTE', 'SPAN', 'DIV',
]);

function clean(node: Element): void {
  for (const child of [...node.children]) {
    if (!allowedTags.has(child.tagName)) {
      // Keep the text of unknown formatting tags, drop dangerous ones whole.
      if (/^(SCRIPT|STYLE|IFRAME|OBJECT|EMBED|TEMPLATE|svg|math)$/i.test(child.tagName)) child.remove();
      else child.replaceWith(...child.childNodes);
      clean(node);
      return;
    }
    for (const attr of [...child.attributes]) {
      const keep = attr.name === 'href' && child.tagName === 'A' && /^(https?:|mailto:)/i.test(attr.value.trim());
      if (!keep) child.removeAttribute(attr.name);
    }
    if (child.tagName === 'A') {
      child.setAttribute('rel', 'noopener noreferrer');
      child.setAttribute('target', '_blank');
    }
    clean(child);
  }
}

/** A fragment holding the allowed part of `html`, ready to insert. */
export function sanitize(html: string): DocumentFragment {
  const template = document.createElement('template');
  // A template's content belongs to an inert document: nothing loads or runs
  // (no image request, no onerror) while we clean it there.
  template.innerHTML = html;
  const inert = template.content.ownerDocument;
  const holder = inert.createElement('div');
  holder.append(template.content);
  clean(holder);
  const fragment = inert.createDocumentFragment();
  fragment.append(...holder.childNodes);
  return document.importNode(fragment, true);
}
