// The board's funnel on SQLite and on PostgreSQL: the proxy's CPU time per
// beacon accepted (POST /api/funnel through real HTTP, autocannon), and
// GET /api/stats over 90 days of 50,000 offers, quiet and while beacons
// arrive. The built proxy and the sandbox run in processes of their own;
// the databases are seeded before the proxy's first report (funnel-seed.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { DEMO_KEYS } from '../../server/sandbox/index.ts';
import { dayText } from '../../server/proxy/storage/funnel/funnel-sql.ts';
import { TEST_DATABASE_URL, createDatabase } from '../../server/test/postgres-server.ts';
import { CLI, startCli, stopCli } from '../cli-processes.ts';
import type { CliProcess } from '../cli-processes.ts';
import { seedPostgres, seedSqlite, seededDays } from './funnel-seed.ts';
import { startReadyProxy } from './processes.ts';
import { median, percentile } from './stats.ts';

const OFFERS = Number(process.env.BENCH_FUNNEL_OFFERS ?? 50_000);
const DAYS = 90;
/** Reports timed per round and configuration, one after the other. */
const REPORTS = Number(process.env.BENCH_FUNNEL_REPORTS ?? 100);
const ROUNDS = 2;
/** Beacons a second while reports are timed. */
const BEACON_RATE = 50;
/** Seconds of beacons sent as fast as they are answered, to time the proxy's CPU per beacon. */
const CPU_SECONDS = Number(process.env.BENCH_FUNNEL_CPU_SECONDS ?? 10);
const TOKEN = 'funnel-bench-dashboard-token-1234';
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

interface Setup {
  name: string;
  proxy: CliProcess;
}

/** The CPU time (ms) the process has used, user and system, all its threads. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

/** A beacon of a list page: 10 of the catalogue's offers, from an address of its own (TRUST_PROXY), so that no daily limit drops it. */
function beaconRequests(offers: number[]): autocannon.Request[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/api/funnel',
      setupRequest: (request) => {
        n += 1;
        const ids = Array.from({ length: 10 }, (_, i) => offers[(n + i) % offers.length]!);
        return {
          ...request,
          headers: {
            'content-type': 'text/plain',
            'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          },
          body: JSON.stringify({ stage: 'listed', campaign_ids: ids }),
        };
      },
    },
  ];
}

async function report(url: string, query: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/api/stats?${query}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET /api/stats answered ${response.status}`);
  return performance.now() - started;
}

/** REPORTS reports one after the other, with beacons arriving at BEACON_RATE a second meanwhile or none. */
async function timedReports(setup: Setup, query: string, offers: number[] | null): Promise<number[]> {
  let done: Promise<autocannon.Result> | undefined;
  let instance: autocannon.Instance | undefined;
  if (offers !== null)
    done = new Promise((resolve, reject) => {
      instance = autocannon(
        {
          url: setup.proxy.url,
          connections: 4,
          overallRate: BEACON_RATE,
          duration: 600,
          requests: beaconRequests(offers),
        },
        (error, result) => (error ? reject(error as Error) : resolve(result)),
      );
    });
  const times: number[] = [];
  for (let i = 0; i < REPORTS; i += 1) times.push(await report(setup.proxy.url, query));
  if (done !== undefined) {
    instance!.stop();
    const result = await done;
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`beacons failed: ${result.non2xx} answered other than 2xx, ${result.errors} errors`);
  }
  return times;
}

/** CPU ms per accepted beacon, and beacons a second, sent by 8 connections for CPU_SECONDS (a duration, not a count: a run never waits on a lost answer). */
async function beaconCpu(setup: Setup, offers: number[]): Promise<{ cpu: number; perSecond: number }> {
  const before = cpuMs(setup.proxy.pid);
  const result = await autocannon({
    url: setup.proxy.url,
    connections: 8,
    duration: CPU_SECONDS,
    timeout: 10,
    requests: beaconRequests(offers),
  });
  const accepted = result['2xx'];
  if (accepted === 0) throw new Error('no beacon accepted');
  return { cpu: (cpuMs(setup.proxy.pid) - before) / accepted, perSecond: result.requests.average };
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);

export default async function bench(): Promise<string> {
  const sandbox = await startCli(CLI.built, 'sandbox', ['--port', '0', '--seed', 'demo', '--rate-limit', '0'], {});
  const processes: CliProcess[] = [sandbox];
  const cleanups: (() => Promise<void> | void)[] = [];
  const start = (extra: Record<string, string>) =>
    startReadyProxy(sandbox, { DASHBOARD_TOKEN: TOKEN, TRUST_PROXY: 'loopback', ...extra }, processes, 60);
  const channel = DEMO_KEYS.jobboard.channel;
  const { first, last } = seededDays(DAYS);
  const query = `from=${dayText(first)}&to=${dayText(last)}`;
  const lines: string[] = [];
  try {
    const setups: Setup[] = [];
    const firstReports: string[] = [];
    const seeded = async (name: string, seed: () => Promise<void>, env: Record<string, string>) => {
      let started = performance.now();
      await seed();
      const seconds = (performance.now() - started) / 1000;
      const proxy = await start(env);
      started = performance.now();
      await report(proxy.url, query);
      const ms = performance.now() - started;
      const second = await report(proxy.url, 'from=' + dayText(last - 29) + '&to=' + dayText(last));
      firstReports.push(
        `${name}: seeded in ${fixed(seconds)} s; first report of the 90 days ${fixed(ms, 0)} ms, first of the last 30 days ${fixed(second, 0)} ms`,
      );
      setups.push({ name, proxy });
    };

    const dataDir = mkdtempSync(join(tmpdir(), 'funnel-bench-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // Started once to make its tables, stopped while the file is seeded.
    processes.push(await start({ DATA_DIR: dataDir }).then(async (p) => (await stopCli(p), p)));
    await seeded('SQLite', async () => seedSqlite(join(dataDir, 'outbox.db'), OFFERS, DAYS, channel), {
      DATA_DIR: dataDir,
    });
    if (TEST_DATABASE_URL === undefined) lines.push('PostgreSQL: not measured (set TEST_DATABASE_URL).');
    else {
      const database = await createDatabase();
      cleanups.push(() => database.drop());
      const pgDir = mkdtempSync(join(tmpdir(), 'funnel-bench-'));
      cleanups.push(() => rmSync(pgDir, { recursive: true, force: true }));
      const env = { DATA_DIR: pgDir, DATABASE_URL: database.url };
      processes.push(await start(env).then(async (p) => (await stopCli(p), p)));
      await seeded('PostgreSQL', () => seedPostgres(database.url, OFFERS, DAYS, channel), env);
    }
    const offers = (
      (await (await fetch(`${setups[0]!.proxy.url}/api/campaigns?per_page=50`)).json()) as { items: { id: number }[] }
    ).items.map((c) => c.id);

    const quiet = new Map<string, number[]>();
    const busy = new Map<string, number[]>();
    const cpu = new Map<string, { cpu: number; perSecond: number }[]>();
    for (const setup of setups) await timedReports(setup, query, offers); // warm-up, today's offers read at least once
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const setup of setups) {
        quiet.set(setup.name, [...(quiet.get(setup.name) ?? []), ...(await timedReports(setup, query, null))]);
        busy.set(setup.name, [...(busy.get(setup.name) ?? []), ...(await timedReports(setup, query, offers))]);
        cpu.set(setup.name, [...(cpu.get(setup.name) ?? []), await beaconCpu(setup, offers)]);
      }
    }
    const uptime = execFileSync('uptime').toString().trim();
    lines.push(
      '## Funnel: CPU per beacon and GET /api/stats over 50,000 offers × 90 days',
      '',
      `Command: \`npm run bench -- funnel\`. ${OFFERS.toLocaleString('en')} offers counted every day of the last ${DAYS} days (today included), seeded straight into the funnel's tables as the store keeps them (spans, sources' days, outcomes of one offer in 50; not the per-day record no report reads); the built proxy and the sandbox in processes of their own, on SQLite and on PostgreSQL (a database of its own at TEST_DATABASE_URL).`,
      `Reports: GET /api/stats of the ${DAYS} days (Bearer token, JSON, 100 offers), ${REPORTS} one after the other per round, ${ROUNDS} rounds, quiet and while ${BEACON_RATE} beacons a second arrive (autocannon, each a list page of 10 of the catalogue's offers, each from an address of its own through TRUST_PROXY). Today holds all ${OFFERS.toLocaleString('en')} offers, so its offers are the ones kept up to 2 s (re-read in the background).`,
      `CPU per beacon: the proxy process's user + system time (/proc) over ${CPU_SECONDS} s of beacons sent by 8 connections as fast as answered, divided by the beacons accepted (204); with PostgreSQL, the server's own CPU is not in it. Machine at the end of the run: \`${uptime}\` (2 cores shared with other work).`,
      '',
      '| database | reports p50 ms quiet | p99 quiet | p50 with beacons | p99 with beacons | p99 ratio (beacons / quiet) | CPU ms per beacon | beacons/s (8 connections) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const { name } of setups) {
      const q = quiet.get(name)!;
      const b = busy.get(name)!;
      const c = cpu.get(name)!;
      lines.push(
        `| ${name} | ${fixed(median(q))} | ${fixed(percentile(q, 99))} | ${fixed(median(b))} | ${fixed(percentile(b, 99))} | ${fixed(percentile(b, 99) / percentile(q, 99), 2)}× | ${fixed(median(c.map((x) => x.cpu)), 3)} | ${fixed(median(c.map((x) => x.perSecond)), 0)} |`,
      );
    }
    lines.push('', `First reports after the proxy starts (nothing kept yet): ${firstReports.join('; ')}.`);
    return lines.join('\n');
  } finally {
    for (const p of processes.reverse()) await stopCli(p);
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
