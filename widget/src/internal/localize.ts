// Localisation: lit-localize's runtime mode, with the widget's own runtime
// (localize-runtime.ts). English is in the script; French and Spanish each
// come as a small module of their own, fetched from beside the script only by
// a page that needs it. The widget's language comes from its `lang`
// attribute, then the page's, then the browser's.
import { msg, str } from '@lit/localize';
import type { ReactiveControllerHost } from 'lit';
import { sourceLocale, targetLocales } from '../generated/locale-codes.ts';
import { useTemplates } from './localize-runtime.ts';
import type { Templates } from './localize-runtime.ts';

export type Locale = 'en' | 'fr' | 'es';
export const locales: readonly Locale[] = [sourceLocale, ...targetLocales] as Locale[];

/** Languages whose module could not be loaded: their elements speak English. */
const unavailable = new Set<string>();

/** The translations of a language, loaded from its module beside the script; none for English or when it cannot be loaded. */
async function loadTemplates(locale: Locale): Promise<Templates> {
  if (locale === sourceLocale || unavailable.has(locale)) return {};
  try {
    // Literal paths, one per language, so that the bundler makes each its own module.
    return (locale === 'fr' ? await import('../generated/locales/fr.ts') : await import('../generated/locales/es.ts')).templates as Templates;
  } catch (error) {
    // A board that copied widget.js alone: English rather than an empty element.
    unavailable.add(locale);
    console.warn(`jobboard widget: no ${locale} texts (${String(error)}), English shown. Serve widget-${locale}-*.js beside widget.js: copy every file of dist/widget/.`);
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

/** Localised message for a problem code of the proxy or of the widget. */
export function problemMessage(code: string): string {
  switch (code) {
    case 'already_applied':
      return msg('You have already applied to this offer. Your application is with the recruiter.');
    case 'validation_failed':
      return msg('Some fields are not valid. Correct them and send the form again.');
    case 'file_too_large':
      return msg('The resume is too large. Choose a smaller file.');
    case 'request_too_large':
      return msg('The form is too large. Shorten the cover letter, then send it again.');
    case 'unsupported_file_type':
      return msg('This file type is not accepted. Choose a PDF, image or Word document.');
    case 'campaign_not_found':
    case 'not_found':
      return msg('This offer is no longer available.');
    case 'campaign_closed':
      return msg('This offer is closed and no longer takes applications.');
    case 'rate_limited':
      return msg('Too many attempts. Wait a minute, then send the form again.');
    case 'captcha_failed':
      return msg('The anti-spam check failed. Complete it again, then send the form.');
    case 'origin_not_allowed':
      return msg('The job offers and the application form are not set up on this site yet.');
    case 'network_error':
    case 'idempotency_key_in_progress':
      return msg('The connection was lost. Your application may not have been sent: send it again, it will not be duplicated.');
    case 'upload_cancelled':
      return msg('Upload cancelled. Your application was not sent.');
    case 'not_ready':
      return msg('The service is starting. Try again in a moment.');
    // Too many uploads at once, in all or from the candidate's network.
    case 'server_busy':
      return msg('Too many applications at once. Send the form again in a moment.');
    case 'storage_full':
      return msg('This job board cannot receive applications right now, through no fault of yours. Your application was not sent: try again later.');
    // The board's connection to the recruiter is misconfigured: nothing the candidate can fix.
    case 'delivery_blocked':
      return msg('This job board cannot send applications to the recruiter right now, through no fault of yours. Your application was not sent: try again later.');
    default:
      return msg('Something went wrong on our side. Try again in a moment.');
  }
}

/** Localised message for a per-field error code. */
export function fieldMessage(code: string, limit?: string): string {
  switch (code) {
    case 'required':
    case 'file_required':
      return msg('This field is required.');
    case 'invalid_email':
      return msg('Enter an email address like name@example.com.');
    case 'invalid_url':
      return msg('Enter a web address starting with https://.');
    case 'invalid_phone':
      return msg('Enter a country code like +33 and a phone number with digits only.');
    case 'too_long':
      return msg('This text is too long.');
    case 'consent_required':
      return msg('You must accept the processing of your data to apply.');
    case 'file_too_large':
      return limit ? msg(str`The file is larger than ${limit}.`) : msg('The file is too large.');
    case 'unsupported_file_type':
      return msg('This file type is not accepted.');
    default:
      return msg('This value is not valid.');
  }
}
