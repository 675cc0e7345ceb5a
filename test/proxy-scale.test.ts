// Three proxy instances behind a round-robin "balancer", all on one PostgreSQL
// database (DATABASE_URL), in front of the real sandbox at its 120 requests a
// minute. For two minutes candidates apply; some send their application again
// with the same Idempotency-Key to another instance, some apply while the
// service fails a third of its requests, one instance dies by kill -9 in the
// middle of deliveries (the service made slow, so that it holds claimed rows)
// and is restarted, and later every database connection is cut once
// (pg_terminate_backend). Then: the rows the killed instance held are taken
// back by the others within a lease (DELIVERY_LEASE_SECONDS) and a poll, every
// application reaches the service exactly once (counted at the wire) within
// three minutes of the last one, every retry got the first answer, and the
// three instances together never went over the service's rate limit.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { RATE_LIMIT_PER_MINUTE } from '../server/contract/values.ts';
import { eventually } from '../server/test/poll.ts';
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';
import { pdfOfSize } from '../server/test/files.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { CLI, freePort, metricValue, startCli, stopCli } from './cli-processes.ts';
import type { CliProcess } from './cli-processes.ts';
import {
  apply,
  assertCreatedOnceAtTheWire,
  fetch,
  proxyEnv,
  uniqueEmail,
  validFields,
} from './proxy-apply.test-support.ts';
import type { ApplyAnswer, ApplyInput, Fields } from './proxy-apply.test-support.ts';

/** How long candidates keep applying; TEST_PROXY_SCALE_SECONDS shortens it for debugging (the requirement is two minutes). */
const DURATION_MS = positive('TEST_PROXY_SCALE_SECONDS', 120) * 1000;
/**
 * Applications a minute over the three instances. With the fault phase's
 * resends, the catalogue syncs and the token requests, the proxies need
 * close to the service's 120 a minute: the shared budget is exercised, yet
 * the line drains within the wait below.
 */
const APPLICATIONS_PER_MINUTE = positive('TEST_PROXY_SCALE_PER_MINUTE', 90);
const INSTANCES = 3;
/** One application in RETRY_EVERY is sent again, with its key, to the next instance. */
const RETRY_EVERY = 4;
/** The service fails one request in FAULT_EVERY while faults are on. */
const FAULT_EVERY = 3;
/** When, as a fraction of the run, faults start, the instance is killed, faults stop, the database's connections are cut. */
const TIMELINE = { faultsOn: 0.25, kill: 0.4, faultsOff: 0.55, cutDatabase: 0.7 };
/** Around the kill, every request waits delay_ms at the service (then goes on): attempts are under way, their rows claimed. */
const SLOW = { delay_ms: 8_000, every: 1 };
/**
 * The instance is killed once each instance holds a claim this recent: its attempt has at least SLOW's delay
 * less this to run, so the killed instance still holds it when the kill lands, even on a loaded machine.
 */
const FRESH_CLAIM_MS = 2_000;
const RESUME = pdfOfSize(30 * 1024);
/** The default DELIVERY_LEASE_SECONDS: a killed instance's claims run out after this long at most. */
const LEASE_MS = 60_000;
/** The killed instance's rows are taken back by the others within a lease and a poll. */
const TAKEOVER_MS = 90_000;
/** A live instance renews its claims every third of a lease: a claim unchanged this long after the kill is the killed instance's. */
const UNRENEWED_MS = LEASE_MS / 3 + 5_000;
/** Every application is created at the service within this long of the last one sent. */
const DRAIN_MS = 3 * 60_000;

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
}

interface Instance {
  process: CliProcess;
  metricsUrl: string;
  env: Record<string, string>;
}

interface Sent {
  fields: Fields;
  first: ApplyAnswer & { instance: number };
  /** The same application sent again with its key to another instance, when it was. */
  retry?: ApplyAnswer & { instance: number };
}

/** Answers that mean "not handled, send it again" to a candidate's widget: no answer, the key still in progress, the instance busy or stopping. */
function sendAgain(answer: ApplyAnswer): boolean {
  return (answer.status === 409 && answer.body.code === 'idempotency_key_in_progress') || answer.status === 503;
}

describe('three proxy instances on one PostgreSQL database', { skip: skipWithoutPostgres() }, () => {
  let sandbox: CliProcess;
  const instances: Instance[] = [];
  const everyProcess: CliProcess[] = [];
  const dataDirs: string[] = [];
  let database: pg.Pool;

  /**
   * The rows being delivered right now: each claim as `reference lease_token lease_until`, and how many
   * instances hold one claimed in the last FRESH_CLAIM_MS (its attempt, slowed by SLOW, still has seconds to run).
   */
  async function claimedRows(): Promise<{ claims: string[]; freshOwners: number }> {
    const { rows } = await database.query<{ claim: string; lease_owner: string; lease_until: string }>(
      "SELECT reference || ' ' || lease_token || ' ' || lease_until AS claim, lease_owner, lease_until FROM outbox WHERE status = 'delivering'",
    );
    const fresh = rows.filter((r) => Number(r.lease_until) >= Date.now() + LEASE_MS - FRESH_CLAIM_MS);
    return { claims: rows.map((r) => r.claim), freshOwners: new Set(fresh.map((r) => r.lease_owner)).size };
  }

  async function startInstance(env: Record<string, string>): Promise<Instance> {
    const metricsPort = await freePort();
    const proxy = await startCli(CLI.sources, 'proxy', [], { ...env, METRICS_PORT: String(metricsPort) });
    everyProcess.push(proxy);
    const instance = { process: proxy, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, env };
    await eventually(async () => (await fetch(`${proxy.url}/readyz`).catch(() => undefined))?.status === 200, {
      timeoutMs: 30_000,
      what: `the proxy at ${proxy.url} to be ready`,
      intervalMs: 100,
    });
    return instance;
  }

  before(async () => {
    const databaseUrl = await freshDatabase();
    database = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // Its own connections are cut too (pg_terminate_backend spares only the one asking): an idle one that goes is dropped.
    database.on('error', () => {});
    // The service's own limit, as in production: the instances must share it.
    sandbox = await startCli(
      CLI.sources,
      'sandbox',
      ['--port', '0', '--seed', 'demo', '--admin', '--rate-limit', String(RATE_LIMIT_PER_MINUTE)],
      {},
    );
    everyProcess.push(sandbox);
    const upstream = { url: `${sandbox.url}/v2` };
    const started = await Promise.all(
      Array.from({ length: INSTANCES }, () => {
        // Each its own DATA_DIR, for the resumes being received; the outbox is in the database.
        const dataDir = mkdtempSync(join(tmpdir(), 'jbc-scale-'));
        dataDirs.push(dataDir);
        return startInstance(
          proxyEnv(upstream, dataDir, {
            DATABASE_URL: databaseUrl,
            LOG_LEVEL: 'warn',
            // Syncs every 20 s spend part of the budget alongside the applications.
            SYNC_INTERVAL_SECONDS: '20',
            APPLY_RATE_LIMIT_PER_IP: '100000',
          }),
        );
      }),
    );
    instances.push(...started);
  });

  after(async () => {
    await Promise.all(everyProcess.map((p) => stopCli(p, 'SIGKILL')));
    await database?.end();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "delivers every application exactly once, a killed instance's within a lease, replays every retry on any instance, and keeps the three within the 120 requests a minute",
    { timeout: DURATION_MS + DRAIN_MS + 120_000 },
    async (t) => {
      const sandboxOrigin = { origin: sandbox.url };
      const campaigns = (
        (await (await fetch(`${instances[0]!.process.url}/api/campaigns?per_page=50`)).json()) as {
          items: { id: number }[];
        }
      ).items.map((c) => c.id);
      assert.ok(campaigns.length > 0, 'the board has open campaigns');

      /** Sends to instance `from`, else the next ones, as a balancer and a widget retrying would, until one handles it. */
      const applyAnywhere = async (input: ApplyInput, from: number): Promise<ApplyAnswer & { instance: number }> => {
        let at = from;
        return eventually(
          async () => {
            const instance = at % INSTANCES;
            at += 1;
            const answer = await apply(instances[instance]!.process.url, input).catch(() => undefined);
            return answer === undefined || sendAgain(answer) ? undefined : { ...answer, instance };
          },
          // A key the killed instance held answers "in progress" until its lease runs out.
          {
            timeoutMs: TAKEOVER_MS,
            what: `an instance to handle the application of ${input.fields?.email}`,
            intervalMs: 200,
          },
        );
      };

      const candidate = async (i: number): Promise<Sent> => {
        const input = {
          fields: validFields(campaigns[i % campaigns.length]!, uniqueEmail('scale')),
          key: crypto.randomUUID(),
          resume: { bytes: RESUME },
        };
        const first = await applyAnywhere(input, i);
        if (i % RETRY_EVERY !== 0) return { fields: input.fields, first };
        const retry = await applyAnywhere(input, first.instance + 1);
        return { fields: input.fields, first, retry };
      };

      const start = Date.now();
      const at = (fraction: number) => sleep(Math.max(0, start + fraction * DURATION_MS - Date.now()));

      // The operator's side: faults on, kill -9 of one instance mid-deliveries and its restart, faults off, the database's connections cut.
      let killedWith: NodeJS.Signals | number | null = null;
      let depthAtKill: number | undefined;
      /** The rows claimed when the instance was killed (by all three), the killed one's (claims never renewed after), and when those were taken back. */
      const takeover = { claimed: 0, orphaned: [] as string[], killedAt: 0, takenAt: 0 };
      let cutConnections = 0;
      let takenOver: Promise<void> = Promise.resolve();
      const script = (async () => {
        await at(TIMELINE.faultsOn);
        await admin(sandboxOrigin, 'POST', '/faults', { count: 1_000_000, status: 503, every: FAULT_EVERY });
        await at(TIMELINE.kill);
        // A slow service: attempts stay under way, so that each instance, the one killed too, holds claimed rows.
        await admin(sandboxOrigin, 'POST', '/faults', { count: 1_000_000, ...SLOW });
        const victim = instances[1]!;
        depthAtKill = metricValue(await (await fetch(victim.metricsUrl)).text(), 'outbox_depth');
        await eventually(async () => (await claimedRows()).freshOwners === INSTANCES, {
          timeoutMs: 30_000,
          what: 'every instance to hold a row it just claimed',
          intervalMs: 50,
        });
        killedWith = await stopCli(victim.process, 'SIGKILL');
        takeover.killedAt = Date.now();
        const atKill = (await claimedRows()).claims;
        takeover.claimed = atKill.length;
        await admin(sandboxOrigin, 'POST', '/faults', { count: 1_000_000, status: 503, every: FAULT_EVERY });
        instances[1] = await startInstance(victim.env);
        // The claims nobody renewed since the kill: the killed instance's, still waiting for their lease to run out.
        takenOver = sleep(Math.max(0, takeover.killedAt + UNRENEWED_MS - Date.now())).then(async () => {
          const still = new Set((await claimedRows()).claims);
          takeover.orphaned = atKill.filter((claim) => still.has(claim));
          await takenBackWithinTakeover(takeover.orphaned);
          takeover.takenAt = Date.now();
        });
        // Settled at once: its failure is asserted below, in order.
        takenOver.catch(() => {});
        await at(TIMELINE.faultsOff);
        await admin(sandboxOrigin, 'POST', '/faults', { count: 0 });
        await at(TIMELINE.cutDatabase);
        const { rows } = await database.query<{ cut: number }>(
          'SELECT count(*)::int AS cut FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()) AS terminated',
        );
        cutConnections = rows[0]!.cut;
      })();
      /**
       * The killed instance's claims run out and the others take its rows back
       * (to deliver them, after a look at the service) within a lease and a
       * poll, not after a restart's wait; else the failure says which claims stay.
       */
      const takenBackWithinTakeover = async (claims: string[]): Promise<void> => {
        const held = async () => {
          const now = new Set((await claimedRows()).claims);
          return claims.filter((claim) => now.has(claim));
        };
        try {
          await eventually(async () => (await held()).length === 0, {
            timeoutMs: Math.max(0, takeover.killedAt + TAKEOVER_MS - Date.now()),
            what: `the ${claims.length} rows the killed instance held taken back within ${TAKEOVER_MS / 1000} s of the kill`,
            intervalMs: 500,
          });
        } catch (error) {
          throw new Error(
            `${error instanceof Error ? error.message : String(error)}; still held (reference, token, lease until): ${JSON.stringify(await held())}`,
            { cause: error },
          );
        }
      };

      // The candidates: a steady pace, round-robin over the instances, each one's answer awaited on its own.
      const pending: Promise<Sent>[] = [];
      for (let i = 0; Date.now() - start < DURATION_MS; i++) {
        pending.push(candidate(i));
        await sleep(Math.max(0, start + ((i + 1) * 60_000) / APPLICATIONS_PER_MINUTE - Date.now()));
      }
      const lastSentAt = Date.now();
      await script;
      const sent = await Promise.all(pending);
      t.diagnostic(
        `${sent.length} applications in ${DURATION_MS / 1000} s, ${sent.filter((s) => s.retry).length} sent again to another instance; outbox depth when the instance was killed: ${depthAtKill}`,
      );
      assert.equal(killedWith, 'SIGKILL', 'the instance died by kill -9');
      assert.ok(cutConnections > 0, "the database's connections were cut");
      await takenOver;
      t.diagnostic(
        `${takeover.claimed} rows claimed at the kill, ${takeover.orphaned.length} of them by the killed instance, taken back ${((takeover.takenAt - takeover.killedAt) / 1000).toFixed(1)} s after it (lease ${LEASE_MS / 1000} s); ${cutConnections} database connections cut`,
      );
      assert.ok(takeover.orphaned.length > 0, 'the killed instance held claimed rows, which the others took over');

      // Every candidate was answered "delivered" or "queued", with a reference.
      const unanswered = sent.filter(
        (s) => (s.first.status !== 201 && s.first.status !== 202) || typeof s.first.body.reference !== 'string',
      );
      assert.deepEqual(
        unanswered.map((s) => `${s.fields.email}: ${s.first.status} ${s.first.text}`),
        [],
        'every application accepted',
      );
      assert.ok(
        sent.some((s) => s.first.status === 202),
        'some applications were queued (the faults reached them)',
      );

      // Every retry on another instance got exactly the first answer.
      const differing = sent.filter(
        (s) => s.retry !== undefined && (s.retry.status !== s.first.status || s.retry.text !== s.first.text),
      );
      assert.deepEqual(
        differing.map(
          (s) =>
            `${s.fields.email}: first ${s.first.status} ${s.first.text} from #${s.first.instance}, retry ${s.retry!.status} ${s.retry!.text} from #${s.retry!.instance}`,
        ),
        [],
        'every retry replayed the first answer',
      );
      assert.ok(
        sent.every((s) => s.retry === undefined || s.retry.headers.get('idempotent-replayed') === 'true'),
        'every retry was a replay',
      );

      // Delivery: each application created at the service, then nothing left in line on any instance.
      await eventually(
        async () => {
          const creates = (await admin(sandboxOrigin, 'GET', '/creates')) as {
            email: string | null;
            application_ids: number[];
          }[];
          const created = new Set(creates.filter((c) => c.application_ids.length > 0).map((c) => c.email));
          return sent.every((s) => created.has(s.fields.email.toLowerCase()));
        },
        {
          timeoutMs: Math.max(0, lastSentAt + DRAIN_MS - Date.now()),
          what: 'every application created at the service within 3 minutes of the last one',
          intervalMs: 1000,
        },
      );
      await eventually(
        async () => {
          const depths = await Promise.all(
            instances.map(async (i) => metricValue(await (await fetch(i.metricsUrl)).text(), 'outbox_depth')),
          );
          return depths.every((d) => d === 0);
        },
        { timeoutMs: 60_000, what: 'an empty outbox on every instance', intervalMs: 500 },
      );

      // Exactly once at the wire: one create that succeeded per application, none after it.
      const wire = { requests: 0, succeeded: 0 };
      for (const { fields } of sent) {
        const one = await assertCreatedOnceAtTheWire(sandboxOrigin, fields.email, Number(fields.campaign_id));
        wire.requests += one.requests;
        wire.succeeded += one.succeeded;
      }
      const faulted = ((await admin(sandboxOrigin, 'GET', '/creates')) as { status: number | null }[]).filter(
        (c) => c.status === 503,
      ).length;
      t.diagnostic(
        `at the wire: ${wire.requests} create requests, ${wire.succeeded} created an application, ${faulted} answered 503 by the faults`,
      );
      assert.ok(faulted > 0, 'the faults hit create requests');

      // The budget: the three instances are one API client of the service, and it never refused them.
      const stats = (await admin(sandboxOrigin, 'GET', '/stats')) as {
        window_ms: number;
        clients: { client_id: number; max_in_window: number; total: number; rate_limited: number }[];
      };
      t.diagnostic(`the service saw: ${JSON.stringify(stats)}`);
      assert.equal(stats.window_ms, 60_000);
      assert.equal(stats.clients.length, 1, "one API client: the board's, shared by the three instances");
      const [board] = stats.clients;
      assert.equal(board!.rate_limited, 0, 'no request was refused as rate-limited');
      assert.ok(
        board!.max_in_window <= RATE_LIMIT_PER_MINUTE,
        `at most ${RATE_LIMIT_PER_MINUTE} requests in any minute (saw ${board!.max_in_window})`,
      );
    },
  );
});
