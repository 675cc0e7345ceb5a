// GET /docs of the sandbox and GET /api/docs of the proxy: the OpenAPI
// document each serves, as a page to read (reference-page.ts), rendered
// from that document on the first request and kept. Sent compressed with
// brotli to the browsers that accept it (every current one): the page,
// every schema written out for readers without a script, compresses about
// tenfold.
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib } from 'node:zlib';
import type { Request, Response } from 'express';
import { renderReference } from './reference-page.ts';
import type { OpenApiDocument } from './reference-page.ts';

const brotli = promisify(brotliCompress);

/**
 * The page is HTML and CSS only: nothing to run, nothing fetched. The policy
 * makes a browser hold it to that (no script, font, image or style from any
 * origin, its own inline styles aside).
 */
export const DOCS_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Page {
  html: Buffer;
  br?: Promise<Buffer>;
}

/** The route that answers the reference of the document `document()` gives (the one the server serves as JSON). */
export function docsPageRoute(document: () => unknown): (req: Request, res: Response) => Promise<void> {
  let rendering: Promise<Page> | undefined;
  return async (req, res) => {
    rendering ??= Promise.resolve()
      .then(async () => ({ html: Buffer.from(renderReference((await document()) as OpenApiDocument)) }))
      .catch((error: unknown) => {
        // The next request tries again.
        rendering = undefined;
        throw error;
      });
    const page = await rendering;
    res.setHeader('Content-Security-Policy', DOCS_PAGE_CSP);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Vary', 'Accept-Encoding');
    res.type('html');
    if (req.acceptsEncodings('br') !== 'br') {
      res.send(page.html);
      return;
    }
    page.br ??= brotli(page.html, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: page.html.length },
    });
    res.setHeader('Content-Encoding', 'br');
    res.send(await page.br);
  };
}
