// The catalogue-scale bench's hostile searches: the worst searches sent to
// the proxy (hostile-searches.ts, a process of its own), each kind timed
// alone, and /healthz idle against /healthz while six of the worst run in
// parallel, side by side in one run.
import { spawn } from 'node:child_process';
import { z } from 'zod';
import { HOSTILE } from './hostile-searches-kinds.ts';

const Timed = z.object({ ms: z.number(), status: z.number() });
const Figures = z.object({
  alone: z.array(z.array(Timed)),
  idle: z.array(z.number()),
  loaded: z.array(z.number()),
  underLoad: z.array(Timed),
});

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  sorted(values)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
const ms = (value: number) => value.toFixed(1);
/** The answers by status: "20 × 200". */
const statuses = (timed: { status: number }[]) =>
  [...new Set(timed.map((t) => t.status))]
    .sort()
    .map((status) => `${timed.filter((t) => t.status === status).length} × ${status}`)
    .join(', ');

async function run(base: string): Promise<z.infer<typeof Figures>> {
  const child = spawn(process.execPath, [new URL('./hostile-searches.ts', import.meta.url).pathname, base], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`the hostile searches exited (${code})`);
  return Figures.parse(JSON.parse(printed));
}

/** The section's lines: each kind alone, then /healthz idle and under six worst searches in parallel. */
export async function hostileSearches(base: string, offers: number): Promise<string[]> {
  const figures = await run(base);
  const worst = Math.max(...figures.alone.flat().map((t) => t.ms));
  const p99 = percentile(figures.loaded, 99);
  return [
    `**Hostile searches** (GET /api/campaigns at ${offers.toLocaleString('en')} offers, test/bench/hostile-searches.ts in a process of its own; SEARCH_RATE_LIMIT_PER_MINUTE`,
    'lifted for the bench so that every search is run, not refused): each kind 20 times, one at a time, each request new (words permuted, pages',
    'moved: no answer from the cache). Time from request to last byte; the statuses tell which searches the time budget stopped (422).',
    '',
    '| search | median (ms) | max (ms) | answers |',
    '|---|---:|---:|---|',
    ...HOSTILE.map(([label], kind) => {
      const times = figures.alone[kind]!;
      return `| ${label} | ${ms(median(times.map((t) => t.ms)))} | ${ms(Math.max(...times.map((t) => t.ms)))} | ${statuses(times)} |`;
    }),
    '',
    `Slowest single search: ${ms(worst)} ms. Target ≤ 100 ms: ${worst <= 100 ? 'met' : 'not met'}.`,
    '',
    `**/healthz while six of the worst searches run** (six clients sending the costliest kinds above without pause for 10 s, each request new;`,
    '/healthz asked every 10 ms, one at a time), against /healthz idle just before, in the same run:',
    '',
    '| /healthz | requests | median (ms) | p99 (ms) | max (ms) |',
    '|---|---:|---:|---:|---:|',
    `| idle | ${figures.idle.length} | ${ms(median(figures.idle))} | ${ms(percentile(figures.idle, 99))} | ${ms(Math.max(...figures.idle))} |`,
    `| six worst searches in parallel | ${figures.loaded.length} | ${ms(median(figures.loaded))} | ${ms(p99)} | ${ms(Math.max(...figures.loaded))} |`,
    '',
    `p99 ratio loaded / idle: ${(p99 / percentile(figures.idle, 99)).toFixed(1)}. Searches answered meanwhile: ${figures.underLoad.length} (${statuses(figures.underLoad)}),`,
    `median ${ms(median(figures.underLoad.map((t) => t.ms)))} ms each. Target /healthz p99 < 50 ms: ${p99 < 50 ? 'met' : 'not met'}.`,
  ];
}
