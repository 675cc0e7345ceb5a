// The proxy's OpenAPI document says what the proxy does, as a client
// generated from it meets the proxy: the smallest form the document allows is
// taken, and a method a documented path lacks is answered 405 with Allow.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pdf } from '../server/test/files.ts';
import { BOARD_ORIGIN, apply, fetch, startApplyWorld, uniqueEmail, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';

type Schema = {
  type?: string;
  format?: string;
  enum?: string[];
  pattern?: string;
  examples?: string[];
  maximum?: number;
  minLength?: number;
  description?: string;
};
type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
type Operation = { parameters?: Parameter[]; responses?: Record<string, { description: string }> };
interface ProxyDocument {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: {
      ApplicationForm: {
        required: string[];
        properties: Record<string, Schema>;
        dependentRequired?: Record<string, string[]>;
      };
    };
  };
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

let world: ApplyWorld;
let document: ProxyDocument;

before(async () => {
  // With a dashboard token, so that every documented path is served (GET /api/stats and /dashboard only are then).
  world = await startApplyWorld({ env: { DASHBOARD_TOKEN: 'a-dashboard-token-of-the-board' } });
  document = (await (await fetch(`${world.proxyUrl}/api/openapi.json`)).json()) as ProxyDocument;
});

after(async () => {
  await world?.close();
});

/** A value for a required form field, from its schema alone (the offer's id excepted: it names a real offer), as a sample generator would. */
function sampleOf(name: string, schema: Schema, campaignId: number): string | Blob {
  if (name === 'campaign_id') return String(campaignId);
  if (schema.format === 'binary') return new Blob([new Uint8Array(pdf())], { type: 'application/pdf' });
  // A new address each time: the example's would be already_applied from the second form.
  if (schema.format === 'email') return uniqueEmail('smallest-form');
  if (schema.enum !== undefined) return schema.enum[0] as string;
  const example = schema.examples?.[0];
  if (schema.type === 'string' && example !== undefined) {
    if (schema.pattern !== undefined) assert.match(example, new RegExp(schema.pattern, 'u'), `the example of ${name}`);
    return example;
  }
  throw new Error(`no sample for ${name}: ${JSON.stringify(schema)}`);
}

/** Posts the smallest form `document` allows to the proxy of `world`: its required fields and headers only. */
async function postSmallestForm(world: ApplyWorld, document: ProxyDocument): Promise<Response> {
  const form = document.components.schemas.ApplicationForm;
  const body = new FormData();
  for (const name of form.required) {
    const value = sampleOf(name, form.properties[name] ?? {}, world.openCampaignIds[0] as number);
    if (value instanceof Blob) body.append(name, value, 'resume.pdf');
    else body.append(name, value);
  }
  const headers: Record<string, string> = { origin: BOARD_ORIGIN };
  for (const parameter of document.paths['/api/applications']?.post?.parameters ?? []) {
    if (parameter.in === 'header' && parameter.required === true) headers[parameter.name] = crypto.randomUUID();
  }
  return fetch(`${world.proxyUrl}/api/applications`, { method: 'POST', headers, body });
}

describe("the proxy's OpenAPI document", () => {
  it('requires every field the proxy requires: the smallest form it allows (its required fields and headers only) is answered 201', async () => {
    const answer = await postSmallestForm(world, document);

    assert.equal(answer.status, 201, await answer.text());
  });

  it("follows the board's FORM_FIELDS: a field it requires is required, one it hides is left out, and the smallest form is answered 201", async () => {
    const board = await startApplyWorld({ env: { FORM_FIELDS: 'phone:required,bio_url:hidden,consent:optional' } });
    try {
      const own = (await (await fetch(`${board.proxyUrl}/api/openapi.json`)).json()) as ProxyDocument;
      const form = own.components.schemas.ApplicationForm;
      assert.deepEqual(
        [...form.required].sort(),
        ['campaign_id', 'email', 'first_name', 'last_name', 'phone_code', 'phone_number', 'resume'].sort(),
      );
      assert.equal(form.properties.bio_url, undefined);

      const answer = await postSmallestForm(board, own);

      assert.equal(answer.status, 201, await answer.text());
    } finally {
      await board.close();
    }
  });

  it('answers a method a documented path does not have with 405 problem+json and Allow listing the methods it has, on every documented path', async () => {
    const campaignId = String(world.openCampaignIds[0]);
    let checked = 0;
    for (const [template, item] of Object.entries(document.paths)) {
      const path = template.replace('{id}', campaignId).replace('{module}', 'fr-abcdefgh');
      const documented = Object.keys(item).map((m) => m.toUpperCase());
      const allowed = new Set([...documented, ...(documented.includes('GET') ? ['HEAD'] : [])]);
      const expectedAllow = [...allowed].sort().join(', ');
      for (const method of METHODS.filter((m) => !allowed.has(m))) {
        const answer = await fetch(`${world.proxyUrl}${path}`, { method });
        const text = await answer.text();
        assert.equal(answer.status, 405, `${method} ${path}: ${text}`);
        assert.equal(answer.headers.get('allow'), expectedAllow, `${method} ${path}`);
        assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
        if (method !== 'HEAD') assert.equal((JSON.parse(text) as { code: string }).code, 'method_not_allowed');
        checked += 1;
      }
    }
    assert.ok(checked >= 50, `only ${checked} requests checked`);
    assert.match(document.info.description, /405 `method_not_allowed` with `Allow`/);
  });

  it('answers OPTIONS on a documented path outside /api with 200 and Allow, and a path it does not have with 404', async () => {
    for (const path of ['/healthz', '/widget.js', '/api/campaigns']) {
      const options = await fetch(`${world.proxyUrl}${path}`, { method: 'OPTIONS' });
      if (path.startsWith('/api/')) {
        // On /api, OPTIONS is a CORS preflight, answered as such.
        assert.equal(options.status, 204, path);
        continue;
      }
      assert.equal(options.status, 200, path);
      assert.equal(options.headers.get('allow'), 'GET, HEAD', path);
    }
    const unknown = await fetch(`${world.proxyUrl}/api/nothing`, { method: 'DELETE' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('allow'), null);
  });

  it('gives every offer id the bounds the proxy reads: up to 2^53 − 1 is an id (unknown: 404), one more is refused', async () => {
    const ids: [string, string, (id: string) => Promise<number>][] = [
      ['/api/campaigns/{id}', 'id', async (id) => (await fetch(`${world.proxyUrl}/api/campaigns/${id}`)).status],
      [
        '/api/campaigns/{id}/jobposting',
        'id',
        async (id) => (await fetch(`${world.proxyUrl}/api/campaigns/${id}/jobposting`)).status,
      ],
      [
        '/embed/campaigns/head',
        'offer',
        async (id) => (await fetch(`${world.proxyUrl}/embed/campaigns/head?offer=${id}`)).status,
      ],
      [
        '/embed/campaigns',
        'offer',
        async (id) => (await fetch(`${world.proxyUrl}/embed/campaigns?offer=${id}`)).status,
      ],
    ];
    const schemas: [string, Schema, (id: string) => Promise<number>][] = ids.map(([path, name, send]) => [
      `${name} of ${path}`,
      document.paths[path]?.get?.parameters?.find((p) => p.name === name)?.schema ?? {},
      send,
    ]);
    schemas.push([
      'campaign_id of the application form',
      document.components.schemas.ApplicationForm.properties.campaign_id ?? {},
      async (id) => (await apply(world.proxyUrl, { fields: { ...validFields(1), campaign_id: id } })).status,
    ]);
    for (const [what, schema, send] of schemas) {
      assert.deepEqual(
        { type: schema.type, maximum: schema.maximum },
        { type: 'integer', maximum: Number.MAX_SAFE_INTEGER },
        what,
      );
      assert.equal(await send(String(Number.MAX_SAFE_INTEGER)), 404, `${what}: the largest id is read as an id`);
      const above = await send('9007199254740993');
      assert.ok(above >= 400 && above < 500, `${what}: an id above the largest is refused (answered ${above})`);
    }
  });

  it('says a phone_number needs its phone_code, as the proxy refuses a number without it', async () => {
    const form = document.components.schemas.ApplicationForm;
    assert.deepEqual(form.dependentRequired?.phone_number, ['phone_code']);
    assert.match(form.properties.phone_number?.description ?? '', /Needs phone_code/);
    const { phone_code: _code, ...withoutCode } = validFields(world.openCampaignIds[0] as number);
    const answer = await apply(world.proxyUrl, { fields: withoutCode });
    assert.equal(answer.status, 422);
    assert.deepEqual(
      (answer.body.errors as { field: string }[]).map((e) => e.field),
      ['phone_code'],
    );
  });

  it('says a required resume is not empty and is read from its bytes, as the proxy answers 422 and 415', async () => {
    const form = document.components.schemas.ApplicationForm;
    const responses = document.paths['/api/applications']?.post?.responses ?? {};
    assert.equal(form.properties.resume?.minLength, 1);
    assert.match(form.properties.resume?.description ?? '', /read from its bytes/);
    assert.match(responses['415']?.description ?? '', /bytes are none of pdf, jpg, png, doc or docx/);
    assert.match(responses['422']?.description ?? '', /resume that is missing or empty/);
    const fields = () => validFields(world.openCampaignIds[0] as number);
    const empty = await apply(world.proxyUrl, { fields: fields(), resume: { bytes: Buffer.alloc(0) } });
    assert.equal(empty.status, 422);
    assert.deepEqual(
      (empty.body.errors as { field: string }[]).map((e) => e.field),
      ['resume'],
    );
    const text = await apply(world.proxyUrl, {
      fields: fields(),
      resume: { bytes: Buffer.from('not a resume at all, just words'), type: 'application/pdf' },
    });
    assert.equal(text.status, 415);
  });
});
