import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardApply } from '../index.ts';
import { receiptLink } from './application-controller.ts';
import {
  activeInside,
  locales,
  maybe,
  received,
  shadow,
  standIn,
  tick,
  type,
  until,
} from '../internal/test-support.ts';
import { fillRequired, form, sendAndRead, sentForm, submit, text } from './apply.test-support.ts';
import type { Lang } from './apply.test-support.ts';

describe('<jobboard-apply>: sending', () => {
  describe('sending', () => {
    for (const lang of locales) {
      it(`shows accessible upload progress and a cancel button in ${lang}`, async () => {
        const { el } = await sentForm('hang', lang);
        await until(() => maybe(el, 'progress'), 'the progress bar shows');
        await expect(el).to.be.accessible();
        expect(shadow<HTMLFieldSetElement>(el, 'fieldset.plain').disabled).to.equal(true);
        shadow(el, '.uploading button').click();
        await until(() => maybe(el, 'button[type=submit]'));
      });
    }

    it('reports real upload progress with jobboard-upload-progress, without personal data', async () => {
      const { el } = await form('hang');
      await fillRequired(el);
      const events: CustomEvent[] = [];
      document.addEventListener('jobboard-upload-progress', (e) => events.push(e as unknown as CustomEvent));
      await submit(el);
      await until(() => shadow<HTMLProgressElement>(el, 'progress').value === 100, 'the upload completes');
      const last = events.at(-1)!;
      expect(last.detail.campaignId).to.equal(101);
      expect(last.detail.loaded).to.equal(last.detail.total);
      expect(last.detail.total).to.be.above(600);
      expect(Object.keys(last.detail)).to.have.members(['campaignId', 'loaded', 'total']);
      shadow(el, '.uploading button').click();
    });

    it('when the candidate cancels, stops the upload, says it was not sent and fires upload_cancelled', async () => {
      const { el } = await sentForm('hang');
      await until(() => maybe(el, '.uploading button'));
      const error = oneEvent(el, 'jobboard-apply-error');
      shadow(el, '.uploading button').focus();
      await sendKeys({ press: 'Enter' });
      expect((await error).detail).to.deep.equal({ campaignId: 101, code: 'upload_cancelled' });
      await until(() => activeInside(el)?.id === 'error-summary');
      expect(shadow(el, '#error-summary').textContent).to.contain(text.cancelled.en);
    });

    it('fires jobboard-apply-submit with only the campaign id', async () => {
      const { el } = await form('slow');
      await fillRequired(el);
      const submitted = oneEvent(el, 'jobboard-apply-submit');
      await submit(el);
      const event = await submitted;
      expect(event.detail).to.deep.equal({ campaignId: 101 });
      expect(event.bubbles && event.composed).to.equal(true);
      await until(() => maybe(el, '#outcome'));
    });

    it('announces progress and outcome in a live region', async () => {
      const { el } = await sentForm('slow');
      await until(() => maybe(el, 'progress'));
      const status = shadow(el, '[role=status]');
      expect(status.textContent).to.match(/Sending your application|Upload/);
      await until(() => maybe(el, '#outcome'));
      expect(status.textContent).to.contain('Application received');
    });
  });

  describe('received (201 and 202)', () => {
    for (const lang of locales) {
      it(`on 201 shows an accessible "application received" state that takes focus, in ${lang}`, async () => {
        const { el } = await sentForm('ok', lang);
        await until(() => activeInside(el)?.id === 'outcome', 'the outcome takes focus');
        await expect(el).to.be.accessible();
        expect(shadow(el, '#outcome').textContent).to.contain(text.received[lang]);
        expect(shadow(el, '#outcome').textContent).not.to.contain(text.queued[lang]);
      });

      it(`on 202 also says it will be transmitted shortly, in ${lang}`, async () => {
        const { el } = await sentForm('queued', lang);
        await until(() => maybe(el, '#outcome'));
        await expect(el).to.be.accessible();
        expect(shadow(el, '#outcome').textContent).to.contain(text.received[lang]).and.contain(text.queued[lang]);
      });
    }

    it("links the candidate to their receipt on the proxy, a root-relative link resolved on the proxy's origin", async () => {
      const receiptOf = async (scenario: string, lang: Lang) => {
        const { el } = await sentForm(scenario, lang);
        await until(() => maybe(el, '#outcome'));
        return el.shadowRoot!.querySelector<HTMLAnchorElement>('#outcome a[part=receipt]');
      };
      const fromRoot = await receiptOf('ok', 'fr');
      expect(fromRoot?.href).to.equal(`${location.origin}/applications/receipt/tok-1`);
      expect(fromRoot?.textContent).to.equal('Suivre votre candidature');
      expect((await receiptOf('queued', 'en'))?.href).to.equal('https://jobs.example/applications/receipt/tok-2');
      expect(await receiptOf('slow', 'en'), 'no link from a proxy that gives none').to.equal(null);
    });

    it("resolves a root-relative receipt link on the endpoint's origin, not the page's, and takes only http(s)", () => {
      expect(receiptLink('/applications/receipt/t', 'https://proxy.example/jobs')).to.equal(
        'https://proxy.example/applications/receipt/t',
      );
      expect(receiptLink('https://jobs.example/applications/receipt/t', '/jobs')).to.equal(
        'https://jobs.example/applications/receipt/t',
      );
      expect(receiptLink('/applications/receipt/t', '/jobs')).to.equal(`${location.origin}/applications/receipt/t`);
      expect(receiptLink('javascript:alert(1)', 'https://proxy.example')).to.equal(null);
      expect(receiptLink(undefined, 'https://proxy.example')).to.equal(null);
      // A scheme that only ends like http:, and a link no URL can be made of.
      expect(receiptLink('nothttp://jobs.example/receipt', 'https://proxy.example')).to.equal(null);
      expect(receiptLink('https://[receipt', 'https://proxy.example')).to.equal(null);
    });

    it('titles the outcome with an h2 by default, or at the level heading-level gives', async () => {
      const outcomeHeading = async (el: JobboardApply) => {
        await fillRequired(el);
        await submit(el);
        await until(() => activeInside(el)?.id === 'outcome', 'the outcome takes focus');
        return shadow(el, '#outcome > :is(h1, h2, h3, h4, h5, h6)').localName;
      };
      expect(await outcomeHeading((await form('ok')).el)).to.equal('h2');
      expect(await outcomeHeading((await form('ok', 'en', { 'heading-level': '9' })).el)).to.equal('h2');
      expect(await outcomeHeading((await form('ok', 'en', { 'heading-level': '5' })).el)).to.equal('h5');
    });

    it('inside a page section under an h3, with heading-level="4", keeps the page outline in order, accessibly', async () => {
      const { endpoint } = standIn('ok');
      const page = await fixture<HTMLElement>(
        html`<section>
          <h2>Jobs</h2>
          <h3>Apply</h3>
          <jobboard-apply endpoint=${endpoint} campaign-id="101" lang="fr" heading-level="4" no-draft></jobboard-apply>
        </section>`,
      );
      const el = page.querySelector('jobboard-apply')!;
      await until(() => maybe(el, 'form'), 'the form shows');
      await fillRequired(el);
      await submit(el);
      await until(() => activeInside(el)?.id === 'outcome', 'the outcome takes focus');
      await expect(page).to.be.accessible();
      expect(shadow(el, '#outcome h4').textContent).to.contain(text.received.fr);
    });

    it('sends the multipart form with an idempotency key, the language and the consent', async () => {
      const { el, token } = await form('ok', 'es');
      await fillRequired(el);
      await type(el, '#phone_number', '612345678');
      await type(el, '#cover_letter', 'Hola');
      await tick(el, '#is_campaign_alert_active');
      const sent = await sendAndRead(el, token);
      expect(sent.idempotencyKey).to.match(/^[0-9a-f-]{36}$/);
      expect(sent.fields).to.deep.equal({
        email: 'ada@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone_code: '+34',
        phone_number: '612345678',
        cover_letter: 'Hola',
        is_legals_accepted_by_manager: 'true',
        is_campaign_alert_active: 'true',
        website: '',
        campaign_id: '101',
        locale: 'es',
      });
      expect(sent.files.resume).to.deep.include({ name: 'resume.pdf', type: 'application/pdf' });
    });

    it('leaves out what the candidate did not give: no resume part without a file, no phone code without a number', async () => {
      // The proxy of this scenario takes the form without a resume or a first name.
      const { el, token } = await form('lenient');
      await type(el, '#email', 'ada@example.com');
      await type(el, '#last_name', 'Lovelace');
      await tick(el, '#consent');
      const sent = await sendAndRead(el, token);
      expect(sent.files).to.deep.equal({});
      expect(sent.fields).to.deep.equal({
        email: 'ada@example.com',
        last_name: 'Lovelace',
        is_legals_accepted_by_manager: 'true',
        website: '',
        campaign_id: '101',
        locale: 'en',
      });
    });

    it('fires jobboard-apply-success with the campaign id and delivered or queued', async () => {
      for (const [scenario, status] of [
        ['ok', 'delivered'],
        ['queued', 'queued'],
      ] as const) {
        const { el } = await form(scenario);
        await fillRequired(el);
        const success = oneEvent(el, 'jobboard-apply-success');
        await submit(el);
        expect((await success).detail).to.deep.equal({ campaignId: 101, status });
      }
    });
  });

  describe('refusals', () => {
    for (const lang of locales) {
      it(`on 409 says the candidate already applied, accessibly, in ${lang}`, async () => {
        const { el } = await form('conflict', lang);
        await fillRequired(el);
        const error = oneEvent(el, 'jobboard-apply-error');
        await submit(el);
        expect((await error).detail).to.deep.equal({ campaignId: 101, code: 'already_applied' });
        await until(() => activeInside(el)?.id === 'outcome');
        await expect(el).to.be.accessible();
        expect(shadow(el, '#outcome').textContent).to.contain(text.already[lang]);
      });

      it(`on 422 puts each error on its field and focuses the summary, in ${lang}`, async () => {
        const { el } = await form('invalid', lang);
        await fillRequired(el);
        await type(el, '#phone_number', '0600');
        await submit(el);
        await until(() => activeInside(el)?.id === 'error-summary');
        await expect(el).to.be.accessible();
        expect(shadow(el, '#email-error').textContent).to.contain(text.invalidEmail[lang]);
        expect(shadow(el, '#phone_number').getAttribute('aria-invalid')).to.equal('true');
        expect(el.shadowRoot!.querySelectorAll('#error-summary li').length).to.equal(2);
      });
    }

    for (const [lang, wrongFile] of [
      ['en', 'This file is not a real PDF: its content is XLSX.'],
      ['fr', 'Ce fichier n’est pas un vrai PDF : son contenu est au format XLSX.'],
      ['es', 'Este archivo no es un PDF auténtico: su contenido está en formato XLSX.'],
    ] as const) {
      it(`on a 422 of a bad email and a wrong file, lists both in the summary, the file's real type named, in ${lang}`, async () => {
        const { el } = await form('wrong-file', lang);
        await fillRequired(el);
        await submit(el);
        await until(() => activeInside(el)?.id === 'error-summary');
        const listed = [...el.shadowRoot!.querySelectorAll('#error-summary li')].map((li) => li.textContent!);
        expect(listed).to.have.length(2);
        expect(listed[0]).to.contain(text.invalidEmail[lang]);
        expect(listed[1]).to.contain(wrongFile);
        expect(shadow(el, '#resume-error').textContent).to.equal(wrongFile);
      });
    }

    it('on 413 puts the size problem on the resume field', async () => {
      const { el } = await form('too-large');
      await fillRequired(el);
      const error = oneEvent(el, 'jobboard-apply-error');
      await submit(el);
      expect((await error).detail.code).to.equal('file_too_large');
      await until(() => maybe(el, '#resume-error'));
      expect(shadow(el, '#resume-error').textContent).to.contain(text.tooLarge.en);
    });

    it('when the offer has closed meanwhile, says so', async () => {
      const { el } = await form('closed', 'fr');
      await fillRequired(el);
      const error = oneEvent(el, 'jobboard-apply-error');
      await submit(el);
      expect((await error).detail.code).to.equal('campaign_closed');
      await until(() => activeInside(el)?.id === 'error-summary');
      expect(shadow(el, '#error-summary').textContent).to.contain('Cette offre est clôturée');
    });

    it('on 429 asks the candidate to wait', async () => {
      const { el } = await sentForm('rate');
      await until(() => activeInside(el)?.id === 'error-summary');
      expect(shadow(el, '#error-summary').textContent).to.contain('Wait a minute');
    });
  });

  describe('network failure', () => {
    for (const lang of locales) {
      it(`offers an accessible retry in ${lang}`, async () => {
        const { el } = await sentForm('drop', lang);
        await until(() => activeInside(el)?.id === 'error-summary');
        await expect(el).to.be.accessible();
        expect(shadow(el, '#error-summary').textContent).to.contain(text.lost[lang]);
      });
    }

    it('retries with the same idempotency key, so it cannot create a duplicate', async () => {
      const { el, token } = await form('drop');
      await fillRequired(el);
      const error = oneEvent(el, 'jobboard-apply-error');
      await submit(el);
      expect((await error).detail.code).to.equal('network_error');
      await until(() => maybe(el, '#error-summary button'));
      shadow(el, '#error-summary button').focus();
      await sendKeys({ press: 'Enter' });
      await until(() => maybe(el, '#outcome'), 'the retry succeeds');
      const [dropped, retried] = await received(token);
      expect(dropped!.scenario).to.equal('drop:dropped');
      expect(retried!.idempotencyKey).to.equal(dropped!.idempotencyKey);
    });

    it('after the candidate edits the form, sends with a new key (a different body is a new submission)', async () => {
      const { el, token } = await sentForm('drop');
      await until(() => maybe(el, '#error-summary button'));
      await type(el, '#first_name', 'a');
      await submit(el);
      await until(() => maybe(el, '#error-summary button') || maybe(el, '#outcome'));
      const [first, second] = await received(token);
      expect(second!.idempotencyKey).not.to.equal(first!.idempotencyKey);
    });
  });
});
