// GET /sitemap.xml: every open offer's page on the board (BOARD_OFFER_URL)
// with its last change, so that search engines find and revisit them. Past
// the protocol's 50,000 URLs per file, /sitemap.xml is a sitemap index of
// /sitemap.xml?page=1, ?page=2… (each at most 50,000, newest first). Built
// once per catalogue version, and sent compressed as the list is.
import type { Request, RequestHandler } from 'express';
import type { CatalogueStore } from '../types.ts';
import { offerUrlOf } from '../job-posting.ts';
import { versionCache } from '../version-cache.ts';
import { sendCachedJson, textAnswer } from '../../http/http-cache.ts';
import { escapeMarkup } from '../../http/markup.ts';
import { ProblemError } from '../../http/problem.ts';
import { SITEMAP_MAX_URLS } from '../../../public-api/schemas.ts';
import { CAMPAIGNS_CACHE_CONTROL } from './campaigns.ts';

/** Offers read from the store at a time. */
const CHUNK = 1000;
const XML = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface SitemapOptions {
  /** The proxy's public origin (PUBLIC_ORIGIN): the index's files are listed under it, else under BOARD_OFFER_URL's origin. */
  publicOrigin: string | null;
  /** URLs per file: the protocol's limit; smaller in tests. */
  perFile?: number;
}

/** File `file` (from 1) of the offers' URLs: the offers from (file - 1) × perFile on, newest first. */
function urlset(store: CatalogueStore, template: string, file: number, perFile: number): string {
  const chunk = Math.min(CHUNK, perFile);
  const urls: string[] = [];
  for (let page = ((file - 1) * perFile) / chunk + 1; urls.length < perFile; page += 1) {
    const { items } = store.search({ page, per_page: chunk });
    for (const c of items)
      urls.push(
        `<url><loc>${escapeMarkup(offerUrlOf(template, c.id)!)}</loc><lastmod>${escapeMarkup(c.updated_at)}</lastmod></url>`,
      );
    if (items.length < chunk) break;
  }
  return `${XML}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

function sitemapIndex(files: number, base: string): string {
  const entries = Array.from(
    { length: files },
    (_, i) => `<sitemap><loc>${escapeMarkup(`${base}?page=${i + 1}`)}</loc></sitemap>`,
  );
  return `${XML}<sitemapindex xmlns="${NS}">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

export function sitemapHandler(
  store: CatalogueStore,
  template: string | null,
  options: SitemapOptions,
): RequestHandler {
  const perFile = options.perFile ?? SITEMAP_MAX_URLS;
  if (perFile > CHUNK && perFile % CHUNK !== 0) throw new Error(`perFile must be at most ${CHUNK} or a multiple of it`);
  // Every file and the index: a handful, past 50,000 offers a few more.
  const cached = versionCache<ReturnType<typeof textAnswer>>(() => store.version(), 1000);

  /** Where the index's files are: the proxy's public origin and its mount, and this path. */
  const baseOf = (req: Request, offerTemplate: string) =>
    `${options.publicOrigin ?? new URL(offerTemplate).origin}${req.baseUrl}${req.path}`;

  return (req, res) => {
    if (template === null) {
      throw new ProblemError(
        'sitemap_not_configured',
        'No sitemap: set BOARD_OFFER_URL to the URL of an offer on your pages, like https://jobs.example.com/offers?offer={id}, and restart the proxy.',
      );
    }
    const files = Math.max(1, Math.ceil(store.count() / perFile));
    const asked = req.query.page;
    // 0 is the whole sitemap: one file, or the index of several.
    const file = asked === undefined ? 0 : /^[1-9]\d{0,5}$/.test(String(asked)) ? Number(asked) : NaN;
    if (!(file <= files)) {
      throw new ProblemError(
        'not_found',
        `No such sitemap file: page must be a whole number from 1 to ${files}, as /sitemap.xml lists them.`,
      );
    }
    const answer = cached(String(file), () =>
      textAnswer(
        file === 0 && files > 1
          ? sitemapIndex(files, baseOf(req, template))
          : urlset(store, template, Math.max(1, file), perFile),
      ),
    );
    sendCachedJson(req, res, answer, CAMPAIGNS_CACHE_CONTROL, 'application/xml; charset=utf-8');
  };
}
