// Delivery when the recruitment service misbehaves (sandbox faults over real
// HTTP): queued answers, retries, the lost-answer window, the service's rate
// limit, dead letters and the outbox command. Each application must reach the
// service exactly once, with the outbox in SQLite and in PostgreSQL.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import pino from 'pino';
import { loadProxyConfig } from '../server/proxy/config.ts';
import { startProxy } from '../server/proxy/index.ts';
import { DEMO_KEYS, startSandbox } from '../server/sandbox/index.ts';
import {
  apply,
  applyWorldPerSuite,
  assertCreatedOnceAtTheWire,
  fetch,
  proxyEnv,
  queuedWhileServiceDown,
  runOutboxCommand,
  upstreamApplicantCount,
  upstreamApplications,
  validFields,
} from './proxy-apply.test-support.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { eventually } from '../server/test/poll.ts';
import { scenarioMatrix } from './proxy-stores.ts';

// How long to wait for the outbox to reach a state before failing. A bound, not a
// timing: each wait normally ends within a second (backoff 50-400 ms), but the
// worker's timers run late on a loaded machine, where a tight bound made
// "503, then delivered" fail although nothing was wrong.
const SETTLE_MS = 60_000;

/** Says in the test's output what the sandbox received: create requests, and how many created an application. */
function wire(t: { diagnostic(message: string): void }, counts: { requests: number; succeeded: number }): void {
  t.diagnostic(`at the wire: ${counts.requests} create requests, ${counts.succeeded} created an application`);
}

for (const { store, duplicates } of await scenarioMatrix()) {
  describe(
    `delivery when the service fails (${store.name}, sandbox duplicate_applications: ${duplicates})`,
    { skip: store.skip },
    () => {
      // A slow service must outlast the candidate's deadline (1.5 s), never the attempt's own timeout.
      const world = applyWorldPerSuite({
        duplicates,
        env: { ...store.env, DELIVERY_DEADLINE_MS: '1500' },
        delivery: { upstreamTimeoutMs: 30_000 },
      });

      const status = async (reference: unknown) => (await world().applications.outbox.get(String(reference)))?.status;

      it('when the service answers 503, answers 202 queued, then delivers it once the service is back', async (t) => {
        await admin(world().sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
        const fields = validFields(world().openCampaignIds[0]!);
        const answer = await apply(world().proxyUrl, { fields });
        assert.equal(answer.status, 202);
        assert.equal(answer.body.status, 'queued');
        await eventually(
          async () => ((await world().applications.outbox.get(String(answer.body.reference)))?.attempts ?? 0) >= 3,
          { timeoutMs: SETTLE_MS, what: 'three attempts' },
        );
        assert.ok(['pending', 'delivering'].includes(String(await status(answer.body.reference))), 'still waiting');
        assert.equal(upstreamApplicantCount(world().sandbox, fields.email), 0);
        await admin(world().sandbox, 'POST', '/faults', { count: 0 });
        await eventually(async () => (await status(answer.body.reference)) === 'delivered', {
          timeoutMs: SETTLE_MS,
          what: 'delivery',
        });
        assert.equal(upstreamApplications(world().sandbox, fields.email).length, 1);
        wire(t, await assertCreatedOnceAtTheWire(world().sandbox, fields.email, world().openCampaignIds[0]!));
        assert.equal((await world().applications.outbox.get(String(answer.body.reference)))?.resume_bytes, null);
      });

      it('when connections to the service are dropped, answers 202 and delivers once they are not', async (t) => {
        await admin(world().sandbox, 'POST', '/faults', { count: 3, drop: true });
        const fields = validFields(world().openCampaignIds[1]!);
        const answer = await apply(world().proxyUrl, { fields });
        assert.ok(answer.status === 202 || answer.status === 201, `answered ${answer.status}`);
        await eventually(async () => (await status(answer.body.reference)) === 'delivered', {
          timeoutMs: SETTLE_MS,
          what: 'delivery',
        });
        assert.equal(upstreamApplications(world().sandbox, fields.email).length, 1);
        assert.equal(upstreamApplicantCount(world().sandbox, fields.email), 1);
        wire(t, await assertCreatedOnceAtTheWire(world().sandbox, fields.email, world().openCampaignIds[1]!));
      });

      it('when the service is slower than DELIVERY_DEADLINE_MS, answers 202 and the same attempt still delivers it, once', async (t) => {
        await admin(world().sandbox, 'POST', '/faults', { count: 1, delay_ms: 2_500 });
        const fields = validFields(world().openCampaignIds[2]!);
        const answer = await apply(world().proxyUrl, { fields });
        assert.equal(answer.status, 202);
        await eventually(async () => (await status(answer.body.reference)) === 'delivered', {
          timeoutMs: SETTLE_MS,
          what: 'delivery',
        });
        const row = await world().applications.outbox.get(String(answer.body.reference));
        assert.equal(row?.attempts, 1);
        assert.equal(row?.answered, 202);
        assert.equal(upstreamApplications(world().sandbox, fields.email).length, 1);
        wire(t, await assertCreatedOnceAtTheWire(world().sandbox, fields.email, world().openCampaignIds[2]!));
      });

      it('replays 202 for the same key after the application was delivered in the background', async (t) => {
        await admin(world().sandbox, 'POST', '/faults', { count: 1, status: 503 });
        const fields = validFields(world().openCampaignIds[3]!);
        const key = crypto.randomUUID();
        const first = await apply(world().proxyUrl, { fields, key });
        assert.equal(first.status, 202);
        await eventually(async () => (await status(first.body.reference)) === 'delivered', {
          timeoutMs: SETTLE_MS,
          what: 'delivery',
        });
        const again = await apply(world().proxyUrl, { fields, key });
        assert.equal(again.status, 202);
        assert.equal(again.text, first.text);
        assert.equal(upstreamApplications(world().sandbox, fields.email).length, 1);
        wire(t, await assertCreatedOnceAtTheWire(world().sandbox, fields.email, world().openCampaignIds[3]!));
      });
    },
  );
}

for (const { store, duplicates } of await scenarioMatrix()) {
  describe(
    `delivery when the answer of a successful create is lost (${store.name}, sandbox duplicate_applications: ${duplicates})`,
    { skip: store.skip },
    () => {
      let loseNext = false;
      // The sandbox cannot act and then lose its answer, so the client's fetch does: the
      // request reaches the service (which creates the applicant), then the connection "resets".
      const losingFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const url = input instanceof Request ? input.url : String(input);
        if (loseNext && url.endsWith('/jobboards/applicants')) {
          loseNext = false;
          await response.arrayBuffer();
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
          });
        }
        return response;
      };
      const world = applyWorldPerSuite({ duplicates, fetch: losingFetch, env: store.env });

      it('finds on the retry the application whose answer was lost, and sends nothing twice', async (t) => {
        loseNext = true;
        const fields = validFields(world().openCampaignIds[0]!);
        const answer = await apply(world().proxyUrl, { fields });
        assert.equal(answer.status, 202);
        assert.equal(upstreamApplications(world().sandbox, fields.email).length, 1, 'the service did create it');
        await eventually(
          async () => (await world().applications.outbox.get(String(answer.body.reference)))?.status === 'delivered',
          { timeoutMs: SETTLE_MS, what: 'delivery' },
        );
        const row = await world().applications.outbox.get(String(answer.body.reference));
        assert.equal(row?.outcome, 'found_delivered');
        assert.equal(row?.attempts, 2);
        assert.equal(upstreamApplications(world().sandbox, fields.email).length, 1);
        assert.equal(upstreamApplicantCount(world().sandbox, fields.email), 1);
        wire(t, await assertCreatedOnceAtTheWire(world().sandbox, fields.email, world().openCampaignIds[0]!));
      });
    },
  );
}

for (const { store, duplicates } of await scenarioMatrix()) {
  describe(
    `delivery when the service's rate limit is reached (${store.name}, sandbox duplicate_applications: ${duplicates})`,
    { skip: store.skip },
    () => {
      const world = applyWorldPerSuite({
        duplicates,
        sandboxRateLimitPerMinute: 8,
        clientRetry: { maxRateLimitWaits: 0 },
        env: store.env,
      });

      it('queues what the service refuses with 403 rate_limited and delivers every application exactly once afterwards', async (t) => {
        const emails: string[] = [];
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) => {
            const fields = validFields(world().openCampaignIds[i % world().openCampaignIds.length]!);
            emails.push(fields.email);
            return apply(world().proxyUrl, { fields });
          }),
        );
        const statuses = answers.map((a) => a.status);
        assert.ok(
          statuses.every((s) => s === 201 || s === 202),
          `answers: ${statuses.join(', ')}`,
        );
        assert.ok(statuses.includes(202), 'the limit was reached');
        world().sandbox.context.rateLimiter.clear();
        await eventually(async () => (await world().applications.outbox.counts()).delivered === 10, {
          timeoutMs: SETTLE_MS,
          what: 'all delivered',
        });
        const counts = { requests: 0, succeeded: 0 };
        for (const [i, email] of emails.entries()) {
          assert.equal(upstreamApplications(world().sandbox, email).length, 1, email);
          const one = await assertCreatedOnceAtTheWire(
            world().sandbox,
            email,
            world().openCampaignIds[i % world().openCampaignIds.length]!,
          );
          counts.requests += one.requests;
          counts.succeeded += one.succeeded;
        }
        wire(t, counts);
      });
    },
  );
}

describe('dead letters and the outbox command', () => {
  let offset = 0;
  const world = applyWorldPerSuite({
    env: { DEAD_LETTER_AFTER_HOURS: '1' },
    clock: { now: () => Date.now() + offset },
  });

  it('dead-letters an application not delivered within DEAD_LETTER_AFTER_HOURS, and `outbox retry` delivers it', async () => {
    const { fields, reference } = await queuedWhileServiceDown(world(), world().openCampaignIds[0]!);
    offset = 2 * 60 * 60 * 1000;
    await eventually(async () => (await world().applications.outbox.get(reference))?.status === 'dead', {
      timeoutMs: SETTLE_MS,
      what: 'dead letter',
    });
    offset = 0;
    assert.notEqual(
      (await world().applications.outbox.get(reference))?.resume_bytes,
      null,
      'a dead letter keeps its resume for a replay',
    );
    const metrics = await (await fetch(world().metricsUrl)).text();
    assert.match(metrics, /^applications_dead_lettered_total\{outcome="expired"\} 1/m);

    const listed = await runOutboxCommand(['list', '--status', 'dead', '--data-dir', world().config.dataDir]);
    assert.ok(listed.includes(reference));
    assert.equal(listed.includes(fields.email), false, 'the list shows no personal data');

    await admin(world().sandbox, 'POST', '/faults', { count: 0 });
    const retried = await runOutboxCommand(['retry', reference, '--data-dir', world().config.dataDir]);
    assert.match(retried, /queued/);
    await eventually(async () => (await world().applications.outbox.get(reference))?.status === 'delivered', {
      timeoutMs: SETTLE_MS,
      what: 'delivery after retry',
    });
    assert.equal(upstreamApplications(world().sandbox, fields.email).length, 1);

    const purged = await runOutboxCommand(['purge-delivered', '--data-dir', world().config.dataDir]);
    assert.match(purged, /Deleted \d+/);
    assert.equal(await world().applications.outbox.get(reference), undefined);
  });
});

describe("when the proxy's keys are refused by the service", () => {
  const world = applyWorldPerSuite();
  before(async () => {
    // The secret was rotated upstream after the first sync, and the proxy's token has expired since (the
    // sandbox's clock moves 5 hours on): the token is refused, and so is a new one asked with the old secret.
    world().sandbox.context.db.run(
      'UPDATE api_clients SET secret_key = ? WHERE private_key = ?',
      'rotated-elsewhere-0000',
      DEMO_KEYS.jobboard.private_key,
    );
    await admin(world().sandbox, 'PUT', '/clock', { now: new Date(Date.now() + 5 * 60 * 60 * 1000).toISOString() });
  });

  it('keeps the application queued (202) and answers no key, token or upstream text', async () => {
    const answer = await apply(world().proxyUrl, { fields: validFields(world().openCampaignIds[0]!) });
    assert.equal(answer.status, 202);
    assert.match(
      String((await world().applications.outbox.get(String(answer.body.reference)))?.last_error),
      /^invalid_credentials \(401\)|^token_expired \(401\)/,
    );
    for (const secret of [
      DEMO_KEYS.jobboard.private_key,
      DEMO_KEYS.jobboard.secret_key,
      'invalid_credentials',
      'Bearer',
    ]) {
      assert.equal(answer.text.includes(secret), false);
      assert.equal(JSON.stringify([...answer.headers]).includes(secret), false);
    }
  });
});

describe('graceful shutdown of startProxy', () => {
  it('finishes an application in flight before stopping, and delivers it', async () => {
    const sandbox = await startSandbox({ port: 0, admin: true, seed: 'demo' });
    const dataDir = mkdtempSync(join(tmpdir(), 'jbc-shutdown-'));
    try {
      const proxy = await startProxy({
        config: loadProxyConfig(proxyEnv(sandbox, dataDir)),
        logger: pino({ level: 'silent' }),
      });
      await proxy.catalogue.syncNow();
      const campaign = proxy.catalogue.store.search({ page: 1, per_page: 1 }).items[0]!.id;
      await admin(sandbox, 'POST', '/faults', { count: 1, delay_ms: 700 });
      const fields = validFields(campaign);
      const pending = apply(proxy.url, { fields });
      await eventually(async () => (await proxy.applications.outbox.list({ status: 'delivering' })).length === 1, {
        timeoutMs: SETTLE_MS,
        what: 'the attempt to start',
      });
      const closed = proxy.close();
      const answer = await pending;
      await closed;
      assert.equal(answer.status, 201);
      assert.equal(upstreamApplications(sandbox, fields.email).length, 1);
    } finally {
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

for (const { store, duplicates } of await scenarioMatrix()) {
  describe(
    `delivery under mixed faults (${store.name}, sandbox duplicate_applications: ${duplicates})`,
    { skip: store.skip },
    () => {
      let creates = 0;
      // Every third create's answer is lost after the service acted on it.
      const lossyFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const url = input instanceof Request ? input.url : String(input);
        if (
          (url.endsWith('/jobboards/applicants') || url.endsWith('/applications')) &&
          response.status === 201 &&
          ++creates % 3 === 0
        ) {
          await response.arrayBuffer();
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
          });
        }
        return response;
      };
      const world = applyWorldPerSuite({
        duplicates,
        fetch: lossyFetch,
        env: { ...store.env, DELIVERY_DEADLINE_MS: '500' },
      });

      it('delivers 20 concurrent applications (10 of returning candidates) exactly once each through drops, 503s and lost answers', async (t) => {
        const emails = Array.from({ length: 10 }, (_, i) => `mixed.${process.pid}.${i}@example.org`);
        const [first, second] = world().openCampaignIds as [number, number];
        await admin(world().sandbox, 'POST', '/faults', { count: 6, drop: true });
        const firstWave = Promise.all(
          emails.map((email) => apply(world().proxyUrl, { fields: validFields(first, email) })),
        );
        // The second faults are armed once the first are used up, not after a guessed pause.
        await eventually(() => world().sandbox.context.faults.remaining === 0, {
          timeoutMs: SETTLE_MS,
          what: 'the dropped connections to be used',
        });
        await admin(world().sandbox, 'POST', '/faults', { count: 8, status: 503 });
        const secondWave = Promise.all(
          emails.map((email) => apply(world().proxyUrl, { fields: validFields(second, email) })),
        );
        const answers = [...(await firstWave), ...(await secondWave)];
        assert.ok(
          answers.every((a) => a.status === 201 || a.status === 202),
          `answers: ${answers.map((a) => a.status).join(', ')}`,
        );
        await eventually(async () => (await world().applications.outbox.counts()).delivered === 20, {
          timeoutMs: SETTLE_MS,
          what: 'all 20 delivered',
        });
        for (const email of emails) {
          assert.equal(upstreamApplicantCount(world().sandbox, email), 1, email);
          assert.deepEqual(
            upstreamApplications(world().sandbox, email)
              .map((a) => a.campaign_id)
              .sort(),
            [first, second].sort(),
            email,
          );
        }
        assert.equal(world().sandbox.context.faults.remaining, 0, 'every 503 was answered');
        assert.ok(creates >= 20);
        // Drops, 503s and lost answers each cost at least one more attempt.
        const retried = (await world().applications.outbox.list()).filter((row) => row.attempts > 1);
        assert.ok(retried.length >= 3, `${retried.length} applications needed a retry`);
        const counts = { requests: 0, succeeded: 0 };
        for (const email of emails) {
          for (const campaign of [first, second]) {
            const one = await assertCreatedOnceAtTheWire(world().sandbox, email, campaign);
            counts.requests += one.requests;
            counts.succeeded += one.succeeded;
          }
        }
        wire(t, counts);
      });
    },
  );
}
