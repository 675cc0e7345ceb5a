// A pinned widget: the proxy serves widget.js also under a name that carries
// a hash of its bytes (GET /widget-<hash>.js, cached for good), so that a
// board's script tag can name exactly those bytes and check them with
// Subresource Integrity. The language modules' names carry a hash already
// (widget-fr-<hash>.js); what a board pastes (an import map giving each its
// integrity, then the script tag) is built here too, for the widget-tag command.
import { createHash } from 'node:crypto';

/** widget.js under its hash; the language modules' names (widget-fr-<hash>.js) never match it. */
export const PINNED_WIDGET_PATH = /^\/widget-[0-9a-f]{16}\.js$/;

/** The pinned name of a widget bundle and its `integrity` (SHA-384, what Subresource Integrity checks). */
export function widgetPin(bytes: Uint8Array): { name: string; integrity: string } {
  const digest = createHash('sha384').update(bytes).digest();
  return { name: `widget-${digest.toString('hex').slice(0, 16)}.js`, integrity: `sha384-${digest.toString('base64')}` };
}

/** The `integrity` of any file: SHA-384, base64. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** The language modules a widget bundle imports, by file name (`widget-fr-<hash>.js`), as it names them. */
export function languageModulesOf(source: string): string[] {
  return [...new Set([...source.matchAll(/\bwidget-[a-z]{2}-[A-Za-z0-9_-]{8}\.js\b/g)].map((m) => m[0]))].sort();
}

export interface PinnedTag {
  /** The HTML to paste in the page's head: the import map, then the script tag. */
  html: string;
  /** The import map's inline script as a CSP source (`'sha256-…'`): a page with a Content-Security-Policy adds it to script-src. */
  importMapSource: string;
}

/**
 * The tags of a widget pinned at `endpoint` (the proxy's address, as the
 * elements' `endpoint`). The import map does two things: it gives each
 * language module its integrity (a dynamic import has no integrity attribute),
 * and it sends the modules' import of `./widget.js` to the pinned file, the
 * module already running, instead of loading the unpinned one.
 */
export function pinnedTag(endpoint: string, widget: Uint8Array, modules: Record<string, Uint8Array>): PinnedTag {
  const at = (name: string) => new URL(name, endpoint.replace(/\/*$/, '/')).href;
  const pin = widgetPin(widget);
  const src = at(pin.name);
  const integrity: Record<string, string> = { [src]: pin.integrity };
  for (const [name, bytes] of Object.entries(modules)) integrity[at(name)] = integrityOf(bytes);
  const importMap = JSON.stringify({ imports: { [at('widget.js')]: src }, integrity });
  return {
    html: `<script type="importmap">${importMap}</script>\n<script type="module" src="${src}" integrity="${pin.integrity}" crossorigin="anonymous"></script>`,
    importMapSource: `'sha256-${createHash('sha256').update(importMap).digest('base64')}'`,
  };
}
