// GET /sitemap.xml: every open offer's page on the board (BOARD_OFFER_URL)
// with its last change, so that search engines find and revisit them. Built
// once per catalogue version.
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { CatalogueStore } from '../catalogue/types.ts';
import { offerUrlOf } from '../catalogue/job-posting.ts';
import { matchesEtag } from '../http-cache.ts';
import { ProblemError } from '../problem.ts';
import { SITEMAP_MAX_URLS } from '../../public-api/schemas.ts';
import { CAMPAIGNS_CACHE_CONTROL } from './campaigns.ts';

const PAGE = 1000;

function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sitemap(store: CatalogueStore, template: string): string {
  const urls: string[] = [];
  for (let page = 1; urls.length < SITEMAP_MAX_URLS; page += 1) {
    const { items } = store.search({ page, per_page: PAGE });
    for (const c of items.slice(0, SITEMAP_MAX_URLS - urls.length)) {
      urls.push(`<url><loc>${xmlEscape(offerUrlOf(template, c.id)!)}</loc><lastmod>${xmlEscape(c.updated_at)}</lastmod></url>`);
    }
    if (items.length < PAGE) break;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function sitemapHandler(store: CatalogueStore, template: string | null): RequestHandler {
  let built: { version: number; body: string; etag: string } | undefined;
  return (req, res) => {
    if (template === null) {
      throw new ProblemError('sitemap_not_configured', 'No sitemap: set BOARD_OFFER_URL to the URL of an offer on your pages, like https://jobs.example.com/offers?offer={id}, and restart the proxy.');
    }
    if (built?.version !== store.version()) {
      const version = store.version();
      const body = sitemap(store, template);
      built = { version, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
    }
    res.setHeader('Cache-Control', CAMPAIGNS_CACHE_CONTROL);
    res.setHeader('ETag', built.etag);
    if (matchesEtag(req.headers['if-none-match'], built.etag)) {
      res.status(304).end();
      return;
    }
    res.type('application/xml; charset=utf-8').send(built.body);
  };
}
