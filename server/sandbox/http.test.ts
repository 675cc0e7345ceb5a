import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { ErrorBody } from '../contract/index.ts';
import { MAX_BODY_BYTES } from './app.ts';
import { TestSandbox, call, suiteWorld, world } from './test-support.ts';
import type { Json } from './test-support.ts';
import { eventually } from '../test/poll.ts';

describe('sandbox request handling and errors', () => {
  const w = suiteWorld();

  it('when the body is not valid JSON, answers 400 malformed_json', async () => {
    const reply = await w.company('/campaigns', {
      body: '{"campaign": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(reply.status, 400);
    assert.equal(ErrorBody.parse(reply.body).error.code, 'malformed_json');
  });

  it('when the body is not JSON at all, answers 415 unsupported_media_type', async () => {
    const reply = await w.company('/campaigns', {
      body: 'manage_name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(reply.status, 415);
    assert.equal(reply.body.error.code, 'unsupported_media_type');
  });

  it('when a POST has no body, answers 400 saying a JSON object is expected', async () => {
    const reply = await w.company('/campaigns', { method: 'POST' });
    assert.equal(reply.status, 400);
    assert.match(reply.body.error.message, /must be a JSON object/);
  });

  it('when the body is a JSON array, answers 400', async () => {
    const reply = await w.company('/campaigns', { body: [] });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'invalid_request');
  });

  it('when a field has the wrong type, answers 400 with the field path of every invalid field', async () => {
    const reply = await w.company('/campaigns', {
      body: { campaign: { manage_name: 42, salary_min: 'a lot', address: { city: 1 }, typo: true } },
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body.error.details.map((d: Json) => d.field).sort(), [
      'campaign.address.city',
      'campaign.manage_name',
      'campaign.salary_min',
      'campaign.typo',
    ]);
  });

  it(`when the body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB, answers 413 payload_too_large`, async () => {
    const reply = await w.company('/campaigns', {
      body: JSON.stringify({ campaign: { manage_name: 'x'.repeat(MAX_BODY_BYTES + 10) } }),
    });
    assert.equal(reply.status, 413);
    assert.equal(reply.body.error.code, 'payload_too_large');
  });

  it('when the route does not exist, answers a JSON 404', async () => {
    const reply = await call(`${w.t.sandbox.origin}/nowhere`);
    assert.equal(reply.status, 404);
    assert.equal(reply.body.error.code, 'not_found');
  });

  it('when a known route is called with another method, answers 405 method_not_allowed with Allow, before any token check', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/v2/campaigns', 'GET, HEAD, POST'],
      ['PUT', '/v2/campaigns/1', 'GET, HEAD'],
      ['GET', '/v2/jwt', 'POST'],
      ['PATCH', '/v2/entities/1/channels', 'GET, HEAD'],
      ['GET', '/_sandbox/reset', 'POST'],
      ['POST', '/_sandbox/clock', 'GET, HEAD, PUT'],
    ] as const) {
      const reply = await call(`${w.t.sandbox.origin}${path}`, { method });
      assert.equal(reply.status, 405, `${method} ${path}`);
      assert.equal(reply.headers.get('allow'), allow, `${method} ${path}`);
      assert.equal(ErrorBody.parse(reply.body).error.code, 'method_not_allowed');
      assert.match(reply.body.error.message, new RegExp(`use ${allow}`));
    }
  });

  it('answers OPTIONS on a known route with 204 and Allow, and HEAD like GET', async () => {
    const options = await call(`${w.t.url}/applicants`, { method: 'OPTIONS' });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'GET, HEAD, POST');
    assert.equal(
      (await call(`${w.t.url}/channels`, { method: 'HEAD' })).status,
      401,
      'HEAD goes on to the GET route, which wants a token',
    );
  });

  it('when a file URL is unknown, answers 404', async () => {
    assert.equal((await call(`${w.t.sandbox.origin}/files/${'0'.repeat(32)}.pdf`)).status, 404);
  });

  it('parses bracket notation in query strings and refuses unknown parameters with 400', async () => {
    const reply = await w.company('/applications?statut=x');
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details[0].field, 'statut');
  });
});

describe('sandbox fault injection (POST /_sandbox/faults)', () => {
  const w = suiteWorld();

  it('answers the next count requests under /v2 with the given 5xx, then recovers', async () => {
    await w.t.admin('POST', '/faults', { count: 2, status: 502 });
    assert.equal((await w.company('/channels')).status, 502);
    const second = await w.company('/channels');
    assert.equal(second.status, 502);
    assert.equal(second.body.error.code, 'server_error');
    assert.equal((await w.company('/channels')).status, 200);
  });

  it('with neither status nor delay, answers 503 service_unavailable', async () => {
    await w.t.admin('POST', '/faults', { count: 1 });
    const reply = await w.company('/channels');
    assert.equal(reply.status, 503);
    assert.equal(reply.body.error.code, 'service_unavailable');
  });

  it('delays the next requests by delay_ms and then answers normally', async () => {
    await w.t.admin('POST', '/faults', { count: 1, delay_ms: 150 });
    const started = performance.now();
    const reply = await w.company('/channels');
    assert.equal(reply.status, 200);
    assert.ok(performance.now() - started >= 140, 'the answer waited');
  });

  it('drops the connection without answering when drop is true', async () => {
    await w.t.admin('POST', '/faults', { count: 1, drop: true });
    await assert.rejects(
      new Promise((resolve, reject) => {
        const req = request(`${w.t.url}/channels`, { agent: false }, resolve);
        req.on('error', reject);
        req.end();
      }),
      /socket hang up|ECONNRESET/,
    );
    assert.equal((await w.company('/channels')).status, 200);
  });

  it('with every N, faults one request in N of the next count and lets the others through', async () => {
    await w.t.admin('POST', '/faults', { count: 6, status: 503, every: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await w.company('/channels')).status);
    assert.deepEqual(statuses, [200, 200, 503, 200, 200, 503, 200]);
  });

  it('{"count": 0} clears the armed faults', async () => {
    await w.t.admin('POST', '/faults', { count: 5, status: 500 });
    await w.t.admin('POST', '/faults', { count: 0 });
    assert.equal((await w.company('/channels')).status, 200);
  });

  it('when the sandbox closes while a request waits out a delay fault, the request ends there and never reaches the closed database', async (t) => {
    const sandbox = await TestSandbox.start();
    const errors = t.mock.method(console, 'error', () => undefined);
    const companyId = (await sandbox.admin('POST', '/companies', { name: 'Closing Co' })).id;
    const token = await sandbox.token(await sandbox.admin('POST', '/clients', { company_id: companyId }));
    await sandbox.admin('POST', '/faults', { count: 1, delay_ms: 100 });
    const pending = call(`${sandbox.url}/channels`, { token }).then(
      () => 'answered',
      () => 'connection closed',
    );
    // The request is waiting once the fault is taken.
    await eventually(() => sandbox.sandbox.context.faults.remaining <= 0, {
      timeoutMs: 10_000,
      what: 'the request to take the fault',
      intervalMs: 5,
    });
    await sandbox.close();
    const { db } = sandbox.sandbox.context;
    const queries = [t.mock.method(db, 'run'), t.mock.method(db, 'get'), t.mock.method(db, 'all')];
    assert.equal(await pending, 'connection closed');
    // Past the end of the delay: the request went no further than the fault (its next step queries the database).
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(
      queries.map((q) => q.mock.callCount()),
      [0, 0, 0],
    );
    assert.deepEqual(
      errors.mock.calls.map((c) => String(c.arguments[1] ?? c.arguments[0])),
      [],
    );
  });

  it('when the sandbox closes while a request is between two steps, the request ends quietly instead of reporting the closed database as a bug', async (t) => {
    const sandbox = await TestSandbox.start();
    const errors = t.mock.method(console, 'error', () => undefined);
    const companyId = (await sandbox.admin('POST', '/companies', { name: 'Closing Co' })).id;
    const token = await sandbox.token(await sandbox.admin('POST', '/clients', { company_id: companyId }));
    // Hold the request inside token verification (an await) until the sandbox is closed.
    const { tokens } = sandbox.sandbox.context;
    const verify = tokens.verify.bind(tokens);
    let reached!: () => void;
    const atVerify = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    t.mock.method(tokens, 'verify', async (...args: Parameters<typeof verify>) => {
      const client = await verify(...args);
      reached();
      await released;
      return client;
    });
    const pending = call(`${sandbox.url}/channels`, { token }).then(
      () => 'answered',
      () => 'connection closed',
    );
    await atVerify;
    await sandbox.close();
    release();
    assert.equal(await pending, 'connection closed');
    // The handler has run on against the closed database by now (one more turn of the event loop is plenty).
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      errors.mock.calls.map((c) => String(c.arguments[1] ?? c.arguments[0])),
      [],
    );
  });

  it('does not touch the admin routes', async () => {
    await w.t.admin('POST', '/faults', { count: 1, status: 500 });
    assert.equal((await call(`${w.t.sandbox.origin}/_sandbox/emails`)).status, 200);
    await w.t.admin('POST', '/faults', { count: 0 });
  });
});

describe('sandbox admin surface', () => {
  it('is not served unless the sandbox starts with admin on', async () => {
    const t = await TestSandbox.start({ admin: false });
    try {
      const reply = await call(`${t.sandbox.origin}/_sandbox/reset`, { body: {} });
      assert.equal(reply.status, 404);
    } finally {
      await t.close();
    }
  });

  it('POST /_sandbox/reset empties the store; with {"seed": "demo"} it reseeds', async () => {
    const t = await TestSandbox.start({ seed: 'demo' });
    try {
      const reset = await t.admin('POST', '/reset', {});
      assert.equal(reset.reset, true);
      const gone = await call(`${t.url}/jwt`, {
        body: {
          private_key: t.sandbox.demoKeys!.company.private_key,
          secret_key: t.sandbox.demoKeys!.company.secret_key,
        },
      });
      assert.equal(gone.status, 401);
      const reseeded = await t.admin('POST', '/reset', { seed: 'demo' });
      assert.equal(reseeded.demo_keys.company.private_key, t.sandbox.demoKeys!.company.private_key);
      const api = t.api(await t.token(reseeded.demo_keys.company));
      assert.ok((await api('/campaigns')).body.length > 0);
    } finally {
      await t.close();
    }
  });

  it('a token issued before a reset stops working after it', async () => {
    const w = await world();
    try {
      await w.t.admin('POST', '/reset', {});
      assert.equal((await w.company('/channels')).body.error.code, 'invalid_token');
    } finally {
      await w.t.close();
    }
  });

  it('PUT /_sandbox/clock moves now, and null brings real time back', async () => {
    const t = await TestSandbox.start();
    try {
      const moved = await t.admin('PUT', '/clock', { now: '2030-01-01T00:00:00Z' });
      assert.match(moved.now, /^2030-01-01T00:00:0/);
      assert.equal(moved.real_time, false);
      const back = await t.admin('PUT', '/clock', { now: null });
      assert.equal(back.real_time, true);
    } finally {
      await t.close();
    }
  });

  it('admin bodies are validated like API bodies: 400 with the field path', async () => {
    const t = await TestSandbox.start();
    try {
      const reply = await call(`${t.sandbox.origin}/_sandbox/companies`, { body: { name: '' } });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.details[0].field, 'name');
      const client = await call(`${t.sandbox.origin}/_sandbox/clients`, { body: { company_id: 999 } });
      assert.equal(client.status, 422);
    } finally {
      await t.close();
    }
  });

  it('PUT /_sandbox/applications/:id/status answers 404 for an unknown application', async () => {
    const t = await TestSandbox.start();
    try {
      assert.equal(
        (await call(`${t.sandbox.origin}/_sandbox/applications/77/status`, { method: 'PUT', body: { value: 'x' } }))
          .status,
        404,
      );
    } finally {
      await t.close();
    }
  });
});
