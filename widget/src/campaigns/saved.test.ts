import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardCampaigns } from '../index.ts';
import { activeInside, itIsAccessibleAndSpeaks, maybe, shadow, standIn, until } from '../internal/test-support.ts';
import type { Lang } from '../internal/test-support.ts';
import { titles } from './campaigns.test-support.ts';
import { SAVED_KEY } from './saved-store.ts';

// What every language's audit checks; a text checked in one language is written where it is checked.
const said = {
  save: { en: 'Save', fr: 'Sauvegarder', es: 'Guardar' },
  count: { en: 'My saved offers (0)', fr: 'Mes offres sauvegardées (0)', es: 'Mis ofertas guardadas (0)' },
} as const;

/** The element listing the stand-in's offers at `endpoint`, once its toggles are in. */
async function mount(endpoint: string, lang: Lang = 'en'): Promise<JobboardCampaigns> {
  const el = await fixture<JobboardCampaigns>(
    html`<jobboard-campaigns endpoint=${endpoint} lang=${lang} per-page="10"></jobboard-campaigns>`,
  );
  await until(() => maybe(el, '.list .save-toggle') && maybe(el, '#saved-open'), 'the toggles show');
  return el;
}

const toggles = (el: JobboardCampaigns) => [
  ...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.list .save-toggle'),
];
const pressed = (el: JobboardCampaigns) => toggles(el).map((b) => b.getAttribute('aria-pressed'));
const countText = (el: JobboardCampaigns) => shadow(el, '#saved-open').textContent!.trim();

/** Presses a key on the toggle of the `index`th offer of the list, as a keyboard user does. */
async function press(el: JobboardCampaigns, index: number, key = 'Enter'): Promise<void> {
  toggles(el)[index]!.focus();
  await sendKeys({ press: key });
  await el.updateComplete;
}

describe('saved offers', () => {
  beforeEach(() => localStorage.clear());

  itIsAccessibleAndSpeaks((lang) => mount(standIn().endpoint, lang).then((el) => ({ el })), {
    '.list .save-toggle': said.save,
    '#saved-open': said.count,
  });

  it('saves and unsaves an offer with a real toggle button, by keyboard, with the title in its name; the count changes and is said politely', async () => {
    const el = await mount(standIn().endpoint, 'fr');
    const first = toggles(el)[0]!;
    expect(first.localName).to.equal('button');
    expect(first.getAttribute('aria-pressed')).to.equal('false');
    expect(first.textContent).to.contain(said.save.fr).and.contain(titles(el)[0]);
    const status = shadow(el, '#saved-open + [role=status]');
    expect(status.textContent!.trim()).to.equal('');

    await press(el, 0);
    expect(first.getAttribute('aria-pressed')).to.equal('true');
    expect(first.textContent).to.contain('Sauvegardée').and.contain(titles(el)[0]);
    // Focus stays on the toggle, and shows.
    expect(activeInside(el)).to.equal(first);
    expect(first.matches(':focus-visible')).to.equal(true);
    expect(countText(el)).to.equal('Mes offres sauvegardées (1)');
    expect(status.textContent!.trim()).to.equal('Mes offres sauvegardées (1)');

    await press(el, 2, 'Space');
    expect(pressed(el).slice(0, 3)).to.deep.equal(['true', 'false', 'true']);
    expect(status.textContent!.trim()).to.equal('Mes offres sauvegardées (2)');

    await press(el, 0, 'Space');
    expect(first.getAttribute('aria-pressed')).to.equal('false');
    expect(countText(el)).to.equal('Mes offres sauvegardées (1)');
  });

  it("keeps only the saved offers' id, title, company and city, on the device, for the next visit", async () => {
    const { endpoint } = standIn();
    const el = await mount(endpoint);
    await press(el, 1);
    await press(el, 0);
    const kept = JSON.parse(localStorage.getItem(SAVED_KEY + endpoint)!) as Record<string, unknown>[];
    expect(kept.map((o) => Object.keys(o).sort())).to.deep.equal([
      ['city', 'company_name', 'id', 'name'],
      ['city', 'company_name', 'id', 'name'],
    ]);
    expect(kept.map((o) => o.name)).to.deep.equal([titles(el)[0], titles(el)[1]]);
    el.remove();

    // As after a reload: a new element reads them back.
    const again = await mount(endpoint);
    expect(pressed(again).slice(0, 3)).to.deep.equal(['true', 'true', 'false']);
    expect(countText(again)).to.equal('My saved offers (2)');
  });

  it("the toggle on the offer's page says whether it is saved, and saves it", async () => {
    const el = await mount(standIn().endpoint, 'es');
    await press(el, 0);
    shadow(el, '[part=offer-title]').click();
    await until(() => maybe(el, '#detail-title') && maybe(el, '.detail .save-toggle'), 'the offer opens');
    const toggle = shadow(el, '.detail .save-toggle');
    expect(toggle.getAttribute('aria-pressed')).to.equal('true');
    expect(toggle.textContent).to.contain('Guardada').and.contain(shadow(el, '#detail-title').textContent!.trim());
    toggle.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    expect(toggle.textContent).to.contain(said.save.es);
  });

  it('lists the saved offers in their view: a closed one is said so, with a search for similar offers, and can be removed', async () => {
    const { endpoint } = standIn();
    // An offer saved earlier that the proxy no longer has (404).
    const gone = { id: 9999, name: 'Nurse night shift', company_name: 'Gone Ltd', city: 'Nantes' };
    localStorage.setItem(SAVED_KEY + endpoint, JSON.stringify([gone]));
    const el = await mount(endpoint, 'fr');
    await press(el, 0);
    expect(countText(el)).to.equal('Mes offres sauvegardées (2)');

    shadow(el, '#saved-open').focus();
    await sendKeys({ press: 'Enter' });
    await until(() => maybe(el, '#saved-title'), 'the view opens');
    expect(activeInside(el)?.id).to.equal('saved-title');
    expect(shadow(el, '#saved-title').localName).to.equal('h2');
    const items = () => [...el.shadowRoot!.querySelectorAll('section ul.list > li')];
    expect(items()).to.have.length(2);
    await until(() => el.shadowRoot!.querySelector('.closed'), 'the closed offer is checked');
    const closed = items().find((li) => li.textContent!.includes('Nurse night shift'))!;
    expect(closed.querySelector('.closed')!.textContent).to.contain('Offre pourvue ou fermée');
    expect(closed.querySelector('h3')!.textContent).to.contain('Nurse night shift');
    const open = items().find((li) => !li.querySelector('.closed'))!;
    expect(open.querySelector('h3 button')!.textContent).to.contain('Backend developer 1');

    const remove = [...closed.querySelectorAll('button')].find((b) => b.textContent!.includes('Retirer'))!;
    expect(remove.textContent).to.contain('Nurse night shift');
    const similar = [...closed.querySelectorAll('button')].find((b) => b.textContent!.includes('similaires'))!;
    similar.click();
    await until(() => titles(el).length === 5, 'similar offers are listed');
    expect(titles(el).every((t) => t.startsWith('Nurse'))).to.equal(true);
    expect(activeInside(el)?.id).to.equal('count');

    shadow(el, '#saved-open').click();
    await until(() => el.shadowRoot!.querySelector('.closed'), 'the view checks again');
    [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.closed ~ .saved-actions button')].at(-1)!.click();
    await until(() => items().length === 1, 'the closed offer is removed');
    expect(shadow(el, 'section .count').textContent).to.contain('Mes offres sauvegardées (1)');
    expect(activeInside(el)?.id).to.equal('saved-title');

    shadow(el, '.back').click();
    await until(() => maybe(el, '.list .save-toggle'), 'back to the list');
    expect(activeInside(el)?.id).to.equal('saved-open');
  });

  it('says so, visibly and politely, when the browser refuses to keep a change after the list showed', async () => {
    const el = await mount(standIn().endpoint, 'fr');
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      await press(el, 0);
    } finally {
      Storage.prototype.setItem = setItem;
    }
    expect(pressed(el)[0]).to.equal('false');
    const status = shadow(el, '#saved-open + [role=status]');
    expect(status.className).to.equal('error');
    expect(status.textContent).to.contain('stockage est plein ou bloqué');
    expect(countText(el)).to.equal(said.count.fr);
  });

  it('shows no toggle and no saved offers when the browser keeps nothing for the page', async () => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    try {
      const el = await fixture<JobboardCampaigns>(
        html`<jobboard-campaigns endpoint=${standIn().endpoint} per-page="10"></jobboard-campaigns>`,
      );
      await until(() => titles(el).length === 10, 'the list shows');
      // Once the saved offers' module is in (the element imported it first) and the element rendered again.
      await import('./saved.ts');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await el.updateComplete;
      expect(maybe(el, '.save-toggle')).to.equal(null);
      expect(maybe(el, '#saved-open')).to.equal(null);
    } finally {
      Storage.prototype.setItem = setItem;
    }
  });
});
