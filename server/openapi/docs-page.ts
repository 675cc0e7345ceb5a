// The API references rendered to static HTML at build time
// (server/scripts/build-openapi.ts writes dist/openapi/NAME.html), as the sandbox
// serves it at /docs and the proxy at /api/docs. Found through the package's
// root, so an installed package serves them as a checkout does.
import { readFile } from 'node:fs/promises';
import type { Request, Response } from 'express';
import { packagePath } from '../package-root.ts';

export type DocsName = 'recruitment-api' | 'proxy';

/**
 * The page is HTML and CSS only: nothing to run, nothing fetched. The policy
 * makes a browser hold it to that (no script, font, image or style from any
 * origin, its own inline styles aside).
 */
export const DOCS_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function docsPagePath(name: DocsName): string {
  return packagePath('dist', 'openapi', `${name}.html`);
}

/**
 * The route that answers the rendered page, read once. While the page is not
 * built it throws `notBuilt()`, so each server answers in its own error shape.
 */
export function docsPageRoute(name: DocsName, notBuilt: () => Error): (req: Request, res: Response) => Promise<void> {
  let page: Buffer | undefined;
  return async (_req, res) => {
    page ??= await readFile(docsPagePath(name)).catch(() => undefined);
    if (page === undefined) throw notBuilt();
    res.setHeader('Content-Security-Policy', DOCS_PAGE_CSP);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('html').send(page);
  };
}
