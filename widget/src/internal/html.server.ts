// The server rendering's stand-in for html.ts (vite.ssr.config.ts swaps it
// in): on the server an offer's text comes from the proxy's own catalogue,
// which sanitised it with its allowlist when it synced, and there is no DOM
// to clean it in. The browser cleans it again with html.ts.
import { unsafeHTML } from 'lit/directives/unsafe-html.js';

export function sanitize(html: string) {
  return unsafeHTML(html);
}
