// What the catalogue's browser tests share: the element listing the stand-in's offers.
import { fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { JobboardCampaigns } from '../index.ts';
import { maybe, standIn, until } from '../internal/test-support.ts';
import type { Lang } from '../internal/test-support.ts';
// The texts each language shows are one table for both elements' tests.
export { text } from '../internal/test-support.ts';

/** The element with the stand-in's `scenario`, once its list settled. */
export async function list(scenario = 'ok', lang: Lang = 'en', extra = '') {
  const { endpoint, token } = standIn(scenario);
  const el = await fixture<JobboardCampaigns>(
    html`<jobboard-campaigns endpoint=${endpoint} lang=${lang} per-page="10"></jobboard-campaigns>`,
  );
  if (extra) el.setAttribute(extra, 'hidden');
  await until(() => maybe(el, '.list, .state:not(:has(.spinner))'), 'the list settles');
  await el.updateComplete;
  return { el, endpoint, token };
}

export function titles(el: JobboardCampaigns): string[] {
  return [...el.shadowRoot!.querySelectorAll('[part=offer-title]')].map((b) => b.textContent!.trim());
}

export async function open(el: JobboardCampaigns, index = 0): Promise<void> {
  el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=offer-title]')[index]!.focus();
  await sendKeys({ press: 'Enter' });
  await until(() => maybe(el, '#detail-title'), 'the offer opens');
}
