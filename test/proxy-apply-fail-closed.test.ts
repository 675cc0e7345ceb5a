// With DATABASE_URL the apply limits are counted in the shared database: when
// it cannot count (the database refuses connections, the counters cannot be
// read), an application is refused with 503 and Retry-After, never let
// through uncounted, and nothing is stored. Real PostgreSQL, real faults.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../server/test/postgres.ts';
import { eventually } from '../server/test/poll.ts';
import {
  applyInTwoParts,
  applyWorldPerSuite,
  upstreamApplicantCount,
  validFields,
} from './proxy-apply.test-support.ts';
import type { Fields, RawAnswer } from './proxy-apply.test-support.ts';
import { postgresStore } from './proxy-stores.ts';

const store = await postgresStore();

describe('apply limits counted in PostgreSQL fail closed', { skip: store.skip }, () => {
  const world = applyWorldPerSuite({ env: { ...store.env, APPLY_RATE_LIMIT_PER_IP: '100' } });
  /** A connection to the proxy's database, for the test's own reads and faults. */
  let db: pg.Pool;
  /** A connection to the server's own database: the proxy's may refuse connections. */
  let server: pg.Pool;
  const name = () => new URL(store.env.DATABASE_URL!).pathname.slice(1);
  const storedCount = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox')).rows[0]!.n;

  /** Refused 503 not_ready with Retry-After, the failure logged as an error (`logged`), nothing stored or sent on. */
  async function assertRefusedUncounted(answer: RawAnswer, fields: Fields, logged: { event: string; limit?: string }) {
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'not_ready');
    assert.equal(answer.headers['retry-after'], '30');
    assert.ok(
      world().logs.lines.some(
        (line) => line.event === logged.event && line.limit === logged.limit && line.level === 50,
      ),
      'the failure is logged as an error',
    );
    assert.equal(await storedCount(), 0);
    assert.equal(upstreamApplicantCount(world().sandbox, fields.email), 0);
  }

  before(async () => {
    server = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    db = new pg.Pool({ connectionString: store.env.DATABASE_URL, max: 1 });
    db.on('error', () => {});
  });
  afterEach(async () => {
    // Whatever a test broke comes back before the next one.
    await server.query(`ALTER DATABASE ${name()} WITH ALLOW_CONNECTIONS true`);
    await db.query('ALTER TABLE IF EXISTS rate_counters_away RENAME TO rate_counters');
  });
  after(async () => {
    await db?.end();
    await server?.end();
  });

  it('when the database refuses connections, refuses the application with 503 not_ready and Retry-After before reading it, and stores nothing', async () => {
    const fields = validFields(world().openCampaignIds[0]!);
    await server.query(`ALTER DATABASE ${name()} WITH ALLOW_CONNECTIONS false`);
    await server.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name()],
    );

    const answer = await applyInTwoParts(world().proxyUrl, fields, async () => {});
    assert.equal(answer.headers.connection, 'close');

    await server.query(`ALTER DATABASE ${name()} WITH ALLOW_CONNECTIONS true`);
    // The queue's room on disk is the first thing read from the store.
    await assertRefusedUncounted(answer, fields, { event: 'queue_ceiling_error' });
  });

  it('when the per-address counter cannot be read, refuses the application with 503 not_ready and Retry-After before reading it, and stores nothing', async () => {
    const fields = validFields(world().openCampaignIds[0]!);
    await db.query('ALTER TABLE rate_counters RENAME TO rate_counters_away');

    const answer = await applyInTwoParts(world().proxyUrl, fields, async () => {});
    assert.equal(answer.headers.connection, 'close');
    await assertRefusedUncounted(answer, fields, { event: 'rate_counter_error', limit: 'per-address' });
  });

  it('when the per-email counter cannot be read after the per-address one counted, refuses with 503 not_ready and Retry-After, and stores nothing', async () => {
    const fields = validFields(world().openCampaignIds[0]!);
    const before = (
      await db.query<{ n: number }>(
        "SELECT coalesce(sum(count), 0)::int AS n FROM rate_counters WHERE bucket LIKE 'ip:%'",
      )
    ).rows[0]!.n;

    const answer = await applyInTwoParts(world().proxyUrl, fields, async () => {
      // The per-address post is counted once the headers are in; then the counters go away.
      await eventually(
        async () =>
          (
            await db.query<{ n: number }>(
              "SELECT coalesce(sum(count), 0)::int AS n FROM rate_counters WHERE bucket LIKE 'ip:%'",
            )
          ).rows[0]!.n > before,
        { timeoutMs: 10_000, what: 'the per-address counter to count the post' },
      );
      await db.query('ALTER TABLE rate_counters RENAME TO rate_counters_away');
    });
    await assertRefusedUncounted(answer, fields, { event: 'rate_counter_error', limit: 'per-email' });
  });
});
