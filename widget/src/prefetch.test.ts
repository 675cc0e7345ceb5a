// The elements in the page before their code has defined them ask for what
// they will show from widget.js; once defined, they take those answers rather
// than asking again.
import { expect } from '@open-wc/testing';
import { prefetchAnswers } from './prefetch.ts';
import { maybe, standIn, until, watchRequestsAndWarnings } from './internal/test-support.ts';

/** An element of `html` in the page, not defined yet (this test page loads no element's module but the ones it imports). */
function inPage(html: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  return container;
}

describe('prefetchAnswers', () => {
  it("asks for an undefined form's config and offer at once, and the form, once defined, asks for neither again", async () => {
    const { endpoint } = standIn();
    const container = inPage(
      `<jobboard-apply endpoint="${endpoint}" campaign-id="101" lang="en" no-draft></jobboard-apply>`,
    );
    const watch = watchRequestsAndWarnings();
    try {
      prefetchAnswers(container);
      const asked = [`fetch ${endpoint}/api/campaigns/101`, `fetch ${endpoint}/api/config`];
      expect([...watch.requests].sort()).to.deep.equal(asked);
      const { JobboardApply } = await import('./apply/apply.ts');
      customElements.define('jobboard-apply', JobboardApply);
      const form = container.querySelector('jobboard-apply')!;
      await until(() => maybe(form, 'button[type=submit]') !== null, 'the form shows');
      expect([...watch.requests].sort()).to.deep.equal(asked);
    } finally {
      watch.restore();
      container.remove();
    }
  });

  it("asks for an undefined catalogue's list and the offer it opens from the page's URL, with its form's config; the catalogue, once defined, asks for neither again", async () => {
    const { endpoint } = standIn();
    const before = location.href;
    history.replaceState(null, '', '?offer=100&q=acme');
    const container = inPage(
      `<jobboard-campaigns endpoint="${endpoint}" lang="en" per-page="5" city="Lyon"></jobboard-campaigns>`,
    );
    const watch = watchRequestsAndWarnings();
    const list = `fetch ${endpoint}/api/campaigns?q=acme&city=Lyon&per_page=5`;
    const offer = `fetch ${endpoint}/api/campaigns/100`;
    try {
      prefetchAnswers(container);
      expect([...watch.requests].sort()).to.deep.equal([offer, list, `fetch ${endpoint}/api/config`].sort());
      const { JobboardCampaigns } = await import('./campaigns/campaigns.ts');
      customElements.define('jobboard-campaigns', JobboardCampaigns);
      const catalogue = container.querySelector('jobboard-campaigns')!;
      // The list is asked for in the same update that reads the offer from the URL, before the offer shows.
      await until(() => maybe(catalogue, '#detail-title') !== null, 'the offer opens');
      expect(watch.requests.filter((request) => request === offer || request === list).sort()).to.deep.equal(
        [offer, list].sort(),
      );
    } finally {
      watch.restore();
      container.remove();
      history.replaceState(null, '', before);
    }
  });

  it("reads a catalogue's attributes as it does: the filters the board fixed and the page size, no URL with its router off, nothing at all with its state rendered on the server", () => {
    const { endpoint } = standIn();
    const state = JSON.stringify({ query: {}, list: { items: [], page: 1, per_page: 10, total: 0, last_page: 1 } });
    // A document of its own, where no element is ever defined (another test here defines the catalogue in this page).
    const container = document.implementation.createHTMLDocument().body;
    container.innerHTML = `
      <jobboard-campaigns endpoint="${endpoint}" offer-param="job" company-id="7" job-type="Internship" city="Lyon" per-page="5"></jobboard-campaigns>
      <jobboard-campaigns endpoint="${endpoint}" routing="none"></jobboard-campaigns>
      <jobboard-campaigns endpoint="${endpoint}"><script type="application/json" data-jobboard-state>${state}</script></jobboard-campaigns>`;
    const watch = watchRequestsAndWarnings();
    try {
      prefetchAnswers(container, '?offer=100&job=101&q=nurse&city=Paris');
      expect([...watch.requests].sort()).to.deep.equal(
        [
          `fetch ${endpoint}/api/campaigns/101`,
          `fetch ${endpoint}/api/config`,
          `fetch ${endpoint}/api/campaigns?q=nurse&city=Lyon&company_id=7&job_type=Internship&per_page=5`,
          `fetch ${endpoint}/api/campaigns?per_page=10`,
        ].sort(),
      );
    } finally {
      watch.restore();
    }
  });
});
