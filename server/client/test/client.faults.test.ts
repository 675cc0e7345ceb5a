// Failures injected through the sandbox's fault surface (POST /_sandbox/faults),
// over real HTTP: reads are repeated, creates only when they surely did not
// reach the server.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ConnectionError, NotFoundError, ServerError, TimeoutError } from '../index.ts';
import type { Campaign, RecruitmentClient } from '../index.ts';
import { startWorld } from './world.ts';
import type { World } from './world.ts';

let world: World;
let campaign: Campaign;
/** Requests the client sent under /v2, other than POST /jwt. */
let sent: string[] = [];
let client: RecruitmentClient;

const countingFetch: typeof fetch = (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  if (!request.url.endsWith('/v2/jwt')) sent.push(`${request.method} ${new URL(request.url).pathname}`);
  return fetch(request);
};

before(async () => {
  world = await startWorld();
  campaign = await world.client(world.companyKeys).campaigns.create({ manage_name: 'Support engineer' });
  await world.admin('PATCH', `/campaigns/${campaign.id}`, { status: 'online' });
});

after(() => world.close());

beforeEach(async () => {
  client = world.client(world.companyKeys, {
    fetch: countingFetch,
    retry: { limit: 3, baseDelayMs: 5, maxDelayMs: 20 },
  });
  // Get the token first: faults apply to every request under /v2, POST /jwt included.
  await client.channels.list();
  sent = [];
});

function faults(body: { count: number; status?: number; delay_ms?: number; drop?: boolean }) {
  return world.admin('POST', '/faults', body);
}

describe('reads', () => {
  it('when the server answers 503 twice, repeats the read and returns the campaign', async () => {
    await faults({ count: 2, status: 503 });
    const read = await client.campaigns.get(campaign.id);
    assert.equal(read.id, campaign.id);
    assert.equal(sent.length, 3);
  });

  it('when the connection is dropped twice, repeats the read and returns the campaign', async () => {
    await faults({ count: 2, drop: true });
    const read = await client.campaigns.get(campaign.id);
    assert.equal(read.id, campaign.id);
    assert.equal(sent.length, 3);
  });

  it('when every attempt fails, gives up after retry.limit retries with ServerError', async () => {
    await faults({ count: 10, status: 500 });
    await assert.rejects(
      client.campaigns.get(campaign.id),
      (error: unknown) => error instanceof ServerError && error.status === 500 && error.attempts === 4,
    );
    assert.equal(sent.length, 4);
    await faults({ count: 0 });
  });

  it('when an answer takes longer than the timeout, repeats the read', async () => {
    // A generous timeout, so that the second attempt is never slow enough to time out on a busy machine.
    const slow = world.client(world.companyKeys, {
      fetch: countingFetch,
      timeout: 1_000,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
    });
    await slow.channels.list();
    sent = [];
    await faults({ count: 1, delay_ms: 2_000 });
    const read = await slow.campaigns.get(campaign.id);
    assert.equal(read.id, campaign.id);
    assert.equal(sent.length, 2);
    await delayedRequestsDone(1_100);
  });
});

describe('creates', () => {
  it('when the connection is dropped, does not repeat the create and says it may have reached the server', async () => {
    await faults({ count: 1, drop: true });
    await assert.rejects(client.applicants.create({ email: 'dropped@example.com' }), (error: unknown) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.mayHaveReachedServer, true);
      assert.equal(error.attempts, 1);
      return true;
    });
    assert.deepEqual(sent, ['POST /v2/applicants']);
  });

  it('when the server answers 500, does not repeat the create', async () => {
    await faults({ count: 1, status: 500 });
    await assert.rejects(
      client.applications.create({ campaign_id: campaign.id, applicant_email: 'x@example.com' }),
      ServerError,
    );
    assert.deepEqual(sent, ['POST /v2/applications']);
  });

  it('when a create times out, does not repeat it (the server may be creating it)', async () => {
    const slow = world.client(world.companyKeys, { fetch: countingFetch, timeout: 150 });
    await slow.channels.list();
    sent = [];
    await faults({ count: 1, delay_ms: 400 });
    await assert.rejects(slow.applicants.create({ email: 'slow@example.com' }), TimeoutError);
    assert.deepEqual(sent, ['POST /v2/applicants']);
    await delayedRequestsDone(400);
  });

  it('when the caller says the create is safe to repeat, repeats it after a 503', async () => {
    await faults({ count: 1, status: 503 });
    const created = await client.applicants.create({ email: 'safe@example.com' }, { safeToRetry: true });
    assert.equal(created.email, 'safe@example.com');
    assert.deepEqual(sent, ['POST /v2/applicants', 'POST /v2/applicants']);
  });

  it('when the connection is refused, repeats the create (it cannot have reached the server) and then throws ConnectionError', async () => {
    const port = await closedPort();
    // A client whose /v2 root points at a port nobody listens on; its token comes from the sandbox through the injected fetch.
    const tokenUrl = `${world.sandbox.url}/jwt`;
    const attempts: string[] = [];
    const elsewhere = world.client(world.companyKeys, {
      baseUrl: `http://127.0.0.1:${port}/v2`,
      retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 20 },
      fetch: (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        if (request.url.endsWith('/v2/jwt')) return fetch(new Request(tokenUrl, request));
        attempts.push(request.url);
        return fetch(request);
      },
    });
    await assert.rejects(elsewhere.applicants.create({ email: 'refused@example.com' }), (error: unknown) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.mayHaveReachedServer, false);
      assert.equal(error.attempts, 3);
      return true;
    });
    assert.equal(attempts.length, 3);
    await assert.rejects(client.applicants.get('refused@example.com'), NotFoundError);
  });
});

/** The sandbox goes on handling a delayed request after the client gave up; let it finish before the sandbox closes. */
function delayedRequestsDone(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
