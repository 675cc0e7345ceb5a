// npm run build:openapi: writes the two OpenAPI documents, built from the two
// contracts without starting a server (the recruitment API's, as the sandbox
// serves it at /openapi.json, and the proxy's, as it serves it at
// /api/openapi.json), to dist/openapi/, for Redocly's lint (redocly.yaml).
// The servers build their own at run time, and render each as a page to read
// (/docs, /api/docs: server/openapi/docs-page.ts): nothing here ships.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRecruitmentApiDocument } from '../contract/openapi.ts';
import { packagePath, packageVersion } from '../package-root.ts';
import { buildOpenApi } from '../public-api/openapi.ts';

const OUT = packagePath('dist', 'openapi');
const version = packageVersion();
const documents: { name: string; document: Record<string, unknown> }[] = [
  { name: 'recruitment-api', document: buildRecruitmentApiDocument(version) },
  { name: 'proxy', document: buildOpenApi(version) },
];

mkdirSync(OUT, { recursive: true });
for (const { name, document } of documents) {
  writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify(document, null, 2)}\n`);
}
console.log(`dist/openapi: ${documents.map((d) => `${d.name}.json`).join(', ')}`);
