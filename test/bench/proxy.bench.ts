// GET /api/campaigns through the proxy vs a bare Express route returning the
// same bytes with the same headers (autocannon, side by side in one run,
// rounds interleaved so every case sees the same machine state). Two
// measures: saturated throughput and p99, and server CPU time per request at
// a fixed rate, which stays meaningful on a machine shared with other work.
// The apply part (added latency with 1 MB and 10 MB resumes, peak RSS) is
// proxy-apply.bench.ts.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { PROXY_NODE_FLAGS } from '../../server/proxy/node-flags.ts';
import { median } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 20;
const FIXED_RATE = 1000;

interface Targets {
  proxy: string;
  bare: string;
  cpu: string;
  etag: string;
  bytes: number;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMicros: number;
}

async function cpuOf(targets: Targets): Promise<number> {
  const usage = (await (await fetch(targets.cpu)).json()) as { user: number; system: number };
  return usage.user + usage.system;
}

async function measure(targets: Targets, url: string, headers: Record<string, string> = {}): Promise<Sample> {
  const saturated = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const before = await cpuOf(targets);
  const paced = await autocannon({ url, connections: 10, duration: 3, overallRate: FIXED_RATE, headers });
  const cpu = (await cpuOf(targets)) - before;
  return {
    rps: saturated.requests.average,
    p50: saturated.latency.p50,
    p99: saturated.latency.p99,
    errors: saturated.errors + saturated.timeouts + saturated.non2xx,
    cpuMicros: cpu / Math.max(1, paced.requests.total),
  };
}

export default async function bench(): Promise<string> {
  // With the Node flags `jobboard-connector proxy` runs with, for the bare route too.
  const child = spawn(
    process.execPath,
    [...PROXY_NODE_FLAGS, fileURLToPath(new URL('./proxy-campaigns-server.ts', import.meta.url))],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const targets = JSON.parse(line) as Targets;

    const cases = {
      bare: () => measure(targets, targets.bare),
      proxy: () => measure(targets, targets.proxy),
      revalidate: () => measure(targets, targets.proxy, { 'if-none-match': targets.etag }),
    };
    // Warm-up (JIT, caches), not recorded.
    await autocannon({ url: targets.proxy, connections: CONNECTIONS, duration: 2 });
    await autocannon({ url: targets.bare, connections: CONNECTIONS, duration: 2 });

    const samples: Record<keyof typeof cases, Sample[]> = { bare: [], proxy: [], revalidate: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of Object.entries(cases) as [keyof typeof cases, () => Promise<Sample>][]) {
        samples[name].push(await run());
      }
    }

    const m = (s: Sample[], key: keyof Sample) => median(s.map((x) => x[key]));
    const row = (label: string, s: Sample[]) => {
      const base = samples.bare;
      return [
        label,
        Math.round(m(s, 'rps')).toLocaleString('en-US'),
        m(s, 'p50'),
        m(s, 'p99'),
        Math.round(m(s, 'cpuMicros')),
        (m(s, 'rps') / m(base, 'rps')).toFixed(2),
        (m(s, 'p99') / Math.max(1, m(base, 'p99'))).toFixed(2),
        (m(s, 'cpuMicros') / m(base, 'cpuMicros')).toFixed(2),
      ].join(' | ');
    };
    // 304s count as non-2xx for autocannon: only the 200 cases are checked.
    const errors = [...samples.proxy, ...samples.bare].reduce((n, s) => n + s.errors, 0);

    return [
      '## Proxy: GET /api/campaigns',
      '',
      `\`npm run bench -- proxy\`: autocannon, ${ROUNDS} interleaved rounds per case; medians of the rounds. Throughput and latency: ${CONNECTIONS} connections`,
      `for ${DURATION_S} s. CPU: the servers' process CPU time (user + system) per request while autocannon sends a fixed ${FIXED_RATE} requests/s for 3 s.`,
      `The servers run in a child process (test/bench/proxy-campaigns-server.ts, node ${PROXY_NODE_FLAGS.join(' ')} as the proxy command): the proxy against the seeded sandbox, catalogue synced,`,
      `its request log at info level written to /dev/null as the proxy writes stdout; and a bare Express 5 route answering the same ${targets.bytes.toLocaleString('en-US')} bytes`,
      '(first page of 20 campaigns) with the same headers.',
      '',
      '| case | requests/s | p50 (ms) | p99 (ms) | CPU µs/request | throughput vs bare | p99 vs bare | CPU vs bare |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      `| ${row('bare Express route, same bytes and headers', samples.bare)} |`,
      `| ${row('proxy GET /api/campaigns (200)', samples.proxy)} |`,
      `| ${row('proxy, If-None-Match → 304', samples.revalidate)} |`,
      '',
      'What the proxy adds per request: the request id, the access log line (written with the other lines of its turn of the event loop; a child logger only when a module logs),',
      "helmet's headers (recorded once at start-up), the CORS origin check, the HTTP metrics, the query's validation (kept per query string),",
      'the ETag check and the Express routing. The answer itself comes from an in-memory cache keyed on the catalogue version, its bytes',
      'encoded once, so the store is not read per request. autocannon runs on the same machine: on two cores it competes with the servers,',
      'and the bare route is then limited by autocannon more than by its server, so the throughput ratio moves with whatever else runs;',
      `the CPU columns are steadier. Failed or non-2xx answers in the 200 cases: ${errors}.`,
    ].join('\n');
  } finally {
    child.kill('SIGTERM');
  }
}
