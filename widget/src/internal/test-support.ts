// Helpers for the browser tests: endpoints of the scripted stand-in
// (widget/test-server/stand-in.ts), user actions through the real keyboard
// (@web/test-runner-commands) and reading what the stand-in received.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { LoggedApplication } from '../../test-server/stand-in.ts';
import type { FunnelBeacon } from '../../../server/public-api/funnel.ts';
import { exe as exeBytes, pdf as pdfBytes } from '../../../server/test/portable-files.ts';

export type { LoggedApplication };

// <jobboard-campaigns> keeps the open offer and its search in the page's URL: each test starts from the page's own.
const pageUrl = location.href;
afterEach(() => history.replaceState(null, '', pageUrl));

let counter = 0;

/** A fresh endpoint of the stand-in answering with `scenario`, plus its log token. */
export function standIn(scenario = 'ok'): { endpoint: string; token: string } {
  counter += 1;
  const token = `t${Date.now().toString(36)}${counter}`;
  return { endpoint: `/stand-in/${scenario}~${token}`, token };
}

export async function received(token: string): Promise<LoggedApplication[]> {
  const res = await fetch(`/stand-in/_log?token=${token}`);
  return (await res.json()) as LoggedApplication[];
}

/** The funnel beacons the stand-in received for `token`, in order: how each was sent, and its body read. */
export async function beaconsSent(
  token: string,
): Promise<{ contentType: string | null; cookie: boolean; beacon: FunnelBeacon }[]> {
  const res = await fetch(`/stand-in/_beacons?token=${token}`);
  const logged = (await res.json()) as { contentType: string | null; cookie: boolean; body: string }[];
  return logged.map(({ contentType, cookie, body }) => ({
    contentType,
    cookie,
    beacon: JSON.parse(body) as FunnelBeacon,
  }));
}

export function shadow<T extends Element = HTMLElement>(host: Element, selector: string): T {
  const found = host.shadowRoot?.querySelector<T>(selector);
  if (!found) throw new Error(`Nothing matches ${selector} in <${host.localName}>`);
  return found;
}

export function maybe<T extends Element = HTMLElement>(host: Element, selector: string): T | null {
  return host.shadowRoot?.querySelector<T>(selector) ?? null;
}

/** Focuses a control (as a click or Tab would) and types into it with the keyboard. */
export async function type(host: Element, selector: string, text: string): Promise<void> {
  shadow(host, selector).focus();
  await sendKeys({ type: text });
}

/** Focuses a checkbox and ticks it (or unticks it) with the space bar. */
export async function tick(host: Element, selector: string): Promise<void> {
  shadow(host, selector).focus();
  await sendKeys({ press: 'Space' });
}

/** Moves focus away with Tab, so the field counts as visited. */
export async function leave(): Promise<void> {
  await sendKeys({ press: 'Tab' });
}

/**
 * Chooses a file in a file input as a person would with the file picker
 * (Chromium offers no picker to headless tests): sets `files` and fires change.
 */
export function chooseFile(host: Element, selector: string, file: File): void {
  const input = shadow<HTMLInputElement>(host, selector);
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
}

/** A real one-page PDF of `size` bytes, as the Node tests build it. */
export function pdf(name = 'resume.pdf', size = 600): File {
  return new File([pdfBytes({ size })], name, { type: 'application/pdf' });
}

/** A renamed Windows executable, as the Node tests build it. */
export function exe(name = 'setup.exe'): File {
  return new File([exeBytes()], name, { type: 'application/octet-stream' });
}

export function activeInside(host: Element): Element | null {
  return host.shadowRoot?.activeElement ?? null;
}

export const locales = ['en', 'fr', 'es'] as const;
export type Lang = (typeof locales)[number];

/**
 * In each language: the element `mount` gives passes the accessibility audit
 * and shows, in each part `said` names by selector, its text in that language.
 */
export function itIsAccessibleAndSpeaks(
  mount: (lang: Lang) => Promise<{ el: Element }>,
  said: Record<string, Record<Lang, string>>,
): void {
  for (const lang of locales) {
    it(`is accessible and speaks ${lang}`, async () => {
      const { el } = await mount(lang);
      await expect(el).to.be.accessible();
      for (const [selector, text] of Object.entries(said))
        expect(shadow(el, selector).textContent).to.contain(text[lang]);
    });
  }
}

/** The texts the tests look for, in each language: the apply form's, the list's, and what both say. */
export const text = {
  email: { en: 'Email', fr: 'E-mail', es: 'Correo electrónico' },
  send: { en: 'Send my application', fr: 'Envoyer ma candidature', es: 'Enviar mi candidatura' },
  required: { en: 'This field is required.', fr: 'Ce champ est obligatoire.', es: 'Este campo es obligatorio.' },
  received: { en: 'Application received', fr: 'Candidature reçue', es: 'Candidatura recibida' },
  queued: {
    en: 'It will be transmitted to the recruiter shortly.',
    fr: 'Elle sera transmise au recruteur dans quelques instants.',
    es: 'Se transmitirá al reclutador en breve.',
  },
  already: { en: 'Already applied', fr: 'Candidature déjà envoyée', es: 'Ya se ha postulado' },
  invalidEmail: {
    en: 'Enter an email address like name@example.com.',
    fr: 'Saisissez une adresse e-mail comme nom@exemple.fr.',
    es: 'Introduzca un correo electrónico como nombre@ejemplo.es.',
  },
  lost: { en: 'The connection was lost', fr: 'La connexion a été perdue', es: 'Se perdió la conexión' },
  cancelled: { en: 'Upload cancelled', fr: 'Envoi annulé', es: 'Envío cancelado' },
  notLoaded: {
    en: 'The form could not be loaded',
    fr: 'Le formulaire n’a pas pu être chargé',
    es: 'No se pudo cargar el formulario',
  },
  tooLarge: { en: 'The file is larger than', fr: 'Le fichier dépasse', es: 'El archivo supera' },
  gone: {
    en: 'This offer is no longer available.',
    fr: 'Cette offre n’est plus disponible.',
    es: 'Esta oferta ya no está disponible.',
  },
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
  /** When the proxy does not allow the page's origin. */
  notSetUp: {
    en: 'The job offers and the application form are not set up on this site yet.',
    fr: 'Les offres d’emploi et le formulaire de candidature ne sont pas encore en place sur ce site.',
    es: 'Las ofertas de empleo y el formulario de candidatura aún no están disponibles en este sitio.',
  },
} as const;

/**
 * waitUntil with room for a busy machine: the condition is polled every 20 ms
 * and most hold within one or two polls; the long limit only avoids false
 * failures when the shared machine is loaded.
 */
export function until(predicate: () => unknown, message?: string): Promise<void> {
  return waitUntil(predicate, message, { timeout: 5000, interval: 20 });
}

/**
 * Records every request the page starts (fetch, XMLHttpRequest) and every
 * console warning, still letting both through, until restore().
 */
export function watchRequestsAndWarnings(): { requests: string[]; warnings: string[]; restore(): void } {
  const requests: string[] = [];
  const warnings: string[] = [];
  const { fetch } = window;
  const { open } = XMLHttpRequest.prototype;
  const { warn } = console;
  window.fetch = (input, init) => {
    requests.push(`fetch ${input instanceof Request ? input.url : String(input)}`);
    return fetch(input, init);
  };
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: unknown[]) {
    requests.push(`xhr ${String(args[1])}`);
    Reflect.apply(open, this, args);
  } as XMLHttpRequest['open'];
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
  };
  return {
    requests,
    warnings,
    restore() {
      window.fetch = fetch;
      XMLHttpRequest.prototype.open = open;
      console.warn = warn;
    },
  };
}

/**
 * Holds every scheduler.yield() (Chromium's) unsettled until release(): what
 * waits for the browser's turn stays waiting; restore() puts the real one back.
 */
export function holdBrowserTurns(): { release(): void; restore(): void } {
  const scheduler = (globalThis as unknown as { scheduler: { yield(): Promise<void> } }).scheduler;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // An own property in front of the prototype's method.
  scheduler.yield = () => held;
  return {
    release,
    restore() {
      delete (scheduler as { yield?: unknown }).yield;
    },
  };
}
