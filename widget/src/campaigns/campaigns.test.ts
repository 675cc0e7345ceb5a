import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardCampaigns } from '../index.ts';
import {
  activeInside,
  itIsAccessibleAndSpeaks,
  locales,
  maybe,
  shadow,
  standIn,
  type,
  until,
  watchRequestsAndWarnings,
} from '../internal/test-support.ts';
import { list, open, text, titles } from './campaigns.test-support.ts';

const labels = {
  permanent: { en: 'Permanent contract', fr: 'CDI', es: 'Contrato indefinido' },
  fixedTerm: { en: 'Fixed-term contract', fr: 'CDD', es: 'Contrato temporal' },
  fullTime: { en: 'Full time', fr: 'Temps plein', es: 'Jornada completa' },
  partTime: { en: 'Part time', fr: 'Temps partiel', es: 'Jornada parcial' },
} as const;

describe('<jobboard-campaigns>', () => {
  describe('the list of offers', () => {
    itIsAccessibleAndSpeaks((lang) => list('ok', lang), { '#count': text.offers, 'label[for=q]': text.keywords });

    it('shows each offer with title, company, place, contract, working time, salary and start date', async () => {
      const { el } = await list('ok', 'fr');
      const first = shadow(el, '[part=offer]');
      expect(first.textContent).to.contain('Backend developer 1').and.contain('Acme').and.contain('Lyon, France');
      expect(first.textContent).to.contain('CDI').and.contain('Temps plein');
      const salary = new Intl.NumberFormat('fr', {
        style: 'currency',
        currency: 'EUR',
        maximumFractionDigits: 0,
      }).formatRange(30000, 40000);
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
      await until(
        () => cards().length === 8 && cards().every((c) => c.includes('Fixed-term contract')),
        'the fixed-term offers show',
      );
      choose('#filter-working_time', 'Part time');
      await until(
        () =>
          cards().length === 4 && cards().every((c) => c.includes('Fixed-term contract') && c.includes('Part time')),
        'the part-time ones among them show',
      );
      choose('#filter-city', 'Madrid');
      await until(() => cards().length === 1 && cards()[0]!.includes('Madrid'), 'the one in Madrid shows');
      expect(titles(el)).to.deep.equal(['Accountant 8']);
      expect(shadow(el, '#count').textContent).to.contain('1');
      const asked = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes(endpoint) && e.name.includes('/api/campaigns?'))
        .map((e) => new URL(e.name).searchParams)
        .at(-1);
      expect([asked?.get('job_type'), asked?.get('working_time'), asked?.get('city')]).to.deep.equal([
        'Fixed term contract',
        'Part time',
        'Madrid',
      ]);
    });

    for (const lang of locales) {
      it(`shows contract types and working times in ${lang} in the offers and the filters`, async () => {
        const { el } = await list('ok', lang);
        const first = shadow(el, '[part=offer]').textContent!;
        expect(first).to.contain(labels.permanent[lang]).and.contain(labels.fullTime[lang]);
        const options = (id: string) =>
          [...shadow<HTMLSelectElement>(el, id).options].map((o) => [o.value, o.textContent!.trim()]);
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
        const none = (id: string) =>
          [...shadow<HTMLSelectElement>(el, id).options]
            .filter((o) => o.value === '')
            .map((o) => o.textContent!.trim());
        expect([...none('#filter-job_type'), ...none('#filter-working_time'), ...none('#filter-city')]).to.deep.equal([
          ...all,
        ]);
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
        const el = await fixture<JobboardCampaigns>(
          html`<jobboard-campaigns endpoint=${endpoint} lang=${lang}></jobboard-campaigns>`,
        );
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
        const el = await fixture<JobboardCampaigns>(
          html`<jobboard-campaigns endpoint=${endpoint} lang="en-NZ"></jobboard-campaigns>`,
        );
        await until(() => built.includes('en-NZ'), 'the formats are set up');
        expect(titles(el), 'the offers are shown already').to.deep.equal([]);
      } finally {
        Intl.NumberFormat = NumberFormat;
      }
    });

    it('spins, unless the candidate prefers reduced motion', async () => {
      const spinner = async () => {
        const { endpoint } = standIn('slow');
        const el = await fixture<JobboardCampaigns>(
          html`<jobboard-campaigns endpoint=${endpoint}></jobboard-campaigns>`,
        );
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
        const el = await fixture<JobboardCampaigns>(
          html`<jobboard-campaigns endpoint=${endpoint} lang="en"></jobboard-campaigns>`,
        );
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
});
