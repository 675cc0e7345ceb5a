import { expect } from '@open-wc/testing';
import { JobboardApply, JobboardCampaigns, defineElement } from './index.ts';

describe('the npm entry (widget/src/index.ts)', () => {
  it('exports the classes without defining any element', () => {
    expect(customElements.get('jobboard-apply')).to.equal(undefined);
    expect(customElements.get('jobboard-campaigns')).to.equal(undefined);
    expect(JobboardApply.prototype).to.be.instanceOf(HTMLElement);
    expect(JobboardCampaigns.prototype).to.be.instanceOf(HTMLElement);
  });

  it('lets an application define them under the tags it chooses', () => {
    defineElement('my-board-apply', JobboardApply);
    expect(document.createElement('my-board-apply')).to.be.instanceOf(JobboardApply);
  });
});
