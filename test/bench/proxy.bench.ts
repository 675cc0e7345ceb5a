// GET /api/campaigns through the proxy vs a bare Express route returning the
// same bytes (autocannon, side by side in one run, rounds interleaved so
// both see the same machine state). The apply part (added latency with 1 MB
// and 10 MB resumes, peak RSS) is proxy-apply.bench.ts.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 20;

interface Targets {
  proxy: string;
  bare: string;
  etag: string;
  bytes: number;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function load(url: string, headers: Record<string, string> = {}): Promise<Sample> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

export default async function bench(): Promise<string> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./proxy-campaigns-server.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const targets = JSON.parse(line) as Targets;

    const cases = {
      proxy: () => load(targets.proxy),
      bare: () => load(targets.bare),
      revalidate: () => load(targets.proxy, { 'if-none-match': targets.etag }),
    };
    // Warm-up (JIT, caches), not recorded.
    await autocannon({ url: targets.proxy, connections: CONNECTIONS, duration: 2 });
    await autocannon({ url: targets.bare, connections: CONNECTIONS, duration: 2 });

    const samples: Record<keyof typeof cases, Sample[]> = { proxy: [], bare: [], revalidate: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of Object.entries(cases) as [keyof typeof cases, () => Promise<Sample>][]) {
        samples[name].push(await run());
      }
    }

    const row = (label: string, s: Sample[], base?: Sample[]) => {
      const rps = median(s.map((x) => x.rps));
      const p99 = median(s.map((x) => x.p99));
      const ratio = base === undefined ? '1.00' : (rps / median(base.map((x) => x.rps))).toFixed(2);
      const p99Ratio = base === undefined ? '1.00' : (p99 / Math.max(1, median(base.map((x) => x.p99)))).toFixed(2);
      return `| ${label} | ${Math.round(rps).toLocaleString('en-US')} | ${median(s.map((x) => x.p50))} | ${p99} | ${ratio} | ${p99Ratio} |`;
    };
    // 304s count as non-2xx for autocannon: only the 200 cases are checked.
    const proxyErrors = samples.proxy.reduce((n, s) => n + s.errors, 0) + samples.bare.reduce((n, s) => n + s.errors, 0);

    return [
      '## Proxy: GET /api/campaigns',
      '',
      `\`npm run bench -- proxy\`: autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION_S} s per case; medians of the rounds.`,
      `The servers run in a child process (test/bench/proxy-campaigns-server.ts): the proxy against the seeded sandbox with its catalogue synced`,
      `and its request log at info level written to /dev/null,`,
      `and a bare Express 5 route answering the same ${targets.bytes.toLocaleString('en-US')} bytes (first page of 20 campaigns).`,
      '',
      '| case | requests/s | p50 (ms) | p99 (ms) | throughput vs bare | p99 vs bare |',
      '|---|---:|---:|---:|---:|---:|',
      row('bare Express route, same bytes', samples.bare),
      row('proxy GET /api/campaigns (200)', samples.proxy, samples.bare),
      row('proxy, If-None-Match → 304', samples.revalidate, samples.bare),
      '',
      `The proxy's cost over the bare route is its middleware: helmet headers, CORS, request id, pino-http log line, metrics, query parsing with zod, and the ETag check; the answer itself comes from an in-memory cache keyed on the catalogue version. Failed or non-2xx answers in the 200 cases: ${proxyErrors}.`,
    ].join('\n');
  } finally {
    child.kill('SIGTERM');
  }
}
