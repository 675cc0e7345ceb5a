// What a web page on another site, a forged Host header or a crafted upload
// can do to a running sandbox: nothing. Real HTTP against the sandbox.
import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { b64, docx } from '../test/files.ts';
import { call, world } from './test-helpers.ts';
import type { World } from './test-helpers.ts';

const secret = (s: string) => new TextEncoder().encode(s);

/** A GET with this Host header (fetch will not set it), answering the status and the error code. */
function getWithHost(url: string, host: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { Host: host, Authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('sandbox security', () => {
  let w: World;
  let keys: { private_key: string; secret_key: string };
  const campaigns = async () => ((await w.company('/campaigns')).body as unknown[]).length;

  before(async () => {
    w = await world();
    keys = (await w.t.admin('POST', '/clients', { company_id: w.companyId })) as typeof keys;
  });
  after(() => w?.t.close());

  describe('the admin surface', () => {
    it('refuses a change that is not JSON, even with no body: a page elsewhere cannot reset the store with a form or a text/plain fetch', async () => {
      const before = await campaigns();
      for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, {}] as Record<string, string>[]) {
        const reply = await call(`${w.t.sandbox.origin}/_sandbox/reset`, { method: 'POST', headers });
        assert.equal(reply.status, 415, JSON.stringify(headers));
        assert.equal(reply.body.error.code, 'unsupported_media_type');
        assert.match(reply.body.error.message, /Content-Type: application\/json/);
      }
      assert.equal(await campaigns(), before, 'nothing was reset');
    });

    it('refuses any browser request from another origin, even as JSON', async () => {
      const before = await campaigns();
      for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }] as Record<string, string>[]) {
        const reply = await call(`${w.t.sandbox.origin}/_sandbox/reset`, { body: {}, headers });
        assert.equal(reply.status, 403, JSON.stringify(headers));
        assert.equal(reply.body.error.code, 'origin_refused');
      }
      assert.equal(await campaigns(), before, 'nothing was reset');
      const own = await call(`${w.t.sandbox.origin}/_sandbox/clock`, { headers: { origin: w.t.sandbox.origin } });
      assert.equal(own.status, 200, 'a page of the sandbox itself may');
    });
  });

  describe('files', () => {
    it('serves a resume as a download that no browser sniffs into a page', async () => {
      const created = await w.company('/applicants', { body: { applicant: { email: 'files@example.com', resume: { base64: b64(docx()), mime_type: 'docx' } } } });
      await w.t.drain();
      const url = (await w.company(`/applicants/${created.body.id}`)).body.resume_url as string;
      const response = await fetch(url);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="?file\.docx"?$/);
    });
  });

  describe('self-signed tokens', () => {
    const sign = (aud: string | undefined, lifetimeSeconds?: number) => {
      const now = Math.floor(Date.now() / 1000);
      let jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer(keys.private_key).setIssuedAt(now);
      if (aud !== undefined) jwt = jwt.setAudience(aud);
      if (lifetimeSeconds !== undefined) jwt = jwt.setExpirationTime(now + lifetimeSeconds);
      return jwt.sign(secret(keys.secret_key));
    };

    it('take "aud" from the sandbox\'s own address, never from the Host header a request claims', async () => {
      const forged = await getWithHost(`${w.t.url}/campaigns`, 'evil.example', await sign('evil.example'));
      assert.equal(forged.status, 401);
      assert.match(forged.body, /invalid_token/);
      const own = await call(`${w.t.url}/campaigns`, { token: await sign(w.t.sandbox.origin) });
      assert.equal(own.status, 200);
      // The loopback is one machine: localhost names the sandbox listening on 127.0.0.1.
      const local = await call(`${w.t.url}/campaigns`, { token: await sign(`localhost:${w.t.sandbox.port}`) });
      assert.equal(local.status, 200);
    });

    it('live at most 4 hours: a longer exp is refused, saying so', async () => {
      const reply = await call(`${w.t.url}/campaigns`, { token: await sign(undefined, 4 * 3600 + 60) });
      assert.equal(reply.status, 401);
      assert.match(reply.body.error.message, /longer than 4 hours/);
      assert.equal((await call(`${w.t.url}/campaigns`, { token: await sign(undefined, 3600) })).status, 200);
    });
  });
});
