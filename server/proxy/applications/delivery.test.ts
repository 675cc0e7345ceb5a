import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SchemaError,
  ServerError,
  StreamedFile,
  TimeoutError,
  ValidationError,
} from '../../client/index.ts';
import type { ApiErrorInit } from '../../client/index.ts';
import { attemptDelivery, classify } from './delivery.ts';
import { backoffMs } from './delivery-worker.ts';
import type { DeliveryClient, DeliveryOutbox } from './delivery.ts';
import { deliveringRow, refusedByService } from './delivery.test-support.ts';
import { NO_CAMPAIGN, ResumeMissingError } from '../storage/outbox/application-store.ts';
import type { OutboxRow } from '../storage/outbox/application-store.ts';

const RESUME = Buffer.from('%PDF-1.4');
/** The outbox's reader of stored resumes: this one holds RESUME for r1. */
/** The outbox an attempt reads: r1's resume, and no application recorded by any row. */
const outbox: DeliveryOutbox = {
  openResume: async (reference: string) =>
    reference === 'r1'
      ? (async function* () {
          yield RESUME;
        })()
      : undefined,
  recordedApplication: async () => undefined,
};

/** The outbox above, recording the references whose resume it opens. */
function countedOutbox(): { outbox: DeliveryOutbox; opened: string[] } {
  const opened: string[] = [];
  const openResume = async (reference: string) => {
    opened.push(reference);
    return outbox.openResume(reference);
  };
  return { outbox: { ...outbox, openResume }, opened };
}

/** A body with its streamed resume read out as `{ streamed: text, mime_type }`, to compare whole. */
async function readBody(body: unknown): Promise<unknown> {
  if (body instanceof StreamedFile) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of body.open()) chunks.push(chunk);
    return { streamed: Buffer.concat(chunks).toString(), size: body.size, mime_type: body.mime_type };
  }
  if (Array.isArray(body)) return Promise.all(body.map(readBody));
  if (body !== null && typeof body === 'object')
    return Object.fromEntries(await Promise.all(Object.entries(body).map(async ([k, v]) => [k, await readBody(v)])));
  return body;
}

/** Row r1 with RESUME, in its attempt number `attempts`. */
const row = (attempts: number) => deliveringRow({ attempts, resume_bytes: RESUME.length, resume_type: 'pdf' });

/** Row r1 to company 3 with no offer (campaign 0), RESUME stored, in its attempt number `attempts`. */
const spontaneous = (attempts: number, overrides: Partial<OutboxRow> = {}) =>
  deliveringRow({
    attempts,
    campaign_id: NO_CAMPAIGN,
    resume_bytes: RESUME.length,
    resume_type: 'pdf',
    payload: { applicant: { email: 'ada@example.org' } },
    ...overrides,
  });

const where = { method: 'POST', url: 'http://upstream/v2/x' };
/** An error as the client throws it for a call at `where`; its message, which no test here reads, left empty. */
function clientError<Init extends ApiErrorInit>(
  Kind: new (init: Init) => ApiError,
  init: Omit<Init, 'method' | 'url' | 'message'>,
): ApiError {
  return new Kind({ ...where, message: '', ...init } as Init);
}
const conflict = (code: string) =>
  new ConflictError({ ...where, status: 409, code, message: 'exists', existingId: undefined });

/** createApplicant's answer when the candidate is already known to the service. */
const applicantExists = () => {
  throw conflict('applicant_exists');
};

/** The createApplication body for row(n) of an existing applicant, its resume read out by readBody. */
const APPLICATION_WITH_RESUME = {
  campaign_id: 12,
  applicant_email: 'ada@example.org',
  application: { resume: { streamed: '%PDF-1.4', size: 8, mime_type: 'pdf' }, comments: [{ content: 'Hello' }] },
};

/** A client whose two calls answer from the given functions, recording the bodies. */
function fakeClient(
  createApplicant: () => unknown,
  createApplication: () => unknown,
  pages: { data: unknown[]; next: number | null }[] = [],
) {
  const calls: { endpoint: string; body: unknown }[] = [];
  const client = {
    jobboards: {
      createApplicant: async (body: unknown) => {
        calls.push({ endpoint: 'jobboards/applicants', body });
        return createApplicant();
      },
    },
    applications: {
      create: async (body: unknown) => {
        calls.push({ endpoint: 'applications', body });
        return createApplication();
      },
      list: async (query: { page: number }) => {
        calls.push({ endpoint: 'GET applications', body: query });
        const page = pages[query.page - 1] ?? { data: [], next: null };
        return { data: page.data, pagination: { 'next-page': page.next } };
      },
    },
  } as unknown as DeliveryClient;
  return { client, calls };
}

describe('attemptDelivery', () => {
  it("creates the applicant for the campaign's company with the stored resume streamed and the cover letter as a comment", async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [{ id: 9, campaign_id: 12 }] }),
      () => assert.fail('not called'),
    );
    const result = await attemptDelivery(row(1), client, 1000, outbox);
    // The fake's assert.fail would be taken for an upstream failure: the calls say what was called.
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['jobboards/applicants'],
    );
    assert.deepEqual(result, { kind: 'delivered', outcome: 'created_applicant', applicantId: 5, applicationId: 9 });
    assert.deepEqual(await readBody(calls[0]?.body), {
      company_id: 3,
      applicant: {
        email: 'ada@example.org',
        resume: { streamed: '%PDF-1.4', size: 8, mime_type: 'pdf' },
        applications: [{ campaign_id: 12, comments: [{ content: 'Hello' }] }],
      },
    });
  });

  it('when the applicant exists, creates the application with applicant_email, the resume and the comment', async () => {
    const { client, calls } = fakeClient(applicantExists, () => ({ id: 11, applicant_id: 5 }));
    const result = await attemptDelivery(row(1), client, 1000, outbox);
    assert.deepEqual(result, { kind: 'delivered', outcome: 'created_application', applicantId: 5, applicationId: 11 });
    assert.deepEqual(await readBody(calls[1]?.body), APPLICATION_WITH_RESUME);
  });

  it('when the store lost the resume, sends nothing and names it resume_missing, not a connection failure (to an offer or not)', async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 1, applications: [] }),
      () => ({ id: 2, applicant_id: 1 }),
    );
    const lost: DeliveryOutbox = {
      ...outbox,
      openResume: async (reference: string) => {
        throw new ResumeMissingError(reference, 'DATA_DIR/resumes/r1 is gone');
      },
    };
    for (const claimedRow of [row(1), spontaneous(1)])
      assert.deepEqual(await attemptDelivery(claimedRow, client, 1000, lost), {
        kind: 'resume_missing',
        error: 'resume_missing (DATA_DIR/resumes/r1 is gone)',
      });
    assert.deepEqual(calls, []);
  });

  it('on the first attempt, application_exists means the candidate already applied', async () => {
    const { client } = fakeClient(applicantExists, () => {
      throw conflict('application_exists');
    });
    assert.deepEqual(await attemptDelivery(row(1), client, 1000, outbox), { kind: 'already_applied' });
  });

  it('on a later attempt, application_exists means an earlier attempt delivered it', async () => {
    const { client } = fakeClient(applicantExists, () => {
      throw conflict('application_exists');
    });
    assert.deepEqual(await attemptDelivery(row(2), client, 1000, outbox), {
      kind: 'delivered',
      outcome: 'found_delivered',
    });
  });

  it('turns an upstream field refusal into form field errors', async () => {
    const refusal = refusedByService('invalid_request', [
      { field: 'applicant.phone_number', message: 'must be a phone number' },
    ]);
    const { client, calls } = fakeClient(
      () => {
        throw refusal;
      },
      () => assert.fail('not called'),
    );
    const result = await attemptDelivery(row(1), client, 1000, outbox);
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['jobboards/applicants'],
    );
    assert.equal(result.kind, 'rejected');
    assert.deepEqual(result.kind === 'rejected' ? result.errors.map((e) => [e.field, e.code]) : [], [
      ['phone_number', 'invalid_phone'],
    ]);
    assert.deepEqual(
      result.kind === 'rejected' ? result.errors.map((e) => e.message) : [],
      ['The recruitment service refused this value. Enter a valid phone number.'],
      'no upstream text',
    );
  });
});

describe('an attempt after one that may have reached the service (unconfirmed_send)', () => {
  const stored = Date.parse('2026-01-01T10:00:00Z');
  const unconfirmed: OutboxRow = { ...row(2), unconfirmed_send: 1, created_at: stored };
  const application = (id: number, email: string, minutesAfter: number) => ({
    id,
    applicant_id: id + 100,
    created_at: new Date(stored + minutesAfter * 60_000).toISOString(),
    applicant: { id: id + 100, email },
  });

  /** A client that lists `pages` and fails the test on any send. */
  const readsOnly = (pages: { data: unknown[]; next: number | null }[]) =>
    fakeClient(
      () => assert.fail('not sent'),
      () => assert.fail('not sent'),
      pages,
    );
  /** The attempt's result when it finds application(id) already delivered. */
  const foundDelivered = (id: number) => ({
    kind: 'delivered',
    outcome: 'found_delivered',
    applicantId: id + 100,
    applicationId: id,
  });

  it("finds the application the earlier attempt created among the board's for the campaign, and sends nothing", async () => {
    const pages = [
      { data: [application(31, 'grace@example.org', 3), application(30, 'ADA@example.org ', 1)], next: 2 },
    ];
    const { client, calls } = readsOnly(pages);
    assert.deepEqual(await attemptDelivery(unconfirmed, client, 1000, outbox), foundDelivered(30));
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['GET applications'],
    );
    assert.deepEqual(calls[0]?.body, { campaign_id: 12, embed: ['applicant'], sort: 'desc', per_page: 50, page: 1 });
  });

  it('reads pages until they are older than the row (less a clock skew), then sends', async () => {
    const pages = [
      { data: [application(41, 'grace@example.org', 2)], next: 2 },
      { data: [application(40, 'bob@example.org', -11)], next: 3 },
    ];
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [{ id: 9, campaign_id: 12 }] }),
      () => assert.fail('not called'),
      pages,
    );
    const result = await attemptDelivery(unconfirmed, client, 1000, outbox);
    assert.equal(result.kind, 'delivered');
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['GET applications', 'GET applications', 'jobboards/applicants'],
    );
  });

  it('reads on past an application made less than the clock skew (10 minutes) before the row, and stops at the last page or an empty one', async () => {
    const skew = [
      { data: [application(42, 'bob@example.org', -9.9)], next: 2 },
      { data: [application(43, 'ada@example.org', -9.5)], next: 3 },
    ];
    const found = readsOnly(skew);
    assert.deepEqual(await attemptDelivery(unconfirmed, found.client, 1000, outbox), foundDelivered(43));
    const lastPage = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => assert.fail('not called'),
      [
        { data: [application(44, 'bob@example.org', 1)], next: null },
        { data: [application(45, 'ada@example.org', 1)], next: null },
      ],
    );
    await attemptDelivery(unconfirmed, lastPage.client, 1000, outbox);
    assert.deepEqual(
      lastPage.calls.map((c) => c.endpoint),
      ['GET applications', 'jobboards/applicants'],
    );
    const empty = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => assert.fail('not called'),
      [
        { data: [], next: 2 },
        { data: [application(45, 'ada@example.org', 1)], next: null },
      ],
    );
    await attemptDelivery(unconfirmed, empty.client, 1000, outbox);
    assert.deepEqual(
      empty.calls.map((c) => c.endpoint),
      ['GET applications', 'jobboards/applicants'],
    );
  });

  it('reads on past an application made exactly the clock skew before the row', async () => {
    const pages = [
      { data: [application(46, 'bob@example.org', -10)], next: 2 },
      { data: [application(47, 'ada@example.org', -10)], next: null },
    ];
    const { client } = readsOnly(pages);
    assert.deepEqual(await attemptDelivery(unconfirmed, client, 1000, outbox), foundDelivered(47));
  });

  it('compares the addresses without the spaces around the one stored', async () => {
    const pages = [{ data: [application(48, 'ada@example.org', 1)], next: null }];
    const { client } = readsOnly(pages);
    const spaced: OutboxRow = { ...unconfirmed, payload: { applicant: { email: ' Ada@example.org ' } } };
    assert.deepEqual(await attemptDelivery(spaced, client, 1000, outbox), foundDelivered(48));
  });

  it("asks each page with the high priority and the attempt's timeout", async () => {
    const options: unknown[] = [];
    const { client } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    client.applications.list = (async (_query: unknown, opts: unknown) => {
      options.push(opts);
      return { data: [], pagination: { 'next-page': null } };
    }) as never;
    await attemptDelivery(unconfirmed, client, 1234, outbox);
    assert.deepEqual(options, [{ priority: 'high', timeout: 1234 }]);
  });

  for (const [what, failure] of [
    ['answers 503', clientError(ServerError, { status: 503, code: 'service_unavailable' })],
    [
      'refuses the connection',
      clientError(ConnectionError, { code: 'connection_failed', mayHaveReachedServer: false }),
    ],
  ] as const) {
    it(`sends nothing when the service cannot be read (it ${what}), and retries`, async () => {
      // The sends would succeed: only the recorded calls, checked after, say whether one was made.
      const { client, calls } = fakeClient(
        () => ({ id: 5, applications: [{ id: 9, campaign_id: 12 }] }),
        () => ({ id: 11, applicant_id: 5 }),
      );
      client.applications.list = async () => {
        calls.push({ endpoint: 'GET applications', body: undefined });
        throw failure;
      };
      const result = await attemptDelivery(unconfirmed, client, 1000, outbox);
      assert.deepEqual(
        calls.map((c) => c.endpoint),
        ['GET applications'],
      );
      assert.equal(result.kind, 'retry');
    });
  }

  it("passes over the same candidate's application another row recorded (a service taking duplicates), and sends this one", async () => {
    // Application 30 is the candidate's earlier one to this campaign, delivered by row r0; this row's attempt never arrived.
    const pages = [{ data: [application(30, 'ada@example.org', 1)], next: null }];
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [{ id: 9, campaign_id: 12 }] }),
      () => assert.fail('not called'),
      pages,
    );
    const recordedBy = new Map([[30, 'r0']]);
    const result = await attemptDelivery(unconfirmed, client, 1000, {
      ...outbox,
      recordedApplication: async (id) => recordedBy.get(id),
    });
    assert.deepEqual(result, { kind: 'delivered', outcome: 'created_applicant', applicantId: 5, applicationId: 9 });
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['GET applications', 'jobboards/applicants'],
    );
  });

  it('takes the application this very row recorded for its own', async () => {
    const pages = [{ data: [application(30, 'ada@example.org', 1)], next: null }];
    const { client, calls } = readsOnly(pages);
    const result = await attemptDelivery(unconfirmed, client, 1000, {
      ...outbox,
      recordedApplication: async () => unconfirmed.reference,
    });
    assert.deepEqual(result, foundDelivered(30));
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['GET applications'],
    );
  });

  it('does not look when no earlier attempt can have reached the service', async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [{ id: 9, campaign_id: 12 }] }),
      () => assert.fail('not called'),
    );
    await attemptDelivery(row(2), client, 1000, outbox);
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['jobboards/applicants'],
    );
  });
});

describe('classify', () => {
  it('retries what may succeed later: 5xx, no answer, timeouts, the rate limit', () => {
    assert.equal(classify(clientError(ServerError, { status: 503, code: 'service_unavailable' })).kind, 'retry');
    assert.equal(
      classify(clientError(ConnectionError, { code: 'connection_failed', mayHaveReachedServer: true })).kind,
      'retry',
    );
    // Whether the failed attempt may have created the application: the next one looks before sending.
    assert.deepEqual(
      [
        clientError(ServerError, { status: 503, code: 'service_unavailable' }),
        clientError(TimeoutError, { code: 'timeout' }),
        clientError(ConnectionError, { code: 'connection_failed', mayHaveReachedServer: true }),
        clientError(ConnectionError, { code: 'connection_failed', mayHaveReachedServer: false }),
        clientError(RateLimitError, { status: 403, code: 'rate_limited', retryAfterMs: undefined }),
      ].map((error) => {
        const result = classify(error);
        return result.kind === 'retry' && result.reached;
      }),
      [true, true, true, false, false],
    );
    assert.equal(classify(clientError(TimeoutError, { code: 'timeout' })).kind, 'retry');
    const limited = classify(clientError(RateLimitError, { status: 403, code: 'rate_limited', retryAfterMs: 30_000 }));
    assert.deepEqual(limited.kind === 'retry' ? limited.retryAfterMs : undefined, 30_000);
  });

  it('marks a 403 wrong_client_kind or missing_scope as blocking every delivery, and no other refusal of the keys', () => {
    const blocks = (error: Error) => {
      const result = classify(error);
      return result.kind === 'retry' ? result.blocks : 'not a retry';
    };
    assert.deepEqual(
      [
        clientError(PermissionError, { status: 403, code: 'wrong_client_kind' }),
        clientError(PermissionError, { status: 403, code: 'missing_scope' }),
        clientError(RateLimitError, { status: 403, code: 'rate_limited', retryAfterMs: undefined }),
        clientError(AuthenticationError, { status: 401, code: 'token_expired' }),
        clientError(ServerError, { status: 503, code: 'service_unavailable' }),
      ].map(blocks),
      ['wrong_client_kind', 'missing_scope', undefined, undefined, undefined],
    );
  });

  it('reports a campaign that stopped taking applications as campaign_closed', () => {
    const result = classify(clientError(ValidationError, { status: 422, code: 'campaign_not_open' }));
    assert.equal(result.kind === 'rejected' ? result.outcome : undefined, 'campaign_closed');
  });
});

describe('classify, error by error', () => {
  /** An attempt to try again; `reached`: the service may have taken the application. */
  const retry = (error: string, reached: boolean, more: object = {}) => ({ kind: 'retry', error, reached, ...more });
  const campaignClosed = (error: string) => ({ kind: 'rejected', outcome: 'campaign_closed', errors: [], error });
  /** Refused as a whole: the candidate reads one error on the form. */
  const refusedForm = (error: string) => ({
    kind: 'rejected',
    outcome: 'upstream_rejected',
    errors: [{ field: 'form', code: 'invalid_value', message: 'The recruitment service refused this application.' }],
    error,
  });
  const cases: [string, unknown, unknown][] = [
    [
      'a rate limit with Retry-After',
      clientError(RateLimitError, { status: 429, code: 'rate_limited', retryAfterMs: 5_000 }),
      retry('rate_limited (429)', false, { retryAfterMs: 5_000 }),
    ],
    [
      'a rate limit without',
      clientError(RateLimitError, { code: 'rate_limited', retryAfterMs: undefined }),
      retry('rate_limited (-)', false),
    ],
    ['a 5xx', clientError(ServerError, { status: 502, code: 'bad_gateway' }), retry('bad_gateway (502)', true)],
    ['a timeout', clientError(TimeoutError, { code: 'timeout' }), retry('timeout (no answer)', true)],
    [
      'a cut connection',
      clientError(ConnectionError, { code: 'connection_reset', mayHaveReachedServer: true }),
      retry('connection_reset (no answer)', true),
    ],
    [
      'refused keys',
      clientError(AuthenticationError, { status: 401, code: 'invalid_token' }),
      retry('invalid_token (401)', false),
    ],
    [
      'a refused scope',
      clientError(PermissionError, { status: 403, code: 'missing_scope' }),
      retry('missing_scope (403)', false, { blocks: 'missing_scope' }),
    ],
    [
      'an answer that is not what the API says',
      clientError(SchemaError, { status: 200, code: 'unexpected_response' }),
      retry('unreadable answer (unexpected_response)', true),
    ],
    [
      'a campaign not broadcast on the board',
      clientError(ValidationError, { status: 422, code: 'campaign_not_broadcast' }),
      campaignClosed('campaign_not_broadcast (422)'),
    ],
    [
      'a campaign gone',
      clientError(NotFoundError, { status: 404, code: 'not_found' }),
      campaignClosed('not_found (404)'),
    ],
    ['another 4xx', clientError(ApiError, { status: 400, code: 'bad_request' }), refusedForm('bad_request (400)')],
    ['the last 4xx', clientError(ApiError, { status: 499, code: 'odd' }), refusedForm('odd (499)')],
    ['a 3xx', clientError(ApiError, { status: 399, code: 'odd' }), retry('odd (399)', true)],
    ['a 5xx the client did not name', clientError(ApiError, { status: 500, code: 'odd' }), retry('odd (500)', true)],
    ['an error of the client without status', clientError(ApiError, { code: 'odd' }), retry('odd (-)', true)],
    ['anything else', new TypeError('x is undefined'), retry('unexpected: TypeError', true)],
    ['a thrown string', 'boom', retry('unexpected: error', true)],
  ];
  for (const [what, error, expected] of cases) {
    it(`classifies ${what}`, () => {
      assert.deepEqual(classify(error), expected);
    });
  }
  it('says "no answer" for a 5xx or timeout without status', () => {
    assert.deepEqual(classify(clientError(ServerError, { code: 'server_error' })), {
      kind: 'retry',
      error: 'server_error (no answer)',
      reached: true,
    });
  });
  it('names the status or a dash for refused keys and field refusals', () => {
    assert.deepEqual(classify(clientError(PermissionError, { code: 'forbidden' })), {
      kind: 'retry',
      error: 'forbidden (-)',
      reached: false,
    });
    const refused = classify(clientError(ValidationError, { code: 'invalid_request', details: [] }));
    assert.equal(refused.kind === 'rejected' ? refused.error : undefined, 'invalid_request (-)');
    const closed = classify(clientError(ValidationError, { code: 'campaign_not_open' }));
    assert.equal(closed.kind === 'rejected' ? closed.error : undefined, 'campaign_not_open (-)');
  });
});

describe('attemptDelivery, edge cases', () => {
  it('refuses a row without payload (erased) and sends nothing, to an offer or not', async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    for (const claimedRow of [row(1), spontaneous(1)])
      assert.deepEqual(await attemptDelivery({ ...claimedRow, payload: null }, client, 1000, outbox), {
        kind: 'rejected',
        outcome: 'upstream_rejected',
        errors: [],
        error: 'payload missing',
      });
    assert.deepEqual(calls, []);
  });

  it('sends no resume and no comment for a row without them, and no application id the service did not give', async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [{ id: 9, campaign_id: 99 }] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    const bare: OutboxRow = {
      ...row(1),
      resume_bytes: null,
      resume_type: null,
      payload: { applicant: { email: 'ada@example.org' } },
    };
    assert.deepEqual(await attemptDelivery(bare, client, 1000, outbox), {
      kind: 'delivered',
      outcome: 'created_applicant',
      applicantId: 5,
    });
    assert.deepEqual(calls[0]?.body, {
      company_id: 3,
      applicant: { email: 'ada@example.org', applications: [{ campaign_id: 12 }] },
    });
  });

  it('sends no resume for a row that names a type but holds no bytes, and reads nothing from the store for it', async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    const counted = countedOutbox();
    await attemptDelivery({ ...row(1), resume_bytes: null, resume_type: 'pdf' }, client, 1000, counted.outbox);
    assert.deepEqual(calls[0]?.body, {
      company_id: 3,
      applicant: { email: 'ada@example.org', applications: [{ campaign_id: 12, comments: [{ content: 'Hello' }] }] },
    });
    assert.deepEqual(counted.opened, []);
  });

  it('reads the resume again for a second send of the attempt (the application after an existing applicant)', async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    client.jobboards.createApplicant = (async (body: unknown) => {
      // The first send streams the resume, then the service says the applicant exists.
      await readBody(body);
      throw conflict('applicant_exists');
    }) as never;
    assert.equal((await attemptDelivery(row(1), client, 1000, outbox)).kind, 'delivered');
    assert.deepEqual(await readBody(calls[0]?.body), APPLICATION_WITH_RESUME);
  });

  it('for a returning candidate without resume or letter, creates a bare application', async () => {
    const { client, calls } = fakeClient(applicantExists, () => ({ id: 11, applicant_id: 5 }));
    const bare: OutboxRow = {
      ...row(1),
      resume_bytes: 10,
      resume_type: null,
      payload: { applicant: { email: 'ada@example.org' } },
    };
    await attemptDelivery(bare, client, 1000, outbox);
    assert.deepEqual(calls[1]?.body, { campaign_id: 12, applicant_email: 'ada@example.org', application: {} });
  });

  it('sends with the high priority, the timeout given, and no retry of the send by the client', async () => {
    const options: unknown[] = [];
    const { client } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    const create = client.jobboards.createApplicant;
    client.jobboards.createApplicant = (async (body: never, opts: unknown) => {
      options.push(opts);
      return create(body);
    }) as typeof create;
    await attemptDelivery(row(1), client, 1234, outbox);
    assert.deepEqual(options, [{ priority: 'high', safeToRetry: false, timeout: 1234 }]);
  });

  it('retries a conflict other than an existing applicant, sending nothing more', async () => {
    const { client, calls } = fakeClient(
      () => {
        throw conflict('email_taken');
      },
      () => ({ id: 11, applicant_id: 5 }),
    );
    assert.deepEqual(await attemptDelivery(row(1), client, 1000, outbox), {
      kind: 'rejected',
      outcome: 'upstream_rejected',
      errors: [{ field: 'form', code: 'invalid_value', message: 'The recruitment service refused this application.' }],
      error: 'email_taken (409)',
    });
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['jobboards/applicants'],
    );
  });

  it('fails the send when the resume is gone between the claim and the send, to an offer or not', async () => {
    const reads: unknown[] = [];
    const { client } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    client.jobboards.createApplicant = (async (body: unknown) => {
      reads.push(await readBody(body).catch((error: unknown) => String(error)));
      throw clientError(ConnectionError, { code: 'connection_failed', mayHaveReachedServer: false });
    }) as never;
    for (const claimedRow of [row(1), spontaneous(1)]) {
      const result = await attemptDelivery(claimedRow, client, 1000, { ...outbox, openResume: async () => undefined });
      assert.equal(result.kind, 'retry');
    }
    assert.deepEqual(reads, ['Error: the resume is no longer stored', 'Error: the resume is no longer stored']);
  });
});

describe('attemptDelivery, a spontaneous application (no offer)', () => {
  it('creates the applicant in the company with the stored resume streamed, and no application', async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    assert.deepEqual(await attemptDelivery(spontaneous(1), client, 1000, outbox), {
      kind: 'delivered',
      outcome: 'created_applicant',
      applicantId: 5,
    });
    assert.deepEqual(
      await Promise.all(calls.map(async (c) => ({ endpoint: c.endpoint, body: await readBody(c.body) }))),
      [
        {
          endpoint: 'jobboards/applicants',
          body: {
            company_id: 3,
            applicant: { email: 'ada@example.org', resume: { streamed: '%PDF-1.4', size: 8, mime_type: 'pdf' } },
          },
        },
      ],
    );
  });

  it('opens the resume once, before the send, and streams that opening', async () => {
    const counted = countedOutbox();
    const { opened } = counted;
    let openedAtSend: string[] = [];
    const { client } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    let sent: unknown;
    client.jobboards.createApplicant = (async (body: unknown) => {
      openedAtSend = [...opened];
      sent = await readBody(body);
      return { id: 5, applications: [] };
    }) as never;
    await attemptDelivery(spontaneous(1), client, 1000, counted.outbox);
    assert.deepEqual(openedAtSend, ['r1']);
    assert.deepEqual(opened, ['r1']);
    assert.deepEqual(sent, {
      company_id: 3,
      applicant: { email: 'ada@example.org', resume: { streamed: '%PDF-1.4', size: 8, mime_type: 'pdf' } },
    });
  });

  it('sends no resume for a row without one, and reads nothing from the store for it', async () => {
    const { client, calls } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    const counted = countedOutbox();
    for (const stored of [
      { resume_bytes: null, resume_type: null },
      { resume_bytes: null, resume_type: 'pdf' as const },
      { resume_bytes: 8, resume_type: null },
    ]) {
      calls.length = 0;
      assert.equal((await attemptDelivery(spontaneous(1, stored), client, 1000, counted.outbox)).kind, 'delivered');
      assert.deepEqual(calls[0]?.body, { company_id: 3, applicant: { email: 'ada@example.org' } });
    }
    assert.deepEqual(counted.opened, []);
  });

  it("on the first attempt, applicant_exists means the candidate already was the company's applicant; on a later one, that an earlier attempt delivered it", async () => {
    const { client, calls } = fakeClient(applicantExists, () => ({ id: 11, applicant_id: 5 }));
    assert.deepEqual(await attemptDelivery(spontaneous(1), client, 1000, outbox), { kind: 'already_applied' });
    assert.deepEqual(await attemptDelivery(spontaneous(2), client, 1000, outbox), {
      kind: 'delivered',
      outcome: 'found_delivered',
    });
    // The application call is never made: a spontaneous application has no offer.
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['jobboards/applicants', 'jobboards/applicants'],
    );
  });

  it('retries another conflict or a server error, and sends with the high priority, the timeout given and no retry by the client', async () => {
    const options: unknown[] = [];
    const { client } = fakeClient(
      () => ({ id: 5, applications: [] }),
      () => ({ id: 11, applicant_id: 5 }),
    );
    const failures = [conflict('email_taken'), clientError(ServerError, { status: 503, code: 'unavailable' })];
    client.jobboards.createApplicant = (async (_body: unknown, opts: unknown) => {
      options.push(opts);
      throw failures.shift();
    }) as never;
    assert.deepEqual(await attemptDelivery(spontaneous(1), client, 1234, outbox), {
      kind: 'rejected',
      outcome: 'upstream_rejected',
      errors: [{ field: 'form', code: 'invalid_value', message: 'The recruitment service refused this application.' }],
      error: 'email_taken (409)',
    });
    assert.equal((await attemptDelivery(spontaneous(1), client, 1234, outbox)).kind, 'retry');
    assert.deepEqual(options, [
      { priority: 'high', safeToRetry: false, timeout: 1234 },
      { priority: 'high', safeToRetry: false, timeout: 1234 },
    ]);
  });
});

describe('backoffMs', () => {
  const options = { baseBackoffMs: 1000, maxBackoffMs: 60_000 };
  it('doubles with each attempt, with half of each step random', () => {
    assert.equal(
      backoffMs(1, options, undefined, () => 0),
      500,
    );
    assert.equal(
      backoffMs(1, options, undefined, () => 1),
      1000,
    );
    assert.equal(
      backoffMs(3, options, undefined, () => 0),
      2000,
    );
  });
  it('waits at least what the service asked, and never more than the ceiling', () => {
    assert.equal(
      backoffMs(1, options, 30_000, () => 0),
      30_000,
    );
    assert.equal(
      backoffMs(30, options, undefined, () => 1),
      60_000,
    );
    assert.equal(
      backoffMs(1, options, 600_000, () => 0),
      60_000,
    );
  });
});
