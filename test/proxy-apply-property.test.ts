// Property: whatever multipart or JSON body a client throws at
// POST /api/applications, the answer is a 4xx problem, never a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { FORM_FIELD_NAMES } from '../server/proxy/applications/form.ts';
import { FILES, fetch, startApplyWorld } from './proxy-apply-support.ts';
import type { ApplyWorld } from './proxy-apply-support.ts';

const CRLF = '\r\n';

// A filled honeypot ('website') is answered with a decoy 202 on purpose, so a
// robot learns nothing; its own tests cover it. Random bodies leave it out.
const HONEYPOT = 'website';
const fieldName = fc
  .oneof(fc.constantFrom(...FORM_FIELD_NAMES, 'resume'), fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 10 }))
  .filter((name) => name.replace(/["\r\n]/g, '') !== HONEYPOT);
const fieldValue = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('true', 'on', '1', 'false', '', '12', '-1', '1e9', '99999999999999999999', 'a@b', 'a@b.co', 'javascript:alert(1)', '+33', '<script>'),
);
const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.constantFrom(FILES.pdf, FILES.png, FILES.doc, FILES.exe).map((b) => new Uint8Array(b)),
);

const part = fc.oneof(
  fc.record({ kind: fc.constant('field' as const), name: fieldName, value: fieldValue }),
  fc.record({ kind: fc.constant('file' as const), name: fieldName, filename: fc.string({ maxLength: 30 }), type: fc.string({ maxLength: 30 }), bytes: fileBytes }),
  fc.record({ kind: fc.constant('raw' as const), headers: fc.string({ maxLength: 80 }), bytes: fc.uint8Array({ maxLength: 100 }) }),
);

type Part = typeof part extends fc.Arbitrary<infer T> ? T : never;

function multipartBody(parts: Part[], boundary: string, closing: 'ok' | 'missing' | 'garbage'): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}${CRLF}`));
    if (p.kind === 'field') {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name.replace(/["\r\n]/g, '')}"${CRLF}${CRLF}${p.value}${CRLF}`));
    } else if (p.kind === 'file') {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${p.name.replace(/["\r\n]/g, '')}"; filename="${p.filename.replace(/["\r\n]/g, '')}"${CRLF}Content-Type: ${p.type.replace(/[\r\n]/g, '')}${CRLF}${CRLF}`),
        Buffer.from(p.bytes),
        Buffer.from(CRLF),
      );
    } else {
      chunks.push(Buffer.from(p.headers), Buffer.from(CRLF + CRLF), Buffer.from(p.bytes), Buffer.from(CRLF));
    }
  }
  if (closing === 'ok') chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  if (closing === 'garbage') chunks.push(Buffer.from('--garbage'));
  return Buffer.concat(chunks);
}

const request = fc.oneof(
  fc.record({
    kind: fc.constant('multipart' as const),
    parts: fc.array(part, { maxLength: 12 }),
    boundary: fc.constantFrom('XyZ123', 'a', '----WebKitFormBoundary7MA4YWxkTrZu0gW'),
    contentType: fc.constantFrom('multipart/form-data; boundary=', 'multipart/form-data;boundary=', 'multipart/form-data', 'multipart/mixed; boundary=', 'text/plain; boundary='),
    closing: fc.constantFrom('ok' as const, 'missing' as const, 'garbage' as const),
    key: fc.option(fc.string({ minLength: 0, maxLength: 250 }), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('json' as const),
    body: fc.json({ maxDepth: 3 }),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded'),
    key: fc.option(fc.uuid(), { nil: undefined }),
  }),
);

describe('POST /api/applications with random bodies', () => {
  let world: ApplyWorld;
  before(async () => {
    world = await startApplyWorld();
  });
  after(async () => {
    await world.close();
  });

  it('answers every random multipart or JSON body with a 4xx problem, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {};
        let body: Buffer;
        if (r.kind === 'multipart') {
          headers['content-type'] = r.contentType.endsWith('=') ? r.contentType + r.boundary : r.contentType;
          body = multipartBody(r.parts, r.boundary, r.closing);
        } else {
          headers['content-type'] = r.contentType;
          body = Buffer.from(r.body);
        }
        if (r.key !== undefined && /^[\t\x20-\x7e]*$/.test(r.key)) headers['idempotency-key'] = r.key;
        const response = await fetch(`${world.proxyUrl}/api/applications`, { method: 'POST', headers, body: new Uint8Array(body) });
        const text = await response.text();
        assert.ok(response.status >= 400 && response.status < 500, `answered ${response.status}: ${text.slice(0, 300)}`);
        assert.match(response.headers.get('content-type') ?? '', /application\/problem\+json/);
        assert.equal(typeof (JSON.parse(text) as { code: unknown }).code, 'string');
      }),
      { numRuns: 300 },
    );
  });
});
