import { expect, fixture, html } from '@open-wc/testing';
import '../widget.ts';
import type { JobboardApply } from '../index.ts';
import type { CampaignSummary } from '../internal/api.ts';
import { maybe, received, shadow, standIn, until } from '../internal/test-support.ts';
import { fillRequired, submit } from './apply.test-support.ts';

/** The stand-in's offer 101, as the catalogue hands it to its form. */
async function offer(endpoint: string): Promise<CampaignSummary> {
  return (await (await fetch(`${endpoint}/api/campaigns/101`)).json()) as CampaignSummary;
}

describe('<jobboard-apply> spontaneous applications', () => {
  it('with company-id and no campaign-id, shows a form headed "Spontaneous application", with no cover letter, and posts company_id', async () => {
    const { endpoint, token } = standIn('spontaneous');
    const el = await fixture<JobboardApply>(
      html`<jobboard-apply endpoint=${endpoint} company-id="12" lang="en" no-draft></jobboard-apply>`,
    );
    await until(() => maybe(el, 'form'), 'the spontaneous form shows');
    expect(shadow(el, 'h2').textContent?.trim()).to.equal('Spontaneous application');
    expect(maybe(el, '#cover_letter'), 'a cover letter field').to.equal(null);
    await fillRequired(el);
    await submit(el);
    await until(() => maybe(el, '#outcome'), 'the outcome shows');
    const [sent] = await received(token);
    expect(sent!.fields.company_id).to.equal('12');
    expect(sent!.fields).not.to.have.property('campaign_id');
    expect(sent!.fields).not.to.have.property('cover_letter');
    expect(sent!.files.resume?.name).to.equal('resume.pdf');
  });

  it("under an offer's form, names the company in an entry that opens its spontaneous form, in French", async () => {
    const { endpoint } = standIn('spontaneous');
    const c = await offer(endpoint);
    const el = await fixture<JobboardApply>(
      html`<jobboard-apply endpoint=${endpoint} campaign-id="101" .offer=${c} lang="fr" no-draft></jobboard-apply>`,
    );
    await until(() => maybe(el, '.spontaneous button'), 'the entry shows');
    const button = shadow(el, '.spontaneous button');
    expect(button.textContent?.trim()).to.equal(`Candidature spontanée chez ${c.company_name}`);
    button.click();
    await until(() => maybe(el, 'jobboard-apply'), 'the spontaneous form opens');
    const inner = shadow<JobboardApply>(el, 'jobboard-apply');
    await until(() => maybe(inner, 'form'), 'its form shows');
    expect(shadow(inner, 'h2').textContent?.trim()).to.equal(`Candidature spontanée — ${c.company_name}`);
    expect(inner.companyId).to.equal(c.company_id);
    expect(maybe(inner, '#cover_letter')).to.equal(null);
    // The offer's own form keeps its cover letter.
    expect(maybe(el, '#cover_letter')).not.to.equal(null);
  });

  it('shows no entry when the board takes no spontaneous applications', async () => {
    const { endpoint } = standIn('ok');
    const el = await fixture<JobboardApply>(
      html`<jobboard-apply
        endpoint=${endpoint}
        campaign-id="101"
        .offer=${await offer(endpoint)}
        no-draft
      ></jobboard-apply>`,
    );
    await until(() => maybe(el, 'form'), 'the form shows');
    await new Promise((r) => setTimeout(r, 100));
    expect(maybe(el, '.spontaneous')).to.equal(null);
  });
});
