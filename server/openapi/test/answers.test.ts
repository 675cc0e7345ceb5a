// The check the HTTP tests run on every answer (answers.ts) refuses answers
// their documents do not allow. A stand-in server gives the wrong answers on
// purpose, at paths of both documents.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fetch } from './answers.ts';

/** Path → [status, headers, body]: what the stand-in answers. */
const ANSWERS: Record<string, [number, Record<string, string>, string]> = {
  '/healthz': [200, { 'content-type': 'application/json' }, JSON.stringify({ status: 'ok' })],
  '/api/config': [200, { 'content-type': 'application/json' }, JSON.stringify({ locales: ['fr'], consent_url: null })],
  '/api/campaigns/7': [418, { 'content-type': 'application/problem+json' }, '{}'],
  '/api/campaigns/8': [404, { 'content-type': 'text/plain' }, 'no such campaign'],
  '/v2/campaigns': [200, { 'content-type': 'application/json' }, '[]'],
  '/v2/channels': [
    200,
    { 'content-type': 'application/json' },
    JSON.stringify([{ id: 1, value: 'career_fr', name: 'Career', entity_id: null }]),
  ],
  '/_sandbox/anything': [500, { 'content-type': 'text/plain' }, 'not documented, not checked'],
};

let server: Server;
let origin: string;

before(async () => {
  server = createServer((req, res) => {
    const [status, headers, body] = ANSWERS[req.url ?? ''] ?? [404, {}, ''];
    res.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the OpenAPI check of the HTTP tests', () => {
  it('lets through answers their document allows, and answers at paths no document has', async () => {
    assert.equal((await fetch(`${origin}/healthz`)).status, 200);
    assert.equal((await fetch(`${origin}/v2/channels`)).status, 200);
    assert.equal((await fetch(`${origin}/_sandbox/anything`)).status, 500);
  });

  it('refuses a body missing required fields', async () => {
    await assert.rejects(
      fetch(`${origin}/api/config`),
      /GET http:\/\/127\.0\.0\.1:\d+\/api\/config answered 200, which its OpenAPI document does not allow: .*media-type:application\/json.*must have required property/,
    );
  });

  it('refuses a status the operation does not document', async () => {
    await assert.rejects(fetch(`${origin}/api/campaigns/7`), /answered 418, .*Unsupported Response Status Code/);
  });

  it('refuses a content type the response does not document', async () => {
    await assert.rejects(fetch(`${origin}/api/campaigns/8`), /answered 404, .*Unsupported Response Media Type/);
  });

  it('refuses a list of the recruitment API without its X-Pagination header', async () => {
    await assert.rejects(
      fetch(`${origin}/v2/campaigns`),
      /GET http:\/\/127\.0\.0\.1:\d+\/v2\/campaigns answered 200, .*response-header.*x-pagination/,
    );
  });
});
