// Properties of POST /api/applications against the real sandbox.
//
// Mutated forms: a valid application changed in a few ways at random (a field
// dropped, emptied, made too long, given a value of the wrong kind or random
// text, sent twice or as a file; the resume swapped, cut, mislabelled or
// missing; another or an unknown campaign; a key used before), so storage,
// delivery and the first attempt are reached and not only the checks. Whatever
// the mutation: never a 5xx; an application answered 201/202 is created
// exactly once, one answered 4xx never; the same request sent again with its
// key gets the first answer back. Creates are counted at the wire (the
// sandbox's log of create requests) in a sandbox that takes duplicates, so a
// second send shows even where a service refusing duplicates would hide it.
// The sandbox keeps its limit of 120 requests per window and the client its
// budget of 120, on a window of seconds instead of a minute: the runs stay
// within the budget whatever their number, and none is refused as rate-limited.
//
// Malformed bodies: random multipart and JSON bodies are refused with a 4xx
// problem, never a 5xx.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FORM_FIELD_NAMES } from '../server/public-api/application-form.ts';
import * as files from '../server/test/files.ts';
import { BOARD_ORIGIN, applyWorldPerSuite, fetch, uniqueEmail, validFields } from './proxy-apply.test-support.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { eventually } from '../server/test/poll.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
/** The sandbox's rate window; the client's budget counts over half a second more, as its minute has slack. */
const RATE_WINDOW_MS = 2_000;
const CRLF = '\r\n';

// A filled honeypot ('website') is answered with a decoy 202 on purpose, so a
// robot learns nothing, and nothing is delivered; its own tests cover it.
// Random forms leave it out.
const HONEYPOT = 'website';
const TEXT_FIELDS = FORM_FIELD_NAMES.filter((name) => name !== HONEYPOT);

type Part = { name: string; value: string } | { name: string; bytes: Buffer; filename: string; type: string };

const field = fc.constantFrom(...TEXT_FIELDS);
const resumeFiles = {
  png: files.png(),
  doc: files.doc(),
  xls: files.xls(),
  exe: files.exe(),
  empty: Buffer.alloc(0),
};

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), field }),
  fc.record({ kind: fc.constant('empty' as const), field }),
  fc.record({
    kind: fc.constant('overlong' as const),
    field,
    length: fc.constantFrom(101, 255, 2049, 10_001, 70_000),
    char: fc.constantFrom('x', 'é', '😀', ' '),
  }),
  fc.record({
    kind: fc.constant('wrong value' as const),
    field,
    value: fc.constantFrom(
      'true',
      'on',
      'maybe',
      '12abc',
      '0',
      '-1',
      '1e9',
      '99999999999999999999',
      '{"a":1}',
      'null',
      'a@b',
      'javascript:alert(1)',
      '+33',
      'ftp://x',
      'de',
      '<script>alert(1)</script>',
    ),
  }),
  fc.record({
    kind: fc.constant('random text' as const),
    field,
    value: fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
    ),
  }),
  fc.record({ kind: fc.constant('sent twice' as const), field, value: fc.string({ maxLength: 10 }) }),
  fc.record({ kind: fc.constant('sent as a file' as const), field }),
  fc.constant({ kind: 'resume sent as text' as const }),
  fc.constant({ kind: 'resume missing' as const }),
  fc.record({
    kind: fc.constant('resume swapped' as const),
    file: fc.oneof(
      fc.constantFrom(...(Object.keys(resumeFiles) as (keyof typeof resumeFiles)[])),
      fc.uint8Array({ minLength: 1, maxLength: 300 }),
    ),
  }),
  fc.record({ kind: fc.constant('resume cut' as const), at: fc.nat({ max: files.pdf().length - 1 }) }),
  // Its bytes are a PDF's whatever it is called: the proxy goes by the bytes.
  fc.record({
    kind: fc.constant('resume mislabelled' as const),
    name: fc.constantFrom('cv.exe', 'cv', 'photo.png', ''),
    type: fc.constantFrom('application/x-msdownload', 'image/png', 'text/plain', ''),
  }),
  fc.record({ kind: fc.constant('campaign' as const), pick: fc.nat(), known: fc.boolean() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

/** The key of the request: a new one, or the key of an earlier run with this run's form, or an earlier run's request whole. */
const keyChoice = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'fresh' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('earlier key' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('earlier request' as const), pick: fc.nat() }) },
);

function mutate(parts: Part[], m: Mutation, campaigns: number[]): Part[] {
  const set = (name: string, value: string): Part[] =>
    parts.some((p) => p.name === name)
      ? parts.map((p) => (p.name === name ? { name, value } : p))
      : [...parts, { name, value }];
  switch (m.kind) {
    case 'drop':
      return parts.filter((p) => p.name !== m.field);
    case 'empty':
      return set(m.field, '');
    case 'overlong':
      return set(m.field, m.char.repeat(m.length));
    case 'wrong value':
    case 'random text':
      return set(m.field, m.value);
    case 'sent twice':
      return [...parts, { name: m.field, value: m.value }];
    case 'sent as a file':
      return [
        ...parts.filter((p) => p.name !== m.field),
        { name: m.field, bytes: Buffer.from('text in a file'), filename: 'field.txt', type: 'text/plain' },
      ];
    case 'resume sent as text':
      return [...parts.filter((p) => p.name !== 'resume'), { name: 'resume', value: 'cv.pdf' }];
    case 'resume missing':
      return parts.filter((p) => p.name !== 'resume');
    case 'resume swapped': {
      const bytes = m.file instanceof Uint8Array ? Buffer.from(m.file) : resumeFiles[m.file];
      return parts.map((p) => (p.name === 'resume' && 'bytes' in p ? { ...p, bytes } : p));
    }
    case 'resume cut':
      return parts.map((p) => (p.name === 'resume' && 'bytes' in p ? { ...p, bytes: p.bytes.subarray(0, m.at) } : p));
    case 'resume mislabelled':
      return parts.map((p) => (p.name === 'resume' && 'bytes' in p ? { ...p, filename: m.name, type: m.type } : p));
    case 'campaign':
      return set('campaign_id', String(m.known ? campaigns[m.pick % campaigns.length]! : 900_000 + (m.pick % 1000)));
  }
}

function formOf(parts: Part[]): FormData {
  const form = new FormData();
  for (const p of parts) {
    if ('bytes' in p) form.append(p.name, new Blob([new Uint8Array(p.bytes)], { type: p.type }), p.filename);
    else form.append(p.name, p.value);
  }
  return form;
}

interface Answer {
  status: number;
  text: string;
  body: Record<string, unknown>;
  replayed: string | null;
}

async function post(proxyUrl: string, parts: Part[], key: string): Promise<Answer> {
  const response = await fetch(`${proxyUrl}/api/applications`, {
    method: 'POST',
    headers: { origin: BOARD_ORIGIN, 'idempotency-key': key },
    body: formOf(parts),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // asserted below: every answer is JSON
  }
  return { status: response.status, text, body, replayed: response.headers.get('idempotent-replayed') };
}

/** A request sent, what it was answered, and the emails it could have been delivered under. */
interface Sent {
  key: string;
  parts: Part[];
  answer: Answer;
  emails: string[];
}

const accepted = (status: number) => status === 201 || status === 202;

/** The email of a form, as the proxy would deliver it; undefined when the form has none, or several. */
function emailOf(parts: Part[]): string | undefined {
  const emails = parts.filter((p) => p.name === 'email');
  const [only] = emails;
  return emails.length === 1 && only !== undefined && !('bytes' in only) ? only.value.trim() : undefined;
}

/** The candidate: a new one, or one of an earlier run (applying again, to the same or another campaign). */
const candidate = fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat() });

/** How the service behaves for the next calls: healthy, or failing a few times first (the client retries, the outbox too). */
const service = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.record({ count: fc.integer({ min: 1, max: 6 }), status: fc.constantFrom(500, 502, 503) }),
  },
  { weight: 1, arbitrary: fc.record({ count: fc.integer({ min: 1, max: 3 }), drop: fc.constant(true) }) },
);

describe('POST /api/applications with mutated valid forms', () => {
  // A minute's window would hold a queued retry longer than a run waits for its delivery once some hundred runs spent the budget.
  const world = applyWorldPerSuite({
    duplicates: 'accept',
    sandboxRateLimitWindowMs: RATE_WINDOW_MS,
    budgetWindowMs: RATE_WINDOW_MS + 500,
  });

  it('never answers 5xx; each application answered 201 or 202 is created exactly once at the wire, one answered 4xx never, none rate-limited; a retry with its key gets the first answer', async (t) => {
    const history: Sent[] = [];
    /** The applications answered 201/202, by email (lowercase) and reference: each must be created once. */
    const ledger = new Map<string, Map<string, number>>();
    const seen: Record<string, number> = {};
    /** The campaigns of the create requests that created an application for `email`, at the wire. */
    const upstream = (email: string) =>
      world()
        .sandbox.context.traffic.creates(email)
        .filter((c) => c.application_ids.length > 0)
        .flatMap((c) => c.campaign_ids)
        .sort((a, b) => a - b);
    const expected = (email: string) => [...(ledger.get(email.toLowerCase())?.values() ?? [])].sort((a, b) => a - b);
    const matchesLedger = (emails: string[]) =>
      emails.every((email) => upstream(email).join() === expected(email).join());
    const assertLedger = (emails: string[], what: string) => {
      for (const email of emails)
        assert.deepEqual(upstream(email), expected(email), `${what}: the applications of ${email}`);
    };

    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { maxLength: 3 }),
        candidate,
        keyChoice,
        service,
        async (mutations, returning, keyOf, fault) => {
          const earlierEmail =
            returning === undefined || history.length === 0
              ? undefined
              : emailOf(history[returning % history.length]!.parts);
          // A returning candidate may apply again to a campaign they applied to minutes ago: the service takes
          // duplicates, so each application must be created once, and the look before a re-send must not take the
          // earlier one for this row's own.
          const email = earlierEmail ?? uniqueEmail('property');
          const campaigns = world().openCampaignIds;
          const campaign = campaigns[returning === undefined ? 0 : returning % campaigns.length]!;
          let parts: Part[] = [
            ...Object.entries(validFields(campaign, email)).map(([name, value]) => ({ name, value })),
            { name: 'resume', bytes: files.pdf(), filename: 'cv.pdf', type: 'application/pdf' },
          ];
          for (const m of mutations) parts = mutate(parts, m, campaigns);
          let key: string = crypto.randomUUID();
          let earlier: Sent | undefined;
          if (keyOf.kind !== 'fresh' && history.length > 0) {
            earlier = history[keyOf.pick % history.length]!;
            key = earlier.key;
            if (keyOf.kind === 'earlier request') parts = earlier.parts;
          }
          const posted = emailOf(parts);
          const emails = [...new Set([email, ...(posted === undefined ? [] : [posted]), ...(earlier?.emails ?? [])])];
          if (fault !== undefined) await admin(world().sandbox, 'POST', '/faults', fault);

          const answer = await post(world().proxyUrl, parts, key);
          assert.ok(answer.status < 500, `answered ${answer.status}: ${answer.text.slice(0, 300)}`);
          const outcome = `${answer.status} ${String(answer.body.code ?? answer.body.status)}${answer.replayed === 'true' ? ' replayed' : ''}`;
          seen[outcome] = (seen[outcome] ?? 0) + 1;

          if (earlier !== undefined && keyOf.kind === 'earlier key' && accepted(earlier.answer.status)) {
            // A new form under the key of a stored one is never taken: 422 idempotency_key_reused, or what its own fault earns first.
            assert.ok(answer.status >= 400, `a new form under a used key answered ${answer.status}`);
            if (answer.status === 422 && answer.body.code !== 'validation_failed')
              assert.equal(answer.body.code, 'idempotency_key_reused');
          }
          if (earlier !== undefined && keyOf.kind === 'earlier request' && accepted(earlier.answer.status)) {
            assert.equal(answer.text, earlier.answer.text, 'the earlier request replayed');
            assert.equal(answer.replayed, 'true');
          }

          if (accepted(answer.status)) {
            assert.equal(answer.body.status, answer.status === 201 ? 'delivered' : 'queued');
            assert.match(String(answer.body.reference), /^[0-9a-f-]{36}$/);
            assert.ok(posted !== undefined, 'a form without one email was taken');
            const mine = ledger.get(posted.toLowerCase()) ?? new Map<string, number>();
            ledger.set(
              posted.toLowerCase(),
              mine.set(String(answer.body.reference), answer.body.campaign_id as number),
            );
          } else {
            assert.ok(answer.status >= 400, `answered ${answer.status}`);
            assert.equal(typeof answer.body.code, 'string', answer.text);
          }
          // A 201 was delivered before the answer; a 202 is delivered by the outbox soon after; a 4xx never is.
          await eventually(() => matchesLedger(emails), {
            timeoutMs: 10_000,
            what: `the applications of ${emails.join(', ')} to match the answers`,
          }).catch(() => undefined);
          assertLedger(emails, `answered ${outcome}`);

          // The candidate's browser sends the same request again with the same key.
          const retry = await post(world().proxyUrl, parts, key);
          assert.equal(retry.status, answer.status, `retry answered ${retry.status}: ${retry.text.slice(0, 300)}`);
          if (accepted(answer.status) || retry.replayed === 'true') {
            assert.equal(retry.text, answer.text);
            assert.equal(retry.replayed, 'true');
          } else {
            assert.equal(retry.body.code, answer.body.code);
          }
          assertLedger(emails, 'after the retry');

          if (fault !== undefined) await admin(world().sandbox, 'POST', '/faults', { count: 0 });
          history.push({ key, parts, answer, emails });
        },
      ),
      { numRuns: RUNS },
    );

    // Once the outbox is idle, every answer still holds: nothing delivered late, nothing twice.
    await eventually(
      async () => {
        const counts = await world().applications.outbox.counts();
        return counts.pending + counts.delivering === 0;
      },
      { timeoutMs: 20_000, what: 'the outbox to be idle' },
    );
    assertLedger([...new Set(history.flatMap((s) => s.emails))], 'at the end');
    const { clients } = world().sandbox.context.traffic.stats();
    assert.deepEqual(
      clients.map((c) => c.rate_limited),
      clients.map(() => 0),
      'no request refused as rate-limited',
    );
    t.diagnostic(
      `at the wire: the most requests in one ${RATE_WINDOW_MS} ms window ${Math.max(...clients.map((c) => c.max_in_window))} (limit 120), ${clients.reduce((n, c) => n + c.total, 0)} in all`,
    );
    // The runs reached both sides: applications taken and applications refused.
    const taken = Object.entries(seen)
      .filter(([outcome]) => /^20[12] /.test(outcome))
      .reduce((n, [, count]) => n + count, 0);
    assert.ok(taken >= RUNS / 10 && RUNS - taken >= RUNS / 10, JSON.stringify(seen));
  });
});

// Malformed bodies: random multipart parts and JSON bodies, of no form.
const fieldName = fc
  .oneof(
    fc.constantFrom(...FORM_FIELD_NAMES, 'resume'),
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'grapheme', maxLength: 10 }),
  )
  .filter((name) => name.replace(/["\r\n]/g, '') !== HONEYPOT);
const fieldValue = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom(
    'true',
    'on',
    '1',
    'false',
    '',
    '12',
    '-1',
    '1e9',
    '99999999999999999999',
    'a@b',
    'a@b.co',
    'javascript:alert(1)',
    '+33',
    '<script>',
  ),
);
const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.constantFrom(files.pdf(), files.png(), files.doc(), files.exe()).map((b) => new Uint8Array(b)),
);

const rawPart = fc.oneof(
  fc.record({ kind: fc.constant('field' as const), name: fieldName, value: fieldValue }),
  fc.record({
    kind: fc.constant('file' as const),
    name: fieldName,
    filename: fc.string({ maxLength: 30 }),
    type: fc.string({ maxLength: 30 }),
    bytes: fileBytes,
  }),
  fc.record({
    kind: fc.constant('raw' as const),
    headers: fc.string({ maxLength: 80 }),
    bytes: fc.uint8Array({ maxLength: 100 }),
  }),
);

type RawPart = typeof rawPart extends fc.Arbitrary<infer T> ? T : never;

function multipartBody(parts: RawPart[], boundary: string, closing: 'ok' | 'missing' | 'garbage'): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}${CRLF}`));
    if (p.kind === 'field') {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name.replace(/["\r\n]/g, '')}"${CRLF}${CRLF}${p.value}${CRLF}`,
        ),
      );
    } else if (p.kind === 'file') {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name.replace(/["\r\n]/g, '')}"; filename="${p.filename.replace(/["\r\n]/g, '')}"${CRLF}Content-Type: ${p.type.replace(/[\r\n]/g, '')}${CRLF}${CRLF}`,
        ),
        Buffer.from(p.bytes),
        Buffer.from(CRLF),
      );
    } else {
      chunks.push(Buffer.from(p.headers), Buffer.from(CRLF + CRLF), Buffer.from(p.bytes), Buffer.from(CRLF));
    }
  }
  if (closing === 'ok') chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  if (closing === 'garbage') chunks.push(Buffer.from('--garbage'));
  return Buffer.concat(chunks);
}

const malformed = fc.oneof(
  fc.record({
    kind: fc.constant('multipart' as const),
    parts: fc.array(rawPart, { maxLength: 12 }),
    boundary: fc.constantFrom('XyZ123', 'a', '----WebKitFormBoundary7MA4YWxkTrZu0gW'),
    contentType: fc.constantFrom(
      'multipart/form-data; boundary=',
      'multipart/form-data;boundary=',
      'multipart/form-data',
      'multipart/mixed; boundary=',
      'text/plain; boundary=',
    ),
    closing: fc.constantFrom('ok' as const, 'missing' as const, 'garbage' as const),
    key: fc.option(fc.string({ minLength: 0, maxLength: 250 }), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('json' as const),
    body: fc.json({ maxDepth: 3 }),
    contentType: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
    ),
    key: fc.option(fc.uuid(), { nil: undefined }),
  }),
);

describe('POST /api/applications with malformed bodies', () => {
  const world = applyWorldPerSuite();

  it('answers every random multipart or JSON body (no complete form among them) with a 4xx problem, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(malformed, async (r) => {
        const headers: Record<string, string> = {};
        let body: Buffer;
        if (r.kind === 'multipart') {
          headers['content-type'] = r.contentType.endsWith('=') ? r.contentType + r.boundary : r.contentType;
          body = multipartBody(r.parts, r.boundary, r.closing);
        } else {
          headers['content-type'] = r.contentType;
          body = Buffer.from(r.body);
        }
        if (r.key !== undefined && /^[\t\x20-\x7e]*$/.test(r.key)) headers['idempotency-key'] = r.key;
        const response = await fetch(`${world().proxyUrl}/api/applications`, {
          method: 'POST',
          headers,
          body: new Uint8Array(body),
        });
        const text = await response.text();
        assert.ok(
          response.status >= 400 && response.status < 500,
          `answered ${response.status}: ${text.slice(0, 300)}`,
        );
        assert.match(response.headers.get('content-type') ?? '', /application\/problem\+json/);
        assert.equal(typeof (JSON.parse(text) as { code: unknown }).code, 'string');
      }),
      { numRuns: 300 },
    );
  });
});
