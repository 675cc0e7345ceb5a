// On a page in another language than English, the catalogue asks for its
// list, the offer its URL opens and that offer's form config while the
// language's texts are still loading, not once they are in: the first render
// waits for the slower of the two rather than for both in a row.
import { expect, fixture, html } from '@open-wc/testing';
import '../widget.ts';
import type { JobboardCampaigns } from '../index.ts';
import { textLocale } from '../internal/localize.ts';
import { maybe, standIn, until } from '../internal/test-helpers.ts';

describe('<jobboard-campaigns> on a French page', () => {
  it('asks for the list, the open offer and its form\'s config before the French texts are in', async () => {
    history.replaceState(null, '', `${location.pathname}${location.search}&offer=103`);
    const { endpoint } = standIn();
    // Each request to the proxy's API, with the language of the texts when it was made.
    const asked: string[] = [];
    const { fetch } = window;
    window.fetch = (input, init) => {
      const path = String(input).slice(endpoint.length).split('?')[0];
      asked.push(`${path} with ${textLocale()} texts`);
      return fetch(input, init);
    };
    try {
      const el = await fixture<JobboardCampaigns>(html`<jobboard-campaigns endpoint=${endpoint} lang="fr"></jobboard-campaigns>`);
      const form = () => el.shadowRoot!.querySelector('jobboard-apply');
      await until(() => form() && maybe(form()!, 'button[type=submit]'), 'the offer and its form show');
      expect(shadow(el)).to.contain('Postuler');
      // The offer's JobPosting, for search engines, is asked for once the offer is shown.
      expect(asked.filter((request) => !request.includes('/jobposting')).sort()).to.deep.equal([
        '/api/campaigns with en texts',
        '/api/campaigns/103 with en texts',
        '/api/config with en texts',
      ]);
    } finally {
      window.fetch = fetch;
    }
  });
});

function shadow(el: Element): string {
  return el.shadowRoot!.textContent ?? '';
}
