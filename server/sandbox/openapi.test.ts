// GET /openapi.json and GET /docs: the recruitment API described, outside /v2
// and without a token. (Every answer the sandbox's tests receive is checked
// against this document: server/openapi/test/answers.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { APPLICANT_EMBEDS, APPLICATION_EMBEDS, CAMPAIGN_EMBEDS, CAMPAIGN_STATUSES } from '../contract/index.ts';
import { fetchStaticReference } from '../openapi/test/page-resources.ts';
import { API_ROOT, buildRecruitmentApiDocument } from '../contract/openapi.ts';
import { TestSandbox, call } from './test-support.ts';

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
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => ({ path, method: method.toUpperCase() })),
    );
    assert.equal(operations.length, 13);
    for (const { path, method } of operations) {
      const reply = await call(`${t.url}${path.replace(/\{[a-z_]+\}/g, '1')}`, {
        method,
        token,
        ...(method === 'POST' ? { body: {} } : {}),
      });
      assert.notEqual(reply.status, 405, `${method} ${path}`);
      assert.doesNotMatch(String(reply.body?.error?.message), /^No route/, `${method} ${path}`);
    }
    // The check itself: a path the sandbox does not have is told apart.
    assert.match((await call(`${t.url}/nothing`, { token })).body.error.message, /^No route/);
  });

  it('documents the bracket filters of GET /applications one parameter each', () => {
    const doc = buildRecruitmentApiDocument('test') as {
      paths: { '/applications': { get: { parameters: { name: string }[] } } };
    };
    const names = doc.paths['/applications'].get.parameters.map((p) => p.name);
    for (const name of ['status[value]', 'status[date][gte]', 'status[date][lte]', 'embed', 'per_page'])
      assert.ok(names.includes(name), name);
  });
});

type Parameter = {
  name: string;
  in: string;
  style?: string;
  explode?: boolean;
  description?: string;
  schema: Record<string, unknown>;
};
type JsonSchema = {
  properties: Record<string, { description?: string; maximum?: number }>;
  anyOf?: unknown[];
  description?: string;
};

/** A query parameter of an operation of the document. */
function parameterOf(path: string, name: string): Parameter {
  const doc = buildRecruitmentApiDocument('test') as { paths: Record<string, { get: { parameters: Parameter[] } }> };
  const parameter = doc.paths[path]?.get.parameters.find((p) => p.in === 'query' && p.name === name);
  assert.ok(parameter !== undefined, `GET ${path} has no ${name}`);
  return parameter;
}

describe('the values and rules of the document', () => {
  it("lists the values of embed, on each of its six operations, and of a campaign list's status as enums of the contract's values, sent comma-separated", () => {
    const lists: [string, string, readonly string[]][] = [
      ['/campaigns', 'embed', CAMPAIGN_EMBEDS],
      ['/campaigns/{id}', 'embed', CAMPAIGN_EMBEDS],
      ['/applicants', 'embed', APPLICANT_EMBEDS],
      ['/applicants/{id}', 'embed', APPLICANT_EMBEDS],
      ['/campaigns', 'status', CAMPAIGN_STATUSES],
    ];
    for (const [path, name, values] of lists) {
      const parameter = parameterOf(path, name);
      assert.deepEqual(
        { style: parameter.style, explode: parameter.explode },
        { style: 'form', explode: false },
        `${path} ${name}`,
      );
      assert.deepEqual(
        parameter.schema,
        { type: 'array', items: { type: 'string', enum: [...values] } },
        `${path} ${name}`,
      );
    }
    for (const path of ['/applications', '/applications/{id}']) {
      const parameter = parameterOf(path, 'embed');
      assert.equal(parameter.style, 'form');
      const items = parameter.schema.items as { anyOf: { enum?: string[]; pattern?: string }[] };
      assert.deepEqual(items.anyOf[0]?.enum, [...APPLICATION_EMBEDS], path);
      assert.equal(items.anyOf[1]?.pattern, '^status_history:.', path);
    }
  });

  it('says the rules JSON Schema cannot hold (status[date] needs status[value], salary_min at most salary_max) and holds those it can (applicant_id or applicant_email, integer ranges)', () => {
    for (const name of ['status[date][gte]', 'status[date][lte]'])
      assert.match(parameterOf('/applications', name).description ?? '', /^Needs status\[value\]/);
    const schemas = (buildRecruitmentApiDocument('test') as { components: { schemas: Record<string, JsonSchema> } })
      .components.schemas;
    const campaign = schemas.CampaignInput as JsonSchema;
    assert.match(campaign.properties.salary_min?.description ?? '', /At most salary_max/);
    assert.match(campaign.properties.salary_max?.description ?? '', /At least salary_min/);
    const application = schemas.CreateApplicationBody as JsonSchema;
    assert.deepEqual(application.anyOf, [{ required: ['applicant_id'] }, { required: ['applicant_email'] }]);
    // Beyond the safe integers, the sandbox refuses an id (422): the document says so.
    assert.equal(application.properties.campaign_id?.maximum, Number.MAX_SAFE_INTEGER);
    assert.equal(parameterOf('/applications', 'campaign_id').schema.maximum, Number.MAX_SAFE_INTEGER);
  });
});

describe('status[value], which status[date] needs', () => {
  it('is said to be required with status[date] on its own parameter too, as the sandbox answers 422 status_value_required without it', async () => {
    assert.match(
      parameterOf('/applications', 'status[value]').description ?? '',
      /Required with status\[date\]\[gte\] or status\[date\]\[lte\].*422 status_value_required/,
    );
    const companyId = (await t.admin('POST', '/companies', { name: 'Status Co' })).id;
    const token = await t.token(await t.admin('POST', '/clients', { company_id: companyId }));
    const alone = await call(`${t.url}/applications?status[date][gte]=2024-01-01`, { token });
    assert.equal(alone.status, 422);
    assert.equal(alone.body.error.code, 'status_value_required');
    assert.equal(
      (await call(`${t.url}/applications?status[value]=new&status[date][gte]=2024-01-01`, { token })).status,
      200,
    );
  });
});

describe('GET /docs', () => {
  it('answers the reference as static HTML that fetches nothing, under a policy that allows no fetch', async () => {
    const html = await fetchStaticReference(`${t.sandbox.origin}/docs`);
    assert.match(html, /Recruitment API/);
    assert.match(html, /status\[date\]\[gte\]/);
  });
});
