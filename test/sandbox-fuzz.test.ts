// Property test: random and malformed bodies, queries and path ids thrown at
// every endpoint of the sandbox are answered 2xx or 4xx (with the API's error
// body), never 5xx, and the server keeps answering.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ErrorBody } from '../server/contract/index.ts';
import { DEMO_KEYS, startSandbox } from '../server/sandbox/index.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import { fetch } from '../server/openapi/test/answers.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

const ENDPOINTS: { method: string; path: string; root: 'api' | 'admin' }[] = [
  { method: 'POST', path: '/jwt', root: 'api' },
  { method: 'GET', path: '/applications', root: 'api' },
  { method: 'GET', path: '/applications/:id', root: 'api' },
  { method: 'POST', path: '/applications', root: 'api' },
  { method: 'GET', path: '/applicants', root: 'api' },
  { method: 'GET', path: '/applicants/:id', root: 'api' },
  { method: 'POST', path: '/applicants', root: 'api' },
  { method: 'POST', path: '/jobboards/applicants', root: 'api' },
  { method: 'GET', path: '/campaigns', root: 'api' },
  { method: 'GET', path: '/campaigns/:id', root: 'api' },
  { method: 'POST', path: '/campaigns', root: 'api' },
  { method: 'GET', path: '/channels', root: 'api' },
  { method: 'GET', path: '/entities/:id/channels', root: 'api' },
  // The admin routes too, except those that change the whole sandbox (reset, clock, faults).
  { method: 'POST', path: '/companies', root: 'admin' },
  { method: 'POST', path: '/clients', root: 'admin' },
  { method: 'POST', path: '/channels', root: 'admin' },
  { method: 'POST', path: '/entities', root: 'admin' },
  { method: 'POST', path: '/pools', root: 'admin' },
  { method: 'PATCH', path: '/campaigns/:id', root: 'admin' },
  { method: 'PUT', path: '/applications/:id/status', root: 'admin' },
];

const FIELDS = [
  'campaign',
  'applicant',
  'application',
  'campaign_id',
  'applicant_id',
  'applicant_email',
  'company_id',
  'email',
  'resume',
  'base64',
  'mime_type',
  'applications',
  'comments',
  'attachment',
  'tags',
  'pools',
  'source',
  'manage_name',
  'job_type',
  'working_time',
  'unit_id',
  'address',
  'date_end',
  'salary_min',
  'salary_max',
  'private_key',
  'secret_key',
  'name',
  'status',
  'channels',
  'value',
  'at',
  'scopes',
  'channel',
  'units',
  'entity_id',
  'sources',
  '__proto__',
  'constructor',
];
const QUERY_KEYS = [
  'embed',
  'page',
  'per_page',
  'order',
  'sort',
  'status',
  'status[value]',
  'status[date][gte]',
  'status[date][lte]',
  'status[date]',
  'campaign_id',
  'is_complete',
  'source',
  'keywords',
  'channels',
  'is_partner_newsletter_active',
  'is_campaign_alert_active',
  'embed[]',
  'embed[0]',
  'status[]',
  'a[b][c][d][e][f]',
  '__proto__[x]',
];

const tricky = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e400',
    'NaN',
    'null',
    'true',
    '9007199254740993',
    'status_history:',
    'a,b,,c',
    '%',
    '\u0000',
    '😀',
    'online,archived',
    'JVBERi0=',
    'pdf',
  ),
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
);
const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  { maxDepth: 3 },
  fc.jsonValue({ maxDepth: 3 }),
  tricky,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
/** Bodies shaped like the real ones, with random values at known keys, nested. */
const shapedBody = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonish,
    tie('object'),
    fc.array(tie('node'), { maxLength: 3 }),
  ),
  object: fc.dictionary(fc.constantFrom(...FIELDS), tie('node'), { maxKeys: 6 }),
})).object;

const body = fc.oneof(
  shapedBody.map((b) => ({ raw: JSON.stringify(b), type: 'application/json' })),
  fc.jsonValue().map((b) => ({ raw: JSON.stringify(b), type: 'application/json' })),
  fc.string({ maxLength: 60 }).map((raw) => ({ raw, type: 'application/json' })),
  fc.string({ maxLength: 60 }).map((raw) => ({ raw, type: 'text/plain' })),
  fc.constant({ raw: '', type: 'application/json' }),
);

const query = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), tricky), { maxLength: 6 })
  .map((pairs) =>
    pairs
      .map(([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(v)}`)
      .join('&'),
  );

const pathId = fc.oneof(
  fc.constantFrom('1', '2', '0', '-1', '99999999999999999999', 'abc', 'early.bird@example.com', '%25', '..'),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

describe('sandbox under random and malformed input', () => {
  let sandbox: RunningSandbox;
  let companyToken: string;
  let boardToken: string;

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo', admin: true, rateLimitPerMinute: 0 });
    const token = async (keys: { private_key: string; secret_key: string }) => {
      const response = await fetch(`${sandbox.url}/jwt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ private_key: keys.private_key, secret_key: keys.secret_key }),
      });
      return ((await response.json()) as { token: string }).token;
    };
    companyToken = await token(DEMO_KEYS.company);
    boardToken = await token(DEMO_KEYS.jobboard);
  });
  after(() => sandbox?.close());

  async function send(
    endpoint: (typeof ENDPOINTS)[number],
    id: string,
    q: string,
    b: { raw: string; type: string } | undefined,
    asBoard: boolean,
  ) {
    const base = endpoint.root === 'api' ? sandbox.url : `${sandbox.origin}/_sandbox`;
    const path = endpoint.path.replace(':id', id);
    const response = await fetch(`${base}${path}${q === '' ? '' : `?${q}`}`, {
      method: endpoint.method,
      headers: {
        authorization: `Bearer ${asBoard ? boardToken : companyToken}`,
        ...(b === undefined ? {} : { 'content-type': b.type }),
      },
      ...(b === undefined || endpoint.method === 'GET' ? {} : { body: b.raw }),
    });
    const text = await response.text();
    return { status: response.status, text, allow: response.headers.get('allow') };
  }

  function assertNoServerError(result: { status: number; text: string }, what: string): void {
    assert.ok(result.status < 500, `${what} answered ${result.status}: ${result.text.slice(0, 300)}`);
    if (result.status >= 400) {
      assert.doesNotThrow(
        () => ErrorBody.parse(JSON.parse(result.text)),
        `${what}: error body ${result.text.slice(0, 200)}`,
      );
    }
  }

  it('random bodies at every endpoint answer 2xx or 4xx, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS.filter((e) => e.method !== 'GET')),
        body,
        fc.boolean(),
        async (endpoint, b, asBoard) => {
          assertNoServerError(
            await send(endpoint, '1', '', b, asBoard),
            `${endpoint.method} ${endpoint.path} ${b.raw.slice(0, 100)}`,
          );
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('random queries and path ids at every endpoint answer 2xx or 4xx, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), pathId, query, fc.boolean(), async (endpoint, id, q, asBoard) => {
        assertNoServerError(
          await send(endpoint, id, q, undefined, asBoard),
          `${endpoint.method} ${endpoint.path.replace(':id', id)}?${q}`,
        );
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('any method at every path answers 2xx or 4xx, never 5xx; a method the path does not have is answered 405 (OPTIONS 204) with exactly its methods in Allow', async () => {
    // The path stays one segment where the id goes ("." and ".." would move it to another route).
    const segmentId = pathId.filter((id) => id !== '.' && id !== '..');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        segmentId,
        async (endpoint, method, id) => {
          const result = await send({ ...endpoint, method }, id, '', undefined, false);
          assertNoServerError(result, `${method} ${endpoint.path.replace(':id', id)}`);
          const methods = new Set(
            ENDPOINTS.filter((e) => e.root === endpoint.root && e.path === endpoint.path).map((e) => e.method),
          );
          if (methods.has('GET')) methods.add('HEAD');
          if (methods.has(method)) {
            assert.notEqual(result.status, 405, `${method} ${endpoint.path} is one of its methods`);
            return;
          }
          assert.equal(
            result.status,
            method === 'OPTIONS' ? 204 : 405,
            `${method} ${endpoint.path} answered ${result.status}: ${result.text.slice(0, 200)}`,
          );
          assert.deepEqual(result.allow?.split(', ').sort(), [...methods].sort(), `Allow of ${endpoint.path}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('files with real signatures and random bytes after them answer 201 or 4xx, never 5xx', async () => {
    const magic = fc.constantFrom(
      Buffer.from('%PDF-1.4\n'),
      Buffer.from('504b0304', 'hex'),
      Buffer.from('504b03041400000008000000', 'hex'),
      Buffer.from('d0cf11e0a1b11ae1', 'hex'),
      Buffer.from('89504e470d0a1a0a', 'hex'),
      Buffer.from('ffd8ffe0', 'hex'),
      Buffer.alloc(0),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        magic,
        fc.uint8Array({ maxLength: 600 }),
        fc.constantFrom('pdf', 'jpg', 'png', 'doc', 'docx', 'xlsx'),
        fc.boolean(),
        async (head, tail, type, asAttachment) => {
          const file = { base64: Buffer.concat([head, tail]).toString('base64') || 'AA==', mime_type: type };
          const application = asAttachment ? { comments: [{ content: 'x', attachment: file }] } : { resume: file };
          // A new applicant each time, so duplicates never hide the file check.
          const body = {
            company_id: 1,
            applicant: {
              email: `fuzz${n++}@example.com`,
              applications: [{ campaign_id: 1 }],
              ...(asAttachment ? {} : { resume: file }),
            },
          };
          const endpoint = asAttachment
            ? ENDPOINTS.find((e) => e.path === '/applications')!
            : ENDPOINTS.find((e) => e.path === '/jobboards/applicants')!;
          const payload = asAttachment
            ? { campaign_id: 1, applicant_email: 'early.bird@example.com', application }
            : body;
          assertNoServerError(
            await send(endpoint, '1', '', { raw: JSON.stringify(payload), type: 'application/json' }, !asAttachment),
            `${type} file of ${head.length + tail.length} bytes`,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("random and forged Authorization headers answer 401 with the API's error body, never a page of data, never a dropped connection", async () => {
    /** Characters an HTTP header value may carry (fetch refuses the others before sending). */
    const headerText = (maxLength: number) =>
      fc.string({
        unit: fc
          .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
          .map((c) => String.fromCharCode(c)),
        maxLength,
      });
    const [header, payload, signature] = companyToken.split('.') as [string, string, string];
    const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = fc.oneof(
      // The real token with its signature changed, or signed for other claims, or not signed at all.
      fc
        .base64String({ minLength: 4, maxLength: 60 })
        .map((s) => `${header}.${payload}.${s.replace(/=/g, '').replace(/\+/g, '-').replace(/\//g, '_')}`),
      fc
        .constantFrom('aud', 'iss', 'exp', 'iat', 'sub')
        .map(
          (claim) =>
            `${header}.${base64url({ ...claims, [claim]: claim === 'exp' || claim === 'iat' ? 4_102_444_800 : 'someone-else' })}.${signature}`,
        ),
      fc
        .constantFrom({ alg: 'none' }, { alg: 'HS512', typ: 'JWT' }, { alg: 'RS256' })
        .map((h) => `${base64url(h)}.${payload}.`),
      fc
        .constantFrom({ alg: 'none' }, { alg: 'HS256' })
        .map((h) => `${base64url(h)}.${payload}.${signature.slice(0, -2)}`),
      fc.base64String({ maxLength: 80 }).map((s) => `e30.${s}.x`),
      headerText(60),
    );
    const authorization = fc.oneof(
      headerText(80),
      forged.map((t) => `Bearer ${t}`),
      forged.map((t) => `bearer  ${t}`),
      forged,
    );
    await fc.assert(
      fc.asyncProperty(authorization, async (value) => {
        // A dropped connection or any refusal of fetch fails the run.
        const response = await fetch(`${sandbox.url}/campaigns`, { headers: { authorization: value } });
        const text = await response.text();
        assert.equal(response.status, 401, `"${value}" answered ${response.status}: ${text.slice(0, 200)}`);
        assert.doesNotThrow(() => ErrorBody.parse(JSON.parse(text)), text.slice(0, 200));
      }),
      { numRuns: RUNS },
    );
  });

  it('still answers normally afterwards', async () => {
    const response = await fetch(`${sandbox.url}/campaigns`, { headers: { authorization: `Bearer ${companyToken}` } });
    assert.equal(response.status, 200);
  });
});
