// The widget's Trusted Types policy, in Chromium (which has Trusted Types),
// and the plain text an offer's HTML is shown as where a page refused it. A
// page that refuses it, or takes its name first, under a real
// Content-Security-Policy: test/e2e/strict-csp-board.test.ts.
import { expect } from '@open-wc/testing';
import { asText } from './html.ts';
import { parseInert, trusted } from './trusted-types.ts';

/** The markup of a fragment. */
function markupOf(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

describe('the Trusted Types policy jobboard-connector', () => {
  it('makes trusted HTML of only the allowed part of what it is given: no handler, script or image reaches a sink through it', () => {
    const made = trusted()!.createHTML(
      '<img src=x onerror="alert(1)"><p onclick="x()">Hello <em>you</em></p><script>alert(2)</script><a href="javascript:alert(3)">x</a>',
    );
    expect(
      (window as unknown as { trustedTypes: { isHTML(value: unknown): boolean } }).trustedTypes.isHTML(made),
    ).to.equal(true);
    expect(String(made)).to.equal('<p>Hello <em>you</em></p><a rel="noopener noreferrer" target="_blank">x</a>');
  });

  it('parses raw HTML only in an inert template: nothing in it loads or runs', async () => {
    let loaded = false;
    (window as unknown as { markLoaded: () => void }).markLoaded = () => (loaded = true);
    const inert = parseInert(
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="markLoaded()" onerror="markLoaded()"><p>text</p>',
    )!;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(loaded).to.equal(false);
    expect(inert.querySelector('p')?.textContent).to.equal('text');
    expect(inert.ownerDocument).not.to.equal(document);
  });

  it('after a parse, gives no raw HTML through again', () => {
    parseInert('<p>one</p>');
    expect(String(trusted()!.createHTML('<b onmouseover="x()">b</b><svg onload="x()"></svg>'))).to.equal('<b>b</b>');
  });
});

describe("an offer's HTML as text (the page refused the policy)", () => {
  it('shows one paragraph per block, with no tag, and its text as written (the references the proxy writes read)', () => {
    const text = asText(
      '<h3>Role</h3><p>Build <strong>things</strong> &amp; fix &lt;them&gt;</p><ul><li>Paris&nbsp;Lyon</li><li>&quot;ok&quot; &#39;yes&#39;</li></ul>x<br>y<img src=x onerror="alert(1)">',
    );
    expect(markupOf(text)).to.equal(
      '<p>Role</p><p>Build things &amp; fix &lt;them&gt;</p><p>Paris&nbsp;Lyon</p><p>"ok" \'yes\'</p><p>x</p><p>y</p>',
    );
  });

  it('leaves a reference it does not know as it is written, and drops a tag left open', () => {
    expect(markupOf(asText('&eacute; &#38; &AMP;<b'))).to.equal('<p>&amp;eacute; &amp;#38; &amp;AMP;</p>');
  });

  it('builds only paragraphs of text: a script in the description is text, never an element', () => {
    const text = asText('<p><script>alert(1)</script></p>');
    expect(text.querySelector('script')).to.equal(null);
    expect(text.textContent).to.equal('alert(1)');
  });
});
