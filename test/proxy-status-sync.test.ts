// The status after delivery, against the sandbox over real HTTP: the proxy's
// status sync reads the company's status of the applications it delivered,
// stores it, tells onStatusChanged of a change once, reads each application
// at most once per 6 hours, spends at most 10% of the request budget (counted
// at the wire), stops with one log line and a metric when the keys may not
// read applications (applications still work), and sends nothing with
// STATUS_SYNC_DAYS=0. On PostgreSQL, two instances check each application
// once per period between them. Requests are counted where they leave the
// proxy's client (its fetch); time is moved with the proxy's clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StatusChange } from '../server/proxy/applications/index.ts';
import { eventually } from '../server/test/poll.ts';
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { metricValue } from './cli-processes.ts';
import { apply, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld, WorldOptions } from './proxy-apply.test-support.ts';

const HOUR = 60 * 60 * 1000;
const PERIOD = 6 * HOUR;
/** The client's budget window in these tests: the status sync's 12 requests are per this window. */
const WINDOW_MS = 3_000;

/** Every GET /applications/:id the proxy's client sends: the application's id and when. */
interface Wire {
  gets: { id: number; at: number }[];
  fetch: typeof fetch;
}

function wire(): Wire {
  const gets: Wire['gets'] = [];
  return {
    gets,
    fetch: (input, init) => {
      const request = input instanceof Request ? input : undefined;
      const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
      const path = new URL(request?.url ?? String(input)).pathname;
      const id = /\/applications\/(\d+)$/.exec(path)?.[1];
      if (method === 'GET' && id !== undefined) gets.push({ id: Number(id), at: performance.now() });
      return globalThis.fetch(input, init);
    },
  };
}

/** A clock the test moves (the proxy's, for its store and its status sync). */
function movableClock() {
  let offset = 0;
  return { now: () => Date.now() + offset, move: (ms: number) => (offset += ms) };
}

async function metric(world: ApplyWorld, name: string): Promise<number | undefined> {
  return metricValue(await (await fetch(world.metricsUrl)).text(), name);
}

/** Applies once, and waits until it is delivered; answers the reference and the service's application id. */
async function delivered(world: ApplyWorld, campaign: number): Promise<{ reference: string; id: number }> {
  const answer = await apply(world.proxyUrl, { fields: validFields(campaign) });
  assert.ok(answer.status === 201 || answer.status === 202, answer.text);
  const reference = String(answer.body.reference);
  const id = await eventually(async () => (await world.applications.outbox.get(reference))?.upstream_application_id, {
    timeoutMs: 20_000,
    what: 'delivery',
  });
  return { reference, id };
}

const quiet: WorldOptions['statusSync'] = { intervalMs: 24 * HOUR };

describe('status sync against the sandbox', () => {
  const clock = movableClock();
  const seen = wire();
  const changes: StatusChange[] = [];
  let world: ApplyWorld;
  let campaign: number;
  const getsOf = (id: number) => seen.gets.filter((g) => g.id === id).length;
  const companyStatus = (id: number) =>
    world.sandbox.context.db.get<{ status: string }>('SELECT status FROM applications WHERE id = ?', id)!.status;

  before(async () => {
    world = await startApplyWorld({
      clock,
      fetch: seen.fetch,
      budgetWindowMs: WINDOW_MS,
      statusSync: quiet,
      onStatusChanged: (change) => {
        changes.push(change);
      },
    });
    [campaign] = world.openCampaignIds as [number];
  });
  after(() => world.close());

  it("stores the company's status, and tells onStatusChanged once when the company changes it", async () => {
    const { reference, id } = await delivered(world, campaign);
    const first = companyStatus(id);
    await world.applications.statusSync.runOnce();
    assert.equal(getsOf(id), 1);
    assert.equal((await world.applications.outbox.get(reference))?.company_status, first);
    assert.deepEqual(changes, [], 'the first status read is the starting point, not a change');

    await admin(world.sandbox, 'PUT', `/applications/${id}/status`, { value: 'interview' });
    clock.move(PERIOD);
    await world.applications.statusSync.runOnce();
    assert.equal((await world.applications.outbox.get(reference))?.company_status, 'interview');
    const told: StatusChange[] = changes;
    assert.equal(told.length, 1);
    const { checkedAt, ...change } = told[0]!;
    assert.deepEqual(change, { reference, previous: first, status: 'interview' });
    assert.ok(checkedAt instanceof Date);

    clock.move(PERIOD);
    await world.applications.statusSync.runOnce();
    assert.equal(getsOf(id), 3);
    assert.equal(changes.length, 1, 'the same status again is no change');
  });

  it('reads each application at most once per 6 hours', async () => {
    const { id } = await delivered(world, campaign);
    await world.applications.statusSync.runOnce();
    await world.applications.statusSync.runOnce();
    assert.equal(getsOf(id), 1);
    clock.move(PERIOD - 60_000);
    await world.applications.statusSync.runOnce();
    assert.equal(getsOf(id), 1, 'not within the period');
    clock.move(60_000);
    await world.applications.statusSync.runOnce();
    assert.equal(getsOf(id), 2, 'again once the period has passed');
  });

  it('spends at most 10% of the request budget: 12 requests per window at the wire', async () => {
    for (let i = 0; i < 30; i++) await delivered(world, campaign);
    clock.move(PERIOD);
    const from = seen.gets.length;
    const result = await world.applications.statusSync.runOnce();
    const times = seen.gets.slice(from).map((g) => g.at);
    assert.ok(times.length >= 30 && result.checked === times.length, `checked ${result.checked}, sent ${times.length}`);
    // A little under the window: a request is counted where it leaves, a few ms after its token was taken.
    const span = WINDOW_MS - 250;
    const most = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + span).length));
    assert.ok(most <= 12, `${most} requests within ${span} ms`);
    assert.ok(most >= 10, `the share was used (${most} in a window)`);
  });
});

describe('status sync without the scope to read applications', () => {
  let base: ApplyWorld;
  let world: ApplyWorld;
  const seen = wire();

  before(async () => {
    base = await startApplyWorld({ statusSync: quiet });
    const keys = await admin<{ private_key: string; secret_key: string }>(base.sandbox, 'POST', '/clients', {
      channel: 'jobboard_demo',
      scopes: ['applicants_write', 'applications_write', 'campaigns_read'],
    });
    world = await startApplyWorld({
      sandbox: base.sandbox,
      fetch: seen.fetch,
      statusSync: quiet,
      env: { UPSTREAM_PRIVATE_KEY: keys.private_key, UPSTREAM_SECRET_KEY: keys.secret_key },
    });
  });
  after(async () => {
    await world.close();
    await base.close();
  });

  it('says so in one log line, sets the metric, stops, and applications still work', async () => {
    const [campaign] = world.openCampaignIds as [number];
    await delivered(world, campaign);
    assert.equal(await metric(world, 'status_sync_enabled'), 1);
    await world.applications.statusSync.runOnce();
    await world.applications.statusSync.runOnce();
    const forbidden = world.logs.lines.filter((l) => l.event === 'status_sync_forbidden');
    assert.equal(forbidden.length, 1);
    assert.match(String(forbidden[0]!.msg), /scope applications_read/);
    assert.equal(seen.gets.length, 1, 'one refused request, then none');
    assert.equal(await metric(world, 'status_sync_enabled'), 0);
    assert.equal(await metric(world, 'status_sync_forbidden_total'), 1);
    assert.equal(world.applications.blocked(), undefined, 'delivery is not blocked');
    await delivered(world, campaign);
  });
});

describe('status sync turned off (STATUS_SYNC_DAYS=0)', () => {
  let world: ApplyWorld;
  const seen = wire();
  before(async () => {
    world = await startApplyWorld({ fetch: seen.fetch, statusSync: quiet, env: { STATUS_SYNC_DAYS: '0' } });
  });
  after(() => world.close());

  it('sends no request', async () => {
    await delivered(world, world.openCampaignIds[0]!);
    assert.deepEqual(await world.applications.statusSync.runOnce(), { checked: 0, changed: 0, released: 0 });
    assert.equal(seen.gets.length, 0);
    assert.equal(await metric(world, 'status_sync_enabled'), 0);
  });
});

const skipPostgres = skipWithoutPostgres();
describe('status sync of several instances on PostgreSQL', { skip: skipPostgres }, () => {
  const worlds: ApplyWorld[] = [];
  const wires = [wire(), wire()];
  const clock = movableClock();

  before(async () => {
    const env = { DATABASE_URL: await freshDatabase() };
    const options = { env, clock, statusSync: quiet, budgetWindowMs: WINDOW_MS };
    worlds.push(await startApplyWorld({ ...options, fetch: wires[0]!.fetch }));
    worlds.push(await startApplyWorld({ ...options, fetch: wires[1]!.fetch, sandbox: worlds[0]!.sandbox }));
  });
  after(async () => {
    await worlds[1]?.close();
    await worlds[0]?.close();
  });

  it('checks each application once per period between them', async () => {
    const [first, second] = worlds as [ApplyWorld, ApplyWorld];
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await delivered(i % 2 === 0 ? first : second, first.openCampaignIds[0]!)).id);
    const both = () => [...wires[0]!.gets, ...wires[1]!.gets];
    for (let round = 0; round < 2; round++) {
      await Promise.all([
        first.applications.statusSync.runOnce(),
        second.applications.statusSync.runOnce(),
        first.applications.statusSync.runOnce(),
      ]);
      for (const id of ids)
        assert.equal(both().filter((g) => g.id === id).length, round + 1, `application ${id}, period ${round + 1}`);
      clock.move(PERIOD);
    }
  });
});
