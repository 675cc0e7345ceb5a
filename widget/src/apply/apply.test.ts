import { aTimeout, expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardApply, JobboardApplySuccessEvent } from '../index.ts';
import { loadConfig } from '../internal/api.ts';
import { receiptLink } from './application-controller.ts';
import {
  activeInside,
  holdBrowserTurns,
  until,
  chooseFile,
  exe,
  leave,
  locales,
  maybe,
  pdf,
  received,
  shadow,
  standIn,
  type,
  watchRequestsAndWarnings,
} from '../internal/test-helpers.ts';

type Lang = (typeof locales)[number];

const text = {
  email: { en: 'Email', fr: 'E-mail', es: 'Correo electrónico' },
  send: { en: 'Send my application', fr: 'Envoyer ma candidature', es: 'Enviar mi candidatura' },
  required: { en: 'This field is required.', fr: 'Ce champ est obligatoire.', es: 'Este campo es obligatorio.' },
  received: { en: 'Application received', fr: 'Candidature reçue', es: 'Candidatura recibida' },
  queued: {
    en: 'It will be transmitted to the recruiter shortly.',
    fr: 'Elle sera transmise au recruteur dans quelques instants.',
    es: 'Se transmitirá al reclutador en breve.',
  },
  already: { en: 'Already applied', fr: 'Candidature déjà envoyée', es: 'Ya se ha postulado' },
  invalidEmail: {
    en: 'Enter an email address like name@example.com.',
    fr: 'Saisissez une adresse e-mail comme nom@exemple.fr.',
    es: 'Introduzca un correo electrónico como nombre@ejemplo.es.',
  },
  lost: { en: 'The connection was lost', fr: 'La connexion a été perdue', es: 'Se perdió la conexión' },
  cancelled: { en: 'Upload cancelled', fr: 'Envoi annulé', es: 'Envío cancelado' },
  notLoaded: { en: 'The form could not be loaded', fr: 'Le formulaire n’a pas pu être chargé', es: 'No se pudo cargar el formulario' },
  tooLarge: { en: 'The file is larger than', fr: 'Le fichier dépasse', es: 'El archivo supera' },
  gone: { en: 'This offer is no longer available.', fr: 'Cette offre n’est plus disponible.', es: 'Esta oferta ya no está disponible.' },
  notSetUp: {
    en: 'The job offers and the application form are not set up on this site yet.',
    fr: 'Les offres d’emploi et le formulaire de candidature ne sont pas encore en place sur ce site.',
    es: 'Las ofertas de empleo y el formulario de candidatura aún no están disponibles en este sitio.',
  },
} as const;

/** What the widget writes with console.error while `run` runs. */
async function consoleErrors(run: () => Promise<void>): Promise<string[]> {
  const written: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => written.push(args.map(String).join(' '));
  try {
    await run();
  } finally {
    console.error = original;
  }
  return written;
}

async function form(scenario: string, lang: Lang = 'en', extra: Record<string, string> = {}) {
  const { endpoint, token } = standIn(scenario);
  const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang=${lang} no-draft></jobboard-apply>`);
  for (const [name, value] of Object.entries(extra)) el.setAttribute(name, value);
  await until(() => maybe(el, 'form'), 'the form shows once /api/config answered');
  await el.updateComplete;
  return { el, token, endpoint };
}

/** Fills every required field the way a candidate would: keyboard, then the file picker. */
async function fillRequired(el: JobboardApply, email = 'ada@example.com'): Promise<void> {
  await type(el, '#email', email);
  await type(el, '#first_name', 'Ada');
  await type(el, '#last_name', 'Lovelace');
  chooseFile(el, '#resume', pdf());
  shadow(el, '#consent').focus();
  await sendKeys({ press: 'Space' });
  await el.updateComplete;
}

async function submit(el: JobboardApply): Promise<void> {
  shadow(el, 'button[type=submit]').focus();
  await sendKeys({ press: 'Enter' });
}

describe('<jobboard-apply>', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
  });

  describe('the empty form', () => {
    for (const lang of locales) {
      it(`is accessible and speaks ${lang}`, async () => {
        const { el } = await form('ok', lang);
        await expect(el).to.be.accessible();
        expect(shadow(el, 'label[for=email]').textContent).to.contain(text.email[lang]);
        expect(shadow(el, 'button[type=submit]').textContent).to.contain(text.send[lang]);
      });
    }

    it('on the page itself (not inside another element), renders without waiting for the browser\'s turn', async () => {
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
      for (const id of ['email', 'first_name', 'last_name', 'phone_code', 'phone_number', 'resume', 'cover_letter', 'bio_url', 'consent', 'is_partner_newsletter_active', 'is_campaign_alert_active']) {
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

    it('does not link a consent-url whose scheme is not http(s): warns once naming it, and links the proxy\'s privacy page', async () => {
      const watch = watchRequestsAndWarnings();
      try {
        const { endpoint } = standIn('ok');
        const bad = `javascript:alert(document.cookie)//${endpoint}`;
        const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang="en" no-draft consent-url=${bad}></jobboard-apply>`);
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
          const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang="en" no-draft></jobboard-apply>`);
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
        if (!inline && n.scrollWidth > n.clientWidth + 1 && n.localName !== 'input') problems.push(`${name} overflows its box`);
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

    it('when a phone number has letters, says so', async () => {
      const { el } = await form('ok');
      await type(el, '#phone_number', 'call me');
      await leave();
      await el.updateComplete;
      expect(shadow(el, '#phone_number-error').textContent).to.contain('+33');
    });

    it('when the portfolio is not an http(s) address, says so', async () => {
      const { el } = await form('ok');
      await type(el, '#bio_url', 'ftp://files.example');
      await leave();
      await el.updateComplete;
      expect(shadow(el, '#bio_url-error').textContent).to.contain('https://');
    });

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

    it('when consent is not given, says it is needed', async () => {
      const { el } = await form('ok');
      await type(el, '#email', 'ada@example.com');
      await submit(el);
      await until(() => activeInside(el)?.id === 'error-summary');
      expect(shadow(el, '#consent-error').textContent).to.contain('accept the processing');
    });
  });

  describe('sending', () => {
    for (const lang of locales) {
      it(`shows accessible upload progress and a cancel button in ${lang}`, async () => {
        const { el } = await form('hang', lang);
        await fillRequired(el);
        await submit(el);
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
      const { el } = await form('hang');
      await fillRequired(el);
      await submit(el);
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
      const { el } = await form('slow');
      await fillRequired(el);
      await submit(el);
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
        const { el } = await form('ok', lang);
        await fillRequired(el);
        await submit(el);
        await until(() => activeInside(el)?.id === 'outcome', 'the outcome takes focus');
        await expect(el).to.be.accessible();
        expect(shadow(el, '#outcome').textContent).to.contain(text.received[lang]);
        expect(shadow(el, '#outcome').textContent).not.to.contain(text.queued[lang]);
      });

      it(`on 202 also says it will be transmitted shortly, in ${lang}`, async () => {
        const { el } = await form('queued', lang);
        await fillRequired(el);
        await submit(el);
        await until(() => maybe(el, '#outcome'));
        await expect(el).to.be.accessible();
        expect(shadow(el, '#outcome').textContent).to.contain(text.received[lang]).and.contain(text.queued[lang]);
      });
    }

    it("links the candidate to their receipt on the proxy, a root-relative link resolved on the proxy's origin", async () => {
      const receiptOf = async (scenario: string, lang: Lang) => {
        const { el } = await form(scenario, lang);
        await fillRequired(el);
        await submit(el);
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
      expect(receiptLink('/applications/receipt/t', 'https://proxy.example/jobs')).to.equal('https://proxy.example/applications/receipt/t');
      expect(receiptLink('https://jobs.example/applications/receipt/t', '/jobs')).to.equal('https://jobs.example/applications/receipt/t');
      expect(receiptLink('/applications/receipt/t', '/jobs')).to.equal(`${location.origin}/applications/receipt/t`);
      expect(receiptLink('javascript:alert(1)', 'https://proxy.example')).to.equal(null);
      expect(receiptLink(undefined, 'https://proxy.example')).to.equal(null);
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
      const page = await fixture<HTMLElement>(html`<section>
        <h2>Jobs</h2>
        <h3>Apply</h3>
        <jobboard-apply endpoint=${endpoint} campaign-id="101" lang="fr" heading-level="4" no-draft></jobboard-apply>
      </section>`);
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
      shadow(el, '#is_campaign_alert_active').focus();
      await sendKeys({ press: 'Space' });
      await submit(el);
      await until(() => maybe(el, '#outcome'));
      const [sent] = await received(token);
      expect(sent!.idempotencyKey).to.match(/^[0-9a-f-]{36}$/);
      expect(sent!.fields).to.deep.equal({
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
      expect(sent!.files.resume).to.deep.include({ name: 'resume.pdf', type: 'application/pdf' });
    });

    it('fires jobboard-apply-success with the campaign id and delivered or queued', async () => {
      for (const [scenario, status] of [['ok', 'delivered'], ['queued', 'queued']] as const) {
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
      const { el } = await form('rate');
      await fillRequired(el);
      await submit(el);
      await until(() => activeInside(el)?.id === 'error-summary');
      expect(shadow(el, '#error-summary').textContent).to.contain('Wait a minute');
    });
  });

  describe('network failure', () => {
    for (const lang of locales) {
      it(`offers an accessible retry in ${lang}`, async () => {
        const { el } = await form('drop', lang);
        await fillRequired(el);
        await submit(el);
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
      const { el, token } = await form('drop');
      await fillRequired(el);
      await submit(el);
      await until(() => maybe(el, '#error-summary button'));
      await type(el, '#first_name', 'a');
      await submit(el);
      await until(() => maybe(el, '#error-summary button') || maybe(el, '#outcome'));
      const [first, second] = await received(token);
      expect(second!.idempotencyKey).not.to.equal(first!.idempotencyKey);
    });
  });

  describe('when /api/config cannot be loaded', () => {
    for (const lang of locales) {
      it(`says so accessibly and offers to try again, in ${lang}`, async () => {
        const { endpoint } = standIn('config-error');
        const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang=${lang}></jobboard-apply>`);
        await until(() => maybe(el, '.summary button'));
        await expect(el).to.be.accessible();
        expect(el.shadowRoot!.textContent).to.contain(text.notLoaded[lang]);
      });
    }
  });

  describe('when the offer is closed or unknown', () => {
    for (const lang of locales) {
      it(`says the offer is no longer available before any field is shown, in ${lang}`, async () => {
        const { endpoint } = standIn('gone');
        const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang=${lang}></jobboard-apply>`);
        await until(() => maybe(el, '[part=outcome]'), 'the offer is checked');
        await expect(el).to.be.accessible();
        expect(shadow(el, '[part=outcome]').textContent!.trim()).to.equal(text.gone[lang]);
        expect(maybe(el, 'form')).to.equal(null);
        expect(maybe(el, 'input')).to.equal(null);
      });
    }

    it('moved to another proxy while the first still loads the form, shows what the last one says, even when the first answers last', async () => {
      const first = standIn('slow-config').endpoint;
      const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${first} campaign-id="101"></jobboard-apply>`);
      el.endpoint = standIn('gone').endpoint;
      await until(() => maybe(el, '[part=outcome]'), 'the offer is checked');
      // The first proxy's /api/config, the last answer; then what waited for it runs.
      await loadConfig(first);
      await aTimeout(0);
      await el.updateComplete;
      expect(shadow(el, '[part=outcome]').textContent!.trim()).to.equal(text.gone.en);
      expect(maybe(el, 'form')).to.equal(null);
    });

    it('shows no form for an offer the catalogue does not hold', async () => {
      const { endpoint } = standIn('ok');
      const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="9999"></jobboard-apply>`);
      await until(() => maybe(el, '[part=outcome]'), 'the offer is checked');
      expect(shadow(el, '[part=outcome]').textContent!.trim()).to.equal(text.gone.en);
      expect(maybe(el, 'form')).to.equal(null);
    });
  });

  describe("when the proxy does not allow the page's origin", () => {
    for (const lang of locales) {
      it(`tells the candidate the form is not set up on this site, with no retry and no form, in ${lang}`, async () => {
        const { endpoint } = standIn('refused');
        const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang=${lang}></jobboard-apply>`);
        await until(() => maybe(el, '[part=outcome]'), 'the refusal is read');
        await expect(el).to.be.accessible();
        expect(shadow(el, '[part=outcome]').textContent!.trim()).to.equal(text.notSetUp[lang]);
        expect(maybe(el, 'form')).to.equal(null);
        expect(maybe(el, 'button')).to.equal(null);
      });
    }

    it("tells the board's developer in the console, once per proxy, which origin to add to ALLOWED_ORIGINS", async () => {
      const { endpoint } = standIn('refused');
      const errors = await consoleErrors(async () => {
        const first = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="101"></jobboard-apply>`);
        const second = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="102"></jobboard-apply>`);
        await until(() => maybe(first, '[part=outcome]') && maybe(second, '[part=outcome]'), 'both refusals are read');
      });
      const lines = errors.filter((line) => line.includes('ALLOWED_ORIGINS'));
      expect(lines).to.deep.equal([
        `jobboard widget: this page's origin ${location.origin} is not in the ALLOWED_ORIGINS of the proxy at ${endpoint}; add it there.`,
      ]);
    });
  });

  describe('draft', () => {
    it('keeps typed text for the session, so a reload loses nothing', async () => {
      const { endpoint } = standIn('ok');
      const first = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="102"></jobboard-apply>`);
      await until(() => maybe(first, 'form'));
      await type(first, '#email', 'ada@example.com');
      await type(first, '#cover_letter', 'Dear recruiter');
      const again = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="102"></jobboard-apply>`);
      await until(() => maybe(again, 'form'));
      expect(shadow<HTMLInputElement>(again, '#email').value).to.equal('ada@example.com');
      expect(shadow<HTMLTextAreaElement>(again, '#cover_letter').value).to.equal('Dear recruiter');
    });

    it('is forgotten after success', async () => {
      const { endpoint } = standIn('ok');
      const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="103"></jobboard-apply>`);
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
        const el = await fixture<JobboardApply>(html`<jobboard-apply endpoint=${endpoint} campaign-id="101"></jobboard-apply>`);
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
        await submit(el);
        await until(() => maybe(el, '#outcome'));
        const [sent] = await received(token);
        expect(sent!.fields.captcha_token).to.equal('captcha-token-1');
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
      // Phone code, phone number, resume, cover letter, portfolio, consent.
      for (const expected of ['phone_code', 'phone_number', 'resume', 'cover_letter', 'bio_url', 'consent']) {
        await sendKeys({ press: 'Tab' });
        expect(activeInside(el)?.id).to.equal(expected);
      }
      await sendKeys({ press: 'Space' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'Tab' });
      expect(activeInside(el)?.getAttribute('type')).to.equal('submit');
      await sendKeys({ press: 'Enter' });
      await until(() => maybe(el, '#outcome'));
      expect((await received(token))[0]!.fields.email).to.equal('ada@example.com');
    });
  });
});
