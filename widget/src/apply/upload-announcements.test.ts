// Upload problems are said in the form's live region (role=status), not only
// shown: a resume refused as it is chosen, and a failed upload, whose last
// words there were its progress.
import { expect } from '@open-wc/testing';
import '../widget.ts';
import { activeInside, chooseFile, pdf, shadow, until } from '../internal/test-support.ts';
import { fillRequired, form, submit, text } from './apply.test-support.ts';

const said = (el: Element) => shadow(el, '[role=status]').textContent ?? '';

describe('<jobboard-apply>: upload problems said to screen readers', () => {
  it('says a resume that is too large as soon as it is chosen', async () => {
    const { el } = await form('small', 'fr');
    chooseFile(el, '#resume', pdf('big.pdf', 5000));
    await el.updateComplete;
    expect(said(el)).to.contain(text.tooLarge.fr);
  });

  it('says a lost connection, in place of the upload progress', async () => {
    const { el } = await form('drop', 'es');
    await fillRequired(el);
    await submit(el);
    await until(() => activeInside(el)?.id === 'error-summary');
    expect(said(el)).to.contain(text.lost.es);
    expect(said(el)).not.to.match(/%/);
  });

  it("says the service's refusal of the resume's size, with the form's problem", async () => {
    const { el } = await form('too-large');
    await fillRequired(el);
    await submit(el);
    await until(() => activeInside(el)?.id === 'error-summary');
    expect(said(el)).to.contain('The form has problems. Correct them and send it again.');
    expect(said(el)).to.contain(text.tooLarge.en);
  });

  it('says a cancelled upload', async () => {
    const { el } = await form('hang');
    await fillRequired(el);
    await submit(el);
    await until(() => el.shadowRoot!.querySelector('.uploading button'));
    shadow(el, '.uploading button').click();
    await until(() => activeInside(el)?.id === 'error-summary');
    expect(said(el)).to.contain(text.cancelled.en);
  });
});
