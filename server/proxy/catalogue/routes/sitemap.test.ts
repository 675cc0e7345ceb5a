// /sitemap.xml past the protocol's limit per file: a sitemap index of files
// of at most that many URLs. With a small limit injected (exactly at it, and
// past it), then once one offer past the real limit (50,000). And sent
// compressed, as the list is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { toCatalogueCampaign } from '../catalogue.ts';
import { upstreamCampaign } from '../fixtures.test-support.ts';
import type { CatalogueCampaign } from '../types.ts';
import { sitemapHandler } from './sitemap.ts';
import type { SitemapOptions } from './sitemap.ts';
import { openCatalogueStore } from '../../storage/catalogue/catalogue-sqlite.ts';
import type { ProblemError } from '../../http/problem.ts';
import { fetch, listen, rawGet } from '../../test-support.ts';

const TEMPLATE = 'https://jobs.acme.example/offres?offer={id}';

function offers(count: number): CatalogueCampaign[] {
  // Without text: indexing 50,000 descriptions for search would be most of the test's time.
  const one = toCatalogueCampaign(upstreamCampaign({ id: 1, description: null, profile: null }));
  // Listed one second apart, the newest with the highest id.
  return Array.from({ length: count }, (_, i) => ({
    ...one,
    id: i + 1,
    listed_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  }));
}

async function serve(count: number, options: SitemapOptions, mount = '') {
  const store = openCatalogueStore(':memory:');
  store.replaceAll(offers(count), new Date());
  const app = express();
  app.get(`${mount}/sitemap.xml`, sitemapHandler(store, TEMPLATE, options));
  // The proxy's problem answers, as its app gives them.
  app.use((error: ProblemError, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status).type('application/problem+json').send(JSON.stringify(error.toBody()));
  });
  const server = await listen(app);
  return { ...server, store, url: server.url + mount };
}

const parser = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' });
async function read(
  url: string,
): Promise<{ urlset?: { url: { loc: string }[] }; sitemapindex?: { sitemap: { loc: string }[] } }> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  const xml = await res.text();
  assert.equal(XMLValidator.validate(xml), true);
  return parser.parse(xml) as never;
}
const ids = (set: { url: { loc: string }[] } | undefined) =>
  set!.url.map((u) => Number(new URL(u.loc).searchParams.get('offer')));

describe('GET /sitemap.xml past its limit per file', () => {
  it('is one file up to the limit, and an index of files of at most the limit past it, newest first, under PUBLIC_ORIGIN and the mount', async () => {
    const atLimit = await serve(3, { publicOrigin: 'https://proxy.acme.example', perFile: 3 });
    try {
      assert.deepEqual(ids((await read(`${atLimit.url}/sitemap.xml`)).urlset), [3, 2, 1]);
    } finally {
      await atLimit.close();
    }
    const over = await serve(7, { publicOrigin: 'https://proxy.acme.example', perFile: 3 }, '/jobs');
    try {
      const index = (await read(`${over.url}/sitemap.xml`)).sitemapindex!;
      assert.deepEqual(
        index.sitemap.map((s) => s.loc),
        [1, 2, 3].map((n) => `https://proxy.acme.example/jobs/sitemap.xml?page=${n}`),
      );
      const files = await Promise.all(
        [1, 2, 3].map(async (n) => ids((await read(`${over.url}/sitemap.xml?page=${n}`)).urlset)),
      );
      assert.deepEqual(files, [[7, 6, 5], [4, 3, 2], [1]]);
      for (const page of ['4', '0', 'x']) {
        const res = await fetch(`${over.url}/sitemap.xml?page=${page}`);
        assert.equal(res.status, 404, page);
        assert.match(((await res.json()) as { detail: string }).detail, /from 1 to 3/);
      }
      over.store.remove(7);
      assert.equal((await read(`${over.url}/sitemap.xml`)).sitemapindex!.sitemap.length, 2, 'follows the catalogue');
    } finally {
      await over.close();
    }
  });

  it("lists the index's files under BOARD_OFFER_URL's origin without PUBLIC_ORIGIN", async () => {
    const over = await serve(3, { publicOrigin: null, perFile: 2 });
    try {
      assert.deepEqual(
        (await read(`${over.url}/sitemap.xml`)).sitemapindex!.sitemap.map((s) => s.loc),
        ['https://jobs.acme.example/sitemap.xml?page=1', 'https://jobs.acme.example/sitemap.xml?page=2'],
      );
    } finally {
      await over.close();
    }
  });

  it('is sent compressed as the list is, brotli or gzip as the crawler accepts, and revalidated by the ETag of its encoding', async () => {
    const sitemap = await serve(40, { publicOrigin: null });
    try {
      const plain = await rawGet(`${sitemap.url}/sitemap.xml`, {});
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers['content-type'], 'application/xml; charset=utf-8');
      assert.equal(ids(parser.parse(plain.body.toString()).urlset).length, 40);
      const gzip = await rawGet(`${sitemap.url}/sitemap.xml`, { 'Accept-Encoding': 'gzip' });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.equal(gunzipSync(gzip.body).toString(), plain.body.toString());
      const br = await rawGet(`${sitemap.url}/sitemap.xml`, { 'Accept-Encoding': 'br, gzip' });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(br.body).toString(), plain.body.toString());
      assert.equal(
        (
          await rawGet(`${sitemap.url}/sitemap.xml`, {
            'Accept-Encoding': 'gzip',
            'If-None-Match': String(gzip.headers.etag),
          })
        ).status,
        304,
      );
    } finally {
      await sitemap.close();
    }
  });

  it('at the real limit, one offer past it makes an index of a file of 50,000 and one of 1', async () => {
    const over = await serve(50_001, { publicOrigin: 'https://proxy.acme.example' });
    try {
      const index = (await read(`${over.url}/sitemap.xml`)).sitemapindex!;
      assert.equal(index.sitemap.length, 2);
      const first = ids((await read(`${over.url}/sitemap.xml?page=1`)).urlset);
      assert.equal(first.length, 50_000);
      assert.deepEqual(ids((await read(`${over.url}/sitemap.xml?page=2`)).urlset), [1]);
    } finally {
      await over.close();
    }
  });
});
