// A pinned widget.js (widget-<hash>.js, loaded by the tags `jobboard-connector
// widget-tag` prints) and the modules beside it, its apply form's, its saved
// offers' and its languages', which import `./widget.js`: the page's import map sends that
// import to the pinned file, the module already running. Where the map is not
// in force (the page's Content-Security-Policy refused its inline script, or
// the page has none), they would load widget.js a second time, with a second
// Lit, whose `lit-html` policy Trusted Types refuses. They are not loaded
// then, and the console says once what to add to the page.
import { PINNED_WIDGET_PATH } from '../../../server/public-api/pinned-widget.ts';

/** The CSP source of an inline script's text: `'sha256-…'`, as the browser hashes it. */
async function hashSource(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

let told = false;

/** Says once which import map the page refused, with its hash; or that there is none. */
async function tell(script: string): Promise<void> {
  if (told) return;
  told = true;
  const map = [...document.querySelectorAll('script[type="importmap"]')].find((el) => el.textContent!.includes(script));
  // No hash where the page has no crypto.subtle (not a secure context).
  const hash = map && (await hashSource(map.textContent!).catch(() => 'its hash'));
  console.error(
    `jobboard widget: no import map in force for ${script}, so no form or translations (they would load widget.js twice): ${hash ? `add ${hash} to script-src` : 'paste the tags of widget-tag'}.`,
  );
}

/**
 * Whether the modules beside this script may be imported: false, once the
 * console has been told why, when a pinned widget.js's `./widget.js` does not
 * resolve to itself.
 */
export function besideModulesLoad(): boolean {
  const script = import.meta.url;
  const pinned = PINNED_WIDGET_PATH.test(`/${new URL(script).pathname.split('/').pop()}`);
  // A browser without import.meta.resolve (older than import maps with integrity) is left as it was.
  if (!pinned || (import.meta.resolve?.('./widget.js') ?? script) === script) return true;
  void tell(script);
  return false;
}
