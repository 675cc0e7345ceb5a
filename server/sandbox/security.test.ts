// What a web page on another site, a forged Host header or a crafted upload
// can do to a running sandbox: nothing. Real HTTP against the sandbox.
import assert from 'node:assert/strict';
import { get as httpGet, request as httpRequest } from 'node:http';
import { before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { b64, docx } from '../test/files.ts';
import { call, suiteWorld } from './test-support.ts';
import type { Json } from './test-support.ts';

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

/** An admin call with this Host header (fetch will not set it), as JSON: its status and its error body. */
function adminWithHost(
  origin: string,
  method: string,
  path: string,
  host: string,
): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${origin}/_sandbox${path}`,
      { method, headers: { Host: host, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Json }));
      },
    );
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : '{}');
  });
}

describe('sandbox security', () => {
  const w = suiteWorld();
  let keys: { private_key: string; secret_key: string };
  const campaigns = async () => ((await w.company('/campaigns')).body as unknown[]).length;

  before(async () => {
    keys = (await w.t.admin('POST', '/clients', { company_id: w.companyId })) as typeof keys;
  });

  describe('the admin surface', () => {
    it('refuses a change that is not JSON, even with no body: a page elsewhere cannot reset the store with a form or a text/plain fetch', async () => {
      const before = await campaigns();
      for (const headers of [
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        {},
      ] as Record<string, string>[]) {
        const reply = await call(`${w.t.sandbox.origin}/_sandbox/reset`, { method: 'POST', headers });
        assert.equal(reply.status, 415, JSON.stringify(headers));
        assert.equal(reply.body.error.code, 'unsupported_media_type');
        assert.match(reply.body.error.message, /Content-Type: application\/json/);
      }
      assert.equal(await campaigns(), before, 'nothing was reset');
    });

    it('refuses any browser request from another origin, even as JSON', async () => {
      const before = await campaigns();
      for (const headers of [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
      ] as Record<string, string>[]) {
        const reply = await call(`${w.t.sandbox.origin}/_sandbox/reset`, { body: {}, headers });
        assert.equal(reply.status, 403, JSON.stringify(headers));
        assert.equal(reply.body.error.code, 'origin_refused');
      }
      assert.equal(await campaigns(), before, 'nothing was reset');
      const own = await call(`${w.t.sandbox.origin}/_sandbox/clock`, { headers: { origin: w.t.sandbox.origin } });
      assert.equal(own.status, 200, 'a page of the sandbox itself may');
    });

    it('answers 403 host_refused, saying why, to a request addressed to another host name: a page whose name was pointed at the sandbox (DNS rebinding) cannot reach it', async () => {
      const { origin, port } = w.t.sandbox;
      const before = await campaigns();
      for (const host of [
        `evil.example:${port}`,
        'evil.example',
        `localhost:${port + 1}`,
        `127.0.0.1.evil.example:${port}`,
      ]) {
        for (const [method, path] of [
          ['POST', '/reset'],
          ['GET', '/clock'],
        ] as const) {
          const reply = await adminWithHost(origin, method, path, host);
          assert.equal(reply.status, 403, `${method} ${path} with Host ${host}`);
          assert.equal(reply.body.error.code, 'host_refused');
          assert.match(reply.body.error.message, /answers only requests addressed to the sandbox itself/);
          assert.equal(JSON.stringify(reply.body).includes('evil.example'), false, 'gives no request text back');
        }
      }
      assert.equal(await campaigns(), before, 'nothing was reset');
    });

    it('answers a request addressed to the address and port it listens on, or to a loopback name with that port', async () => {
      const { origin, port } = w.t.sandbox;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, `[::1]:${port}`]) {
        assert.equal((await adminWithHost(origin, 'GET', '/clock', host)).status, 200, `Host ${host}`);
      }
    });
  });

  describe('files', () => {
    it('serves a resume as a download that no browser sniffs into a page', async () => {
      const created = await w.company('/applicants', {
        body: { applicant: { email: 'files@example.com', resume: { base64: b64(docx()), mime_type: 'docx' } } },
      });
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

    it('are refused when "iat" lies in the future, saying so (401 invalid_token); a signer\'s clock a few seconds ahead is forgiven', async () => {
      const signedAt = (iat: number, exp?: number) => {
        const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer(keys.private_key).setIssuedAt(iat);
        return (exp === undefined ? jwt : jwt.setExpirationTime(exp)).sign(secret(keys.secret_key));
      };
      const now = Math.floor(Date.now() / 1000);
      // A day ahead, with and without exp: each would have been good for 4 hours from tomorrow.
      for (const token of [
        await signedAt(now + 86_400, now + 86_400 + 3600),
        await signedAt(now + 86_400),
        await signedAt(now + 60, now + 120),
      ]) {
        const reply = await call(`${w.t.url}/campaigns`, { token });
        assert.equal(reply.status, 401);
        assert.equal(reply.body.error.code, 'invalid_token');
        assert.match(reply.body.error.message, /"iat" \(.+\) lies in the future: it is \d+ s ahead of the API's clock/);
      }
      for (const token of [await signedAt(now + 3, now + 3600), await signedAt(now + 3)]) {
        assert.equal((await call(`${w.t.url}/campaigns`, { token })).status, 200, 'a clock 3 s ahead');
      }
    });

    it('live at most 4 hours: a longer exp is refused, saying so', async () => {
      const reply = await call(`${w.t.url}/campaigns`, { token: await sign(undefined, 4 * 3600 + 60) });
      assert.equal(reply.status, 401);
      assert.match(reply.body.error.message, /longer than 4 hours/);
      assert.equal((await call(`${w.t.url}/campaigns`, { token: await sign(undefined, 3600) })).status, 200);
    });
  });
});
