import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardApply } from '../index.ts';
import {
  activeInside,
  chooseFile,
  exe,
  holdBrowserTurns,
  itIsAccessibleAndSpeaks,
  leave,
  locales,
  maybe,
  pdf,
  received,
  shadow,
  standIn,
  type,
  until,
  watchRequestsAndWarnings,
} from '../internal/test-support.ts';
import { fillRequired, form, submit, text } from './apply.test-support.ts';

describe('<jobboard-apply>', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
  });

  describe('the empty form', () => {
    itIsAccessibleAndSpeaks((lang) => form('ok', lang), {
      'label[for=email]': text.email,
      'button[type=submit]': text.send,
    });

    it("on the page itself (not inside another element), renders without waiting for the browser's turn", async () => {
      const turns = holdBrowserTurns();
      try {
        const { el } = await form('ok');
        expect(shadow(el, 'button[type=submit]').textContent).to.contain(text.send.en);
      } finally {
        turns.restore();
      }
    });

    it('shows the fields /api/config asks for, marking required ones', async () => {
      const { el } = await form('ok');
      for (const id of [
        'email',
        'first_name',
        'last_name',
        'phone_code',
        'phone_number',
        'resume',
        'cover_letter',
        'bio_url',
        'consent',
        'is_partner_newsletter_active',
        'is_campaign_alert_active',
      ]) {
        expect(maybe(el, `#${id}`), id).not.to.equal(null);
      }
      expect(shadow<HTMLInputElement>(el, '#email').required).to.equal(true);
      expect(shadow<HTMLInputElement>(el, '#resume').required).to.equal(true);
      expect(shadow<HTMLInputElement>(el, '#phone_number').required).to.equal(false);
      expect(shadow(el, 'label[for=cover_letter]').textContent).to.contain('(optional)');
    });

    it('shows the resume types and size limit beside the field, in the page language', async () => {
      const { el } = await form('ok', 'fr');
      const help = shadow(el, '#resume-help');
      expect(help.textContent).to.contain('PDF').and.contain('DOCX');
      expect(help.textContent).to.contain('10\u00a0Mo');
      expect(shadow(el, '#resume').getAttribute('aria-describedby')).to.equal('resume-help');
      expect(shadow(el, '.file-button').textContent).to.contain('Choisir un fichier');
      expect(shadow(el, '.file-name').textContent).to.contain('Aucun fichier choisi');
      chooseFile(el, '#resume', pdf('mon-cv.pdf'));
      await el.updateComplete;
      expect(shadow(el, '.file-name').textContent).to.contain('mon-cv.pdf');
      expect(shadow(el, '#resume').getAttribute('accept')).to.equal('.pdf,.jpg,.png,.doc,.docx');
    });

    it('links the consent box to the privacy page from /api/config, or the consent-url attribute', async () => {
      const { el } = await form('ok');
      expect(shadow<HTMLAnchorElement>(el, '.consent-link a').href).to.equal('https://board.example/privacy');
      el.consentUrl = 'https://my-board.example/data';
      await el.updateComplete;
      expect(shadow<HTMLAnchorElement>(el, '.consent-link a').href).to.equal('https://my-board.example/data');
    });

    it("does not link a consent-url whose scheme is not http(s): warns once naming it, and links the proxy's privacy page", async () => {
      const watch = watchRequestsAndWarnings();
      try {
        const { endpoint } = standIn('ok');
        const bad = `javascript:alert(document.cookie)//${endpoint}`;
        const el = await fixture<JobboardApply>(
          html`<jobboard-apply
            endpoint=${endpoint}
            campaign-id="101"
            lang="en"
            no-draft
            consent-url=${bad}
          ></jobboard-apply>`,
        );
        await until(() => maybe(el, 'form'), 'the form shows');
        el.requestUpdate();
        await el.updateComplete;
        expect(shadow<HTMLAnchorElement>(el, '.consent-link a').href).to.equal('https://board.example/privacy');
        expect(el.shadowRoot!.innerHTML).not.to.contain('javascript:');
        expect(watch.warnings.filter((w) => w.includes('consent-url'))).to.have.length(1);
        expect(watch.warnings[0]).to.contain('write an http(s) URL');
      } finally {
        watch.restore();
      }
    });

    it('does not link a consent_url from /api/config whose scheme is not http(s), and the form still works', async () => {
      const watch = watchRequestsAndWarnings();
      try {
        const { el, token } = await form('script-consent');
        expect(maybe(el, '.consent-link')?.outerHTML ?? 'no consent link').to.equal('no consent link');
        expect(el.shadowRoot!.innerHTML).not.to.contain('javascript:');
        expect(watch.warnings.filter((w) => w.includes('consent_url') && w.includes('CONSENT_URL'))).to.have.length(1);
        await fillRequired(el);
        shadow(el, '[part=submit-button]').click();
        await until(() => maybe(el, '[part=outcome].success'), 'the application is received');
        expect(await received(token)).to.have.length(1);
      } finally {
        watch.restore();
      }
    });

    for (const scheme of ['javascript:alert(1)', 'data:application/json,{}', 'ftp://proxy.example']) {
      it(`refuses the endpoint ${scheme}: sends no request anywhere, says the form could not be loaded, warns once naming the attribute`, async () => {
        const watch = watchRequestsAndWarnings();
        try {
          const endpoint = `${scheme}/${standIn().token}`;
          const el = await fixture<JobboardApply>(
            html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang="en" no-draft></jobboard-apply>`,
          );
          await until(() => el.shadowRoot!.textContent!.includes(text.notLoaded.en), 'the error state shows');
          expect(watch.requests).to.deep.equal([]);
          expect(watch.warnings.filter((w) => w.includes('endpoint'))).to.have.length(1);
          expect(watch.warnings[0]).to.contain('write an http(s) URL');
        } finally {
          watch.restore();
        }
      });
    }

    it('hides a field with field-phone="hidden" and requires one with field-cover-letter="required"', async () => {
      const { el } = await form('ok', 'en', { 'field-phone': 'hidden', 'field-cover-letter': 'required' });
      await el.updateComplete;
      expect(maybe(el, '#phone_number')).to.equal(null);
      expect(shadow<HTMLTextAreaElement>(el, '#cover_letter').required).to.equal(true);
    });

    it('keeps a field the proxy requires required, whatever the attribute says', async () => {
      const { el } = await form('ok', 'en', { 'field-resume': 'hidden', 'field-first-name': 'optional' });
      await el.updateComplete;
      expect(shadow<HTMLInputElement>(el, '#resume').required).to.equal(true);
      expect(shadow<HTMLInputElement>(el, '#first_name').required).to.equal(true);
    });

    it('keeps the honeypot from people, assistive technology, autofill and password managers', async () => {
      const { el } = await form('ok');
      const trap = shadow<HTMLInputElement>(el, '#website');
      // Not rendered: browsers autofill only fields that are.
      expect(trap.getClientRects().length).to.equal(0);
      expect(trap.closest('[hidden][inert]')).not.to.equal(null);
      expect(trap.tabIndex).to.equal(-1);
      for (const attribute of ['data-1p-ignore', 'data-lpignore', 'data-bwignore', 'data-form-type']) {
        expect(trap.hasAttribute(attribute), attribute).to.equal(true);
      }
      // Still posted, empty, with the form.
      expect(new FormData(shadow<HTMLFormElement>(el, 'form')).get('website')).to.equal('');
    });

    it('shows where the keyboard focus is', async () => {
      const { el } = await form('ok');
      shadow(el, '#email').focus();
      await sendKeys({ press: 'Tab' });
      const focused = activeInside(el)!;
      expect(focused.id).to.equal('first_name');
      expect(getComputedStyle(focused).outlineStyle).to.equal('solid');
      expect(parseFloat(getComputedStyle(focused).outlineWidth)).to.be.at.least(2);
    });

    it('fits a 320 px wide screen without horizontal scrolling', async () => {
      await setViewport({ width: 320, height: 640 });
      const { el } = await form('ok', 'es');
      expect(el.scrollWidth).to.be.at.most(el.clientWidth);
      expect(document.documentElement.scrollWidth).to.be.at.most(320);
    });
  });

  describe('at 200% zoom', () => {
    // A 1280 px window zoomed to 200% lays out in 640 CSS px; the root font at
    // 200% on top adds text-only zoom (WCAG 1.4.4 and 1.4.10 together).
    beforeEach(async () => {
      await setViewport({ width: 640, height: 800 });
      document.documentElement.style.fontSize = '200%';
    });
    afterEach(() => {
      document.documentElement.style.fontSize = '';
    });

    /** Every visible piece of the form, with what overflows its own box or the widget's. */
    function clipped(el: JobboardApply): string[] {
      const box = el.getBoundingClientRect();
      const problems: string[] = [];
      for (const n of el.shadowRoot!.querySelectorAll<HTMLElement>('form *, #outcome *')) {
        if (n.closest('.hp, .visually-hidden') || n.getClientRects().length === 0) continue;
        const r = n.getBoundingClientRect();
        const name = `${n.localName}${n.id ? '#' + n.id : ''}${n.className ? '.' + String(n.className).replace(/ /g, '.') : ''}`;
        if (r.left < box.left - 1 || r.right > box.right + 1) problems.push(`${name} sticks out of the widget`);
        const inline = getComputedStyle(n).display === 'inline';
        if (!inline && n.scrollWidth > n.clientWidth + 1 && n.localName !== 'input')
          problems.push(`${name} overflows its box`);
      }
      return problems;
    }

    for (const lang of locales) {
      it(`keeps the form whole and accessible, with no horizontal scroll, in ${lang}`, async () => {
        const { el } = await form('ok', lang);
        await expect(el).to.be.accessible();
        // The zoom reached the widget: its text is twice as large.
        expect(parseFloat(getComputedStyle(shadow(el, 'label[for=email]')).fontSize)).to.be.at.least(31);
        expect(document.documentElement.scrollWidth).to.be.at.most(640);
        expect(el.scrollWidth).to.be.at.most(el.clientWidth);
        expect(clipped(el)).to.deep.equal([]);
      });
    }

    it('can be filled and sent with the keyboard, errors and outcome included', async () => {
      const { el } = await form('ok', 'fr');
      await submit(el);
      await until(() => activeInside(el)?.id === 'error-summary', 'the summary takes focus');
      expect(clipped(el)).to.deep.equal([]);
      expect(document.documentElement.scrollWidth).to.be.at.most(640);
      await fillRequired(el);
      await submit(el);
      await until(() => activeInside(el)?.id === 'outcome', 'the outcome takes focus');
      expect(shadow(el, '#outcome').textContent).to.contain(text.received.fr);
      expect(clipped(el)).to.deep.equal([]);
      expect(document.documentElement.scrollWidth).to.be.at.most(640);
    });
  });

  describe('errors', () => {
    for (const lang of locales) {
      it(`after a failed submit, are accessible, listed in a summary that takes focus, in ${lang}`, async () => {
        const { el, token } = await form('ok', lang);
        await submit(el);
        await until(() => activeInside(el)?.id === 'error-summary', 'the summary takes focus');
        await expect(el).to.be.accessible();
        expect(shadow(el, '#email-error').textContent).to.contain(text.required[lang]);
        expect(shadow(el, '#email').getAttribute('aria-invalid')).to.equal('true');
        expect(shadow(el, '#email').getAttribute('aria-describedby')).to.equal('email-error');
        expect(el.shadowRoot!.querySelectorAll('#error-summary li').length).to.equal(5);
        expect(await received(token)).to.have.length(0);
      });
    }

    it('are not shown before the candidate interacts', async () => {
      const { el } = await form('ok');
      shadow(el, '#email').focus();
      await leave();
      await el.updateComplete;
      expect(maybe(el, '.field-error')).to.equal(null);
      expect(shadow(el, '#email').getAttribute('aria-invalid')).to.equal('false');
    });

    it('when an email is not valid, says so on leaving the field and clears once fixed', async () => {
      const { el } = await form('ok', 'es');
      await type(el, '#email', 'ada@');
      await leave();
      await el.updateComplete;
      expect(shadow(el, '#email-error').textContent).to.contain(text.invalidEmail.es);
      await type(el, '#email', 'example.com');
      await el.updateComplete;
      expect(maybe(el, '#email-error')).to.equal(null);
    });

    for (const { behaviour, field, value, says } of [
      { behaviour: 'when a phone number has letters, says so', field: 'phone_number', value: 'call me', says: '+33' },
      {
        behaviour: 'when the portfolio is not an http(s) address, says so',
        field: 'bio_url',
        value: 'ftp://files.example',
        says: 'https://',
      },
    ]) {
      it(behaviour, async () => {
        const { el } = await form('ok');
        await type(el, `#${field}`, value);
        await leave();
        await el.updateComplete;
        expect(shadow(el, `#${field}-error`).textContent).to.contain(says);
      });
    }

    it('a summary link moves focus to its field', async () => {
      const { el } = await form('ok');
      await submit(el);
      await until(() => activeInside(el)?.id === 'error-summary');
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'Enter' });
      expect(activeInside(el)?.id).to.equal('email');
    });

    it('when the resume is too large, says so before uploading', async () => {
      const { el, token } = await form('small', 'fr');
      await fillRequired(el);
      chooseFile(el, '#resume', pdf('big.pdf', 5000));
      await el.updateComplete;
      expect(shadow(el, '#resume-error').textContent).to.contain(text.tooLarge.fr);
      await submit(el);
      await until(() => activeInside(el)?.id === 'error-summary');
      expect(await received(token)).to.have.length(0);
    });

    it('when the resume is not an accepted type, says so before uploading', async () => {
      const { el, token } = await form('ok');
      await fillRequired(el);
      chooseFile(el, '#resume', exe());
      await el.updateComplete;
      expect(shadow(el, '#resume-error').textContent).to.contain('not accepted');
      await submit(el);
      await until(() => activeInside(el)?.id === 'error-summary');
      expect(await received(token)).to.have.length(0);
    });

    it('lists a bad email and a text file named cv.pdf together on the first submit, before uploading', async () => {
      const { el, token } = await form('ok');
      await fillRequired(el, 'ada@example');
      chooseFile(el, '#resume', new File(['Ada Lovelace\nAnalyst\n'], 'cv.pdf', { type: 'application/pdf' }));
      await submit(el);
      await until(() => activeInside(el)?.id === 'error-summary');
      const listed = [...el.shadowRoot!.querySelectorAll('#error-summary li')].map((li) => li.textContent!);
      expect(listed).to.have.length(2);
      expect(listed[0]).to.contain(text.invalidEmail.en);
      expect(listed[1]).to.contain('This file is not a real PDF: it is a text file.');
      expect(await received(token)).to.have.length(0);
    });

    it('when consent is not given, says it is needed', async () => {
      const { el } = await form('ok');
      await type(el, '#email', 'ada@example.com');
      await submit(el);
      await until(() => activeInside(el)?.id === 'error-summary');
      expect(shadow(el, '#consent-error').textContent).to.contain('accept the processing');
    });
  });
});
