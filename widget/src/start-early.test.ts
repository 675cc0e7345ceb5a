// widget.js asks for what a form already in the page shows (the proxy's
// config, its offer) as the first thing it runs, before Lit and the elements
// are set up, so that neither answer waits for them.
import { expect } from '@open-wc/testing';
import { maybe, standIn, until } from './internal/test-support.ts';

describe('widget.js', () => {
  it("asks for a form's config and offer before it defines any element, and the form asks for neither again", async () => {
    const { endpoint } = standIn();
    const container = document.createElement('div');
    container.innerHTML = `<jobboard-apply endpoint="${endpoint}" campaign-id="101" lang="en" no-draft></jobboard-apply>`;
    document.body.append(container);
    // Each request, with whether widget.js had defined its first element when it was made.
    const asked: string[] = [];
    const { fetch } = window;
    window.fetch = (input, init) => {
      asked.push(`${String(input)} ${customElements.get('jobboard-campaigns') ? 'after' : 'before'} the elements`);
      return fetch(input, init);
    };
    try {
      await import('./widget.ts');
      const form = container.querySelector('jobboard-apply')!;
      await until(() => maybe(form, 'button[type=submit]') !== null, 'the form shows');
      expect(asked.sort()).to.deep.equal([
        `${endpoint}/api/campaigns/101 before the elements`,
        `${endpoint}/api/config before the elements`,
      ]);
    } finally {
      window.fetch = fetch;
      container.remove();
    }
  });
});
