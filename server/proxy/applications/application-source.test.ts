// The application's source in one attempt, on a fake client (the sandbox
// tests in test/proxy-application-source.test.ts send the same over HTTP):
// which answers are a definite refusal of the source, the one re-send
// without it, and the note the company reads.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConflictError, ServerError, TimeoutError, ValidationError } from '../../client/index.ts';
import { errorFromResponse } from '../../client/errors.ts';
import { SOURCE_REFUSAL_MS, cameFrom, companyNote, refusesSource } from './application-source.ts';
import type { Sending } from './application-source.ts';
import { attemptDelivery } from './delivery.ts';
import type { DeliveryClient, DeliveryOutbox } from './delivery.ts';
import { deliveringRow, refusedByService } from './delivery.test-support.ts';

const where = { method: 'POST', url: 'http://upstream/v2/jobboards/applicants' };
const sourceRefusal = (field = 'applicant.applications.0.source', code = 'source_not_allowed', status = 422) =>
  new ValidationError({
    ...where,
    status,
    code,
    message: 'not one of the sources',
    details: [{ field, message: 'not one of the sources' }],
  });

const outbox: DeliveryOutbox = { openResume: async () => undefined, recordedApplication: async () => undefined };

/** The refusals a test's store remembers, and what it was asked to remember. */
function refusals(refused = false, failing = false) {
  const remembered: [number, string, number][] = [];
  const sending: Sending = {
    source: 'jobboard_demo',
    board: 'jobboard_demo',
    refusedForMs: 1000,
    now: () => 5000,
    refusals: {
      sourceRefused: async () => {
        if (failing) throw new Error('database gone');
        return refused;
      },
      rememberSourceRefusal: async (companyId, source, until) => {
        remembered.push([companyId, source, until]);
        if (failing) throw new Error('database gone');
      },
    },
  };
  return { sending, remembered };
}

/** A client whose createApplicant answers, call after call, from `answers` (a thrown error, or a created applicant); the bodies recorded. */
function fakeClient(...answers: (Error | 'created')[]) {
  const bodies: { applications: { source?: string; comments?: { content: string }[] }[] }[] = [];
  const client = {
    jobboards: {
      createApplicant: async (body: { applicant: (typeof bodies)[number] }) => {
        bodies.push(body.applicant);
        const answer = answers[bodies.length - 1];
        if (answer === undefined) throw new Error('called once too often');
        if (answer instanceof Error) throw answer;
        return { id: 5, applications: [{ id: 9, campaign_id: 12 }] };
      },
    },
    applications: {
      create: async () => ({ id: 11, applicant_id: 5 }),
      list: async () => ({ data: [], pagination: { 'next-page': null } }),
    },
  } as unknown as DeliveryClient;
  return { client, bodies };
}

const NOTE =
  'Applied through the job board jobboard_demo. Its source "jobboard_demo" is not in your sources list, so this application has no source; add it to see where applications come from.';

describe('refusesSource', () => {
  it('is a 4xx answer naming the source, by its code or its field', () => {
    assert.equal(refusesSource(sourceRefusal()), true);
    assert.equal(refusesSource(sourceRefusal('application.source', 'invalid_request', 400)), true);
    assert.equal(refusesSource(sourceRefusal('applicant.applications.0.sources_list', 'invalid_request')), false);
    assert.equal(refusesSource(sourceRefusal('applicant.phone_number', 'invalid_request')), false);
  });

  it('is never a 5xx, a timeout or an input refused before sending (no status): those may hide a created application, or sent nothing', () => {
    assert.equal(
      refusesSource(new ServerError({ ...where, status: 503, code: 'source_not_allowed', message: 'x' })),
      false,
    );
    assert.equal(refusesSource(new TimeoutError({ ...where, code: 'timeout', message: 'x' })), false);
    assert.equal(
      refusesSource(
        new ValidationError({
          ...where,
          status: undefined,
          code: 'source_not_allowed',
          message: 'x',
          details: [{ field: 'source', message: 'x' }],
        }),
      ),
      false,
    );
    assert.equal(refusesSource(new Error('source')), false);
  });
});

/** The error the client makes of an answer of this status whose body names the source, by its code and its field. */
const namingTheSource = (status: number) =>
  errorFromResponse({
    ...where,
    status,
    bodyText: JSON.stringify({
      error: {
        code: 'source_not_allowed',
        message: 'not one of the sources',
        details: [{ field: 'applicant.applications.0.source', message: 'unknown' }],
      },
    }),
    retryAfterMs: undefined,
    attempts: 1,
  });

describe('refusesSource, at each status', () => {
  it('takes no 5xx for a refusal, 500 included, even when its body names the source: the application may have been created', () => {
    for (const status of [500, 501, 502, 504, 599])
      assert.equal(refusesSource(namingTheSource(status)), false, String(status));
  });

  it('takes no answer below 400 for a refusal (a redirect the client could not follow)', () => {
    for (const status of [300, 307, 399]) assert.equal(refusesSource(namingTheSource(status)), false, String(status));
  });

  it('takes every 4xx naming the source for a refusal, from 400 to 499', () => {
    for (const status of [400, 403, 409, 422, 499])
      assert.equal(refusesSource(namingTheSource(status)), true, String(status));
  });

  it('takes a 4xx that names the source by its code alone, whatever its fields', () => {
    const byCode = refusedByService('source_not_allowed', [{ field: 'applicant.email', message: 'x' }]);
    assert.equal(refusesSource(byCode), true);
    assert.equal(
      refusesSource(new ValidationError({ ...where, status: 422, code: 'invalid_request', message: 'x', details: [] })),
      false,
    );
  });

  it('remembers a refusal for a day by default: a company that adds the source gets it back the next day', () => {
    assert.equal(SOURCE_REFUSAL_MS, 24 * 60 * 60 * 1000);
  });

  it('takes a 4xx that names the source by its field alone, at the top or nested, and no field merely ending in "source"', () => {
    const byField = (field: string) =>
      refusedByService('invalid_request', [
        { field: 'applicant.email', message: 'x' },
        { field, message: 'x' },
      ]);
    assert.equal(refusesSource(byField('source')), true);
    assert.equal(refusesSource(byField('application.source')), true);
    assert.equal(refusesSource(byField('applicant.datasource')), false);
    assert.equal(refusesSource(byField('source.name')), false);
  });
});

describe('the note the company reads', () => {
  it('says the campaign in UTM_FIELDS order, and the board when without source', () => {
    assert.equal(cameFrom({ utm_content: 'c', utm_source: 's' }), 'Came from: utm_source="s", utm_content="c"');
    assert.equal(cameFrom({}), undefined);
    assert.equal(companyNote({ utm: null }), undefined);
    assert.equal(
      companyNote({ utm: { utm_medium: 'm' }, withoutSource: { source: 'jobboard_demo', board: 'jobboard_demo' } }),
      `${NOTE}\nCame from: utm_medium="m"`,
    );
  });

  it('quotes each value, so that none can read as another pair (its own quotes and backslashes escaped)', () => {
    assert.equal(
      cameFrom({ utm_campaign: 'x, utm_medium=spoofed' }),
      'Came from: utm_campaign="x, utm_medium=spoofed"',
    );
    assert.equal(
      cameFrom({ utm_campaign: 'x", utm_medium="spoofed', utm_term: 'a\\' }),
      'Came from: utm_campaign="x\\", utm_medium=\\"spoofed", utm_term="a\\\\"',
    );
  });
});

describe("attemptDelivery with the board's source", () => {
  it('sends the source, and only the cover letter as comment when there is nothing to note', async () => {
    const { client, bodies } = fakeClient('created');
    const result = await attemptDelivery(deliveringRow(), client, 1000, outbox, refusals().sending);
    assert.deepEqual(result, { kind: 'delivered', outcome: 'created_applicant', applicantId: 5, applicationId: 9 });
    assert.deepEqual(bodies[0]?.applications, [
      { campaign_id: 12, source: 'jobboard_demo', comments: [{ content: 'Hello' }] },
    ]);
  });

  it('on a definite refusal, remembers it until now + refusedForMs and sends once more without source, with the note and the campaign', async () => {
    const { client, bodies } = fakeClient(sourceRefusal(), 'created');
    const { sending, remembered } = refusals();
    const result = await attemptDelivery(deliveringRow({ utm: { utm_source: 'news' } }), client, 1000, outbox, sending);
    assert.deepEqual(result, {
      kind: 'delivered',
      outcome: 'created_applicant',
      applicantId: 5,
      applicationId: 9,
      source: 'refused',
    });
    assert.deepEqual(remembered, [[3, 'jobboard_demo', 6000]]);
    assert.deepEqual(
      bodies.map((b) => b.applications),
      [
        [
          {
            campaign_id: 12,
            source: 'jobboard_demo',
            comments: [{ content: 'Hello' }, { content: 'Came from: utm_source="news"' }],
          },
        ],
        [{ campaign_id: 12, comments: [{ content: 'Hello' }, { content: `${NOTE}\nCame from: utm_source="news"` }] }],
      ],
    );
  });

  it("sends no second time when the re-send fails too: its failure is the attempt's", async () => {
    const { client, bodies } = fakeClient(
      sourceRefusal(),
      new ServerError({ ...where, status: 503, code: 'server_error', message: 'x' }),
    );
    const result = await attemptDelivery(deliveringRow(), client, 1000, outbox, refusals().sending);
    assert.deepEqual([result.kind, result.source, bodies.length], ['retry', 'refused', 2]);
  });

  it('never re-sends after a 5xx (a 500 naming the source included) or a timeout', async () => {
    const failures = [
      new ServerError({ ...where, status: 500, code: 'server_error', message: 'x' }),
      namingTheSource(500),
      new TimeoutError({ ...where, code: 'timeout', message: 'x' }),
    ];
    for (const failure of failures) {
      const { client, bodies } = fakeClient(failure, 'created');
      const { sending, remembered } = refusals();
      const result = await attemptDelivery(deliveringRow(), client, 1000, outbox, sending);
      assert.deepEqual(
        [result.kind, result.source, bodies.length, remembered.length],
        ['retry', undefined, 1, 0],
        failure.name,
      );
    }
  });

  it("sends without source from the first send when the company's refusal is remembered, or the row already went without", async () => {
    for (const [refused, dropped] of [
      [true, 0],
      [false, 1],
    ] as const) {
      const { client, bodies } = fakeClient('created');
      const result = await attemptDelivery(
        deliveringRow({ source_dropped: dropped }),
        client,
        1000,
        outbox,
        refusals(refused).sending,
      );
      assert.equal(result.source, 'dropped');
      assert.deepEqual(
        bodies.map((b) => b.applications),
        [[{ campaign_id: 12, comments: [{ content: 'Hello' }, { content: NOTE }] }]],
      );
    }
  });

  it('with a store that cannot tell or remember, still delivers: the source is sent, and the refusal met again is re-sent the same way', async () => {
    const { client, bodies } = fakeClient(sourceRefusal(), 'created');
    const result = await attemptDelivery(deliveringRow(), client, 1000, outbox, refusals(false, true).sending);
    assert.deepEqual([result.kind, result.source, bodies.length], ['delivered', 'refused', 2]);
  });

  it('a returning candidate: the application alone, refused for its source, then without it', async () => {
    const creates: unknown[] = [];
    const client = {
      jobboards: {
        createApplicant: async () => {
          throw new ConflictError({
            ...where,
            status: 409,
            code: 'applicant_exists',
            message: 'x',
            existingId: undefined,
          });
        },
      },
      applications: {
        create: async (body: unknown) => {
          creates.push(body);
          if (creates.length === 1) throw sourceRefusal('application.source');
          return { id: 11, applicant_id: 5 };
        },
      },
    } as unknown as DeliveryClient;
    const result = await attemptDelivery(
      deliveringRow({ payload: { applicant: { email: 'ada@example.org' } } }),
      client,
      1000,
      outbox,
      refusals().sending,
    );
    assert.deepEqual(result, {
      kind: 'delivered',
      outcome: 'created_application',
      applicantId: 5,
      applicationId: 11,
      source: 'refused',
    });
    assert.deepEqual(creates, [
      { campaign_id: 12, applicant_email: 'ada@example.org', application: { source: 'jobboard_demo' } },
      { campaign_id: 12, applicant_email: 'ada@example.org', application: { comments: [{ content: NOTE }] } },
    ]);
  });
});
