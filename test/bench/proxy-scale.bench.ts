// Several proxy instances: applications per second and the p99 of one apply
// (a 100 KB PDF resume) for one instance on SQLite, one on PostgreSQL and
// three on PostgreSQL behind a round-robin, and GET /api/campaigns on one
// PostgreSQL instance against one SQLite instance. Every proxy and the
// sandbox run in processes of their own from the built CLI, as a partner
// runs them; the configurations take turns, round after round, in one run.
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
import { applyThroughProxy, startReadyProxy } from './processes.ts';
import { median, percentile } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
/** Applications per round and configuration, and how many are in flight at once. */
const APPLICATIONS = Number(process.env.BENCH_SCALE_APPLICATIONS ?? 35);
const CONCURRENCY = 8;
/**
 * Each proxy's own budget holds its requests to the service's 120 a minute
 * whatever the sandbox allows: past it, applications would wait for the
 * budget and the bench would measure the budget. So each configuration sends
 * fewer than that in the whole run (its warm-up application, one catalogue
 * sync and a token request included).
 */
const APPLICATIONS_WITHIN_BUDGET = RATE_LIMIT_PER_MINUTE - 10;
if (ROUNDS * APPLICATIONS + 1 > APPLICATIONS_WITHIN_BUDGET) {
  throw new Error(
    `BENCH_SCALE_ROUNDS × BENCH_SCALE_APPLICATIONS (${ROUNDS} × ${APPLICATIONS}) must stay under ${APPLICATIONS_WITHIN_BUDGET}: beyond, the proxy's 120 requests a minute hold the applications back.`,
  );
}
const RESUME_BYTES = 100 * 1024;
const CAMPAIGNS_SECONDS = 5;
const CAMPAIGNS_CONNECTIONS = 10;

interface Setup {
  name: string;
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

export default async function bench(): Promise<string> {
  // No rate limit in the sandbox: the bench measures the proxies, not the service's 120 requests a minute, and every configuration is the same API client.
  const sandbox = await startCli(CLI.built, 'sandbox', ['--port', '0', '--seed', 'demo', '--rate-limit', '0'], {});
  const processes: CliProcess[] = [sandbox];
  const dataDirs: string[] = [];
  const databases: { drop(): Promise<void> }[] = [];
  const startProxy = async (extra: Record<string, string>): Promise<CliProcess> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'proxy-scale-bench-'));
    dataDirs.push(dataDir);
    const env = {
      DATA_DIR: dataDir,
      APPLY_RATE_LIMIT_PER_IP: '1000000',
      // Every candidate of the bench applies from 127.0.0.1: one address may hold every upload place, as before that limit.
      MAX_CONCURRENT_UPLOADS_PER_IP: '1000000',
      MAX_CONCURRENT_UPLOADS_PER_NETWORK: '1000000',
      DELIVERY_DEADLINE_MS: '30000',
      ...extra,
    };
    return startReadyProxy(sandbox, env, processes, 30);
  };
  /** Instances on one fresh PostgreSQL database, or why there are none. */
  const onPostgres = async (name: string, count: number): Promise<Setup> => {
    if (TEST_DATABASE_URL === undefined)
      return { name, instances: [], missing: 'no PostgreSQL server (set TEST_DATABASE_URL)' };
    const database = await createDatabase();
    databases.push(database);
    const instances = await Promise.all(
      Array.from({ length: count }, () => startProxy({ DATABASE_URL: database.url })),
    );
    if (!(await holdsTables(database.url)))
      return { name, instances: [], missing: 'this build of the proxy does not keep its stores in DATABASE_URL' };
    return { name, instances };
  };

  try {
    const setups: Setup[] = [
      { name: '1 instance, SQLite', instances: [await startProxy({})] },
      await onPostgres('1 instance, PostgreSQL', 1),
      await onPostgres('3 instances, PostgreSQL (round-robin)', 3),
    ];
    const first = setups[0]!.instances[0]!;
    const campaigns = (
      (await (await fetch(`${first.url}/api/campaigns?per_page=50`)).json()) as { items: { id: number }[] }
    ).items.map((c) => c.id);
    const resume = pdfOfSize(RESUME_BYTES);
    const statuses = new Map<number, number>();

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

    // Warm-up: one application and a short read on each instance (JIT, token, first pages).
    for (const setup of setups)
      for (const instance of setup.instances) {
        await applyOnce(instance.url, 0);
        await autocannon({ url: `${instance.url}/api/campaigns`, connections: 2, duration: 1 });
      }

    const applies = new Map<string, { perSecond: number[]; times: number[] }>(
      setups.map((s) => [s.name, { perSecond: [], times: [] }]),
    );
    const reads = new Map<string, number[]>(setups.slice(0, 2).map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const setup of setups) {
        if (setup.missing !== undefined) continue;
        const result = await applyRound(setup.instances);
        applies.get(setup.name)!.perSecond.push(result.perSecond);
        applies.get(setup.name)!.times.push(...result.times);
      }
      for (const setup of setups.slice(0, 2)) {
        if (setup.missing !== undefined) continue;
        const result = await autocannon({
          url: `${setup.instances[0]!.url}/api/campaigns`,
          connections: CAMPAIGNS_CONNECTIONS,
          duration: CAMPAIGNS_SECONDS,
        });
        reads.get(setup.name)!.push(result.requests.average);
      }
    }

    const baseline = setups[0]!.name;
    const applyRows = setups.map((setup) => {
      if (setup.missing !== undefined) return `| ${setup.name} | not measured: ${setup.missing} | | | | |`;
      const { perSecond, times } = applies.get(setup.name)!;
      const base = applies.get(baseline)!;
      const p99 = percentile(times, 99);
      return `| ${setup.name} | ${median(perSecond).toFixed(1)} | ${(median(perSecond) / median(base.perSecond)).toFixed(2)} | ${median(times).toFixed(1)} | ${p99.toFixed(1)} | ${(p99 / percentile(base.times, 99)).toFixed(2)} |`;
    });
    const readRows = setups.slice(0, 2).map((setup) => {
      if (setup.missing !== undefined) return `| ${setup.name} | not measured: ${setup.missing} | |`;
      const perSecond = median(reads.get(setup.name)!);
      return `| ${setup.name} | ${Math.round(perSecond)} | ${(perSecond / median(reads.get(baseline)!)).toFixed(2)} |`;
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
      `**Applications**: each round sends ${APPLICATIONS} applications with a ${RESUME_BYTES / 1024} KB PDF resume, ${CONCURRENCY} at a time (round-robin over the instances),`,
      'each answered once delivered to the sandbox. The configurations take turns, round after round',
      `(${ROUNDS} rounds): applications a second, median of the rounds; an application's time, median and p99 over all the configuration's`,
      `${ROUNDS * APPLICATIONS} applications; ratios against one SQLite instance. Few applications, because the proxies' request budget (one per configuration, shared by its instances) keeps to the service's`,
      `${RATE_LIMIT_PER_MINUTE} requests a minute whatever the sandbox allows: each configuration sends fewer than that in the whole run, so none waits for the budget.`,
      '',
      '| configuration | applications/s, median | ratio | an apply (ms), median | p99 (ms) | p99 ratio |',
      '|---|---:|---:|---:|---:|---:|',
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
