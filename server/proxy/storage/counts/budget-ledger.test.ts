// One request budget for several proxy instances on one PostgreSQL database:
// three RequestBudgets, each on its own pool as three processes would be,
// never spend more than the limit in any window together (checked on the
// times each token was handed out, and at the sandbox's own counter over real
// HTTP), high priority goes first across instances, and a pause seen by one
// holds the others. Windows are shortened to a second or two so the waits are short.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { createClient } from '../../../client/index.ts';
import type { RequestBudget } from '../../../client/index.ts';
import { startSandbox } from '../../../sandbox/index.ts';
import { eventually } from '../../../test/poll.ts';
import { freshDatabase, freshMigratedDatabase, skipWithoutPostgres } from '../../../test/postgres.ts';
import { admin } from '../../../test/sandbox-admin.ts';
import { PostgresBudgetLedger, createSharedBudget } from './budget-ledger.ts';
import type { SharedBudgetOptions } from './budget-ledger.ts';

const skip = skipWithoutPostgres();
const url = skip ? '' : await freshMigratedDatabase();
/** A database where the migrations never ran. */
const bareUrl = skip ? '' : await freshDatabase();

/** The most of `times` (ms, sorted) that fall in any span shorter than `spanMs`. */
function mostInAnySpan(times: number[], spanMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= spanMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('shared upstream budget on PostgreSQL', { skip }, () => {
  const pools: pg.Pool[] = [];

  after(() => Promise.all(pools.map((p) => p.end())));

  /** `count` budgets named `name`, each on a pool of its own, as separate instances. */
  function instances(count: number, name: string, options: Omit<SharedBudgetOptions, 'name'>): RequestBudget[] {
    return Array.from({ length: count }, () => {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      pools.push(pool);
      return createSharedBudget(pool, { name, ...options });
    });
  }

  it('three instances spending at once never hand out more than the limit in any window, and do spend it', async () => {
    const limit = 8;
    const windowMs = 800;
    // Every token as the ledger recorded it (the rows themselves are forgotten once out of the window).
    const audit = new pg.Client({ connectionString: url });
    await audit.connect();
    await audit.query(`
      CREATE TABLE spent_audit (spent_at timestamptz NOT NULL);
      CREATE FUNCTION spent_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO spent_audit VALUES (NEW.spent_at); RETURN NEW; END $$;
      CREATE TRIGGER spent_audit AFTER INSERT ON upstream_budget_spent FOR EACH ROW WHEN (NEW.budget = 'spend') EXECUTE FUNCTION spent_audit();
    `);
    try {
      const budgets = instances(3, 'spend', { perMinute: limit, windowMs, reservedForHigh: 2 });
      let handedOut = 0;
      await Promise.all(
        budgets.flatMap((budget, b) =>
          Array.from({ length: 10 }, async (_, i) => {
            await budget.acquire(i % 3 === b ? 'high' : 'low');
            handedOut += 1;
          }),
        ),
      );
      assert.equal(handedOut, 30);
      const { rows } = await audit.query<{ ms: string }>(
        'SELECT (extract(epoch FROM spent_at) * 1000)::text AS ms FROM spent_audit ORDER BY spent_at',
      );
      const spentAt = rows.map((r) => Number(r.ms));
      assert.equal(spentAt.length, 30);
      const most = mostInAnySpan(spentAt, windowMs);
      assert.ok(most <= limit, `${most} tokens spent within one ${windowMs} ms window, limit ${limit}`);
      // 30 tokens at 8 a window need more than three windows: the budget was shared, not tripled.
      assert.ok(spentAt.at(-1)! - spentAt[0]! > 3 * windowMs, `30 tokens within ${spentAt.at(-1)! - spentAt[0]!} ms`);
    } finally {
      await audit.end();
    }
  });

  it('twenty takes arriving at the same moment from twenty connections grant no more than the limit', async () => {
    const limits = { perMinute: 5, windowMs: 60_000, reservedForHigh: 0 };
    const ledgers = Array.from({ length: 20 }, () => {
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      pools.push(pool);
      return new PostgresBudgetLedger(pool, 'burst', limits);
    });
    // Connected first, so that the takes themselves run side by side.
    await Promise.all(pools.slice(-20).map((pool) => pool.query('SELECT 1')));
    const answers = await Promise.all(ledgers.map((ledger) => ledger.take('high')));
    assert.equal(answers.filter((a) => a.granted).length, 5);
  });

  it('on a database without its tables, a request fails saying to run the migrations', async () => {
    const pool = new pg.Pool({ connectionString: bareUrl, max: 1 });
    pools.push(pool);
    await assert.rejects(
      createSharedBudget(pool).acquire('high'),
      /shared request budget's tables are missing.*run the database migrations/,
    );
  });

  it('keeps the reserve for high priority across instances: a low-priority sync elsewhere cannot spend it', async () => {
    const [sync, apply] = instances(2, 'reserve', { perMinute: 5, windowMs: 10_000, reservedForHigh: 2 });
    for (let i = 0; i < 3; i++) await sync!.acquire('low');
    const blocked = new AbortController();
    const fourthLow = sync!.acquire('low', blocked.signal).then(
      () => 'granted',
      () => 'aborted',
    );
    // The other instance's applications still get the two reserved tokens at once.
    await apply!.acquire('high');
    await apply!.acquire('high');
    assert.equal(sync!.waiting, 1, 'the low-priority request still waits');
    blocked.abort();
    assert.equal(await fourthLow, 'aborted');
  });

  it('serves a high-priority request waiting in one instance before the low-priority ones waiting in another', async () => {
    const windowMs = 1_000;
    const [sync, apply] = instances(2, 'order', { perMinute: 3, windowMs, reservedForHigh: 0 });
    for (let i = 0; i < 3; i++) await sync!.acquire('low');
    const order: string[] = [];
    const lows = Array.from({ length: 5 }, (_, i) => sync!.acquire('low').then(() => order.push(`low ${i}`)));
    await eventually(() => sync!.waiting === 5, { timeoutMs: 2_000, what: 'the low-priority requests to queue' });
    const high = apply!.acquire('high').then(() => order.push('high'));
    await Promise.all([high, ...lows]);
    assert.equal(order[0], 'high', `order of service: ${order.join(', ')}`);
  });

  it('when one instance meets rate_limited, the others wait out the same pause', async () => {
    const [first, second] = instances(2, 'pause', { perMinute: 100, windowMs: 60_000 });
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    try {
      first!.pauseFor(1_500);
      const pausedUntil = await eventually(
        async () => {
          const { rows } = await check.query<{ until: Date }>(
            "SELECT paused_until AS until FROM upstream_budget_state WHERE budget = 'pause' AND paused_until > now()",
          );
          return rows[0]?.until;
        },
        { timeoutMs: 2_000, what: 'the pause to reach the database' },
      );
      await second!.acquire('high');
      const grantedAt = Date.now();
      assert.ok(
        grantedAt >= pausedUntil.getTime() - 5,
        `granted ${pausedUntil.getTime() - grantedAt} ms before the pause ended`,
      );
    } finally {
      await check.end();
    }
  });

  it('three real clients sharing the budget stay under the sandbox limit over HTTP: never rate_limited, never more than the limit in a window', async () => {
    const serverLimit = 20;
    const serverWindowMs = 2_000;
    const sandbox = await startSandbox({
      admin: true,
      rateLimitPerMinute: serverLimit,
      rateLimitWindowMs: serverWindowMs,
    });
    try {
      const company = await admin<{ id: number }>(sandbox, 'POST', '/companies', { name: 'Acme' });
      const keys = await admin<{ private_key: string; secret_key: string }>(sandbox, 'POST', '/clients', {
        company_id: company.id,
      });
      // The client's window is the server's plus a second of slack, as its default (62 s) adds slack to the service's minute.
      const budgets = instances(3, 'sandbox', { perMinute: serverLimit, windowMs: serverWindowMs + 1_000 });
      const clients = budgets.map((budget) =>
        createClient({ baseUrl: sandbox.url, privateKey: keys.private_key, secretKey: keys.secret_key, budget }),
      );
      await Promise.all(clients.flatMap((client) => Array.from({ length: 15 }, () => client.channels.list())));

      const stats = await admin<{ clients: { total: number; max_in_window: number; rate_limited: number }[] }>(
        sandbox,
        'GET',
        '/stats',
      );
      assert.equal(stats.clients.length, 1);
      const [traffic] = stats.clients;
      assert.equal(traffic!.rate_limited, 0);
      assert.equal(traffic!.total, 45);
      assert.ok(traffic!.max_in_window <= serverLimit, `${traffic!.max_in_window} requests in one window`);
    } finally {
      await sandbox.close();
    }
  });
});

describe('one PostgresBudgetLedger: names, pauses, tokens left and errors', { skip }, () => {
  const pools: pg.Pool[] = [];
  after(() => Promise.all(pools.map((p) => p.end())));

  function pool(on: string): pg.Pool {
    const made = new pg.Pool({ connectionString: on, max: 1 });
    pools.push(made);
    return made;
  }

  const limits = { perMinute: 5, windowMs: 60_000, reservedForHigh: 2 };

  it('refuses a name outside a-z, digits and ._:- (anywhere in it), saying which characters are allowed', () => {
    const p = pool(url);
    for (const bad of ['Upstream', '!upstream', 'upstream!', '', 'x'.repeat(101)]) {
      assert.throws(
        () => new PostgresBudgetLedger(p, bad, limits),
        (error: Error) => {
          assert.ok(error.message.includes(`shared budget name "${bad}" is not valid`), error.message);
          assert.match(error.message, /letters a-z, digits and \._:- only, 1 to 100 characters/);
          return true;
        },
      );
    }
    assert.doesNotThrow(() => new PostgresBudgetLedger(p, 'client.7:sync_1-b', limits));
  });

  it('counts the tokens left per priority from its last take: the high-priority reserve is not for low', async () => {
    const ledger = new PostgresBudgetLedger(pool(url), 'left', limits);
    assert.equal(ledger.available('high'), 5);
    assert.equal(ledger.available('low'), 3);
    assert.deepEqual(await ledger.take('high'), { granted: true });
    assert.deepEqual(await ledger.take('low'), { granted: true });
    assert.equal(ledger.available('high'), 3);
    assert.equal(ledger.available('low'), 1);
  });

  it('refuses a take once the window is spent, saying when to ask again', async () => {
    const ledger = new PostgresBudgetLedger(pool(url), 'spent', { perMinute: 1, windowMs: 60_000, reservedForHigh: 0 });
    assert.deepEqual(await ledger.take('high'), { granted: true });
    const refused = await ledger.take('high');
    assert.equal(refused.granted, false);
    assert.ok(!refused.granted && refused.retryInMs > 0 && refused.retryInMs <= 60_000, JSON.stringify(refused));
    assert.equal(ledger.available('high'), 0);
  });

  it('holds its own pause at once, without the database: on a database without the tables, takes wait and the failed write says to run the migrations', async () => {
    const errors: { error: unknown; what: string }[] = [];
    const ledger = new PostgresBudgetLedger(pool(bareUrl), 'upstream', limits, (error, what) =>
      errors.push({ error, what }),
    );
    ledger.pause(30_000);
    assert.equal(ledger.available('high'), 0);
    assert.equal(ledger.available('low'), 0);
    const answer = await ledger.take('high');
    assert.equal(answer.granted, false);
    assert.ok(!answer.granted && answer.retryInMs > 20_000 && answer.retryInMs <= 30_000, JSON.stringify(answer));
    await eventually(() => errors.length === 1, { timeoutMs: 5_000, what: 'the failed pause write to be told' });
    const [{ error, what }] = errors as [{ error: Error & { cause?: { code?: string } }; what: string }];
    assert.match(error.message, /shared request budget's tables are missing.*run the database migrations/);
    assert.equal(error.cause?.code, '42P01');
    assert.match(what, /pause not written/);
  });

  it('passes on a failed pause write that is not about missing tables as it is', async () => {
    const errors: unknown[] = [];
    const ledger = new PostgresBudgetLedger(pool(url), 'odd-pause', limits, (error) => errors.push(error));
    ledger.pause(1e300);
    await eventually(() => errors.length === 1, { timeoutMs: 5_000, what: 'the failed pause write to be told' });
    const [error] = errors as [Error & { code?: string }];
    assert.equal(typeof error.code, 'string');
    assert.doesNotMatch(error.message, /tables are missing/);
  });
});
