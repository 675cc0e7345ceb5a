// The service's rate limit over real HTTP: reached and waited out (403
// rate_limited with Retry-After), and kept under by the client's own budget.
// The sandbox counts requests over a real 60 s window, so this file waits
// about a minute, its two tests side by side: it is the only slow one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWorld } from './world.ts';
import type { World } from './world.ts';

const SERVER_LIMIT = 4;
let world: World;

before(async () => {
  world = await startWorld({ rateLimitPerMinute: SERVER_LIMIT });
});

after(() => world.close());

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
    while (client.budget.available('high') > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const catalogue = client.campaigns.list({ status: ['online'] });
    const application = client.applicants.create({ email: 'waited@example.com' });

    const [page, , created] = await Promise.all([blocked, catalogue, application]);
    assert.ok(Array.isArray(page.data));
    assert.equal(created.email, 'waited@example.com');
    // After the wait the application goes first, before the read that met the limit and the catalogue read.
    // (On a slow machine the server's window may not be quite empty yet and answer 403 again; the client waits again.)
    assert.equal(sent[SERVER_LIMIT + 1], 'POST /v2/applicants');
    assert.deepEqual(log.filter((line) => !line.endsWith(' 403')).slice(SERVER_LIMIT).sort(), ['GET /v2/campaigns 200', 'GET /v2/campaigns 200', 'POST /v2/applicants 201']);
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
    while (client.budget.waiting === 0 && !settled) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(client.budget.waiting, 1, 'the call beyond the budget waits for a token');
    await beyond;
    assert.deepEqual(statuses, Array.from({ length: SERVER_LIMIT }, () => 200));
  });
});
