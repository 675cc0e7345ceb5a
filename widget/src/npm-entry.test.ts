// The npm entry as an application gets it: `@jobboard-connector/widget`, the
// front-end package, resolved through its package.json `exports` (the dev
// server's nodeResolve honours them, through the workspace's link in
// node_modules) to the built widget/dist/index.js, so `npm run build` runs
// first. widget/tsconfig.json maps the name to src/index.ts for the type check
// only, which runs before the build.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { JobboardApply, JobboardCampaigns, defineElement } from '@jobboard-connector/widget';
import { maybe, shadow, standIn, until } from './internal/test-support.ts';

function loaded(fragment: string): boolean {
  return performance.getEntriesByType('resource').some((entry) => entry.name.includes(fragment));
}

describe('the npm entry (@jobboard-connector/widget)', () => {
  it('is the built widget/dist/index.js, not the TypeScript source', () => {
    expect(loaded('/widget/dist/index.js'), 'widget/dist/index.js was loaded').to.equal(true);
    expect(loaded('/widget/src/index.ts'), 'widget/src/index.ts was loaded').to.equal(false);
  });

  it('exports the classes without defining any element', () => {
    expect(customElements.get('jobboard-apply')).to.equal(undefined);
    expect(customElements.get('jobboard-campaigns')).to.equal(undefined);
    expect(JobboardApply.prototype).to.be.instanceOf(HTMLElement);
    expect(JobboardCampaigns.prototype).to.be.instanceOf(HTMLElement);
  });

  it('imports Lit instead of carrying its own copy, so the application bundles Lit once', () => {
    // Both extend the widget's own base, which extends the application's LitElement.
    expect(Object.prototype.isPrototypeOf.call(LitElement, JobboardApply)).to.equal(true);
    expect(Object.prototype.isPrototypeOf.call(LitElement, JobboardCampaigns)).to.equal(true);
  });

  it('lets an application define the form under a tag it chooses, and it loads its fields from the proxy', async () => {
    defineElement('board-apply', JobboardApply);
    const { endpoint } = standIn('ok');
    const el = await fixture<JobboardApply>(
      html`<board-apply endpoint=${endpoint} campaign-id="101" lang="fr" no-draft></board-apply>`,
    );
    expect(el).to.be.instanceOf(JobboardApply);
    await until(() => maybe(el, 'form'), 'the form shows once /api/config answered');
    expect(shadow<HTMLInputElement>(el, '#email').required).to.equal(true);
    expect(shadow(el, 'button[type=submit]').textContent).to.contain('Envoyer ma candidature');
    expect(customElements.get('jobboard-apply')).to.equal(undefined);
  });

  it('lets an application define the catalogue under a tag it chooses, and it lists the offers', async () => {
    defineElement('board-campaigns', JobboardCampaigns);
    const { endpoint } = standIn('ok');
    const el = await fixture<JobboardCampaigns>(
      html`<board-campaigns endpoint=${endpoint} lang="en" per-page="5"></board-campaigns>`,
    );
    await until(() => el.shadowRoot?.querySelectorAll('.offer').length === 5, 'the first page of offers shows');
    expect(shadow(el, '.offer').textContent).to.contain('Backend developer');
  });
});
