// A pinned widget: the proxy serves widget.js also under a name that carries
// a hash of its bytes (GET /widget-<hash>.js, cached for good), so that a
// board's script tag can name exactly those bytes and check them with
// Subresource Integrity. The modules it imports (its apply form's,
// widget-apply-<hash>.js, and its languages', widget-fr-<hash>.js) carry a
// hash in their names already; what a board pastes (an import map giving each
// its integrity, the script tag, and a preload of the apply form) is built
// here too, for the widget-tag command.
import { createHash } from 'node:crypto';

export { PINNED_WIDGET_PATH } from '../../public-api/pinned-widget.ts';

const sha384 = (bytes: Uint8Array) => createHash('sha384').update(bytes).digest();

/** The `integrity` of a file: SHA-384, what Subresource Integrity checks. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha384-${sha384(bytes).toString('base64')}`;
}

/** The pinned name of a widget bundle and its `integrity`. */
export function widgetPin(bytes: Uint8Array): { name: string; integrity: string } {
  return { name: `widget-${sha384(bytes).toString('hex').slice(0, 16)}.js`, integrity: integrityOf(bytes) };
}

/** The URL of a file the proxy at `endpoint` serves (`widget.js`, `widget-fr-<hash>.js`). */
export function widgetFileUrl(endpoint: string, name: string): string {
  return new URL(name, endpoint.replace(/\/*$/, '/')).href;
}

export interface PinnedTag {
  /** The HTML to paste in the page's head: the import map, the script tag, then the apply form's preload. */
  html: string;
  /** The import map's inline script as a CSP source (`'sha256-…'`): a page with a Content-Security-Policy adds it to script-src. */
  importMapSource: string;
}

/** The module every page imports (the apply form's); a language's is imported by pages in that language only. */
const EVERY_PAGE = /^widget-apply-/;

/**
 * The tags of a widget pinned at `endpoint` (the proxy's address, as the
 * elements' `endpoint`). The import map does two things: it gives each
 * module widget.js imports its integrity (a dynamic import has no integrity
 * attribute), and it sends the modules' import of `./widget.js` to the pinned
 * file, the module already running, instead of loading the unpinned one. The
 * apply form's module is preloaded, fetched beside widget.js rather than once
 * widget.js runs.
 */
export function pinnedTag(endpoint: string, widget: Uint8Array, modules: Record<string, Uint8Array>): PinnedTag {
  const at = (name: string) => widgetFileUrl(endpoint, name);
  const pin = widgetPin(widget);
  const src = at(pin.name);
  const integrity: Record<string, string> = { [src]: pin.integrity };
  const preloads: string[] = [];
  for (const [name, bytes] of Object.entries(modules)) {
    integrity[at(name)] = integrityOf(bytes);
    if (EVERY_PAGE.test(name))
      preloads.push(
        `\n<link rel="modulepreload" href="${at(name)}" integrity="${integrity[at(name)]}" crossorigin="anonymous">`,
      );
  }
  const importMap = JSON.stringify({ imports: { [at('widget.js')]: src }, integrity });
  return {
    html: `<script type="importmap">${importMap}</script>\n<script type="module" src="${src}" integrity="${pin.integrity}" crossorigin="anonymous"></script>${preloads.join('')}`,
    importMapSource: `'sha256-${createHash('sha256').update(importMap).digest('base64')}'`,
  };
}
