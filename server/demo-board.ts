// The demo's second board page, http://localhost:8080/server-rendered/: the
// same board page, built on the server the way a board that renders its pages
// there would do it. Its server asks the proxy for the offers already rendered
// (GET /embed/campaigns, with the list's parameters of the page's query
// string) and puts the fragment where the script-tag page has the empty
// element; the script then hydrates it.
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
    // 404: the offer in the URL is closed or unknown; the fragment says so and the page answers 404 too.
    if (answer.status !== 200 && answer.status !== 404) {
      res.status(502).type('text').send(`The proxy answered ${answer.status} to GET /embed/campaigns.`);
      return;
    }
    const page = template
      .replace('<title>', '<title>(rendu serveur) ')
      .replace(ELEMENT, await answer.text());
    res.status(answer.status).type('html').setHeader('Cache-Control', 'no-store');
    res.send(page);
  });
  return router;
}
