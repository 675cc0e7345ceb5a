// The board's CSS stays out: the inherited text properties a host page sets
// on its body (centred, italic, spaced, upper case) do not reach the text
// inside the elements' shadow roots; the documented custom properties still do.
import { expect } from '@open-wc/testing';
import '../widget.ts';
import { fillRequired, form, submit } from '../apply/apply.test-support.ts';
import { list, open } from '../campaigns/campaigns.test-support.ts';
import { maybe, until } from './test-support.ts';

/** What a board's stylesheet may set on its body, and each property's value in the widget whatever the page says. */
const BOARD = `body {
  text-align: center; font-style: italic; font-weight: 700; letter-spacing: 3px; word-spacing: 9px;
  text-transform: uppercase; text-indent: 4em; white-space: pre; text-shadow: 1px 1px red; line-height: 3;
  --jobboard-color-text: rgb(1, 2, 3);
}`;
const UNTOUCHED: Record<string, string> = {
  textAlign: 'start',
  fontStyle: 'normal',
  fontWeight: '400',
  letterSpacing: 'normal',
  wordSpacing: '0px',
  textTransform: 'none',
  textIndent: '0px',
  whiteSpace: 'normal',
  textShadow: 'none',
};

function styleOf(element: Element): Record<string, string> {
  const computed = getComputedStyle(element) as unknown as Record<string, string>;
  return Object.fromEntries(Object.keys(UNTOUCHED).map((name) => [name, computed[name]!]));
}

describe("the board's CSS", () => {
  let sheet: HTMLStyleElement;
  beforeEach(() => {
    sheet = document.createElement('style');
    sheet.textContent = BOARD;
    document.head.append(sheet);
  });
  afterEach(() => sheet.remove());

  it('does not centre, slant, space or capitalise the offers and the opened offer', async () => {
    const { el } = await list();
    expect(styleOf(el.shadowRoot!.querySelector('[part=offer]')!), 'an offer in the list').to.deep.equal(UNTOUCHED);
    await open(el);
    const detail = el.shadowRoot!.querySelector('[part=detail]')!;
    expect(styleOf(detail), 'the opened offer').to.deep.equal(UNTOUCHED);
    // Its line height is the widget's, and a documented theme property still reaches it.
    expect(getComputedStyle(detail).lineHeight).to.not.equal(getComputedStyle(document.body).lineHeight);
    expect(getComputedStyle(detail).color).to.equal('rgb(1, 2, 3)');
  });

  it("does not centre the apply form's outcome box", async () => {
    const { el } = await form('ok');
    expect(styleOf(el.shadowRoot!.querySelector('form')!), 'the form').to.deep.equal(UNTOUCHED);
    await fillRequired(el);
    await submit(el);
    await until(() => maybe(el, '[part=outcome].success'), 'the application is received');
    const outcome = el.shadowRoot!.querySelector('[part=outcome]')!;
    expect(styleOf(outcome.querySelector('p')!), 'the outcome').to.deep.equal(UNTOUCHED);
  });
});
