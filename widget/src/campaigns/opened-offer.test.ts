import { aTimeout, expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardCampaigns } from '../index.ts';
import {
  activeInside,
  holdBrowserTurns,
  locales,
  maybe,
  shadow,
  standIn,
  type,
  until,
} from '../internal/test-support.ts';
import { list, open, text, titles } from './campaigns.test-support.ts';

describe('<jobboard-campaigns>: an opened offer', () => {
  describe('an offer that cannot be opened', () => {
    for (const lang of locales) {
      it(`says so accessibly and offers the way back, in ${lang}`, async () => {
        const { el } = await list('gone', lang);
        shadow(el, '[part=offer-title]').click();
        await until(() => activeInside(el)?.id === 'detail-error', 'the error takes focus');
        await expect(el).to.be.accessible();
        expect(shadow(el, '.back').textContent).to.contain(text.back[lang]);
      });
    }
  });

  describe('an opened offer', () => {
    for (const lang of locales) {
      it(`is accessible, with its description, profile and apply form, in ${lang}`, async () => {
        const { el } = await list('ok', lang);
        await open(el);
        const apply = shadow(el, 'jobboard-apply');
        await until(() => apply.shadowRoot?.querySelector('form'), 'the apply form shows');
        await expect(el).to.be.accessible();
        expect(shadow(el, '[part=detail]').textContent).to.contain(text.back[lang]);
        expect(shadow(el, '[part=description]').textContent).to.contain('Join Acme');
        expect(el.shadowRoot!.textContent).to.contain('Two years of experience');
        expect(apply.getAttribute('campaign-id')).to.equal('100');
        expect(activeInside(el)?.id).to.equal('detail-title');
      });
    }

    it('renders its apply form after the browser had its turn, not in the task that renders the offer', async () => {
      const { el } = await list();
      const turns = holdBrowserTurns();
      try {
        await open(el);
        await el.updateComplete;
        const apply = shadow(el, 'jobboard-apply');
        await aTimeout(50);
        expect(
          apply.shadowRoot?.childElementCount ?? 0,
          'the form rendered nothing before the browser had its turn',
        ).to.equal(0);
        turns.release();
        await until(() => apply.shadowRoot?.querySelector('form'), 'the apply form shows');
      } finally {
        turns.restore();
      }
    });

    it('titles the offers with h2 in the list and opened, the sections with h3, and gives its apply form heading level 4', async () => {
      const { el } = await list();
      expect(shadow(el, '[part=offer] > :first-child').localName).to.equal('h2');
      await open(el);
      expect(shadow(el, '#detail-title').localName).to.equal('h2');
      const sections = [...el.shadowRoot!.querySelectorAll('[part=description] > :first-child, .apply > :first-child')];
      expect(sections.map((h) => h.localName)).to.deep.equal(['h3', 'h3', 'h3']);
      expect(shadow(el, 'jobboard-apply').getAttribute('heading-level')).to.equal('4');
    });

    it('with heading-level="3" under a page h2, moves every heading one level down, accessibly', async () => {
      const { endpoint } = standIn('ok');
      const page = await fixture<HTMLElement>(
        html`<section>
          <h2>Jobs</h2>
          <jobboard-campaigns endpoint=${endpoint} heading-level="3" lang="es"></jobboard-campaigns>
        </section>`,
      );
      const el = page.querySelector('jobboard-campaigns')!;
      await until(() => maybe(el, '.list'), 'the list shows');
      expect(shadow(el, '[part=offer] > :first-child').localName).to.equal('h3');
      await open(el);
      const apply = shadow(el, 'jobboard-apply');
      await until(() => apply.shadowRoot?.querySelector('form'), 'the apply form shows');
      await expect(page).to.be.accessible();
      expect(shadow(el, '#detail-title').localName).to.equal('h3');
      expect(shadow(el, '[part=description] > :first-child').localName).to.equal('h4');
      expect(apply.getAttribute('heading-level')).to.equal('5');
    });

    it('shows the address and until when applications are open', async () => {
      const { el } = await list('ok', 'es');
      await open(el);
      expect(shadow(el, '[part=detail]').textContent).to.contain('28 de febrero de 2027');
      expect(shadow(el, '[part=detail]').textContent).to.contain('12 rue de la République, 69002 Lyon, France');
      expect(shadow(el, '[part=detail]').textContent).to.contain('Contrato indefinido').and.contain('Jornada completa');
    });

    // The stand-in publishes its offer 100 + i on November i + 1, 2026.
    const published = {
      en: 'Published on November 3, 2026',
      fr: 'Publiée le 3 novembre 2026',
      es: 'Publicada el 3 de noviembre de 2026',
    } as const;
    for (const lang of locales) {
      it(`says the day the offer was published, in its card and opened, as a <time>, in ${lang}`, async () => {
        const { el } = await list('ok', lang);
        const card = el.shadowRoot!.querySelectorAll('[part=offer]')[2]!.querySelector('time')!;
        expect(card.textContent!.trim()).to.equal(published[lang]);
        expect(card.getAttribute('datetime')).to.equal('2026-11-03');
        await open(el, 2);
        const opened = shadow(el, '[part=detail] time');
        expect(opened.textContent!.trim()).to.equal(published[lang]);
        expect(opened.getAttribute('datetime')).to.equal('2026-11-03');
      });
    }

    it('opened, says where the job is with each part of its address once', async () => {
      const { el } = await list('ok', 'fr');
      await open(el, 0);
      const lyon = shadow(el, '[part=detail]').textContent!;
      expect(lyon).to.contain('12 rue de la République, 69002 Lyon, France');
      expect(lyon.split('Lyon').length - 1, 'Lyon is written once').to.equal(1);
      shadow(el, '.back').click();
      await until(() => maybe(el, '[part=offer-title]'), 'the list is back');
      // An address whose name repeats its city and country ("Nantes, France"), as the service gives it.
      await open(el, 3);
      const nantes = shadow(el, '[part=detail]').textContent!;
      expect(nantes).to.contain('44000 Nantes, France');
      expect(nantes.split('Nantes').length - 1, 'Nantes is written once').to.equal(1);
      expect(nantes.split('France').length - 1, 'France is written once').to.equal(1);
    });

    it('fires jobboard-campaign-select with the campaign id only', async () => {
      const { el } = await list();
      const selected = oneEvent(el, 'jobboard-campaign-select');
      el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=offer-title]')[2]!.click();
      const event = await selected;
      expect(event.detail).to.deep.equal({ campaignId: 102 });
      expect(event.bubbles && event.composed).to.equal(true);
    });

    it('shows the description without scripts, event handlers or javascript: links', async () => {
      const { el } = await list();
      await open(el);
      const description = shadow(el, '[part=description]');
      expect(description.querySelector('script')).to.equal(null);
      const link = description.querySelector('a')!;
      expect(link.getAttribute('onclick')).to.equal(null);
      expect(link.getAttribute('href')).to.equal(null);
      expect((window as unknown as { __pwned?: boolean }).__pwned).to.equal(undefined);
    });

    it('passes field-* attributes to its apply form', async () => {
      const { el } = await list('ok', 'en', 'field-phone');
      await open(el);
      const apply = shadow(el, 'jobboard-apply');
      await until(() => apply.shadowRoot?.querySelector('form'));
      expect(apply.getAttribute('field-phone')).to.equal('hidden');
      expect(apply.shadowRoot!.querySelector('#phone_number')).to.equal(null);
    });

    it('going back returns focus to the offer the candidate opened', async () => {
      const { el } = await list();
      await open(el, 1);
      shadow(el, '.back').focus();
      await sendKeys({ press: 'Enter' });
      await until(() => activeInside(el)?.getAttribute('data-offer') === '101', 'focus returns to the offer');
    });
  });

  describe('the page URL', () => {
    const param = (name: string) => new URLSearchParams(location.search).get(name);
    const postings = () => document.head.querySelectorAll('script[type="application/ld+json"]');

    it('carries the opened offer (?offer=id) in a new history entry; Back shows the list with its search, Forward the offer again', async () => {
      const { el } = await list();
      await type(el, '#q', 'Nurse');
      await sendKeys({ press: 'Enter' });
      await until(() => param('q') === 'Nurse', 'the search is in the URL');
      await until(
        () => titles(el).length > 0 && titles(el).every((t) => t.startsWith('Nurse ')),
        'the list shows nurses',
      );
      const href = shadow<HTMLAnchorElement>(el, '[part=offer-title]').href;
      expect(new URL(href).searchParams.get('offer')).to.equal(shadow(el, '[part=offer-title]').dataset.offer);
      await open(el);
      expect(location.href).to.equal(href);

      history.back();
      await until(() => maybe(el, '.list') && param('offer') === null, 'Back shows the list');
      expect(param('q')).to.equal('Nurse');
      expect(shadow<HTMLInputElement>(el, '#q').value).to.equal('Nurse');
      await until(() => titles(el).length > 0 && titles(el).every((t) => t.startsWith('Nurse ')), 'with its search');

      history.forward();
      await until(() => maybe(el, '#detail-title'), 'Forward shows the offer again');
    });

    it('opens the offer its URL names when the element starts, as after a reload or from a shared link', async () => {
      history.replaceState(null, '', `${location.pathname}${location.search}&offer=103&page=2`);
      const { endpoint } = standIn();
      const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint}></jobboard-campaigns>`);
      await until(() => maybe(el, '#detail-title'), 'the offer opens');
      expect(shadow(el, '#detail-title').textContent).to.contain('Sales assistant 4');
      shadow(el, '.back').click();
      await until(() => maybe(el, '.list'), 'the back button shows the list');
      expect(param('offer')).to.equal(null);
      expect(param('page')).to.equal('2');
      expect(shadow(el, '[part=pagination] span').textContent).to.contain('Page 2');
    });

    it('says an offer whose URL is no longer open is closed, with the way back to the list', async () => {
      history.replaceState(null, '', `${location.pathname}${location.search}&offer=100`);
      const { endpoint } = standIn('gone');
      const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint}></jobboard-campaigns>`);
      await until(() => maybe(el, '#detail-error'), 'the closed state shows');
      expect(shadow(el, '#detail-error').textContent).to.contain('This offer is no longer open');
      shadow(el, '.back').click();
      await until(() => maybe(el, '.list'), 'the list shows');
    });

    it('renames the parameter with offer-param, and leaves the URL alone with routing="none"', async () => {
      const { endpoint } = standIn();
      const renamed = await fixture<JobboardCampaigns>(
        html`<jobboard-campaigns endpoint=${endpoint} offer-param="job"></jobboard-campaigns>`,
      );
      await until(() => maybe(renamed, '.list'), 'the list shows');
      await open(renamed);
      expect(param('job')).to.equal('100');
      expect(param('offer')).to.equal(null);
      renamed.remove();

      const before = location.href;
      const own = await fixture<JobboardCampaigns>(
        html`<jobboard-campaigns endpoint=${standIn().endpoint} routing="none"></jobboard-campaigns>`,
      );
      await until(() => maybe(own, '.list'), 'the list shows');
      expect(shadow(own, '[part=offer-title]').localName).to.equal('button');
      await open(own);
      expect(location.href).to.equal(before);
    });

    it("puts the open offer's JobPosting in the head and takes it out when the list comes back; none with no-structured-data", async () => {
      const { el } = await list();
      await open(el, 2);
      await until(() => postings().length === 1, 'the JobPosting is in the head');
      const posting = JSON.parse(postings()[0]!.textContent!) as { '@type': string; identifier: { value: string } };
      expect(posting['@type']).to.equal('JobPosting');
      expect(posting.identifier.value).to.equal(param('offer'));
      history.back();
      await until(() => postings().length === 0, 'the JobPosting leaves with the offer');

      el.setAttribute('no-structured-data', '');
      await open(el, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(postings().length).to.equal(0);
    });
  });
});
