// The apply path of the proxy: its peak RSS while 20 applications with 10 MB
// resumes arrive at once, 300 slow uploads against its limits, and the
// latency it adds to an application with a 1 MB and a 10 MB resume, against
// sending the same application straight to the sandbox. Sandbox and proxy run
// in separate child processes, started from the built package's CLI
// (dist/server/cli.js) as a partner runs them, so the RSS is the shipped
// proxy's alone; direct and proxied applications alternate in one run. With
// BENCH_BEFORE, an older build's proxy takes turns with this one's in each
// measure.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';
import { DEMO_KEYS } from '../../server/sandbox/index.ts';
import { pdfOfSize } from '../../server/test/files.ts';
import { freePort, stopCli } from '../cli-processes.ts';
import type { CliProcess } from '../cli-processes.ts';
import { applyThroughProxy, inTurn, proxySides } from './processes.ts';
import type { Side } from './processes.ts';
import { median } from './stats.ts';

const ROUNDS = {
  '1 MB': Number(process.env.BENCH_APPLY_ROUNDS_1MB ?? 15),
  '10 MB': Number(process.env.BENCH_APPLY_ROUNDS_10MB ?? 7),
};
const SIZES = { '1 MB': 1_000_000, '10 MB': 10_000_000 } as const;
const CONCURRENT = 20;
/** Bursts of CONCURRENT applications a build takes, each on a fresh proxy: one burst's peak swings by a few MiB. */
const BURSTS = Number(process.env.BENCH_APPLY_BURSTS ?? 1);
const SLOW_UPLOADS = 300;
const UPLOAD_TIMEOUT_SECONDS = 10;
const CLI = fileURLToPath(new URL('../../dist/server/cli.js', import.meta.url));

/**
 * `jobboard-connector <command>` from the build at `cli`, on a free port;
 * resolves once `ready.path` answers (with `ready.status` when given). Its
 * output is dropped (`output()` is empty), so its logging costs what it costs
 * a partner writing to /dev/null.
 */
async function startCli(
  cli: string,
  args: string[],
  env: Record<string, string>,
  ready: { path: string; status?: number },
): Promise<CliProcess> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (\`npm run bench\` does).`);
  const port = await freePort();
  const child = spawn(process.execPath, [cli, ...args, ...(args[0] === 'sandbox' ? ['--port', String(port)] : [])], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  const url = `http://127.0.0.1:${port}`;
  const ended = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`))),
  );
  for (let i = 0; ; i++) {
    const status = await Promise.race([
      fetch(`${url}${ready.path}`).then(
        (r) => r.status,
        () => 0,
      ),
      exited,
    ]);
    if (status !== 0 && (ready.status === undefined || status === ready.status)) break;
    if (i > 300) throw new Error(`${args.join(' ')} not ready at ${url}${ready.path}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url, pid: child.pid!, exited: ended, output: () => '' };
}

/** Resident set of a process now and at its peak (Linux /proc), in MiB. */
function rss(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/**
 * SLOW_UPLOADS applications whose bodies come at 1 KB/s, as a slow-loris would
 * send them. Resolves once every socket is closed, with how each ended: a 503
 * answered before the body (past MAX_CONCURRENT_UPLOADS) or cut by the
 * proxy's upload timeout.
 */
function slowUploads(url: string): { done: Promise<{ busy: number; cut: number; slowest: number }>; stop: () => void } {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  const timers: NodeJS.Timeout[] = [];
  const endings = Array.from(
    { length: SLOW_UPLOADS },
    (_, i) =>
      new Promise<{ busy: boolean; ms: number }>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST /api/applications HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 10000000\r\nIdempotency-Key: slow-${i}\r\n\r\n`,
          );
          timers.push(setInterval(() => socket.write(Buffer.alloc(1024, 0x2d)), 1000));
        });
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve({ busy: answer.startsWith('HTTP/1.1 503'), ms: performance.now() - started }));
      }),
  );
  return {
    done: Promise.all(endings).then((all) => {
      for (const timer of timers) clearInterval(timer);
      return {
        busy: all.filter((e) => e.busy).length,
        cut: all.filter((e) => !e.busy).length,
        slowest: Math.max(...all.map((e) => e.ms)),
      };
    }),
    stop: () => timers.forEach(clearInterval),
  };
}

let counter = 0;
const email = () => `bench.${process.pid}.${++counter}@example.org`;

export default async function bench(): Promise<string> {
  const sides = proxySides();
  const named = (side: Side, cells: string) => (sides.length === 1 ? cells : `| ${side.name} ${cells}`);
  // No rate limit in the sandbox: the bench measures the proxy, not the service's 120 a minute (which each proxy's budget also keeps).
  const sandboxServer = await startCli(
    CLI,
    ['sandbox', '--seed', 'demo', '--rate-limit', '0'],
    {},
    { path: '/v2/channels' },
  );
  const sandbox = { ...sandboxServer, url: `${sandboxServer.url}/v2` };
  const proxies: CliProcess[] = [];
  /** A proxy process of its own for each measure: one measure's memory is not the previous one's. */
  const freshProxy = async (side: Side) => {
    const proxy = await startCli(
      side.cli,
      ['proxy'],
      {
        UPSTREAM_URL: sandbox.url,
        UPSTREAM_PRIVATE_KEY: DEMO_KEYS.jobboard.private_key,
        UPSTREAM_SECRET_KEY: DEMO_KEYS.jobboard.secret_key,
        JOBBOARD_CHANNEL: DEMO_KEYS.jobboard.channel,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'proxy-apply-bench-')),
        APPLY_RATE_LIMIT_PER_IP: '1000000',
        // Every candidate of the bench applies from 127.0.0.1: one address may hold every upload place, as before that limit.
        MAX_CONCURRENT_UPLOADS_PER_IP: '1000000',
        MAX_CONCURRENT_UPLOADS_PER_NETWORK: '1000000',
        DELIVERY_DEADLINE_MS: '30000',
        // Short enough that the slow-upload part sees every socket cut within the bench.
        UPLOAD_TIMEOUT_SECONDS: String(UPLOAD_TIMEOUT_SECONDS),
        METRICS_PORT: '0',
        LOG_LEVEL: 'info',
      },
      { path: '/readyz', status: 200 },
    );
    proxies.push(proxy);
    return proxy;
  };
  try {
    const token = (
      (await (
        await fetch(`${sandbox.url}/jwt`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            private_key: DEMO_KEYS.jobboard.private_key,
            secret_key: DEMO_KEYS.jobboard.secret_key,
          }),
        })
      ).json()) as { token: string }
    ).token;
    const probe = await freshProxy(sides.at(-1)!);
    const campaigns = (
      (await (await fetch(`${probe.url}/api/campaigns?per_page=50`)).json()) as {
        items: { id: number; company_id: number }[];
      }
    ).items;
    await stopCli(probe);
    const campaign = campaigns[0]!;

    const direct = async (resume: Buffer): Promise<number> => {
      const started = performance.now();
      // What the proxy itself sends: the resume as base64 in JSON.
      const body = JSON.stringify({
        company_id: campaign.company_id,
        applicant: {
          email: email(),
          first_name: 'Ada',
          last_name: 'Lovelace',
          is_legals_accepted_by_manager: true,
          resume: { base64: resume.toString('base64'), mime_type: 'pdf' },
          applications: [{ campaign_id: campaign.id }],
        },
      });
      const response = await fetch(`${sandbox.url}/jobboards/applicants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`direct apply answered ${response.status}`);
      return performance.now() - started;
    };
    const resumes = { '1 MB': pdfOfSize(SIZES['1 MB']), '10 MB': pdfOfSize(SIZES['10 MB']) };
    const statuses: number[] = [];
    const proxied = async (proxy: CliProcess, resume: Buffer): Promise<number> => {
      const { ms, status } = await applyThroughProxy(proxy.url, campaign.id, email(), resume);
      statuses.push(status);
      return ms;
    };

    // 1. The burst, on a fresh proxy after one warm-up application (JIT, token, first SQLite pages).
    const bursts = new Map(
      sides.map((side) => [side, { before: [] as number[], peak: [] as number[], ms: [] as number[] }]),
    );
    for (let turn = 0; turn < BURSTS; turn++)
      for (const side of inTurn(sides, turn)) {
        const proxy = await freshProxy(side);
        await proxied(proxy, resumes['1 MB']);
        const before = rss(proxy.pid).now;
        const started = performance.now();
        await Promise.all(Array.from({ length: CONCURRENT }, () => proxied(proxy, resumes['10 MB'])));
        const burst = bursts.get(side)!;
        burst.ms.push(performance.now() - started);
        burst.before.push(before);
        burst.peak.push(rss(proxy.pid).peak);
        // Stopped once its measure is done, so the next one runs on a machine without it.
        await stopCli(proxy);
      }

    // 2. Slow uploads held open while candidates read the offers, on a fresh proxy each turn (as many as the bursts, the
    // builds taking turns: neither is always measured second): the catalogue's latency meanwhile, and their memory.
    const slowTurn = async (side: Side) => {
      const proxy = await freshProxy(side);
      const idle = await autocannon({ url: `${proxy.url}/api/campaigns`, connections: 10, duration: 4 });
      const before = rss(proxy.pid).now;
      const uploads = slowUploads(proxy.url);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const loaded = await autocannon({ url: `${proxy.url}/api/campaigns`, connections: 10, duration: 4 });
      const end = await uploads.done;
      const peak = rss(proxy.pid).peak;
      await stopCli(proxy);
      return {
        ...end,
        before,
        peak,
        idleP99: idle.latency.p99,
        loadedP99: loaded.latency.p99,
        idleRate: idle.requests.average,
        loadedRate: loaded.requests.average,
      };
    };
    const slow = new Map(sides.map((side) => [side, [] as Awaited<ReturnType<typeof slowTurn>>[]]));
    for (let turn = 0; turn < BURSTS; turn++)
      for (const side of inTurn(sides, turn)) slow.get(side)!.push(await slowTurn(side));
    const slowRows = sides.map((side) => {
      const turns = slow.get(side)!;
      const m = (figure: keyof (typeof turns)[number]) => median(turns.map((figures) => figures[figure]));
      return named(
        side,
        `| ${BURSTS} | ${m('busy')} | ${m('cut')} | ${(m('slowest') / 1000).toFixed(1)} | ${m('before').toFixed(0)} | **${m('peak').toFixed(0)}** | ${m('idleP99')} | **${m('loadedP99')}** | ${Math.round(m('idleRate'))} | ${Math.round(m('loadedRate'))} |`,
      );
    });

    // 3. The time added to one application, direct and proxied alternating, on a fresh proxy of each build.
    const timed = new Map<Side, CliProcess>();
    for (const side of sides) timed.set(side, await freshProxy(side));
    await direct(resumes['1 MB']);
    for (const proxy of timed.values()) await proxied(proxy, resumes['1 MB']);
    const rows: string[] = [];
    for (const size of ['1 MB', '10 MB'] as const) {
      const d: number[] = [];
      const p = new Map<Side, number[]>(sides.map((side) => [side, []]));
      const added = new Map<Side, number[]>(sides.map((side) => [side, []]));
      for (let round = 0; round < ROUNDS[size]; round++) {
        const ms = await direct(resumes[size]);
        d.push(ms);
        for (const side of inTurn(sides, round)) {
          const through = await proxied(timed.get(side)!, resumes[size]);
          p.get(side)!.push(through);
          added.get(side)!.push(through - ms);
        }
      }
      const md = median(d);
      for (const side of sides) {
        const mp = median(p.get(side)!);
        const ma = median(added.get(side)!);
        rows.push(
          `| ${size} | ${ROUNDS[size]} ${named(side, `| ${md.toFixed(1)} | ${mp.toFixed(1)} | ${ma >= 0 ? '+' : ''}${ma.toFixed(1)} | ${(mp / md).toFixed(2)} |`)}`,
        );
      }
    }

    const counts = [...new Set(statuses)]
      .sort()
      .map((s) => `${s}: ${statuses.filter((x) => x === s).length}`)
      .join(', ');
    const column = sides.length === 1 ? '' : ' proxy |';
    const rule = sides.length === 1 ? '' : '---|';
    const burstRows = sides.map((side) => {
      const burst = bursts.get(side)!;
      return named(
        side,
        `| ${BURSTS} | ${median(burst.before).toFixed(0)} | **${median(burst.peak).toFixed(0)}** | ${(median(burst.ms) / 1000).toFixed(1)} |`,
      );
    });

    return [
      '## Proxy: POST /api/applications',
      '',
      'test/bench/proxy-apply.bench.ts (run by `npm run bench`). The sandbox and the proxy run in separate child processes started from the',
      'built CLI as a partner runs them (`jobboard-connector sandbox --seed demo --rate-limit 0`; `jobboard-connector proxy`, its log at info',
      'level written to /dev/null), a fresh proxy process for each of the three measures below, with its outbox on the local disk (SQLite WAL,',
      'synchronous=FULL, resumes as files beside it).',
      ...(sides.length === 1
        ? []
        : [
            '',
            `**Before and after** (BENCH_BEFORE=${process.env.BENCH_BEFORE}): each measure runs the proxy of that build ("before") and of this`,
            'one ("after") against the same sandbox of this build, one after the other, the first changing from turn to turn.',
          ]),
      '',
      `**Memory, ${CONCURRENT} applications carrying 10 MB resumes sent at once**, on a fresh proxy after one 1 MB application; medians over`,
      'the bursts, each on a proxy of its own.',
      '',
      `|${column} bursts | resident set before (MiB) | peak (MiB) | the ${CONCURRENT} answers (s) |`,
      `|${rule}---:|---:|---:|---:|`,
      ...burstRows,
      '',
      'Each resume is written to DATA_DIR/uploads as it arrives and streamed from its file into the upstream request (node:http, base64',
      'encoded into one reused buffer): memory per application in flight is a few 90 KiB buffers, whatever the resume weighs. The proxy',
      'command runs Node with --max-semi-space-size=2 (server/proxy/node-flags.ts): the copies Node makes of each uploaded chunk are then',
      'freed by minor collections as the uploads go, instead of piling up until V8 runs a full one.',
      '',
      `**${SLOW_UPLOADS} slow uploads** (headers announcing 10 MB, then 1 KB a second) against the proxy with UPLOAD_TIMEOUT_SECONDS=${UPLOAD_TIMEOUT_SECONDS}`,
      'and the default MAX_CONCURRENT_UPLOADS (50): how many were answered 503 server_busy before their body and how many cut by the',
      'timeout, when the last socket closed after the first opened, the resident set before them (after 4 s of catalogue reads) and at',
      'its peak, and GET /api/campaigns (autocannon, 10 connections, 4 s) just before them and meanwhile; medians over as many turns as',
      'the bursts, each on a proxy of its own.',
      '',
      `|${column} turns | 503 before the body | cut by the timeout | last closed (s) | resident set before (MiB) | peak (MiB) | GET p99 before (ms) | GET p99 meanwhile (ms) | GET requests/s before | meanwhile |`,
      `|${rule}---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
      ...slowRows,
      '',
      '**Time added to one application**: each round sends one application straight to the sandbox (`POST /jobboards/applicants`, the JSON',
      'body with the resume in base64 that the proxy itself sends) and then one through the proxy (multipart `POST /api/applications`, answered',
      "201 once delivered), one at a time; the added time is the median of the rounds' differences, through the proxy less direct.",
      '',
      `| resume | rounds |${column} direct to sandbox, median (ms) | through the proxy, median (ms) | added by the proxy (ms) | ratio |`,
      `|---|---:|${rule}---:|---:|---:|---:|`,
      ...rows,
      '',
      'What the added time is made of: reading the multipart stream into its upload file while hashing it for the Idempotency-Key, sniffing',
      'the type from the file, an fsync of the file and its move into the outbox, one SQLite transaction with an fsync that stores the',
      'application before anything is sent, the upstream call with the resume streamed as base64, and a second write that marks it delivered',
      `and deletes the resume. Answers over the whole run: ${counts}.`,
    ].join('\n');
  } finally {
    await Promise.all(proxies.map((proxy) => stopCli(proxy)));
    sandboxServer.child.kill('SIGTERM');
  }
}
