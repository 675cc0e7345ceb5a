// npm run build:openapi: writes the two OpenAPI documents, built from the two
// contracts without starting a server (the recruitment API's, as the sandbox
// serves it at /openapi.json, and the proxy's, as it serves it at
// /api/openapi.json), to dist/openapi/, for Redocly's lint
// (redocly.yaml) and the package, and renders each to a static HTML reference
// (the sandbox serves it at /docs, the proxy at /api/docs).
//
// The pages are rendered with Redoc 2 on the server (renderToString), kept
// without Redoc's script: the whole reference is in the HTML, readable with
// no JavaScript, nothing fetched from anywhere, a few tens of KB gzipped.
// Redoc 3 (redocly build-docs) renders only the introduction on the server
// and needs its 2 MB script, from a CDN or inlined, for the rest.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildRecruitmentApiDocument } from '../contract/openapi.ts';
import type { DocsName } from '../openapi/docs-page.ts';
import { packagePath, packageVersion } from '../package-root.ts';
import { buildOpenApi } from '../public-api/openapi.ts';
import type * as RedocModule from 'redoc';
import type * as StyledComponents from 'styled-components';

// Redoc's server bundle is CommonJS and requires styled-components: the style
// sheet that collects its styles must be that same CommonJS instance.
const require = createRequire(import.meta.url);
const React = require('react') as { createElement(type: unknown, props: object): unknown };
const { renderToString } = require('react-dom/server') as { renderToString(element: unknown): string };
const { ServerStyleSheet } = require('styled-components') as typeof StyledComponents;
const { createStore, Redoc } = require('redoc') as typeof RedocModule;

const OUT = packagePath('dist', 'openapi');

/** System fonts: the page names no font it would have to fetch. */
const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

async function render(document: Record<string, unknown>, specUrl: string, title: string): Promise<string> {
  const store = await createStore(document, specUrl, {
    // Everything open: without a script nothing can be expanded later.
    expandResponses: 'all',
    schemaExpansionLevel: 'all',
    jsonSampleExpandLevel: 'all',
    expandSingleSchemaField: true,
    pathInMiddlePanel: true,
    disableSearch: true,
    hideLoading: true,
    theme: {
      typography: {
        fontFamily: SYSTEM_FONTS,
        headings: { fontFamily: SYSTEM_FONTS },
        code: { fontFamily: 'ui-monospace, Menlo, Consolas, monospace' },
      },
    },
  });
  const sheet = new ServerStyleSheet();
  try {
    const body = renderToString(
      sheet.collectStyles(React.createElement(Redoc, { store }) as Parameters<typeof sheet.collectStyles>[0]),
    );
    return [
      '<!doctype html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${title.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</title>`,
      '<style>body { margin: 0; padding: 0; }</style>',
      sheet.getStyleTags(),
      '</head>',
      `<body>${body}</body>`,
      '</html>',
      '',
    ].join('\n');
  } finally {
    sheet.seal();
  }
}

const version = packageVersion();
const documents: { name: DocsName; document: Record<string, unknown>; specUrl: string }[] = [
  // Relative links: /docs beside /openapi.json, /api/docs beside /api/openapi.json (wherever the proxy is mounted).
  { name: 'recruitment-api', document: buildRecruitmentApiDocument(version), specUrl: 'openapi.json' },
  { name: 'proxy', document: buildOpenApi(version), specUrl: 'openapi.json' },
];

mkdirSync(OUT, { recursive: true });
for (const { name, document, specUrl } of documents) {
  writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify(document, null, 2)}\n`);
  const info = document.info as { title: string };
  writeFileSync(join(OUT, `${name}.html`), await render(document, specUrl, info.title));
}
console.log(`dist/openapi: ${documents.map((d) => `${d.name}.json, ${d.name}.html`).join(', ')}`);
