// Child process of the catalogue-scale bench: the worst searches a visitor
// (or a script) can send to GET /api/campaigns, each made new at every
// request (words permuted, pages moved) so that no answer comes from the
// cache. Times each kind alone, then /healthz idle and while six of the
// worst run without pause in parallel. Prints one JSON line (HostileFigures).
// argv: the proxy's base URL.
import { HOSTILE, WORST } from './hostile-searches-kinds.ts';

const [base] = process.argv.slice(2);
if (base === undefined) throw new Error('usage: hostile-searches.ts BASE_URL');

const ROUNDS = 20;
const LOAD_MS = 10_000;
const PARALLEL = 6;
const PROBE_EVERY_MS = 10;

interface Timed {
  ms: number;
  status: number;
}

async function timedGet(url: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

const search = (kind: number, i: number) => timedGet(`${base}/api/campaigns?${HOSTILE[kind]![1](i)}`);

/** /healthz every PROBE_EVERY_MS until `until` resolves. */
async function probeHealth(until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.then(() => (done = true));
  const times: number[] = [];
  while (!done) {
    const { ms, status } = await timedGet(`${base}/healthz`);
    if (status !== 200) throw new Error(`/healthz answered ${status}`);
    times.push(ms);
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  return times;
}

// Each kind alone (its first request untimed: the statement's preparation).
const alone: Timed[][] = [];
for (let kind = 0; kind < HOSTILE.length; kind++) {
  await search(kind, 1_000_000);
  const times: Timed[] = [];
  for (let i = 0; i < ROUNDS; i++) times.push(await search(kind, i));
  alone.push(times);
}

const idle = await probeHealth(new Promise((resolve) => setTimeout(resolve, 2_000)));

// Six clients sending the worst kinds without pause, each request new.
const loadEnds = performance.now() + LOAD_MS;
let sent = 0;
const underLoad: Timed[] = [];
const clients = Array.from({ length: PARALLEL }, async (_, client) => {
  for (let i = 0; performance.now() < loadEnds; i++) {
    underLoad.push(await search(WORST[(client + i) % WORST.length]!, 10_000 + (sent += 1)));
  }
});
const loaded = await probeHealth(Promise.all(clients));

console.log(JSON.stringify({ alone, idle, loaded, underLoad }));
