import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { ErrorBody, TokenResponse } from '../contract/index.ts';
import { SandboxError } from './errors.ts';
import { RateLimiter } from './rate-limit.ts';
import { TestSandbox, call } from './test-support.ts';
import type { Json } from './test-support.ts';

const secret = (s: string) => new TextEncoder().encode(s);

describe('sandbox authentication (POST /jwt, tokens, scopes, rate limit)', () => {
  let t: TestSandbox;
  let keys: Json;
  let companyId: number;

  before(async () => {
    t = await TestSandbox.start();
    companyId = (await t.admin('POST', '/companies', { name: 'Auth Co' })).id;
    keys = await t.admin('POST', '/clients', { company_id: companyId });
  });
  after(() => t.close());

  it('when the key pair is right, POST /jwt answers a token valid 4 hours', async () => {
    const reply = await call(`${t.url}/jwt`, { body: { private_key: keys.private_key, secret_key: keys.secret_key } });
    assert.equal(reply.status, 200);
    const token = TokenResponse.parse(reply.body);
    const lifetime = Date.parse(token.expires_at) - Date.now();
    assert.ok(lifetime > 4 * 3600_000 - 60_000 && lifetime <= 4 * 3600_000, `lifetime ${lifetime}`);
  });

  it('when the secret key is wrong, POST /jwt answers 401 invalid_credentials', async () => {
    const reply = await call(`${t.url}/jwt`, { body: { private_key: keys.private_key, secret_key: 'nope' } });
    assert.equal(reply.status, 401);
    assert.equal(ErrorBody.parse(reply.body).error.code, 'invalid_credentials');
  });

  it('when POST /jwt misses a key, answers 400 invalid_request naming the field', async () => {
    const reply = await call(`${t.url}/jwt`, { body: { private_key: keys.private_key } });
    assert.equal(reply.status, 400);
    assert.deepEqual(
      reply.body.error.details.map((d: Json) => d.field),
      ['secret_key'],
    );
  });

  it('when no token is sent, answers 401 missing_token', async () => {
    const reply = await call(`${t.url}/campaigns`);
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.code, 'missing_token');
  });

  /** A token signed by hand, as a client signing its own: HS256, by the client's keys, issued now unless told otherwise. */
  const sign = (claims: {
    secret?: string;
    issuer?: string;
    alg?: string;
    audience?: string;
    issuedAt?: number;
    expiresIn?: string;
  }): Promise<string> => {
    let jwt = new SignJWT({})
      .setProtectedHeader({ alg: claims.alg ?? 'HS256' })
      .setIssuer(claims.issuer ?? keys.private_key)
      .setIssuedAt(claims.issuedAt);
    if (claims.audience !== undefined) jwt = jwt.setAudience(claims.audience);
    if (claims.expiresIn !== undefined) jwt = jwt.setExpirationTime(claims.expiresIn);
    return jwt.sign(secret(claims.secret ?? keys.secret_key));
  };

  /** Requests refused with 401: what each carries, a token or an Authorization header of its own. */
  const refusedTokens: {
    when: string;
    code: string;
    send: () => Promise<{ token: string } | { headers: Record<string, string> }>;
  }[] = [
    {
      when: 'the Authorization header is not a bearer token',
      code: 'invalid_token',
      send: async () => ({ headers: { authorization: 'Basic abc' } }),
    },
    { when: 'the token is malformed', code: 'invalid_token', send: async () => ({ token: 'not.a.jwt' }) },
    {
      when: 'the token is signed with another secret',
      code: 'invalid_token',
      send: async () => ({ token: await sign({ secret: 'wrong-secret', expiresIn: '1h' }) }),
    },
    {
      when: 'the token names an unknown private key',
      code: 'invalid_token',
      send: async () => ({ token: await sign({ issuer: 'unknown' }) }),
    },
    {
      when: 'a self-signed token names another host as aud',
      code: 'invalid_token',
      send: async () => ({ token: await sign({ audience: 'api.example.com' }) }),
    },
    {
      when: 'a self-signed token without exp is older than 4 hours',
      code: 'token_expired',
      send: async () => ({ token: await sign({ issuedAt: Math.floor(Date.now() / 1000) - 4 * 3600 - 60 }) }),
    },
    {
      when: 'a token uses another algorithm than HS256',
      code: 'invalid_token',
      send: async () => ({ token: await sign({ secret: keys.secret_key.padEnd(64, 'x'), alg: 'HS512' }) }),
    },
  ];
  for (const c of refusedTokens) {
    it(`when ${c.when}, answers 401 ${c.code}`, async () => {
      const reply = await call(`${t.url}/campaigns`, await c.send());
      assert.equal(reply.status, 401);
      assert.equal(reply.body.error.code, c.code);
    });
  }

  it('when the sandbox clock passes the 4 hours, the token answers 401 token_expired', async () => {
    const token = await t.token(keys);
    await t.admin('PUT', '/clock', { now: new Date(Date.now() + 4 * 3600_000 + 60_000).toISOString() });
    try {
      const reply = await call(`${t.url}/campaigns`, { token });
      assert.equal(reply.status, 401);
      assert.equal(reply.body.error.code, 'token_expired');
    } finally {
      await t.admin('PUT', '/clock', { now: null });
    }
  });

  it('when a client signs its own token (iss = private key, aud = host), it is accepted', async () => {
    const token = await sign({ audience: new URL(t.url).host });
    const reply = await call(`${t.url}/campaigns`, { token });
    assert.equal(reply.status, 200);
  });

  it('when the client lacks the scope of an endpoint, answers 403 missing_scope naming it, on every endpoint', async () => {
    const none = await t.admin('POST', '/clients', { company_id: companyId, scopes: [] });
    const api = t.api(await t.token(none));
    const endpointsByScope = {
      applications_read: ['GET /applications', 'GET /applications/1'],
      applications_write: ['POST /applications'],
      applicants_read: ['GET /applicants', 'GET /applicants/1'],
      applicants_write: ['POST /applicants', 'POST /jobboards/applicants'],
      campaigns_read: ['GET /campaigns', 'GET /campaigns/1', 'GET /channels', 'GET /entities/1/channels'],
      campaigns_write: ['POST /campaigns'],
    };
    for (const [scope, endpoints] of Object.entries(endpointsByScope)) {
      for (const endpoint of endpoints) {
        const [method, path] = endpoint.split(' ') as [string, string];
        const reply = await api(path, { method, ...(method === 'POST' ? { body: {} } : {}) });
        assert.equal(reply.status, 403, endpoint);
        assert.equal(reply.body.error.code, 'missing_scope', endpoint);
        assert.match(reply.body.error.message, new RegExp(scope), endpoint);
      }
    }
  });
});

describe('sandbox rate limit', () => {
  let t: TestSandbox;
  let companyId: number;

  before(async () => {
    t = await TestSandbox.start({ rateLimitPerMinute: 5 });
    companyId = (await t.admin('POST', '/companies', { name: 'Busy Co' })).id;
  });
  after(() => t.close());

  it('when a client goes over its requests per minute, answers 403 rate_limited with Retry-After', async () => {
    const fresh = await t.admin('POST', '/clients', { company_id: companyId });
    const api = t.api(await t.token(fresh));
    for (let i = 0; i < 5; i++) assert.equal((await api('/channels')).status, 200);
    const reply = await api('/channels');
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 'rate_limited');
    const retryAfter = Number(reply.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  });

  it('counts the rate limit per API client: another client is not limited', async () => {
    const a = t.api(await t.token(await t.admin('POST', '/clients', { company_id: companyId })));
    const b = t.api(await t.token(await t.admin('POST', '/clients', { company_id: companyId })));
    for (let i = 0; i < 6; i++) await a('/channels');
    assert.equal((await a('/channels')).body.error.code, 'rate_limited');
    assert.equal((await b('/channels')).status, 200);
  });
});

describe('sandbox rate limit window (rateLimitWindowMs)', () => {
  it('counts requests over the configured window: the request that ends the window is allowed again, Retry-After says when', () => {
    const limiter = new RateLimiter(2, 3_000);
    limiter.hit(1, 10_000);
    limiter.hit(1, 11_000);
    assert.throws(
      () => limiter.hit(1, 12_000),
      (error: unknown) =>
        error instanceof SandboxError &&
        error.code === 'rate_limited' &&
        error.headers['Retry-After'] === '1' &&
        /2 requests per 3000 ms/.test(error.message),
    );
    // The first hit leaves the window at 13 000; the refused one did not count.
    limiter.hit(1, 13_000);
    assert.throws(
      () => limiter.hit(1, 13_500),
      (error: unknown) => error instanceof SandboxError && error.headers['Retry-After'] === '1',
    );
  });

  it('defaults to a window of one minute', () => {
    const limiter = new RateLimiter(1);
    limiter.hit(1, 0);
    assert.throws(
      () => limiter.hit(1, 59_999),
      (error: unknown) => error instanceof SandboxError && error.headers['Retry-After'] === '1',
    );
    limiter.hit(1, 60_000);
  });

  it('when started with a short window, a client that met the limit is served again once the window has passed', async () => {
    const t = await TestSandbox.start({ rateLimitPerMinute: 2, rateLimitWindowMs: 200 });
    try {
      const companyId = (await t.admin('POST', '/companies', { name: 'Quick Co' })).id;
      const api = t.api(await t.token(await t.admin('POST', '/clients', { company_id: companyId })));
      assert.equal((await api('/channels')).status, 200);
      assert.equal((await api('/channels')).status, 200);
      assert.equal((await api('/channels')).body.error.code, 'rate_limited');
      await new Promise((resolve) => setTimeout(resolve, 250));
      assert.equal((await api('/channels')).status, 200);
    } finally {
      await t.close();
    }
  });

  it('refuses a window that is not a whole number of milliseconds of at least 1', () => {
    assert.throws(() => new RateLimiter(5, 0), RangeError);
    assert.throws(() => new RateLimiter(5, 1.5), RangeError);
  });
});
