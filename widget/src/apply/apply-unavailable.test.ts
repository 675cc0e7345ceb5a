import { aTimeout, expect, fixture, html } from '@open-wc/testing';
import { ifDefined } from 'lit/directives/if-defined.js';
import '../widget.ts';
import type { JobboardApply } from '../index.ts';
import { loadConfig } from '../internal/api.ts';
import { locales, maybe, shadow, standIn, until } from '../internal/test-support.ts';
import { consoleErrors, text } from './apply.test-support.ts';
import type { Lang } from './apply.test-support.ts';

/** The form for offer `campaignId` of the stand-in's `scenario`, once it shows an outcome in place of its fields. */
async function outcomeShown(scenario: string, campaignId = '101', lang?: Lang) {
  const { endpoint } = standIn(scenario);
  const el = await fixture<JobboardApply>(
    html`<jobboard-apply endpoint=${endpoint} campaign-id=${campaignId} lang=${ifDefined(lang)}></jobboard-apply>`,
  );
  await until(() => maybe(el, '[part=outcome]'), 'the outcome shows');
  return { el, outcome: shadow(el, '[part=outcome]').textContent!.trim() };
}

/**
 * In each language, the form for offer 101 of the stand-in's `scenario` shows
 * only its outcome: accessible, saying `said`, with no form and nothing
 * matching `absent`.
 */
function itShowsTheOutcomeAlone(
  scenario: string,
  title: (lang: Lang) => string,
  said: Record<Lang, string>,
  absent: string,
): void {
  for (const lang of locales) {
    it(title(lang), async () => {
      const { el, outcome } = await outcomeShown(scenario, '101', lang);
      await expect(el).to.be.accessible();
      expect(outcome).to.equal(said[lang]);
      expect(maybe(el, 'form')).to.equal(null);
      expect(maybe(el, absent)).to.equal(null);
    });
  }
}

describe('<jobboard-apply>: when it cannot take applications', () => {
  describe('when /api/config cannot be loaded', () => {
    for (const lang of locales) {
      it(`says so accessibly and offers to try again, in ${lang}`, async () => {
        const { endpoint } = standIn('config-error');
        const el = await fixture<JobboardApply>(
          html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang=${lang}></jobboard-apply>`,
        );
        await until(() => maybe(el, '.summary button'));
        await expect(el).to.be.accessible();
        expect(el.shadowRoot!.textContent).to.contain(text.notLoaded[lang]);
      });
    }
  });

  describe('when the offer is closed or unknown', () => {
    itShowsTheOutcomeAlone(
      'gone',
      (lang) => `says the offer is no longer available before any field is shown, in ${lang}`,
      text.gone,
      'input',
    );

    it('moved to another proxy while the first still loads the form, shows what the last one says, even when the first answers last', async () => {
      const first = standIn('slow-config').endpoint;
      const el = await fixture<JobboardApply>(
        html`<jobboard-apply endpoint=${first} campaign-id="101"></jobboard-apply>`,
      );
      el.endpoint = standIn('gone').endpoint;
      await until(() => maybe(el, '[part=outcome]'), 'the offer is checked');
      // The first proxy's /api/config, the last answer; then what waited for it runs.
      await loadConfig(first);
      await aTimeout(0);
      await el.updateComplete;
      expect(shadow(el, '[part=outcome]').textContent!.trim()).to.equal(text.gone.en);
      expect(maybe(el, 'form')).to.equal(null);
    });

    it('shows no form for an offer the catalogue does not hold', async () => {
      const { el, outcome } = await outcomeShown('ok', '9999');
      expect(outcome).to.equal(text.gone.en);
      expect(maybe(el, 'form')).to.equal(null);
    });
  });

  describe("when the proxy does not allow the page's origin", () => {
    itShowsTheOutcomeAlone(
      'refused',
      (lang) => `tells the candidate the form is not set up on this site, with no retry and no form, in ${lang}`,
      text.notSetUp,
      'button',
    );

    it("tells the board's developer in the console, once per proxy, which origin to add to ALLOWED_ORIGINS", async () => {
      const { endpoint } = standIn('refused');
      const errors = await consoleErrors(async () => {
        const first = await fixture<JobboardApply>(
          html`<jobboard-apply endpoint=${endpoint} campaign-id="101"></jobboard-apply>`,
        );
        const second = await fixture<JobboardApply>(
          html`<jobboard-apply endpoint=${endpoint} campaign-id="102"></jobboard-apply>`,
        );
        await until(() => maybe(first, '[part=outcome]') && maybe(second, '[part=outcome]'), 'both refusals are read');
      });
      const lines = errors.filter((line) => line.includes('ALLOWED_ORIGINS'));
      expect(lines).to.deep.equal([
        `jobboard widget: this page's origin ${location.origin} is not in the ALLOWED_ORIGINS of the proxy at ${endpoint}; add it there.`,
      ]);
    });
  });
});
