// The service's rate limit over real HTTP: reached and waited out (403
// rate_limited with Retry-After), and kept under by the client's own budget.
// The sandbox here counts over a 2 s window instead of the service's minute
// (rateLimitWindowMs), so waiting the limit out takes seconds, not a minute;
// the client's budget is given the same window plus the slack it keeps by default.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/index.ts';
import type { RunningSandbox } from '../../sandbox/index.ts';
import { createClient } from '../index.ts';
import type { ClientOptions, RecruitmentClient } from '../index.ts';
import type { KeyPair } from './world.ts';
import { eventually } from '../../test/poll.ts';
import { admin } from '../../test/sandbox-admin.ts';

const SERVER_LIMIT = 4;
const SERVER_WINDOW_MS = 2_000;
/** The client's window: the server's plus 1 s of slack, as its default (62 s) adds slack to the service's minute. */
const CLIENT_WINDOW_MS = SERVER_WINDOW_MS + 1_000;

interface World {
  sandbox: RunningSandbox;
  /** A company API client with every scope. */
  companyKeys: KeyPair;
  /** A company API client with campaigns_read only. */
  readOnlyKeys: KeyPair;
  client(keys: KeyPair, options: Partial<ClientOptions>): RecruitmentClient;
}
let world: World;

before(async () => {
  const sandbox = await startSandbox({
    admin: true,
    rateLimitPerMinute: SERVER_LIMIT,
    rateLimitWindowMs: SERVER_WINDOW_MS,
  });
  const company = await admin<{ id: number }>(sandbox, 'POST', '/companies', { name: 'Acme' });
  world = {
    sandbox,
    companyKeys: await admin<KeyPair>(sandbox, 'POST', '/clients', { company_id: company.id }),
    readOnlyKeys: await admin<KeyPair>(sandbox, 'POST', '/clients', {
      company_id: company.id,
      scopes: ['campaigns_read'],
    }),
    client: (keys, options) =>
      createClient({
        baseUrl: sandbox.url,
        privateKey: keys.private_key,
        secretKey: keys.secret_key,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        ...options,
        budget: { windowMs: CLIENT_WINDOW_MS, ...options.budget },
      }),
  };
});

after(() => world.sandbox.close());

describe('rate limit', { concurrency: true }, () => {
  it('when the server answers 403 rate_limited, waits for Retry-After, sends the waiting application before the catalogue reads, and succeeds', async () => {
    /** Requests in the order they were sent, and answers as they came. */
    const sent: string[] = [];
    const log: string[] = [];
    // A client whose own budget is larger than the server's limit, as when another process shares the API client.
    const client = world.client(world.companyKeys, {
      budget: { perMinute: 1_000 },
      fetch: async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        const path = new URL(request.url).pathname;
        if (path !== '/v2/jwt') sent.push(`${request.method} ${path}`);
        const response = await fetch(request);
        if (path !== '/v2/jwt') log.push(`${request.method} ${path} ${response.status}`);
        return response;
      },
    });
    for (let i = 0; i < SERVER_LIMIT; i++) await client.channels.list();

    // The next read meets the limit; while it waits, a catalogue read and an application queue behind it.
    const blocked = client.campaigns.list();
    // Once the 403 came back, the client's budget is paused for every caller.
    await eventually(() => client.budget.available('high') <= 0, {
      timeoutMs: 10_000,
      what: 'the budget to pause',
      intervalMs: 10,
    });
    const catalogue = client.campaigns.list({ status: ['online'] });
    const application = client.applicants.create({ email: 'waited@example.com' });

    const [page, , created] = await Promise.all([blocked, catalogue, application]);
    // The read that met the limit answered in the end: this company's (empty) list, with its pagination.
    assert.deepEqual(page, {
      data: [],
      pagination: { 'total-count': 0, 'current-page': 1, 'next-page': null, 'last-page': 1 },
    });
    assert.equal(created.email, 'waited@example.com');
    // After the wait the application goes first, before the read that met the limit and the catalogue read.
    // (On a slow machine the server's window may not be quite empty yet and answer 403 again; the client waits again.)
    assert.equal(sent[SERVER_LIMIT + 1], 'POST /v2/applicants');
    assert.deepEqual(
      log
        .filter((line) => !line.endsWith(' 403'))
        .slice(SERVER_LIMIT)
        .sort(),
      ['GET /v2/campaigns 200', 'GET /v2/campaigns 200', 'POST /v2/applicants 201'],
    );
  });

  it('when the budget matches the server limit, the request beyond it waits for a token and never meets a 403', async () => {
    const statuses: number[] = [];
    // Another API client: the server counts per key pair.
    const client = world.client(world.readOnlyKeys, {
      budget: { perMinute: SERVER_LIMIT, reservedForHigh: 0 },
      fetch: async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        const response = await fetch(request);
        if (!request.url.endsWith('/v2/jwt')) statuses.push(response.status);
        return response;
      },
    });
    // POST /jwt took one token of the budget too.
    for (let i = 0; i < SERVER_LIMIT - 1; i++) await client.channels.list();
    assert.equal(client.budget.available('low'), 0);
    const beyond = client.channels.list();
    let settled = false;
    beyond.then(
      () => (settled = true),
      () => (settled = true),
    );
    // The call is checked against the contract first; on a busy machine that takes a moment.
    await eventually(() => client.budget.waiting > 0 || settled, {
      timeoutMs: 10_000,
      what: 'the call beyond the budget to wait or settle',
      intervalMs: 5,
    });
    assert.equal(client.budget.waiting, 1, 'the call beyond the budget waits for a token');
    await beyond;
    assert.deepEqual(
      statuses,
      Array.from({ length: SERVER_LIMIT }, () => 200),
    );
  });
});
