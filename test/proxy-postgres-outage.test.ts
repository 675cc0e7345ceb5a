// PostgreSQL going away while the proxy runs (its connections killed and new
// ones refused, as a restart does), then coming back: the catalogue is
// answered from memory throughout, applications are refused with 503 and
// Retry-After while the database is gone (never 500), /readyz says so, and
// without a restart the proxy stores, delivers and syncs again. Every
// application accepted before the outage is created exactly once, counted at
// the sandbox's wire with duplicates accepted there. Real PostgreSQL.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { CATALOGUE_SYNC_LOCK } from '../server/proxy/storage/catalogue/catalogue-shared.ts';
import { TEST_DATABASE_URL } from '../server/test/postgres.ts';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import {
  apply,
  applyInTwoParts,
  assertCreatedOnceAtTheWire,
  fetch,
  startApplyWorld,
  upstreamApplicantCount,
  validFields,
} from './proxy-apply.test-support.ts';
import type { ApplyWorld, Fields } from './proxy-apply.test-support.ts';
import { postgresStore } from './proxy-stores.ts';

const store = await postgresStore();
const keyStore = await postgresStore();

describe('PostgreSQL going away and coming back', { skip: store.skip }, () => {
  let world: ApplyWorld;
  /** The server's own database: the proxy's refuses connections during the outage. */
  let server: pg.Pool;
  const name = () => new URL(store.env.DATABASE_URL!).pathname.slice(1);
  const readiness = async () => {
    const response = await fetch(`${world.proxyUrl}/readyz`);
    return {
      status: response.status,
      database: ((await response.json()) as { checks: { database?: { status: string } } }).checks.database?.status,
    };
  };

  before(async () => {
    // A short lease: an attempt whose record could not be written while the database was gone is taken back soon after.
    world = await startApplyWorld({
      duplicates: 'accept',
      env: { ...store.env, DELIVERY_DEADLINE_MS: '300' },
      delivery: { leaseMs: 3_000 },
    });
    server = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
  });
  after(async () => {
    await server?.query(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS true`).catch(() => {});
    await admin(world.sandbox, 'POST', '/faults', { count: 0 }).catch(() => {});
    await world?.close();
    await server?.end();
  });

  it(
    'serves the catalogue from memory and answers applies 503 while it is gone, then stores, delivers each accepted application exactly once and syncs again, without a restart',
    { timeout: 120_000 },
    async () => {
      const [campaignId] = world.openCampaignIds;
      assert.ok(campaignId !== undefined);
      // The service fails: the applications wait in the queue across the outage.
      await admin(world.sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
      const queued: Fields[] = [];
      for (let i = 0; i < 3; i++) {
        const fields = validFields(campaignId);
        const answer = await apply(world.proxyUrl, { fields });
        assert.equal(answer.status, 202, answer.text);
        queued.push(fields);
      }

      // The database goes while an application's body is on its way: its limits were counted, its storing meets the outage.
      const refusedMidway = validFields(campaignId);
      const midway = await applyInTwoParts(world.proxyUrl, refusedMidway, async () => {
        await server.query(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS false`);
        await server.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name()],
        );
      });
      assert.equal(midway.status, 503, JSON.stringify(midway.body));
      assert.equal(midway.body.code, 'not_ready');
      assert.equal(midway.headers['retry-after'], '30');
      await admin(world.sandbox, 'POST', '/faults', { count: 0 });

      const list = await fetch(`${world.proxyUrl}/api/campaigns`);
      assert.equal(list.status, 200);
      const detail = await fetch(`${world.proxyUrl}/api/campaigns/${campaignId}`);
      assert.equal(detail.status, 200);
      const refused = validFields(campaignId);
      const during = await apply(world.proxyUrl, { fields: refused });
      assert.equal(during.status, 503, during.text);
      assert.ok(during.headers.get('retry-after') !== null, 'says when to try again');
      await eventually(async () => (await readiness()).database === 'unreachable', {
        timeoutMs: 15_000,
        what: '/readyz to say the database is unreachable',
      });
      assert.equal((await readiness()).status, 503);

      await server.query(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS true`);
      await eventually(async () => (await readiness()).status === 200, {
        timeoutMs: 15_000,
        what: '/readyz 200 once the database answers again',
      });
      const afterwards = validFields(campaignId);
      const stored = await apply(world.proxyUrl, { fields: afterwards });
      assert.ok(stored.status === 201 || stored.status === 202, stored.text);

      await eventually(async () => (await world.applications.outbox.counts()).delivered === queued.length + 1, {
        timeoutMs: 60_000,
        what: 'every accepted application delivered',
      });
      for (const fields of [...queued, afterwards])
        await assertCreatedOnceAtTheWire(world.sandbox, fields.email, campaignId);
      assert.equal(upstreamApplicantCount(world.sandbox, refusedMidway.email), 0);
      assert.equal(upstreamApplicantCount(world.sandbox, refused.email), 0);

      // The catalogue's dedicated connection (LISTEN, the sync lock) comes back: this instance syncs again.
      await world.catalogue.syncNow();
      const { rows } = await server.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.objid = $1 AND l.granted AND a.datname = $2",
        [CATALOGUE_SYNC_LOCK, name()],
      );
      assert.equal(rows[0]!.n, 1, 'the sync lock is held again');
    },
  );
});

describe('PostgreSQL going away after an Idempotency-Key was claimed', { skip: store.skip }, () => {
  let world: ApplyWorld;
  let server: pg.Pool;
  /** What the captcha provider does before it answers: the database goes while the application is being checked. */
  let beforeVerdict: () => Promise<void> = async () => {};
  let captcha: ReturnType<typeof createServer>;
  const name = () => new URL(keyStore.env.DATABASE_URL!).pathname.slice(1);

  before(async () => {
    captcha = createServer((req, res) => {
      req.resume();
      beforeVerdict().then(
        () => res.setHeader('content-type', 'application/json').end(JSON.stringify({ success: true })),
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => captcha.listen(0, '127.0.0.1', resolve));
    const verifyUrl = `http://127.0.0.1:${(captcha.address() as AddressInfo).port}/siteverify`;
    // The default lease of a claimed key: a key left claimed would hold a retry for minutes.
    world = await startApplyWorld({
      duplicates: 'accept',
      env: {
        ...keyStore.env,
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SECRET: 'secret',
        CAPTCHA_SITE_KEY: 'site',
        CAPTCHA_VERIFY_URL: verifyUrl,
      },
    });
    server = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
  });
  after(async () => {
    await server?.query(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS true`).catch(() => {});
    await world?.close();
    await server?.end();
    await new Promise((resolve) => captcha?.close(resolve));
  });

  it('a retry with the same key, once the database is back, is stored at once: the key its first request claimed is not left held', async () => {
    const [campaignId] = world.openCampaignIds;
    assert.ok(campaignId !== undefined);
    const fields = { ...validFields(campaignId), captcha_token: 'token' };
    const key = crypto.randomUUID();
    beforeVerdict = async () => {
      await server.query(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS false`);
      await server.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name()],
      );
    };
    const first = await apply(world.proxyUrl, { fields, key });
    assert.equal(first.status, 503, first.text);

    beforeVerdict = async () => {};
    await server.query(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS true`);
    const retry = await eventually(
      async () => {
        const answer = await apply(world.proxyUrl, { fields, key });
        // 503 while the pool has not reconnected yet; anything else is the answer.
        return answer.status === 503 ? undefined : answer;
      },
      { timeoutMs: 15_000, what: 'an answer other than 503 once the database is back' },
    );
    assert.ok(retry.status === 201 || retry.status === 202, `${retry.status} ${retry.text}`);
    await eventually(async () => (await world.applications.outbox.counts()).delivered === 1, {
      timeoutMs: 15_000,
      what: 'the application delivered',
    });
    await assertCreatedOnceAtTheWire(world.sandbox, fields.email, campaignId);
  });
});
