import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardCampaigns } from '../index.ts';
import { maybe, shadow, standIn, type, until } from '../internal/test-support.ts';
import { DEFAULT_RADIUS_KM } from '../../../server/public-api/list-params.ts';

/** The query of the last GET /api/campaigns the element sent to this endpoint. */
function lastAsked(endpoint: string): URLSearchParams | undefined {
  return performance
    .getEntriesByType('resource')
    .filter((e) => e.name.includes(endpoint) && e.name.includes('/api/campaigns?'))
    .map((e) => new URL(e.name).searchParams)
    .at(-1);
}

async function list(attributes: Record<string, string> = {}) {
  const { endpoint } = standIn('ok');
  const el = await fixture<JobboardCampaigns>(
    html`<jobboard-campaigns endpoint=${endpoint} per-page="10"></jobboard-campaigns>`,
  );
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  await until(() => maybe(el, '.list'), 'the list shows');
  await el.updateComplete;
  return { el, endpoint };
}

const cards = (el: JobboardCampaigns) =>
  [...el.shadowRoot!.querySelectorAll('[part=offer]')].map((o) => o.textContent!);

describe('<jobboard-campaigns> filters: place, radius, salary, presets', () => {
  it('asks for offers near the place typed, within the radius chosen, paying at least the salary typed', async () => {
    const { el, endpoint } = await list();
    await type(el, '#near', 'Lyon');
    const radius = shadow<HTMLSelectElement>(el, '#filter-radius_km');
    radius.value = '50';
    await type(el, '#salary_min', '35000');
    await sendKeys({ press: 'Enter' });
    await until(() => lastAsked(endpoint)?.get('near') === 'Lyon', 'the search is sent');
    const asked = lastAsked(endpoint)!;
    expect([asked.get('radius_km'), asked.get('salary_min')]).to.deep.equal(['50', '35000']);
    expect(new URL(location.href).searchParams.get('near')).to.equal('Lyon', 'the place is in the page URL');
  });

  it("offers the radius choices in order, the proxy's default among them, chosen unless told", async () => {
    const { el } = await list();
    const radius = shadow<HTMLSelectElement>(el, '#filter-radius_km');
    const km = [...radius.options].map((option) => parseInt(option.text, 10));
    expect(km).to.deep.equal([...km].sort((a, b) => a - b));
    expect(km).to.include(DEFAULT_RADIUS_KM);
    expect(parseInt(radius.selectedOptions[0]!.text, 10)).to.equal(DEFAULT_RADIUS_KM);
  });

  it('sends no radius without a place (the proxy refuses one)', async () => {
    const { el, endpoint } = await list();
    shadow<HTMLSelectElement>(el, '#filter-radius_km').value = '10';
    await type(el, '#q', 'nurse');
    await sendKeys({ press: 'Enter' });
    await until(() => lastAsked(endpoint)?.get('q') === 'nurse', 'the search is sent');
    expect(lastAsked(endpoint)!.has('radius_km')).to.equal(false);
  });

  it('asks the browser for the position only when the candidate clicks "Near me", then searches near it', async () => {
    const asked: PositionCallback[] = [];
    const real = Object.getOwnPropertyDescriptor(Navigator.prototype, 'geolocation')!;
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: { getCurrentPosition: (done: PositionCallback) => asked.push(done) },
    });
    try {
      const { el, endpoint } = await list();
      expect(asked, 'nothing asked on load').to.have.length(0);
      shadow(el, '#near + button').click();
      expect(asked, 'asked once, on the click').to.have.length(1);
      asked[0]!({ coords: { latitude: 45.76404, longitude: 4.83566 } } as GeolocationPosition);
      await until(() => lastAsked(endpoint)?.get('near') === '45.764,4.836', 'the search near the position is sent');
      expect(shadow<HTMLInputElement>(el, '#near').value).to.equal('45.764,4.836');
    } finally {
      delete (navigator as { geolocation?: unknown }).geolocation;
      expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'geolocation')).to.deep.equal(real);
    }
  });

  for (const [lang, reason, failed] of [
    ['en', 'No offer in this town has a known position.', 'could not be loaded'],
    ['fr', 'Aucune offre de cette ville n’a de position connue.', 'Vérifiez votre connexion'],
    ['es', 'Ninguna oferta de esta ciudad tiene una posición conocida.', 'No se pudieron cargar'],
  ] as const) {
    it(`says why the proxy refused the place typed, not a connection problem, in ${lang}`, async () => {
      const { el, endpoint } = await list({ lang });
      await type(el, '#near', 'Atlantis');
      await sendKeys({ press: 'Enter' });
      await until(() => lastAsked(endpoint)?.get('near') === 'Atlantis', 'the search is sent');
      await until(() => maybe(el, '.error-box'), 'the refusal shows');
      expect(shadow(el, '.error-box').textContent).to.contain(reason);
      expect(el.shadowRoot!.textContent).not.to.contain(failed);
      expect(maybe(el, '.error-box button'), 'no "try again": it would be refused the same').to.equal(null);
    });
  }

  for (const [code, said] of [
    [1, 'Your position was not shared. Allow it in your browser, or enter a town.'],
    [2, 'Your position could not be found. Enter a town.'],
  ] as const) {
    it(`says so when "Near me" gets no position (error ${code}), next to the place, in a live region`, async () => {
      Object.defineProperty(navigator, 'geolocation', {
        configurable: true,
        value: {
          getCurrentPosition: (_done: PositionCallback, fail: PositionErrorCallback) =>
            fail({ code, PERMISSION_DENIED: 1 } as GeolocationPositionError),
        },
      });
      try {
        const { el } = await list();
        shadow(el, '#near + button').click();
        const status = shadow(el, '#near-status');
        expect(status.textContent).to.equal(said);
        expect(status.getAttribute('role')).to.equal('status');
        expect(shadow(el, '#near').getAttribute('aria-describedby')).to.equal('near-status');
      } finally {
        delete (navigator as { geolocation?: unknown }).geolocation;
      }
    });
  }

  it('with company-id, job-type and city, lists only those offers, hides those filters, and keeps them whatever the candidate searches', async () => {
    const { el, endpoint } = await list({ 'company-id': '2', 'job-type': 'Fixed term contract', city: 'Madrid' });
    await until(() => lastAsked(endpoint)?.get('city') === 'Madrid', 'the presets are asked for');
    await until(
      () => cards(el).length > 0 && cards(el).every((c) => c.includes('Madrid') && c.includes('Fixed-term contract')),
      'only offers of the presets show',
    );
    // Booleans: a failing assertion on an element would print the whole element.
    expect(maybe(el, '#filter-job_type') === null, 'no contract type filter').to.equal(true);
    expect(maybe(el, '#filter-city') === null, 'no city filter').to.equal(true);
    expect(maybe(el, '#filter-working_time') === null, 'the working time filter').to.equal(false);
    await type(el, '#q', 'accountant');
    await sendKeys({ press: 'Enter' });
    await until(() => lastAsked(endpoint)?.get('q') === 'accountant', 'the search is sent');
    const asked = lastAsked(endpoint)!;
    expect([asked.get('company_id'), asked.get('job_type'), asked.get('city')]).to.deep.equal([
      '2',
      'Fixed term contract',
      'Madrid',
    ]);
    const url = new URL(location.href).searchParams;
    expect(
      [url.has('company_id'), url.has('job_type'), url.has('city')],
      'presets stay out of the page URL',
    ).to.deep.equal([false, false, false]);
  });
});
