// The API references rendered to static HTML at build time
// (server/scripts/build-openapi.ts writes dist/openapi/NAME.html), as the sandbox
// serves it at /docs and the proxy at /api/docs. Found through the package's
// root, so an installed package serves them as a checkout does.
import { readFile } from 'node:fs/promises';
import type { Response } from 'express';
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

/** Reads the rendered page once; undefined while it is not built. */
export function docsPageLoader(name: DocsName): () => Promise<Buffer | undefined> {
  let page: Buffer | undefined;
  return async () => {
    page ??= await readFile(docsPagePath(name)).catch(() => undefined);
    return page;
  };
}

export function sendDocsPage(res: Response, page: Buffer): void {
  res.setHeader('Content-Security-Policy', DOCS_PAGE_CSP);
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.type('html').send(page);
}
