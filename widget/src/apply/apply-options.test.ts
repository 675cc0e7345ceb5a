import { aTimeout, expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardApply, JobboardApplySuccessEvent } from '../index.ts';
import { activeInside, locales, maybe, received, shadow, standIn, type, until } from '../internal/test-support.ts';
import { fillRequired, form, sendAndRead, submit, text } from './apply.test-support.ts';

describe('<jobboard-apply>: draft, language, captcha, theming, events, keyboard', () => {
  describe('draft', () => {
    it('keeps typed text for the session, so a reload loses nothing', async () => {
      const { endpoint } = standIn('ok');
      const first = await fixture<JobboardApply>(
        html`<jobboard-apply endpoint=${endpoint} campaign-id="102"></jobboard-apply>`,
      );
      await until(() => maybe(first, 'form'));
      await type(first, '#email', 'ada@example.com');
      await type(first, '#cover_letter', 'Dear recruiter');
      const again = await fixture<JobboardApply>(
        html`<jobboard-apply endpoint=${endpoint} campaign-id="102"></jobboard-apply>`,
      );
      await until(() => maybe(again, 'form'));
      expect(shadow<HTMLInputElement>(again, '#email').value).to.equal('ada@example.com');
      expect(shadow<HTMLTextAreaElement>(again, '#cover_letter').value).to.equal('Dear recruiter');
    });

    it('is forgotten after success', async () => {
      const { endpoint } = standIn('ok');
      const el = await fixture<JobboardApply>(
        html`<jobboard-apply endpoint=${endpoint} campaign-id="103"></jobboard-apply>`,
      );
      await until(() => maybe(el, 'form'));
      await fillRequired(el);
      await submit(el);
      await until(() => maybe(el, '#outcome'));
      expect(Object.keys(sessionStorage).filter((k) => k.includes(endpoint))).to.have.length(0);
    });

    it('is not kept with no-draft', async () => {
      const { el, endpoint } = await form('ok');
      await type(el, '#email', 'ada@example.com');
      expect(Object.keys(sessionStorage).filter((k) => k.includes(endpoint))).to.have.length(0);
    });
  });

  describe('language', () => {
    it('defaults to the page language', async () => {
      document.documentElement.lang = 'es-MX';
      try {
        const { endpoint } = standIn('ok');
        const el = await fixture<JobboardApply>(
          html`<jobboard-apply endpoint=${endpoint} campaign-id="101"></jobboard-apply>`,
        );
        await until(() => maybe(el, 'form'));
        await el.updateComplete;
        expect(shadow(el, 'label[for=email]').textContent).to.contain(text.email.es);
      } finally {
        document.documentElement.lang = 'en';
      }
    });

    it('follows the lang property set by a script, and marks its texts with that language', async () => {
      const { el } = await form('ok', 'en');
      el.lang = 'es';
      await el.updateComplete;
      await aTimeout(0);
      expect(shadow(el, 'button[type=submit]').textContent).to.contain(text.send.es);
      expect(shadow(el, '[lang]').getAttribute('lang')).to.equal('es');
    });

    it('follows a change of the lang attribute', async () => {
      const { el } = await form('ok', 'en');
      el.setAttribute('lang', 'fr');
      await el.updateComplete;
      await aTimeout(0);
      expect(shadow(el, 'button[type=submit]').textContent).to.contain(text.send.fr);
    });
  });

  describe('captcha', () => {
    it('when the proxy asks for one, renders it and sends its token', async () => {
      const win = window as unknown as { turnstile?: unknown };
      win.turnstile = {
        render: (container: HTMLElement, options: { callback: (token: string) => void }) => {
          container.textContent = 'captcha';
          options.callback('captcha-token-1');
        },
      };
      try {
        const { el, token } = await form('captcha');
        await until(() => el.querySelector('[slot=captcha]'));
        await expect(el).to.be.accessible();
        await fillRequired(el);
        const sent = await sendAndRead(el, token);
        expect(sent.fields.captcha_token).to.equal('captcha-token-1');
      } finally {
        delete win.turnstile;
      }
    });
  });

  describe('theming', () => {
    afterEach(async () => {
      await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    });

    for (const lang of locales) {
      it(`in a dark colour scheme, turns dark and stays accessible (contrast included), in ${lang}`, async () => {
        await emulateMedia({ colorScheme: 'dark' });
        const { el } = await form('ok', lang);
        await expect(el).to.be.accessible();
        expect(getComputedStyle(el).backgroundColor).to.equal('rgb(17, 24, 39)');
      });
    }

    it('takes the board colours, font and radius from --jobboard-* custom properties', async () => {
      const { el } = await form('ok');
      el.style.setProperty('--jobboard-color-primary', 'rgb(15, 118, 110)');
      el.style.setProperty('--jobboard-radius', '0px');
      el.style.setProperty('--jobboard-font-family', 'monospace');
      const button = shadow(el, 'button[type=submit]');
      expect(getComputedStyle(button).backgroundColor).to.equal('rgb(15, 118, 110)');
      expect(getComputedStyle(button).borderTopLeftRadius).to.equal('0px');
      expect(getComputedStyle(el).fontFamily).to.equal('monospace');
    });

    it('exposes its main pieces as ::part()', async () => {
      const style = document.createElement('style');
      style.textContent = 'jobboard-apply::part(submit-button) { text-transform: uppercase; }';
      document.head.append(style);
      try {
        const { el } = await form('ok');
        expect(getComputedStyle(shadow(el, 'button[type=submit]')).textTransform).to.equal('uppercase');
        for (const part of ['form', 'field', 'label', 'input', 'help', 'submit-button', 'status']) {
          expect(maybe(el, `[part~=${part}]`), part).not.to.equal(null);
        }
      } finally {
        style.remove();
      }
    });
  });

  describe('typed events', () => {
    it('are declared for addEventListener, so a board gets typed details', async () => {
      const { el } = await form('ok');
      await fillRequired(el);
      const statuses: string[] = [];
      const listener = (event: JobboardApplySuccessEvent) => statuses.push(event.detail.status);
      document.addEventListener('jobboard-apply-success', listener);
      try {
        await submit(el);
        await until(() => statuses.length === 1);
        expect(statuses).to.deep.equal(['delivered']);
      } finally {
        document.removeEventListener('jobboard-apply-success', listener);
      }
    });
  });

  describe('keyboard only', () => {
    it('a candidate can fill and send the form with Tab, typing, Space and Enter', async () => {
      const { el, token } = await form('lenient');
      shadow(el, '#email').focus();
      await sendKeys({ type: 'ada@example.com' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: 'Ada' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: 'Lovelace' });
      // Phone code, phone number, resume, photos of its pages, cover letter, portfolio, consent.
      for (const expected of [
        'phone_code',
        'phone_number',
        'resume',
        'resume_pages',
        'cover_letter',
        'bio_url',
        'consent',
      ]) {
        await sendKeys({ press: 'Tab' });
        expect(activeInside(el)?.id).to.equal(expected);
      }
      await sendKeys({ press: 'Space' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'Tab' });
      // "Remember me on this device" and its "Forget", before the send button.
      expect(activeInside(el)?.id).to.equal('remember');
      await sendKeys({ press: 'Tab' });
      expect(activeInside(el)?.textContent).to.equal('Forget');
      await sendKeys({ press: 'Tab' });
      expect(activeInside(el)?.getAttribute('type')).to.equal('submit');
      await sendKeys({ press: 'Enter' });
      await until(() => maybe(el, '#outcome'));
      expect((await received(token))[0]!.fields.email).to.equal('ada@example.com');
    });
  });
});
