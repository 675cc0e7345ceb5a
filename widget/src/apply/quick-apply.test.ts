// Quick apply and the draft's resume in Chromium, as a candidate meets them:
// a reload keeps the resume chosen; nothing is kept without "Remember me";
// with it, the next offer's form opens filled, with one line; "Forget"
// leaves nothing in IndexedDB. The controller's rules are tested in Node
// (widget/test-node), the store's in device-store.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import '../widget.ts';
import type { JobboardApply } from '../index.ts';
import { chooseFile, maybe, pdf, received, shadow, standIn, type, until } from '../internal/test-support.ts';
import { fillRequired, submit } from './apply.test-support.ts';
import { forgetAll, readProfile } from './device-store.ts';

async function databases(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('jobboard-'));
}

async function open(endpoint: string, campaignId: number, lang = 'en', extra = ''): Promise<JobboardApply> {
  const el = await fixture<JobboardApply>(
    extra
      ? html`<jobboard-apply
          endpoint=${endpoint}
          campaign-id=${campaignId}
          lang=${lang}
          no-quick-apply
        ></jobboard-apply>`
      : html`<jobboard-apply endpoint=${endpoint} campaign-id=${campaignId} lang=${lang}></jobboard-apply>`,
  );
  await until(() => maybe(el, 'form'), 'the form shows');
  await el.updateComplete;
  return el;
}

/** The quick apply line's text, spaces folded. */
const line = (el: JobboardApply) => maybe(el, '.quick-apply')?.textContent?.replace(/\s+/g, ' ').trim();

/** Ticks "Remember me", sends and waits for the outcome and for what is kept. */
async function applyRemembered(el: JobboardApply): Promise<void> {
  shadow<HTMLInputElement>(el, '#remember').click();
  await submit(el);
  await until(() => maybe(el, '#outcome'), 'the application is received');
  // The database exists as soon as it is opened, before the details' write commits: wait for the details themselves.
  await until(async () => (await readProfile()) !== null, 'the details are kept');
}

describe('<jobboard-apply>: quick apply and the draft’s resume', () => {
  beforeEach(() => forgetAll());
  afterEach(async () => {
    sessionStorage.clear();
    await forgetAll();
  });

  it('keeps the resume chosen through a reload, shows it chosen and sends it', async () => {
    const { endpoint, token } = standIn('ok');
    const first = await open(endpoint, 102);
    chooseFile(first, '#resume', pdf('my-cv.pdf', 800));
    await until(async () => (await databases()).includes('jobboard-draft'), 'the resume is kept');
    first.remove();
    const reloaded = await open(endpoint, 102);
    expect(shadow(reloaded, '.file-name').textContent).to.equal('my-cv.pdf');
    await type(reloaded, '#email', 'ada@example.com');
    await type(reloaded, '#first_name', 'Ada');
    await type(reloaded, '#last_name', 'Lovelace');
    shadow<HTMLInputElement>(reloaded, '#consent').click();
    await submit(reloaded);
    await until(() => maybe(reloaded, '#outcome'), 'the application is received');
    expect((await received(token))[0]?.files.resume).to.deep.include({ name: 'my-cv.pdf', size: 800 });
    await until(async () => (await databases()).length === 0, 'the draft’s resume goes with the success');
  });

  it('writes nothing without the opt-in, which is off', async () => {
    const { endpoint } = standIn('ok');
    const el = await open(endpoint, 101);
    expect(shadow<HTMLInputElement>(el, '#remember').checked).to.equal(false);
    await fillRequired(el);
    await submit(el);
    await until(() => maybe(el, '#outcome'), 'the application is received');
    await until(async () => (await databases()).length === 0, 'the draft’s resume goes');
    const next = await open(endpoint, 102);
    expect(maybe(next, '.quick-apply')).to.equal(null);
    expect(shadow<HTMLInputElement>(next, '#email').value).to.equal('');
    expect(await databases()).to.deep.equal([]);
  });

  it('with the opt-in, opens the next offer’s form filled, with one line, and sends it with a tick of the consent', async () => {
    const { endpoint, token } = standIn('ok');
    const first = await open(endpoint, 101, 'fr');
    expect(shadow(first, 'label[for=remember]').textContent).to.equal('Se souvenir de moi sur cet appareil');
    await fillRequired(first);
    await applyRemembered(first);
    const next = await open(endpoint, 102, 'fr');
    expect(line(next)).to.equal('Postuler avec mes informations (Ada L., resume.pdf) · Modifier · Oublier');
    expect(shadow<HTMLInputElement>(next, '#remember').checked).to.equal(true);
    expect(shadow(next, '#email').closest('[hidden]')).to.not.equal(null);
    expect(shadow(next, '#consent').closest('[hidden]')).to.equal(null);
    await expect(next).to.be.accessible();
    shadow<HTMLInputElement>(next, '#consent').click();
    await submit(next);
    await until(() => maybe(next, '#outcome'), 'the second application is received');
    const second = (await received(token))[1]!;
    expect([second.fields.email, second.fields.last_name, second.files.resume?.name]).to.deep.equal([
      'ada@example.com',
      'Lovelace',
      'resume.pdf',
    ]);
  });

  it('Edit shows the kept details for editing, focused', async () => {
    const { endpoint } = standIn('ok');
    const first = await open(endpoint, 101);
    await fillRequired(first);
    await applyRemembered(first);
    const next = await open(endpoint, 102);
    expect(line(next)).to.equal('Apply with my details (Ada L., resume.pdf) · Edit · Forget');
    [...next.shadowRoot!.querySelectorAll<HTMLButtonElement>('.quick-apply button')][0]!.click();
    await next.updateComplete;
    expect(maybe(next, '.quick-apply')).to.equal(null);
    expect(shadow(next, '#email').closest('[hidden]')).to.equal(null);
    expect(next.shadowRoot!.activeElement?.id).to.equal('email');
    expect(shadow<HTMLInputElement>(next, '#first_name').value).to.equal('Ada');
    await expect(next).to.be.accessible();
  });

  it('Forget, on every form, leaves nothing in IndexedDB and empties the form', async () => {
    const { endpoint } = standIn('ok');
    const first = await open(endpoint, 101, 'es');
    await fillRequired(first);
    await applyRemembered(first);
    const next = await open(endpoint, 102, 'es');
    chooseFile(next, '#resume', pdf('other.pdf'));
    await until(async () => (await databases()).length === 2, 'the draft’s resume is kept too');
    const forget = [...next.shadowRoot!.querySelectorAll<HTMLButtonElement>('.quick-apply button')][1]!;
    expect(forget.textContent).to.equal('Olvidar');
    forget.click();
    await until(() => !maybe(next, '.quick-apply'), 'the line goes');
    expect(await databases()).to.deep.equal([]);
    expect(shadow<HTMLInputElement>(next, '#email').value).to.equal('');
    expect(shadow(next, '.file-name').textContent).to.not.contain('.pdf');
    // A form without kept details has its own Forget, by "Remember me".
    const plain = await open(endpoint, 103);
    expect(shadow(plain, '.remember-help button').textContent).to.equal('Forget');
    await expect(plain).to.be.accessible();
  });

  it('has no "Remember me" and reads nothing kept with no-quick-apply', async () => {
    const { endpoint } = standIn('ok');
    const first = await open(endpoint, 101);
    await fillRequired(first);
    await applyRemembered(first);
    const el = await open(endpoint, 102, 'en', 'no-quick-apply');
    expect([maybe(el, '#remember'), maybe(el, '.quick-apply')]).to.deep.equal([null, null]);
    expect(shadow<HTMLInputElement>(el, '#email').value).to.equal('');
  });
});
