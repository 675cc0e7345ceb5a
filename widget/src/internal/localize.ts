// Localisation: lit-localize's runtime mode, with the widget's own runtime
// (localize-runtime.ts). English is in the script; French and Spanish each
// come as a small module of their own, fetched from beside the script only by
// a page that needs it. The widget's language comes from its `lang`
// attribute, then the page's, then the browser's.
import { msg } from '@lit/localize';
import type { ReactiveControllerHost } from 'lit';
import { sourceLocale, targetLocales } from '../generated/locale-codes.ts';
import { useTemplates } from './localize-runtime.ts';
import { besideModulesLoad } from './pinned-modules.ts';
import type { Templates } from './localize-runtime.ts';

export type Locale = 'en' | 'fr' | 'es';
export const locales: readonly Locale[] = [sourceLocale, ...targetLocales] as Locale[];

/** Languages whose module could not be loaded: their elements speak English. */
const unavailable = new Set<string>();

/** The translations of a language, loaded from its module beside the script; none for English or when it cannot be loaded. */
async function loadTemplates(locale: Locale): Promise<Templates> {
  if (locale === sourceLocale || unavailable.has(locale)) return {};
  // A pinned widget.js without its import map: the console says what to add.
  if (!besideModulesLoad()) {
    unavailable.add(locale);
    return {};
  }
  try {
    // Literal paths, one per language, so that the bundler makes each its own module.
    return (locale === 'fr' ? await import('../generated/locales/fr.ts') : await import('../generated/locales/es.ts'))
      .templates as Templates;
  } catch (error) {
    // A board that copied widget.js alone: English rather than an empty element.
    unavailable.add(locale);
    console.warn(
      `jobboard widget: no ${locale} texts (${String(error)}), English shown. Serve widget-${locale}-*.js beside widget.js: copy every file of dist/widget/.`,
    );
    // No translations: every msg() gives its English source.
    return {};
  }
}

let activeLocale: Locale = sourceLocale as Locale;
/** The language being loaded, if any: the last one asked for. */
let loadingLocale: Locale | undefined;
let loading = Promise.resolve();
let settle: (() => void) | undefined;
/** The elements rendered again when the language changes. */
const hosts = new Set<ReactiveControllerHost>();

/** Renders `host` again whenever the page's language changes, while it is in the document. */
export function followLocale(host: ReactiveControllerHost): void {
  host.addController({ hostConnected: () => hosts.add(host), hostDisconnected: () => hosts.delete(host) });
}

/** The language the texts are shown in: the active locale, or English when its module could not be loaded. */
export function textLocale(): string {
  return unavailable.has(activeLocale) ? sourceLocale : activeLocale;
}

/** First supported language of a BCP 47 tag (`fr-CA` gives `fr`), or null. */
export function supportedLocale(tag: string | null | undefined): Locale | null {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return locales.find((l) => l === language) ?? null;
}

/**
 * The language of an element: its own `lang` attribute, else the nearest
 * ancestor's (usually `<html lang>`), else the browser's, else English.
 */
export function resolveLocale(el: Element): { locale: Locale; tag: string } {
  const tags: (string | null)[] = [];
  // Walk up through shadow roots too: <jobboard-apply> inside <jobboard-campaigns>.
  for (let node: Node | null = el; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null) {
    // `.lang` of our own elements is their reactive property (set by attribute or script).
    // Read by duck typing: the server rendering's elements are not the DOM's.
    const own = (node as Partial<HTMLElement>).lang;
    const lang = typeof own === 'string' ? own : ((node as Partial<Element>).getAttribute?.('lang') ?? null);
    if (lang) tags.push(lang);
  }
  for (const tag of [...tags, ...navigator.languages]) {
    const locale = supportedLocale(tag);
    // Keep the full tag (fr-CA) for Intl when it belongs to that language.
    if (locale && tag) return { locale, tag };
  }
  return { locale: 'en', tag: 'en' };
}

/**
 * Switches the active locale. The runtime locale is one per page: when two
 * widgets on one page ask for different languages, the last one wins.
 */
export function useLocale(locale: Locale): Promise<void> {
  if (locale === (loadingLocale ?? activeLocale)) return loading;
  loadingLocale = locale;
  // One promise for every element waiting, settled once the last language asked for is active.
  if (!settle) loading = new Promise((resolve) => (settle = resolve));
  void loadTemplates(locale).then((templates) => {
    if (loadingLocale !== locale) return;
    activeLocale = locale;
    loadingLocale = undefined;
    useTemplates(templates);
    for (const host of hosts) host.requestUpdate();
    settle?.();
    settle = undefined;
  });
  return loading;
}

/** The colon before a value: French puts a (non-breaking) space before it. */
export function colon(): string {
  return msg(':', { id: 'colon', desc: 'Punctuation between a label and its value' });
}

/** Why a board's page gets no offers nor form: the proxy does not allow its origin (the `origin_not_allowed` problem). */
export function originNotAllowed(): string {
  return msg('The job offers and the application form are not set up on this site yet.');
}
