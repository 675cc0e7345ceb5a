// Several proxy instances: applications per second and the p99 of one apply
// (a 100 KB PDF resume) for one instance on SQLite, one on PostgreSQL and
// three on PostgreSQL behind a round-robin, and GET /api/campaigns on one
// PostgreSQL instance against one SQLite instance. Every proxy and the
// sandbox run in processes of their own from the built CLI, as a partner
// runs them; the configurations take turns, round after round, in one run,
// and with BENCH_BEFORE those of an older build take turns with them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { RATE_LIMIT_PER_MINUTE } from '../../server/contract/values.ts';
import { TEST_DATABASE_URL, createDatabase } from '../../server/test/postgres-server.ts';
import { pdfOfSize } from '../../server/test/files.ts';
import { CLI, startCli, stopCli } from '../cli-processes.ts';
import type { CliProcess } from '../cli-processes.ts';
import { applyThroughProxy, inTurn, proxySides, startReadyProxy } from './processes.ts';
import type { Side } from './processes.ts';
import { median, percentile } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
/** Sets of fresh proxies and databases, each running ROUNDS rounds: each set has request budgets of its own. */
const SETS = Number(process.env.BENCH_SCALE_SETS ?? 1);
/** Applications per round and configuration, and how many are in flight at once. */
const APPLICATIONS = Number(process.env.BENCH_SCALE_APPLICATIONS ?? 30);
const CONCURRENCY = 8;
/** The most instances a configuration has. */
const INSTANCES = 3;
/**
 * What a configuration spends of the budget besides the rounds' applications:
 * the check at each instance's start (a token, a job-board-only call, the
 * offers counted, the channels), one catalogue sync, and the warm-up's
 * CONCURRENCY applications.
 */
const SPENT_PER_INSTANCE = 4;
const SPENT_PER_CONFIGURATION = 1 + CONCURRENCY;
/**
 * Each configuration's budget (its instances share it) holds its requests to
 * the service's 120 a minute whatever the sandbox allows: past it,
 * applications would wait for the budget and the bench would measure the
 * budget. So a configuration spends less than that in the whole run, and its
 * proxies run without the status sync, whose reads of delivered applications
 * take up to a tenth of the budget a minute.
 */
const SPENT = ROUNDS * APPLICATIONS + INSTANCES * SPENT_PER_INSTANCE + SPENT_PER_CONFIGURATION;
if (SPENT > RATE_LIMIT_PER_MINUTE) {
  throw new Error(
    `BENCH_SCALE_ROUNDS × BENCH_SCALE_APPLICATIONS (${ROUNDS} × ${APPLICATIONS}) leave ${INSTANCES} instances spending ${SPENT} requests, more than the ${RATE_LIMIT_PER_MINUTE} a minute of their budget: lower either, or the budget holds the applications back.`,
  );
}
const RESUME_BYTES = 100 * 1024;
const CAMPAIGNS_SECONDS = 5;
const CAMPAIGNS_CONNECTIONS = 10;

interface Setup {
  name: string;
  side: Side;
  instances: CliProcess[];
  /** Why it could not be measured, when it could not. */
  missing?: string;
}

let counter = 0;
const email = () => `scale-bench.${process.pid}.${++counter}@example.org`;

/** Whether the proxies wrote their stores into this database: a proxy that does not read DATABASE_URL leaves it empty. */
async function holdsTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
    );
    return Number(rows[0]!.n) > 0;
  } finally {
    await client.end();
  }
}

/** With two builds, how they were compared: a paragraph, or nothing with one. */
function beforeAndAfter(sides: Side[]): string[] {
  if (sides.length === 1) return [];
  return [
    `**Before and after** (BENCH_BEFORE=${process.env.BENCH_BEFORE}): every configuration twice, with the proxies of that build`,
    '("before") and with those of this one ("after"), each on its own data directory or database; in each round a configuration\'s',
    'two sides run one after the other, the first of them changing from round to round, and the side started and warmed up first',
    'changes from set to set. Ratios are within each build.',
    '',
  ];
}

export default async function bench(): Promise<string> {
  // No rate limit in the sandbox: the bench measures the proxies, not the service's 120 requests a minute, and every configuration is the same API client.
  const sandbox = await startCli(CLI.built, 'sandbox', ['--port', '0', '--seed', 'demo', '--rate-limit', '0'], {});
  const processes: CliProcess[] = [sandbox];
  const dataDirs: string[] = [];
  const databases: { drop(): Promise<void> }[] = [];
  const startProxy = async (side: Side, extra: Record<string, string>): Promise<CliProcess> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'proxy-scale-bench-'));
    dataDirs.push(dataDir);
    const env = {
      DATA_DIR: dataDir,
      APPLY_RATE_LIMIT_PER_IP: '1000000',
      // Every candidate of the bench applies from 127.0.0.1: one address may hold every upload place, as before that limit.
      MAX_CONCURRENT_UPLOADS_PER_IP: '1000000',
      MAX_CONCURRENT_UPLOADS_PER_NETWORK: '1000000',
      DELIVERY_DEADLINE_MS: '30000',
      STATUS_SYNC_DAYS: '0',
      ...extra,
    };
    return startReadyProxy(sandbox, env, processes, 30, side.cli);
  };
  /** Instances on one fresh PostgreSQL database, or why there are none. */
  const onPostgres = async (side: Side, name: string, count: number): Promise<Setup> => {
    if (TEST_DATABASE_URL === undefined)
      return { name, side, instances: [], missing: 'no PostgreSQL server (set TEST_DATABASE_URL)' };
    const database = await createDatabase();
    databases.push(database);
    const instances = await Promise.all(
      Array.from({ length: count }, () => startProxy(side, { DATABASE_URL: database.url })),
    );
    if (!(await holdsTables(database.url)))
      return {
        name,
        side,
        instances: [],
        missing: 'this build of the proxy does not keep its stores in DATABASE_URL',
      };
    return { name, side, instances };
  };

  try {
    const sides = proxySides();
    /** Each side's configurations, fresh, in the order of `sides`; the first is the baseline of its side's ratios. */
    const startSet = async (set: number): Promise<Setup[][]> => {
      const started = new Map<Side, Setup[]>();
      // Neither side always starts (and warms up) first.
      for (const side of inTurn(sides, set))
        started.set(side, [
          { name: '1 instance, SQLite', side, instances: [await startProxy(side, {})] },
          await onPostgres(side, '1 instance, PostgreSQL', 1),
          await onPostgres(side, '3 instances, PostgreSQL (round-robin)', INSTANCES),
        ]);
      return sides.map((side) => started.get(side)!);
    };
    const resume = pdfOfSize(RESUME_BYTES);
    const statuses = new Map<number, number>();
    let campaigns: number[] = [];

    const applyOnce = async (url: string, i: number): Promise<number> => {
      const { ms, status } = await applyThroughProxy(url, campaigns[i % campaigns.length]!, email(), resume);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return ms;
    };
    /** APPLICATIONS applications, CONCURRENCY at a time, round-robin over the instances: applications per second and each one's time. */
    const applyRound = async (instances: CliProcess[]): Promise<{ perSecond: number; times: number[] }> => {
      const times: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < APPLICATIONS; i = next++)
            times.push(await applyOnce(instances[i % instances.length]!.url, i));
        }),
      );
      return { perSecond: APPLICATIONS / ((performance.now() - started) / 1000), times };
    };

    // A configuration's figures over every set, by side and configuration.
    const key = (setup: Setup) => `${setup.side.name}: ${setup.name}`;
    const applies = new Map<string, { perSecond: number[]; times: number[] }>();
    const reads = new Map<string, number[]>();
    let bySide: Setup[][] = [];
    for (let set = 0; set < SETS; set++) {
      bySide = await startSet(set);
      const setups = inTurn(bySide, set).flat();
      if (campaigns.length === 0)
        campaigns = (
          (await (await fetch(`${setups[0]!.instances[0]!.url}/api/campaigns?per_page=50`)).json()) as {
            items: { id: number }[];
          }
        ).items.map((c) => c.id);

      // Warm-up: CONCURRENCY applications at once over each configuration's instances (JIT, token, the database
      // connections a round uses, first pages), then a short read on each instance.
      for (const setup of setups) {
        if (setup.missing !== undefined) continue;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, (_, i) => applyOnce(setup.instances[i % setup.instances.length]!.url, i)),
        );
        for (const instance of setup.instances)
          await autocannon({ url: `${instance.url}/api/campaigns`, connections: 2, duration: 1 });
      }

      for (let round = 0; round < ROUNDS; round++) {
        // Each configuration's sides one after the other, the first side changing from round to round.
        const order = inTurn(bySide, set * ROUNDS + round);
        for (let c = 0; c < bySide[0]!.length; c++)
          for (const configurations of order) {
            const setup = configurations[c]!;
            if (setup.missing !== undefined) continue;
            const result = await applyRound(setup.instances);
            const figures = applies.get(key(setup)) ?? { perSecond: [], times: [] };
            figures.perSecond.push(result.perSecond);
            figures.times.push(...result.times);
            applies.set(key(setup), figures);
          }
        for (let c = 0; c < 2; c++)
          for (const configurations of order) {
            const setup = configurations[c]!;
            if (setup.missing !== undefined) continue;
            const result = await autocannon({
              url: `${setup.instances[0]!.url}/api/campaigns`,
              connections: CAMPAIGNS_CONNECTIONS,
              duration: CAMPAIGNS_SECONDS,
            });
            reads.set(key(setup), [...(reads.get(key(setup)) ?? []), result.requests.average]);
          }
      }
      // This set's proxies stop before the next set starts its own (the sandbox stays).
      await Promise.all(processes.splice(1).map((p) => stopCli(p)));
    }

    // With one build, the configuration names the row; with two, the build too, each row beside its other side.
    const label = (setup: Setup) => (sides.length === 1 ? setup.name : `${setup.name}, ${setup.side.name}`);
    const baselineOf = (setup: Setup) => bySide[sides.indexOf(setup.side)]![0]!;
    const pairedRows = (configurations: number) =>
      Array.from({ length: configurations }, (_, c) => bySide.map((s) => s[c]!)).flat();
    const applyRows = pairedRows(bySide[0]!.length).map((setup) => {
      if (setup.missing !== undefined) return `| ${label(setup)} | not measured: ${setup.missing} | | | | | |`;
      const { perSecond, times } = applies.get(key(setup))!;
      const base = applies.get(key(baselineOf(setup)))!;
      const p99 = percentile(times, 99);
      return `| ${label(setup)} | ${median(perSecond).toFixed(1)} | ${perSecond.map((r) => r.toFixed(0)).join(', ')} | ${(median(perSecond) / median(base.perSecond)).toFixed(2)} | ${median(times).toFixed(1)} | ${p99.toFixed(1)} | ${(p99 / percentile(base.times, 99)).toFixed(2)} |`;
    });
    const readRows = pairedRows(2).map((setup) => {
      if (setup.missing !== undefined) return `| ${label(setup)} | not measured: ${setup.missing} | |`;
      const perSecond = median(reads.get(key(setup))!);
      return `| ${label(setup)} | ${Math.round(perSecond)} | ${(perSecond / median(reads.get(key(baselineOf(setup)))!)).toFixed(2)} |`;
    });
    const counts = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');

    return [
      '## Proxy: several instances (SQLite and PostgreSQL)',
      '',
      'test/bench/proxy-scale.bench.ts (`npm run bench -- proxy-scale`). The sandbox and every proxy run in processes of their own, started',
      "from the built CLI (`jobboard-connector sandbox --seed demo --rate-limit 0`; `jobboard-connector proxy`, LOG_LEVEL=warn). The sandbox's",
      "rate limit is off: the bench measures the proxies, not the service's 120 requests a minute, and every configuration uses the same API",
      'client. The PostgreSQL configurations each have a fresh database on TEST_DATABASE_URL (the local server otherwise), shared by their',
      'instances; the SQLite instance keeps its stores in its DATA_DIR. All on one machine: the three instances share its two cores with the',
      'sandbox and PostgreSQL.',
      '',
      ...beforeAndAfter(sides),
      `**Applications**: each round sends ${APPLICATIONS} applications with a ${RESUME_BYTES / 1024} KB PDF resume, ${CONCURRENCY} at a time (round-robin over the instances),`,
      `each answered once delivered to the sandbox, after a warm-up of ${CONCURRENCY} applications at once per configuration (so that its`,
      'database connections are open). The configurations take turns, round after round',
      `(${SETS * ROUNDS} rounds${SETS > 1 ? `, ${ROUNDS} in each of ${SETS} sets of fresh proxies and databases, each set with budgets of its own` : ''}): applications a second, median of the rounds; an application's time, median and p99 over all the configuration's`,
      `${SETS * ROUNDS * APPLICATIONS} applications; ratios against one SQLite instance. Few applications, because the proxies' request budget (one per configuration, shared by its instances) keeps to the service's`,
      `${RATE_LIMIT_PER_MINUTE} requests a minute whatever the sandbox allows: each configuration spends fewer than that in the whole run, its proxies' checks at start included and their status sync off (STATUS_SYNC_DAYS=0), so none waits for the budget.`,
      '',
      '| configuration | applications/s, median | each round | ratio | an apply (ms), median | p99 (ms) | p99 ratio |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...applyRows,
      '',
      `**GET /api/campaigns** on one instance (autocannon, ${CAMPAIGNS_CONNECTIONS} connections, ${CAMPAIGNS_SECONDS} s a round, after each round of applications); medians of the rounds.`,
      '',
      '| configuration | requests/s, median | ratio |',
      '|---|---:|---:|',
      ...readRows,
      '',
      `Answers to the applications over the whole run: ${counts}.`,
    ].join('\n');
  } finally {
    await Promise.all(processes.map((p) => stopCli(p)));
    for (const database of databases) await database.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}
