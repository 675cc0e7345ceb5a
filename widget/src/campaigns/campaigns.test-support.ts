// What the catalogue's browser tests share: its texts in each language, and
// the element listing the stand-in's offers.
import { fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { JobboardCampaigns } from '../index.ts';
import { maybe, notSetUp, standIn, until } from '../internal/test-support.ts';
import type { locales } from '../internal/test-support.ts';

type Lang = (typeof locales)[number];

export const text = {
  offers: { en: '23 offers', fr: '23 offres', es: '23 ofertas' },
  keywords: { en: 'Keywords', fr: 'Mots-clés', es: 'Palabras clave' },
  loading: { en: 'Loading offers…', fr: 'Chargement des offres…', es: 'Cargando ofertas…' },
  empty: { en: 'No offer matches your search', fr: 'Aucune offre ne correspond', es: 'Ninguna oferta coincide' },
  failed: {
    en: 'The offers could not be loaded',
    fr: 'Les offres n’ont pas pu être chargées',
    es: 'No se pudieron cargar las ofertas',
  },
  back: { en: 'Back to offers', fr: 'Retour aux offres', es: 'Volver a las ofertas' },
  notSetUp,
} as const;

/** The element with the stand-in's `scenario`, once its list settled. */
export async function list(scenario = 'ok', lang: Lang = 'en', extra = '') {
  const { endpoint } = standIn(scenario);
  const el = await fixture<JobboardCampaigns>(
    html`<jobboard-campaigns endpoint=${endpoint} lang=${lang} per-page="10"></jobboard-campaigns>`,
  );
  if (extra) el.setAttribute(extra, 'hidden');
  await until(() => maybe(el, '.list, .state:not(:has(.spinner))'), 'the list settles');
  await el.updateComplete;
  return { el, endpoint };
}

export function titles(el: JobboardCampaigns): string[] {
  return [...el.shadowRoot!.querySelectorAll('[part=offer-title]')].map((b) => b.textContent!.trim());
}

export async function open(el: JobboardCampaigns, index = 0): Promise<void> {
  el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=offer-title]')[index]!.focus();
  await sendKeys({ press: 'Enter' });
  await until(() => maybe(el, '#detail-title'), 'the offer opens');
}
