// The demo's second board page, http://localhost:8080/server-rendered/ (or
// 127.0.0.1): the same board page, built on the server the way a board that
// renders its pages there would do it. Its server asks the proxy for the
// offers already rendered (GET /embed/campaigns, with the list's parameters
// of the page's query string) and puts the fragment where the script-tag page
// has the empty element; the script then hydrates it.
import { readFile } from 'node:fs/promises';
import { Router } from 'express';
import type { Request } from 'express';
import { FORWARDED_PAGE_PARAMS } from './proxy/index.ts';

/** The empty element of the script-tag page, which the server-rendered page fills. */
const ELEMENT = /<jobboard-campaigns\b[^>]*><\/jobboard-campaigns>/;

/** The proxy this request reached, over the connection it came in on (the demo page and the proxy share a server). */
function proxyOrigin(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

export function serverRenderedBoard(pageFile: string): Router {
  const router = Router();
  router.get('/server-rendered/', async (req, res) => {
    const template = await readFile(pageFile, 'utf8');
    // Only the list's parameters go on: a link to the page can carry any other.
    const link = new URL(req.originalUrl, 'http://board').searchParams;
    const query = new URLSearchParams();
    for (const name of FORWARDED_PAGE_PARAMS) {
      const value = link.get(name);
      if (value !== null) query.set(name, value);
    }
    // The page's language, as a board's template knows it.
    query.set('lang', /<html lang="([a-z]{2})"/.exec(template)?.[1] ?? 'en');
    const answer = await fetch(`${proxyOrigin(req)}/embed/campaigns?${query}`);
    // 410: the offer in the URL was published and is closed; 404: never published. The fragment says
    // so, and the page answers the same status.
    // Any other answer (a parameter it cannot read, not ready yet) is no HTML for the page: the page
    // keeps its empty element, which fetches the offers itself.
    if (answer.status !== 200 && answer.status !== 404 && answer.status !== 410) {
      res.status(200).type('html').setHeader('Cache-Control', 'no-store');
      res.send(template);
      return;
    }
    // An open offer's head: its title, description, canonical URL and the tags of a shared link's preview.
    const offer = query.get('offer');
    const head =
      offer === null || answer.status !== 200
        ? undefined
        : await fetch(`${proxyOrigin(req)}/embed/campaigns/head?offer=${encodeURIComponent(offer)}`);
    const tags = head?.status === 200 ? (await head.text()).trim() : undefined;
    const fragment = await answer.text();
    // Replaced by functions: the offers' text may hold "$&", which a replacement string would expand.
    const page = template
      .replace(/<title>[^<]*<\/title>/, (own) => tags ?? own.replace('<title>', '<title>(rendu serveur) '))
      .replace(ELEMENT, () => fragment);
    res.status(answer.status).type('html').setHeader('Cache-Control', 'no-store');
    res.send(page);
  });
  return router;
}
