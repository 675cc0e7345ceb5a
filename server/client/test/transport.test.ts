// Edge cases of auth, retries, timeouts and contract checks that a real
// server can't produce on demand, with an injected fetch. The same behaviours
// are proven over real HTTP against the sandbox in client.*.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  SchemaError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../index.ts';
import { TokenCache } from '../auth.ts';
import { RequestBudget } from '../budget.ts';
import { parseRetryAfter } from '../errors.ts';
import { Transport } from '../transport.ts';
import { apiError, application, campaign, fakeApi, json, networkError, pagination } from './fake-api.ts';

const applicationBody = { campaign_id: 1, applicant_email: 'ada@example.com' };

/** An answer that never comes: rejects with the signal's reason once the request is aborted (at once if it already is). */
function untilAborted(request: { signal: AbortSignal }): Promise<Response> {
  return new Promise<Response>((_resolve, reject) => {
    if (request.signal.aborted) reject(request.signal.reason as Error);
    request.signal.addEventListener('abort', () => reject(request.signal.reason as Error));
  });
}

describe('auth', () => {
  it('when the token is refused with 401, renews it once and repeats the call', async () => {
    const api = fakeApi((request) =>
      request.headers.get('authorization') === 'Bearer token-1' ? apiError(401, 'token_expired') : json(campaign(7)),
    );
    const result = await api.client.campaigns.get(7);
    assert.equal(result.id, 7);
    assert.equal(api.tokenRequests, 2);
    assert.deepEqual(api.tokensUsed, ['Bearer token-1', 'Bearer token-2']);
  });

  it('when the renewed token is refused too, throws AuthenticationError instead of looping', async () => {
    const api = fakeApi(() => apiError(401, 'invalid_token', 'The token signature is not valid'));
    await assert.rejects(api.client.campaigns.get(7), (error: unknown) => {
      assert.ok(error instanceof AuthenticationError);
      assert.equal(error.status, 401);
      assert.equal(error.code, 'invalid_token');
      assert.match(error.message, /GET http:\/\/api\.test\/v2\/campaigns\/7 answered 401 invalid_token/);
      return true;
    });
    assert.equal(api.tokenRequests, 2);
  });

  it('when ten calls start together, they share one POST /jwt', async () => {
    const api = fakeApi(() => json(campaign(1)));
    await Promise.all(Array.from({ length: 10 }, () => api.client.campaigns.get(1)));
    assert.equal(api.tokenRequests, 1);
  });

  it('when the token nears its expiry on the client clock, renews it before the call', async () => {
    let now = Date.parse('2026-06-01T08:00:00Z');
    const clock = { now: () => now };
    const api = fakeApi(() => json(campaign(1)), { clock });
    await api.client.campaigns.get(1);
    now += 4 * 3600 * 1000 - 60_000; // one minute before expiry, inside the 5-minute margin
    await api.client.campaigns.get(1);
    assert.equal(api.tokenRequests, 2);
    assert.deepEqual(api.tokensUsed, ['Bearer token-1', 'Bearer token-2']);
  });

  it('authenticates with the token cache it was built with, which no later assignment replaces', async () => {
    const cacheOf = (token: string) =>
      new TokenCache({
        clock: Date,
        fetchToken: async () => ({ token, expires_at: new Date(Date.now() + 3600_000).toISOString() }),
      });
    const seen: (string | null)[] = [];
    const transport = new Transport({
      baseUrl: 'http://api.test/v2',
      fetch: async (input) => {
        seen.push(new Request(input).headers.get('authorization'));
        return json({});
      },
      streamedBodies: 'fetch',
      onAttempt: undefined,
      clock: Date,
      retry: { limit: 0, baseDelayMs: 1, maxDelayMs: 1, maxRateLimitWaits: 0, maxRetryAfterMs: 1 },
      timeout: 1_000,
      budget: new RequestBudget({ clock: Date }),
      random: Math.random,
      tokens: cacheOf('built-with'),
    });
    Object.assign(transport, { tokens: cacheOf('assigned-later') });
    await transport.send({
      method: 'GET',
      path: 'channels',
      kind: 'read',
      auth: true,
      read: (body) => body,
      options: undefined,
    });
    assert.deepEqual(seen, ['Bearer built-with']);
  });

  it('when the server clock is far behind, does not renew the token on every call', async () => {
    const api = fakeApi(() => json(campaign(1)), { tokenLifetimeMs: -365 * 24 * 3600 * 1000 });
    await api.client.campaigns.get(1);
    await api.client.campaigns.get(1);
    assert.equal(api.tokenRequests, 1);
  });
});

describe('retries', () => {
  it('when a read meets a 5xx, repeats it with backoff and returns the answer', async () => {
    const api = fakeApi((_request, call) => (call < 3 ? apiError(503, 'service_unavailable') : json(campaign(1))));
    const result = await api.client.campaigns.get(1);
    assert.equal(result.id, 1);
    assert.equal(api.requests.length, 3);
  });

  it('when a read keeps failing, gives up after retry.limit retries with a ServerError', async () => {
    const api = fakeApi(() => apiError(500, 'server_error'), { retry: { limit: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    await assert.rejects(
      api.client.campaigns.get(1),
      (error: unknown) => error instanceof ServerError && error.attempts === 3,
    );
    assert.equal(api.requests.length, 3);
  });

  it('when a create meets a 5xx, does not repeat it: the server may have created the record', async () => {
    const api = fakeApi(() => apiError(500, 'server_error'));
    await assert.rejects(api.client.applications.create(applicationBody), ServerError);
    assert.equal(api.requests.length, 1);
  });

  it('when a create meets a reset connection, does not repeat it and says it may have reached the server', async () => {
    const api = fakeApi(() => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      });
    });
    await assert.rejects(api.client.applications.create(applicationBody), (error: unknown) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.mayHaveReachedServer, true);
      assert.ok(error.cause instanceof TypeError);
      return true;
    });
    assert.equal(api.requests.length, 1);
  });

  it('when a create is refused before connecting (ECONNREFUSED), repeats it', async () => {
    const api = fakeApi((_request, call) => {
      if (call === 1) throw networkError('ECONNREFUSED');
      return json(application(5), 201);
    });
    const created = await api.client.applications.create(applicationBody);
    assert.equal(created.id, 5);
    assert.equal(api.requests.length, 2);
  });

  it('when the host is unknown (ENOTFOUND) every time, throws ConnectionError saying nothing was sent', async () => {
    const api = fakeApi(
      () => {
        throw networkError('ENOTFOUND');
      },
      { retry: { limit: 1, baseDelayMs: 1, maxDelayMs: 1 } },
    );
    await assert.rejects(api.client.applications.create(applicationBody), (error: unknown) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.mayHaveReachedServer, false);
      assert.match(error.message, /not sent/);
      return true;
    });
    assert.equal(api.requests.length, 2);
  });

  it('when the caller says a create is safe to repeat, repeats it after a 5xx', async () => {
    const api = fakeApi((_request, call) => (call === 1 ? apiError(502, 'bad_gateway') : json(application(9), 201)));
    const created = await api.client.applications.create(applicationBody, { safeToRetry: true });
    assert.equal(created.id, 9);
    assert.equal(api.requests.length, 2);
  });

  it('when rate limited, waits for Retry-After and repeats, creates included', async () => {
    const api = fakeApi((_request, call) =>
      call === 1 ? apiError(403, 'rate_limited', 'slow down', [], { 'retry-after': '0' }) : json(application(3), 201),
    );
    const created = await api.client.applications.create(applicationBody);
    assert.equal(created.id, 3);
    assert.equal(api.requests.length, 2);
  });

  it('when rate limited more times than retry.maxRateLimitWaits, throws RateLimitError with retryAfterMs', async () => {
    const api = fakeApi(() => apiError(403, 'rate_limited', 'slow down', [], { 'retry-after': '0' }), {
      retry: { maxRateLimitWaits: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    await assert.rejects(
      api.client.campaigns.get(1),
      (error: unknown) => error instanceof RateLimitError && error.retryAfterMs === 0,
    );
    assert.equal(api.requests.length, 3);
  });

  // Without the cap these would wait a day; the test's own timeout is only a guard.
  it(
    "when Retry-After asks for longer than retry.maxRetryAfterMs, waits only that long, and the error keeps the server's ask",
    { timeout: 20_000 },
    async () => {
      const api = fakeApi(() => apiError(403, 'rate_limited', 'slow down', [], { 'retry-after': '86400' }), {
        retry: { maxRateLimitWaits: 1, maxRetryAfterMs: 20 },
      });
      await assert.rejects(
        api.client.campaigns.get(1),
        (error: unknown) => error instanceof RateLimitError && error.retryAfterMs === 86_400_000,
      );
      assert.equal(api.requests.length, 2, 'waited once (20 ms), then repeated');
    },
  );

  it('caps the Retry-After of a 5xx the same way before retrying a read', { timeout: 20_000 }, async () => {
    const api = fakeApi(
      (_request, call) =>
        call === 1 ? apiError(503, 'maintenance', 'down', [], { 'retry-after': '3600' }) : json(campaign(5)),
      {
        retry: { maxRetryAfterMs: 20 },
      },
    );
    assert.equal((await api.client.campaigns.get(5)).id, 5);
    assert.equal(api.requests.length, 2);
  });

  it('when an attempt gets no answer within the timeout, throws TimeoutError after retrying the read', async () => {
    const api = fakeApi(untilAborted, { timeout: 20, retry: { limit: 1, baseDelayMs: 1, maxDelayMs: 1 } });
    await assert.rejects(
      api.client.campaigns.get(1),
      (error: unknown) => error instanceof TimeoutError && error.attempts === 2,
    );
    assert.equal(api.requests.length, 2);
  });

  it('when a create times out, does not repeat it', async () => {
    const api = fakeApi(untilAborted, { timeout: 20 });
    await assert.rejects(api.client.applications.create(applicationBody), TimeoutError);
    assert.equal(api.requests.length, 1);
  });

  it("when the caller aborts, rejects with the signal's reason and does not retry", async () => {
    const controller = new AbortController();
    const api = fakeApi((request) => {
      controller.abort(new Error('caller gave up'));
      return untilAborted(request);
    });
    await assert.rejects(api.client.campaigns.get(1, {}, { signal: controller.signal }), /caller gave up/);
    assert.equal(api.requests.length, 1);
  });

  it('when a 404 comes back, throws NotFoundError at once', async () => {
    const api = fakeApi(() => apiError(404, 'not_found', 'Campaign 1 was not found.'));
    await assert.rejects(api.client.campaigns.get(1), NotFoundError);
    assert.equal(api.requests.length, 1);
  });

  it('when a gateway answers 502 with HTML, throws ServerError with an http_502 code and the text', async () => {
    const api = fakeApi(
      () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      {
        retry: { limit: 0 },
      },
    );
    await assert.rejects(
      api.client.campaigns.get(1),
      (error: unknown) =>
        error instanceof ServerError && error.code === 'http_502' && /Bad gateway/.test(error.message),
    );
  });
});

describe('contract checks', () => {
  it('when a record breaks the contract, throws SchemaError naming the field', async () => {
    const api = fakeApi(() =>
      json([campaign(1), campaign(2, { job_type: 'permanent contract' })], 200, pagination(1, 1, 2)),
    );
    await assert.rejects(api.client.campaigns.list(), (error: unknown) => {
      assert.ok(error instanceof SchemaError);
      assert.deepEqual(
        error.details.map((d) => d.field),
        ['1.job_type'],
      );
      assert.match(error.message, /GET http:\/\/api\.test\/v2\/campaigns/);
      return true;
    });
  });

  it('when the caller passes onInvalidRecord, skips a record that breaks the contract, reports it by id and index, and keeps the others of every page', async () => {
    const pages: Record<string, unknown[]> = {
      '1': [campaign(4), campaign(3, { job_type: 'permanent contract' })],
      '2': [{ name: 'no id' }, campaign(1)],
    };
    const api = fakeApi((request) => {
      const page = new URL(request.url).searchParams.get('page') ?? '1';
      return json(pages[page], 200, pagination(Number(page), 2, 4));
    });
    const skipped: { index: number; id: number | undefined; fields: string[] }[] = [];
    const ids: number[] = [];
    for await (const c of api.client.campaigns.listAll(
      {},
      { onInvalidRecord: (r) => skipped.push({ index: r.index, id: r.id, fields: r.details.map((d) => d.field) }) },
    )) {
      ids.push(c.id);
    }
    assert.deepEqual(ids, [4, 1]);
    assert.deepEqual(skipped[0], { index: 1, id: 3, fields: ['1.job_type'] });
    assert.equal(skipped[1]?.index, 0);
    assert.equal(skipped[1]?.id, undefined);
    assert.equal(skipped.length, 2);
  });

  it('with onInvalidRecord, a page without X-Pagination still throws SchemaError', async () => {
    const api = fakeApi(() => json([campaign(1)]));
    await assert.rejects(api.client.campaigns.list({}, { onInvalidRecord: () => undefined }), SchemaError);
  });

  it('when a list comes without X-Pagination, throws SchemaError', async () => {
    const api = fakeApi(() => json([campaign(1)]));
    await assert.rejects(
      api.client.campaigns.list(),
      (error: unknown) => error instanceof SchemaError && /X-Pagination/.test(error.message),
    );
  });

  it('when an embed asked for is missing from the answer, throws SchemaError naming it', async () => {
    const api = fakeApi(() => json(campaign(1)));
    await assert.rejects(
      api.client.campaigns.get(1, { embed: ['address'] }),
      (error: unknown) => error instanceof SchemaError && error.details[0]?.field === 'address',
    );
  });

  it('when the answer is not JSON, throws SchemaError', async () => {
    const api = fakeApi(() => new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    await assert.rejects(
      api.client.channels.list(),
      (error: unknown) => error instanceof SchemaError && /not JSON/.test(error.message),
    );
  });

  it('when next-page does not move forward, listAll stops with SchemaError instead of looping', async () => {
    const api = fakeApi(() =>
      json([campaign(1)], 200, {
        'x-pagination': JSON.stringify({ 'total-count': 2, 'current-page': 1, 'next-page': 1, 'last-page': 2 }),
      }),
    );
    await assert.rejects(async () => {
      for await (const _ of api.client.campaigns.listAll()) void _;
    }, SchemaError);
  });

  it('when a record moves to the next page during the walk, listAll yields it once', async () => {
    // Page 2 repeats campaign 2, as happens when a new campaign is created between the two requests.
    const pages: Record<string, unknown[]> = { '1': [campaign(3), campaign(2)], '2': [campaign(2), campaign(1)] };
    const api = fakeApi((request) => {
      const page = new URL(request.url).searchParams.get('page') ?? '1';
      return json(pages[page], 200, pagination(Number(page), 2, 4));
    });
    const ids: number[] = [];
    for await (const record of api.client.campaigns.listAll({ per_page: 2 })) ids.push(record.id);
    assert.deepEqual(ids, [3, 2, 1]);
  });

  it('when a query breaks the contract, throws ValidationError without sending anything', async () => {
    const api = fakeApi(() => json([]));
    await assert.rejects(api.client.campaigns.list({ per_page: 500 }), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.status, undefined);
      assert.equal(error.details[0]?.field, 'per_page');
      return true;
    });
    assert.equal(api.requests.length, 0);
    assert.equal(api.tokenRequests, 0);
  });

  it('when a create body breaks the contract, throws ValidationError naming the field without sending', async () => {
    const api = fakeApi(() => json({}));
    await assert.rejects(
      api.client.campaigns.create({ manage_name: 'Dev', job_type: 'permanent contract' as 'Permanent contract' }),
      (error: unknown) => error instanceof ValidationError && error.details[0]?.field === 'campaign.job_type',
    );
    assert.equal(api.requests.length, 0);
  });

  it('when an id is not a positive whole number, refuses it before sending', async () => {
    const api = fakeApi(() => json({}));
    await assert.rejects(api.client.campaigns.get(Number.NaN), ValidationError);
    assert.equal(api.requests.length, 0);
  });
});

describe('requests', () => {
  it('sends nested filters in bracket notation and lists comma-joined', async () => {
    const api = fakeApi(() => json([application(1, { status_history: [] })], 200, pagination(1, 1, 1)));
    await api.client.applications.list({
      embed: ['status_history:hired'],
      status: { value: 'hired', date: { gte: '2024-01-01', lte: '2024-12-31' } },
      is_complete: true,
    });
    const url = new URL(api.requests[0]!.url);
    assert.equal(url.searchParams.get('status[value]'), 'hired');
    assert.equal(url.searchParams.get('status[date][gte]'), '2024-01-01');
    assert.equal(url.searchParams.get('status[date][lte]'), '2024-12-31');
    assert.equal(url.searchParams.get('embed'), 'status_history:hired');
    assert.equal(url.searchParams.get('is_complete'), 'true');
  });

  it('sends an email address as the applicant id, encoded', async () => {
    const api = fakeApi(() => apiError(404, 'not_found'));
    await assert.rejects(api.client.applicants.get('ada+jobs@example.com'), NotFoundError);
    assert.equal(new URL(api.requests[0]!.url).pathname, '/v2/applicants/ada%2Bjobs%40example.com');
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('2026-06-01T08:00:00Z');
    assert.equal(parseRetryAfter('30', now), 30_000);
    assert.equal(parseRetryAfter('Mon, 01 Jun 2026 08:00:45 GMT', now), 45_000);
    assert.equal(parseRetryAfter('Mon, 01 Jun 2026 07:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });
});
