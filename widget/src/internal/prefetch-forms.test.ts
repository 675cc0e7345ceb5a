// A <jobboard-apply> in the page before its module has defined it asks for its
// config and offer from widget.js; once defined, the form takes those answers
// rather than asking again.
import { expect } from '@open-wc/testing';
import { prefetchForms } from './prefetch-forms.ts';
import { maybe, standIn, until, watchRequestsAndWarnings } from './test-helpers.ts';

describe('prefetchForms', () => {
  it('asks for an undefined form\'s config and offer at once, and the form, once defined, asks for neither again', async () => {
    const { endpoint } = standIn();
    const container = document.createElement('div');
    container.innerHTML = `<jobboard-apply endpoint="${endpoint}" campaign-id="101" lang="en" no-draft></jobboard-apply>`;
    document.body.append(container);
    const watch = watchRequestsAndWarnings();
    try {
      prefetchForms(container);
      const asked = [`fetch ${endpoint}/api/campaigns/101`, `fetch ${endpoint}/api/config`];
      expect([...watch.requests].sort()).to.deep.equal(asked);
      const { JobboardApply } = await import('../apply/apply.ts');
      customElements.define('jobboard-apply', JobboardApply);
      const form = container.querySelector('jobboard-apply')!;
      await until(() => maybe(form, 'button[type=submit]') !== null, 'the form shows');
      expect([...watch.requests].sort()).to.deep.equal(asked);
    } finally {
      watch.restore();
      container.remove();
    }
  });
});
