import { aTimeout, expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardCampaigns } from '../index.ts';
import { activeInside, holdBrowserTurns, until, locales, maybe, shadow, standIn, type, watchRequestsAndWarnings } from '../internal/test-helpers.ts';

type Lang = (typeof locales)[number];

const text = {
  offers: { en: '23 offers', fr: '23 offres', es: '23 ofertas' },
  keywords: { en: 'Keywords', fr: 'Mots-clés', es: 'Palabras clave' },
  loading: { en: 'Loading offers…', fr: 'Chargement des offres…', es: 'Cargando ofertas…' },
  empty: { en: 'No offer matches your search', fr: 'Aucune offre ne correspond', es: 'Ninguna oferta coincide' },
  failed: { en: 'The offers could not be loaded', fr: 'Les offres n’ont pas pu être chargées', es: 'No se pudieron cargar las ofertas' },
  back: { en: 'Back to offers', fr: 'Retour aux offres', es: 'Volver a las ofertas' },
  notSetUp: {
    en: 'The job offers and the application form are not set up on this site yet.',
    fr: 'Les offres d’emploi et le formulaire de candidature ne sont pas encore en place sur ce site.',
    es: 'Las ofertas de empleo y el formulario de candidatura aún no están disponibles en este sitio.',
  },
} as const;

const labels = {
  permanent: { en: 'Permanent contract', fr: 'CDI', es: 'Contrato indefinido' },
  fixedTerm: { en: 'Fixed-term contract', fr: 'CDD', es: 'Contrato temporal' },
  fullTime: { en: 'Full time', fr: 'Temps plein', es: 'Jornada completa' },
  partTime: { en: 'Part time', fr: 'Temps partiel', es: 'Jornada parcial' },
} as const;

async function list(scenario = 'ok', lang: Lang = 'en', extra = '') {
  const { endpoint } = standIn(scenario);
  const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint} lang=${lang} per-page="10"></jobboard-campaigns>`);
  if (extra) el.setAttribute(extra, 'hidden');
  await until(() => maybe(el, '.list, .state:not(:has(.spinner))'), 'the list settles');
  await el.updateComplete;
  return { el, endpoint };
}

function titles(el: JobboardCampaigns): string[] {
  return [...el.shadowRoot!.querySelectorAll('[part=offer-title]')].map((b) => b.textContent!.trim());
}

async function open(el: JobboardCampaigns, index = 0): Promise<void> {
  el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=offer-title]')[index]!.focus();
  await sendKeys({ press: 'Enter' });
  await until(() => maybe(el, '#detail-title'), 'the offer opens');
}

describe('<jobboard-campaigns>', () => {
  describe('the list of offers', () => {
    for (const lang of locales) {
      it(`is accessible and speaks ${lang}`, async () => {
        const { el } = await list('ok', lang);
        await expect(el).to.be.accessible();
        expect(shadow(el, '#count').textContent).to.contain(text.offers[lang]);
        expect(shadow(el, 'label[for=q]').textContent).to.contain(text.keywords[lang]);
      });
    }

    it('shows each offer with title, company, place, contract, working time, salary and start date', async () => {
      const { el } = await list('ok', 'fr');
      const first = shadow(el, '[part=offer]');
      expect(first.textContent).to.contain('Backend developer 1').and.contain('Acme').and.contain('Lyon, France');
      expect(first.textContent).to.contain('CDI').and.contain('Temps plein');
      const salary = new Intl.NumberFormat('fr', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).formatRange(30000, 40000);
      expect(first.textContent).to.contain(salary);
      expect(first.textContent).to.contain('5 janvier 2027');
    });

    it('pages through the offers with next and previous', async () => {
      const { el } = await list();
      expect(titles(el)).to.have.length(10);
      expect(shadow(el, '[part=pagination]').textContent).to.contain('Page 1 of 3');
      shadow(el, '[part=pagination] button:last-of-type').click();
      await until(() => titles(el)[0] === 'Backend developer 11');
      expect(activeInside(el)?.id).to.equal('count');
      shadow(el, '[part=pagination] button').click();
      await until(() => titles(el)[0] === 'Backend developer 1');
    });

    it('searches by text when the candidate presses Enter', async () => {
      const { el } = await list();
      await type(el, '#q', 'nurse');
      await sendKeys({ press: 'Enter' });
      await until(() => titles(el).length === 5);
      expect(titles(el).every((t) => t.startsWith('Nurse'))).to.equal(true);
    });

    it('filters by job type, working time and city as soon as each is chosen, asking the API for all three', async () => {
      const { el, endpoint } = await list();
      const choose = (id: string, value: string) => {
        const select = shadow<HTMLSelectElement>(el, id);
        select.value = value;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      };
      const cards = () => [...el.shadowRoot!.querySelectorAll('[part=offer]')].map((o) => o.textContent!);
      // Of the stand-in's 23 offers, 8 are fixed-term, 4 of them part time, 1 of those in Madrid.
      choose('#filter-job_type', 'Fixed term contract');
      await until(() => cards().length === 8 && cards().every((c) => c.includes('Fixed-term contract')), 'the fixed-term offers show');
      choose('#filter-working_time', 'Part time');
      await until(() => cards().length === 4 && cards().every((c) => c.includes('Fixed-term contract') && c.includes('Part time')), 'the part-time ones among them show');
      choose('#filter-city', 'Madrid');
      await until(() => cards().length === 1 && cards()[0]!.includes('Madrid'), 'the one in Madrid shows');
      expect(titles(el)).to.deep.equal(['Accountant 8']);
      expect(shadow(el, '#count').textContent).to.contain('1');
      const asked = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes(endpoint) && e.name.includes('/api/campaigns?'))
        .map((e) => new URL(e.name).searchParams)
        .at(-1);
      expect([asked?.get('job_type'), asked?.get('working_time'), asked?.get('city')]).to.deep.equal(['Fixed term contract', 'Part time', 'Madrid']);
    });

    for (const lang of locales) {
      it(`shows contract types and working times in ${lang} in the offers and the filters`, async () => {
        const { el } = await list('ok', lang);
        const first = shadow(el, '[part=offer]').textContent!;
        expect(first).to.contain(labels.permanent[lang]).and.contain(labels.fullTime[lang]);
        const options = (id: string) => [...shadow<HTMLSelectElement>(el, id).options].map((o) => [o.value, o.textContent!.trim()]);
        expect(options('#filter-job_type')).to.deep.include(['Permanent contract', labels.permanent[lang]]);
        expect(options('#filter-job_type')).to.deep.include(['Fixed term contract', labels.fixedTerm[lang]]);
        expect(options('#filter-working_time')).to.deep.include(['Part time', labels.partTime[lang]]);
      });
    }

    for (const [lang, all] of [
      ['en', ['All contract types', 'All working times', 'All cities']],
      ['fr', ['Tous les types de contrat', 'Tous les temps de travail', 'Toutes les villes']],
      ['es', ['Todos los tipos de contrato', 'Todas las jornadas', 'Todas las ciudades']],
    ] as const) {
      it(`names each filter's no-filter option after that filter, in agreement with its noun, in ${lang}`, async () => {
        const { el } = await list('ok', lang);
        const none = (id: string) => [...shadow<HTMLSelectElement>(el, id).options].filter((o) => o.value === '').map((o) => o.textContent!.trim());
        expect([...none('#filter-job_type'), ...none('#filter-working_time'), ...none('#filter-city')]).to.deep.equal([...all]);
      });
    }

    it('filters with the exact value of the API while the candidate chooses its label', async () => {
      const { el, endpoint } = await list('ok', 'fr');
      const select = shadow<HTMLSelectElement>(el, '#filter-job_type');
      select.focus();
      // Keyboard choice in a closed select: typing the label's first letters picks it.
      await sendKeys({ type: 'CDD' });
      expect(select.selectedOptions[0]!.textContent!.trim()).to.equal('CDD');
      const cards = () => [...el.shadowRoot!.querySelectorAll('[part=offer]')].map((o) => o.textContent!);
      await until(() => cards().length === 8 && cards().every((c) => c.includes('CDD')), 'the fixed-term offers show');
      // Typing "C" picks CDI on the way to CDD: every request sent carries an API value, never a label.
      const sent = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes(endpoint))
        .map((e) => new URL(e.name).searchParams.get('job_type'))
        .filter((v) => v !== null);
      expect(sent).to.include('Fixed term contract');
      expect(sent.every((v) => v === 'Fixed term contract' || v === 'Permanent contract')).to.equal(true);
    });

    it('shows a contract type it does not know as the API wrote it', async () => {
      const { el } = await list('ok', 'es');
      expect(shadow(el, '[part=list]').textContent).to.contain('Seasonal work');
      const options = [...shadow<HTMLSelectElement>(el, '#filter-job_type').options].map((o) => o.textContent!.trim());
      expect(options).to.include('Seasonal work');
    });

    it('at 200% zoom (640 px wide, root font 200%), keeps the list and an opened offer with its form without horizontal scroll', async () => {
      await setViewport({ width: 640, height: 800 });
      document.documentElement.style.fontSize = '200%';
      try {
        const { el } = await list('ok', 'fr');
        expect(parseFloat(getComputedStyle(shadow(el, 'label[for=q]')).fontSize)).to.be.at.least(31);
        expect(document.documentElement.scrollWidth).to.be.at.most(640);
        expect(el.scrollWidth).to.be.at.most(el.clientWidth);
        await open(el);
        const apply = shadow(el, 'jobboard-apply');
        await until(() => apply.shadowRoot?.querySelector('form'), 'the apply form shows');
        expect(document.documentElement.scrollWidth).to.be.at.most(640);
        expect(el.scrollWidth).to.be.at.most(el.clientWidth);
        expect(apply.scrollWidth).to.be.at.most(apply.clientWidth);
      } finally {
        document.documentElement.style.fontSize = '';
        await setViewport({ width: 800, height: 600 });
      }
    });

    it('fits a 320 px wide screen without horizontal scrolling', async () => {
      await setViewport({ width: 320, height: 640 });
      try {
        const { el } = await list('ok', 'es');
        expect(el.scrollWidth).to.be.at.most(el.clientWidth);
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });
  });

  describe('while loading', () => {
    for (const lang of locales) {
      it(`says offers are loading, accessibly, in ${lang}`, async () => {
        const { endpoint } = standIn('slow');
        const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint} lang=${lang}></jobboard-campaigns>`);
        expect(el.shadowRoot!.textContent).to.contain(text.loading[lang]);
        await expect(el).to.be.accessible();
      });
    }

    it('moved in the page while the offers load (taken out and put back), shows them when they come', async () => {
      const { endpoint } = standIn('slow');
      const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint}></jobboard-campaigns>`);
      const parent = el.parentElement!;
      el.remove();
      parent.append(el);
      await until(() => maybe(el, '.list'), 'the list shows');
      expect(titles(el).length).to.equal(10);
    });

    it('sets up its formats of money and dates in a task of its own while the offers load, not in the task that shows them', async () => {
      const { endpoint } = standIn('slow');
      const NumberFormat = Intl.NumberFormat;
      const built: unknown[] = [];
      Intl.NumberFormat = new Proxy(NumberFormat, {
        construct(target, args: ConstructorParameters<typeof Intl.NumberFormat>) {
          built.push(args[0]);
          return Reflect.construct(target, args);
        },
      });
      try {
        // A language no other test formats in: its formatters are built here.
        const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint} lang="en-NZ"></jobboard-campaigns>`);
        await until(() => built.includes('en-NZ'), 'the formats are set up');
        expect(titles(el), 'the offers are shown already').to.deep.equal([]);
      } finally {
        Intl.NumberFormat = NumberFormat;
      }
    });

    it('spins, unless the candidate prefers reduced motion', async () => {
      const spinner = async () => {
        const { endpoint } = standIn('slow');
        const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint}></jobboard-campaigns>`);
        return getComputedStyle(shadow(el, '.spinner')).animationName;
      };
      expect(await spinner()).to.equal('spin');
      await emulateMedia({ reducedMotion: 'reduce' });
      try {
        expect(await spinner()).to.equal('none');
      } finally {
        await emulateMedia({ reducedMotion: 'no-preference' });
      }
    });
  });

  describe('when nothing matches', () => {
    for (const lang of locales) {
      it(`says so accessibly in ${lang}`, async () => {
        const { el } = await list('empty', lang);
        await expect(el).to.be.accessible();
        expect(el.shadowRoot!.textContent).to.contain(text.empty[lang]);
      });
    }
  });

  describe('when the offers cannot be loaded', () => {
    for (const lang of locales) {
      it(`says so accessibly and offers to try again, in ${lang}`, async () => {
        const { el } = await list('campaigns-error', lang);
        await expect(el).to.be.accessible();
        expect(el.shadowRoot!.textContent).to.contain(text.failed[lang]);
        expect(maybe(el, '.error-box button')).not.to.equal(null);
      });
    }
  });

  describe('an endpoint whose scheme is not http(s)', () => {
    it('is refused: no request is sent anywhere, the list says it could not be loaded, one warning names the attribute', async () => {
      const watch = watchRequestsAndWarnings();
      try {
        const endpoint = `javascript:alert(1)//${standIn().token}`;
        const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint} lang="en"></jobboard-campaigns>`);
        await until(() => el.shadowRoot!.textContent!.includes(text.failed.en), 'the error state shows');
        shadow(el, '.error-box button').click();
        await el.updateComplete;
        await until(() => el.shadowRoot!.textContent!.includes(text.failed.en), 'trying again fails the same way');
        expect(watch.requests).to.deep.equal([]);
        expect(watch.warnings.filter((w) => w.includes('endpoint'))).to.have.length(1);
      } finally {
        watch.restore();
      }
    });
  });

  describe("when the proxy does not allow the page's origin", () => {
    for (const lang of locales) {
      it(`says the offers are not set up on this site, instead of a connection problem, in ${lang}`, async () => {
        const { el } = await list('refused', lang);
        await expect(el).to.be.accessible();
        expect(shadow(el, '.error-box').textContent!.trim()).to.equal(text.notSetUp[lang]);
        expect(el.shadowRoot!.textContent).not.to.contain(text.failed[lang]);
        expect(maybe(el, '.error-box button')).to.equal(null);
      });
    }
  });

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
        expect(apply.shadowRoot?.childElementCount ?? 0, 'the form rendered nothing before the browser had its turn').to.equal(0);
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
      const page = await fixture<HTMLElement>(html`<section>
        <h2>Jobs</h2>
        <jobboard-campaigns endpoint=${endpoint} heading-level="3" lang="es"></jobboard-campaigns>
      </section>`);
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
      await until(() => titles(el).length > 0 && titles(el).every((t) => t.startsWith('Nurse ')), 'the list shows nurses');
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
      const renamed = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint} offer-param="job"></jobboard-campaigns>`);
      await until(() => maybe(renamed, '.list'), 'the list shows');
      await open(renamed);
      expect(param('job')).to.equal('100');
      expect(param('offer')).to.equal(null);
      renamed.remove();

      const before = location.href;
      const own = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${standIn().endpoint} routing="none"></jobboard-campaigns>`);
      await until(() => maybe(own, '.list'), 'the list shows');
      expect(shadow(own, '[part=offer-title]').localName).to.equal('button');
      await open(own);
      expect(location.href).to.equal(before);
    });

    it('puts the open offer\'s JobPosting in the head and takes it out when the list comes back; none with no-structured-data', async () => {
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
