// The proxy's OpenAPI document as a reference to read (GET /api/docs) and as
// a complete description: every operation named, errors declared per route.
// (Every answer the proxy's tests receive is checked against the document:
// server/openapi/test/answers.ts.)
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { fetchStaticReference } from '../openapi/test/page-resources.ts';
import { openCatalogueStore } from './storage/catalogue/catalogue-sqlite.ts';
import { buildOpenApi } from '../public-api/openapi.ts';
import { TEST_BOARD_ORIGIN, fetch, listen } from './test-support.ts';
import { catalogueApp } from './test/catalogue-app.ts';

let proxy: Awaited<ReturnType<typeof listen>>;

before(async () => {
  proxy = await listen(catalogueApp(openCatalogueStore(':memory:')));
});

after(() => proxy.close());

type Operation = { operationId?: string; responses: Record<string, unknown> };

describe('GET /api/docs', () => {
  it('answers the reference as static HTML that fetches nothing, under a policy that allows no fetch', async () => {
    const html = await fetchStaticReference(`${proxy.url}/api/docs`, fetch);
    assert.match(html, /jobboard-connector proxy/);
    assert.match(html, /\/api\/campaigns\/\{id\}\/jobposting/);
  });

  it('sends the page compressed with brotli to a client that accepts it, and as it is to one that does not', async () => {
    const asked = (acceptEncoding: string) =>
      new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>((resolve, reject) => {
        get(`${proxy.url}/api/docs`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, body: Buffer.concat(chunks) }),
          );
        }).on('error', reject);
      });
    const plain = await asked('gzip');
    const compressed = await asked('gzip, deflate, br');
    assert.equal(plain.encoding, undefined);
    assert.match(plain.body.toString(), /^<!doctype html>/);
    assert.equal(compressed.encoding, 'br');
    assert.ok(
      compressed.body.length * 5 < plain.body.length,
      `${compressed.body.length} of ${plain.body.length} bytes`,
    );
    assert.equal(brotliDecompressSync(compressed.body).toString(), plain.body.toString());
    for (const answer of [plain, compressed]) assert.match(answer.vary ?? '', /Accept-Encoding/);
  });

  it('is served to a browser of any origin, like the document', async () => {
    assert.equal(
      (await fetch(`${proxy.url}/api/docs`, { headers: { Origin: 'https://elsewhere.example' } })).status,
      200,
    );
    assert.equal((await fetch(`${proxy.url}/api/docs`, { headers: { Origin: TEST_BOARD_ORIGIN } })).status, 200);
  });
});

describe('the OpenAPI document', () => {
  const doc = buildOpenApi('test') as {
    security: unknown[];
    servers: unknown[];
    paths: Record<string, Record<string, Operation>>;
  };
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );

  it("declares its servers, and that no operation needs credentials but the board's stats, which need DASHBOARD_TOKEN", () => {
    assert.deepEqual(doc.security, []);
    assert.ok(doc.servers.length > 0);
    const secured = operations.filter(({ op }) => 'security' in op).map(({ op }) => op.operationId);
    assert.deepEqual(secured, ['getStats', 'getDashboard']);
  });

  it('names every operation once, and answers unexpected failures with a problem (500) everywhere', () => {
    const ids = operations.map(({ op }) => op.operationId);
    assert.equal(new Set(ids).size, ids.length);
    for (const { path, method, op } of operations) {
      assert.ok(op.operationId, `${method} ${path}`);
      assert.ok('500' in op.responses, `${method} ${path}`);
    }
  });
});

describe('the webhook in the OpenAPI document', () => {
  it('describes the event posted to WEBHOOK_URL by its schema and its three signature headers', () => {
    const doc = buildOpenApi('test') as {
      webhooks: Record<
        string,
        {
          post: {
            requestBody: { content: Record<string, { schema: { $ref: string } }> };
            parameters: { name: string; in: string; required: boolean }[];
          };
        }
      >;
      components: { schemas: Record<string, unknown> };
    };
    const post = doc.webhooks.applicationEvent!.post;
    assert.equal(post.requestBody.content['application/json']!.schema.$ref, '#/components/schemas/WebhookEvent');
    assert.ok(doc.components.schemas.WebhookEvent);
    assert.deepEqual(
      post.parameters.map((p) => `${p.in}:${p.name}:${p.required}`),
      ['header:webhook-id:true', 'header:webhook-timestamp:true', 'header:webhook-signature:true'],
    );
  });
});
