// GET /openapi.json and GET /docs: the recruitment API described, outside /v2
// and without a token. (Every answer the sandbox's tests receive is checked
// against this document: server/openapi/test/answers.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resourcesFetched } from '../openapi/test/page-resources.ts';
import { API_ROOT, buildRecruitmentApiDocument } from './openapi.ts';
import { TestSandbox, call } from './test-helpers.ts';

let t: TestSandbox;
before(async () => {
  t = await TestSandbox.start();
});
after(() => t.close());

type Document = { paths: Record<string, Record<string, unknown>> };

describe('GET /openapi.json', () => {
  it('answers the document without a token, readable from any origin', async () => {
    const reply = await call(`${t.sandbox.origin}/openapi.json`);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('access-control-allow-origin'), '*');
    assert.equal(reply.body.openapi, '3.1.0');
    assert.deepEqual(reply.body.servers, [{ url: API_ROOT, description: reply.body.servers[0].description }]);
  });

  it('describes routes the sandbox has: every documented operation is answered, never "no route" (404) or "wrong method" (405)', async () => {
    const companyId = (await t.admin('POST', '/companies', { name: 'Route Co' })).id;
    const token = await t.token(await t.admin('POST', '/clients', { company_id: companyId }));
    const doc = buildRecruitmentApiDocument('test') as Document;
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => ({ path, method: method.toUpperCase() })));
    assert.equal(operations.length, 13);
    for (const { path, method } of operations) {
      const reply = await call(`${t.url}${path.replace(/\{[a-z_]+\}/g, '1')}`, { method, token, ...(method === 'POST' ? { body: {} } : {}) });
      assert.notEqual(reply.status, 405, `${method} ${path}`);
      assert.doesNotMatch(String(reply.body?.error?.message), /^No route/, `${method} ${path}`);
    }
    // The check itself: a path the sandbox does not have is told apart.
    assert.match((await call(`${t.url}/nothing`, { token })).body.error.message, /^No route/);
  });

  it('documents the bracket filters of GET /applications one parameter each', () => {
    const doc = buildRecruitmentApiDocument('test') as { paths: { '/applications': { get: { parameters: { name: string }[] } } } };
    const names = doc.paths['/applications'].get.parameters.map((p) => p.name);
    for (const name of ['status[value]', 'status[date][gte]', 'status[date][lte]', 'embed', 'per_page']) assert.ok(names.includes(name), name);
  });
});

describe('GET /docs', () => {
  it('answers the reference as static HTML that fetches nothing, under a policy that allows no fetch', async () => {
    const response = await fetch(`${t.sandbox.origin}/docs`);
    assert.equal(response.status, 200, 'run npm run build:openapi first');
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(response.headers.get('content-security-policy') ?? '', /^default-src 'none'; style-src 'unsafe-inline'; img-src data:/);
    const html = await response.text();
    assert.match(html, /Recruitment API/);
    assert.match(html, /status\[date\]\[gte\]/);
    assert.deepEqual(resourcesFetched(html), []);
  });
});
