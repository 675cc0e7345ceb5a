// The catalogue at scale: a sandbox with 50,000 broadcast offers, a proxy
// from the built CLI holding them (SQLite in its DATA_DIR, SYNC_BUDGET_SHARE
// 0.25), and, on PostgreSQL, several instances sharing one copy. Measures the
// search p99 through the public GET /api/campaigns?q=, list throughput
// against a bare Express route answering the same bytes, the proxy's RSS,
// the sync requests a minute counted at the wire against the share, the time
// for a newly broadcast offer to be listed, and the time for 100 changed
// offers to be applied on every instance, against a whole reload (the syncing
// instance in this process, the others each in a process of its own:
// catalogue-follower.ts).
//
// BENCH_CATALOGUE_ONLY runs one part alone, for working on its cost where a
// whole run takes many minutes; the section then holds that part's figures only.
// - changes: the changes on every instance (no proxy, no wire, no search or throughput);
// - list: the list throughput (with the seed and the proxy it needs): no search,
//   no wire count over minutes, no newly broadcast offer, no PostgreSQL changes;
// - hostile: the hostile searches alone (catalogue-hostile.ts), with the same seed and proxy,
//   in a section of its own (the whole run's section keeps its figures).
import { fork, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { z } from 'zod';
import { Campaign } from '../../server/contract/index.ts';
import { RATE_LIMIT_PER_MINUTE } from '../../server/contract/values.ts';
import { toCatalogueCampaign } from '../../server/proxy/catalogue/catalogue.ts';
import type { CatalogueCampaign } from '../../server/proxy/catalogue/types.ts';
import { openSharedCatalogueStore } from '../../server/proxy/storage/catalogue/catalogue-shared.ts';
import type { SharedCatalogue } from '../../server/proxy/storage/catalogue/catalogue-shared.ts';
import { openCatalogueStore } from '../../server/proxy/storage/catalogue/catalogue-sqlite.ts';
import { broadcastNewOffer, seedBroadcastOffers } from '../../server/sandbox/bulk-seed.ts';
import type { BulkSeed } from '../../server/sandbox/bulk-seed.ts';
import { startSandbox } from '../../server/sandbox/index.ts';
import type { SandboxContext } from '../../server/sandbox/index.ts';
import { CAMPAIGN_SELECT, renderCampaigns } from '../../server/sandbox/render.ts';
import type { CampaignRow } from '../../server/sandbox/render.ts';
import { TEST_DATABASE_URL } from '../../server/test/postgres-server.ts';
import { freshMigratedDatabase } from '../../server/test/postgres.ts';
import { CLI, startCli, stopCli } from '../cli-processes.ts';
import { hostileSearches } from './catalogue-hostile.ts';
import { FollowerMessage } from './catalogue-follower-messages.ts';
import { listTable, listThroughput } from './list-throughput.ts';
import { untilProxyReady } from './processes.ts';
import { median, percentile } from './stats.ts';

const OFFERS = Number(process.env.BENCH_CATALOGUE_OFFERS ?? 50_000);
const CHANNEL = 'board_scale';
const SHARE = 0.25;
/** How long the sync requests are counted at the wire (at least two minutes: the share is per minute). */
const WIRE_SECONDS = Number(process.env.BENCH_CATALOGUE_WIRE_SECONDS ?? 180);
const SEARCH_ROUNDS = 30;
const CHANGED = 100;
const CHANGE_ROUNDS = 15;
const FOLLOWERS = 3;
/** One part measured alone (see the header), or the whole run. */
const ONLY = z
  .enum(['changes', 'list', 'hostile'])
  .optional()
  .parse(process.env.BENCH_CATALOGUE_ONLY || undefined);
const HEADING = `## Catalogue at scale (${OFFERS.toLocaleString('en')} offers)`;

/** What a board's visitors type, with the filters the list route takes. */
const QUERIES = [
  'q=développeur',
  'q=data%20analyst',
  'q=stage%20marketing',
  'q=comptable',
  'q=devops',
  'q=recrutement&city=Lyon',
  'q=product%20designer',
  'q=senior%20paris',
  'job_type=Permanent%20contract&city=Nantes',
  'q=commercial&page=3',
];

const ms = (value: number) => value.toFixed(1);

/** The catalogue records of the seeded offers, as a sync of them stores them (rendered and read as the client reads them). */
function catalogueRecords(ctx: SandboxContext, seed: BulkSeed): CatalogueCampaign[] {
  const rows = ctx.db.all<CampaignRow>(`${CAMPAIGN_SELECT} WHERE c.company_id = ? ORDER BY c.id`, seed.companyId);
  const records: CatalogueCampaign[] = [];
  for (let i = 0; i < rows.length; i += 1_000) {
    for (const campaign of renderCampaigns(ctx.db, rows.slice(i, i + 1_000), ['address', 'channels']))
      records.push(toCatalogueCampaign(Campaign.parse(campaign)));
  }
  return records;
}

/** A forwarder in front of the sandbox that stamps every GET /v2/campaigns it passes: the sync requests at the wire. */
async function wireCounter(target: string): Promise<{ url: string; lists: number[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const lists: number[] = [];
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/v2/campaigns') lists.push(performance.now());
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lists,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The most of these times within any 60 s. */
const mostInAMinute = (times: number[]) =>
  Math.max(0, ...times.map((t) => times.filter((o) => o >= t && o < t + 60_000).length));

/** Resident memory of a process, from /proc (Linux): now and its peak. */
function rssOf(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  } catch {
    return undefined;
  }
}

/** GETs timed one at a time by a child process (timed-gets.ts), apart from the sandbox in this one. */
async function timedGets(base: string, rounds: number, queries: readonly string[]): Promise<number[]> {
  const child = spawn(
    process.execPath,
    [new URL('./timed-gets.ts', import.meta.url).pathname, base, String(rounds), ...queries],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  // 'close' comes once its output is read, unlike 'exit'.
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`the timed GETs exited (${code})`);
  return JSON.parse(printed) as number[];
}

/** An instance following the shared copy in a process of its own (catalogue-follower.ts): the versions it holds, and when. */
interface Follower {
  child: ChildProcess;
  /** Its whole reload at start (ms). */
  loaded: Promise<number>;
  /** Resolves with the wall-clock time (performance.timeOrigin based) at which it holds this version or a later one. */
  holds(version: number): Promise<number>;
}

function startFollower(url: string, name: string): Follower {
  const child = fork(new URL('./catalogue-follower.ts', import.meta.url).pathname, [url, name], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const held: { version: number; at: number }[] = [];
  const waiting = new Set<() => void>();
  let exited: Error | undefined;
  let loaded!: (ms: number) => void;
  const loadedMs = new Promise<number>((resolve) => (loaded = resolve));
  child.on('message', (received) => {
    const message = FollowerMessage.parse(received);
    if ('loaded' in message) loaded(message.loaded);
    else held.push(message);
    for (const wake of waiting) wake();
  });
  child.once('exit', (code) => {
    exited = new Error(`the follower ${name} exited (${code})`);
    for (const wake of waiting) wake();
  });
  return {
    child,
    loaded: Promise.race([
      loadedMs,
      new Promise<never>((_, reject) =>
        child.once('exit', (code) => reject(new Error(`the follower ${name} exited (${code})`))),
      ),
    ]),
    async holds(version) {
      for (;;) {
        const at = held.find((h) => h.version >= version)?.at;
        if (at !== undefined) return at;
        if (exited !== undefined) throw exited;
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            resolve();
          };
          waiting.add(wake);
        });
      }
    },
  };
}

/** Now, on the clock every process on the machine reads alike. */
const wallNow = () => performance.timeOrigin + performance.now();

/** 100 changed offers among the copy, applied on every instance sharing it (PostgreSQL), against a whole reload. */
async function sharedChanges(records: CatalogueCampaign[]): Promise<string[]> {
  if (TEST_DATABASE_URL === undefined)
    return ['**Changes on every instance**: not measured: no PostgreSQL server (set TEST_DATABASE_URL).'];
  const url = await freshMigratedDatabase();
  const silent = pino({ level: 'silent' });
  const pools: pg.Pool[] = [];
  const copies: SharedCatalogue[] = [];
  const followers: Follower[] = [];
  const open = async (name: string) => {
    const pool = new pg.Pool({ connectionString: url, max: 3, application_name: name });
    pool.on('error', () => undefined);
    pools.push(pool);
    const started = performance.now();
    const copy = await openSharedCatalogueStore(pool, { logger: silent, checkEveryMs: 3_600_000 });
    copies.push(copy);
    return { copy, loadMs: performance.now() - started };
  };
  try {
    const { copy: leader } = await open('bench-leader');
    if (!(await leader.lead())) throw new Error('the bench leader did not take the sync lock');
    for (let i = 0; i < records.length; i += 1_000)
      await leader.applyChanges({ upserts: records.slice(i, i + 1_000), deletes: [] });
    await leader.applyChanges({ upserts: [], deletes: [] }, new Date());
    followers.push(...Array.from({ length: FOLLOWERS }, (_, i) => startFollower(url, `bench-follower-${i}`)));
    const wholeLoads = await Promise.all(followers.map((f) => f.loaded));
    // One more instance that hears no announcement: its catch-up is timed alone.
    const { copy: quiet } = await open('bench-quiet');
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    await killer.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bench-quiet'");
    await killer.end();

    const everyInstance: number[] = [];
    const catchUps: number[] = [];
    for (let round = 0; round < CHANGE_ROUNDS; round++) {
      const changed = Array.from({ length: CHANGED }, (_, i) => {
        const record = records[(round * 7_919 + i * 487) % records.length]!;
        return { ...record, name: `${record.name ?? ''} (round ${round})` };
      });
      const started = wallNow();
      await leader.applyChanges({ upserts: changed, deletes: [] });
      const leaderHolds = wallNow();
      const target = leader.version();
      const held = await Promise.all(followers.map((f) => f.holds(target)));
      everyInstance.push(Math.max(leaderHolds, ...held) - started);
      const quietStarted = performance.now();
      await quiet.refresh();
      catchUps.push(performance.now() - quietStarted);
      if (quiet.lastCatchUp()?.kind !== 'changes' || quiet.store.get(changed[0]!.id)?.name !== changed[0]!.name)
        throw new Error('the quiet instance did not apply the changes alone');
    }
    return [
      `**Changes on every instance** (PostgreSQL, a fresh database on TEST_DATABASE_URL): ${records.length.toLocaleString('en')} offers in the shared copy, ${FOLLOWERS} instances`,
      `following it, each in a process of its own as the proxy is deployed, ${CHANGE_ROUNDS} rounds of ${CHANGED} changed offers written by the syncing instance. "Every instance": from the write's start to the`,
      `last instance holding the new version (write, NOTIFY, each instance's catch-up). "One catch-up": an instance that heard no announcement reads and`,
      'applies the changes since its version (timed alone). "Whole reload": an instance starting, which reads the whole copy (what each change cost before the change log).',
      '',
      '| measure | median (ms) | p99 (ms) |',
      '|---|---:|---:|',
      `| ${CHANGED} changes applied on every instance | ${ms(median(everyInstance))} | ${ms(percentile(everyInstance, 99))} |`,
      `| one catch-up of ${CHANGED} changes | ${ms(median(catchUps))} | ${ms(percentile(catchUps, 99))} |`,
      `| whole reload of ${records.length.toLocaleString('en')} | ${ms(median(wholeLoads))} | ${ms(percentile(wholeLoads, 99))} |`,
      '',
      `Catch-up against whole reload, medians: ${(median(catchUps) / median(wholeLoads)).toFixed(3)}. Target: under 50 ms on every instance.`,
    ];
  } finally {
    for (const follower of followers) {
      if (follower.child.exitCode !== null || follower.child.signalCode !== null) continue;
      const exited = new Promise((resolve) => follower.child.once('exit', resolve));
      // Disconnected, it closes its copy and its pool, then exits.
      if (follower.child.connected) follower.child.disconnect();
      await exited;
    }
    for (const copy of copies) await copy.close();
    for (const pool of pools) await pool.end().catch(() => undefined);
  }
}

export default async function bench(): Promise<string> {
  const sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  const seedStarted = performance.now();
  const seed = seedBroadcastOffers(sandbox.context, { count: OFFERS, channel: CHANNEL });
  const seedMs = performance.now() - seedStarted;
  const records = catalogueRecords(sandbox.context, seed);
  if (ONLY === 'changes') {
    try {
      return [HEADING, '', 'Run alone (BENCH_CATALOGUE_ONLY=changes).', '', ...(await sharedChanges(records))].join(
        '\n',
      );
    } finally {
      await sandbox.close();
    }
  }
  const wire = await wireCounter(sandbox.origin);
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-scale-bench-'));
  // What an earlier run left in DATA_DIR: the proxy starts serving it, and its sync walks in the background, paced.
  const prefilled = openCatalogueStore(dataDir);
  prefilled.replaceAll(records, new Date());
  prefilled.close();
  const proxy = await startCli(CLI.built, 'proxy', [], {
    UPSTREAM_URL: `${wire.url}/v2`,
    UPSTREAM_PRIVATE_KEY: seed.keys.private_key,
    UPSTREAM_SECRET_KEY: seed.keys.secret_key,
    JOBBOARD_CHANNEL: CHANNEL,
    PORT: '0',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    DATA_DIR: dataDir,
    SYNC_BUDGET_SHARE: String(SHARE),
    LOG_LEVEL: 'warn',
    // The bench times searches by the hundred from one address: the per-address limit would refuse them.
    SEARCH_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const startedAt = performance.now();
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssOf(proxy.pid)?.rss ?? 0);
  }, 1_000);
  try {
    await untilProxyReady(proxy, 60);
    if (ONLY === 'hostile') {
      // A section of its own: run alone, it leaves the whole run's figures in place.
      const heading = `## Catalogue at scale: hostile searches (${OFFERS.toLocaleString('en')} offers)`;
      return [
        heading,
        '',
        'Run alone (BENCH_CATALOGUE_ONLY=hostile): the proxy from the built CLI on a DATA_DIR holding the seeded offers, as in the whole run.',
        '',
        ...(await hostileSearches(proxy.url, OFFERS)),
      ].join('\n');
    }
    if (ONLY === 'list') {
      return [
        HEADING,
        '',
        'Run alone (BENCH_CATALOGUE_ONLY=list): the proxy from the built CLI on a DATA_DIR holding the seeded offers, as in the whole run.',
        '',
        ...listTable(await listThroughput(proxy.url, proxy.pid, dataDir), OFFERS),
      ].join('\n');
    }
    // A manager broadcasts a new offer; the visitors' side polls until the proxy lists it.
    const added = broadcastNewOffer(sandbox.context, seed, 'Freshly broadcast offer');
    const broadcastAt = performance.now();
    const listed = (async () => {
      for (;;) {
        if (
          (await fetch(`${proxy.url}/api/campaigns/${added}`).then(
            (r) => r.status,
            () => 0,
          )) === 200
        )
          return performance.now() - broadcastAt;
        if (performance.now() - broadcastAt > 300_000) return Number.NaN;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();

    // Search: each query once a round, one at a time, timed from a process of its own.
    const searches = await timedGets(`${proxy.url}/api/campaigns`, SEARCH_ROUNDS, QUERIES);
    const hostile = await hostileSearches(proxy.url, OFFERS);

    const reads = await listThroughput(proxy.url, proxy.pid, dataDir);

    const listedMs = await listed;
    const left = WIRE_SECONDS * 1000 - (performance.now() - startedAt);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    const observedMs = performance.now() - startedAt;
    const syncRequests = wire.lists.filter((t) => t >= startedAt);
    const rss = rssOf(proxy.pid);
    peakRss = Math.max(peakRss, rss?.rss ?? 0);
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    const allowed = Math.floor(SHARE * RATE_LIMIT_PER_MINUTE);

    const changes = await sharedChanges(records);
    return [
      HEADING,
      '',
      "test/bench/catalogue-scale.bench.ts (`npm run bench -- catalogue-scale`). The sandbox runs in the bench's process with",
      `${OFFERS.toLocaleString('en')} online offers broadcast on the board's channel (bulk seed: ${(seedMs / 1000).toFixed(1)} s), behind a forwarder that counts the`,
      'GET /v2/campaigns it passes (the wire). The proxy runs from the built CLI in a process of its own (SQLite in its DATA_DIR, LOG_LEVEL=warn,',
      `SYNC_BUDGET_SHARE=${SHARE}), started on a DATA_DIR holding the ${OFFERS.toLocaleString('en')} offers as an earlier run left them: it serves them at once and its full`,
      'sync walks in the background, paced, while everything below is measured.',
      '',
      `**Search** through GET /api/campaigns (${QUERIES.length} queries a visitor types, some with filters, each ${SEARCH_ROUNDS} times, one at a time, after a warm-up,`,
      "timed from a process of its own: the sandbox answering the sync in the bench's process holds no reading of the clock):",
      `median ${ms(median(searches))} ms, p99 ${ms(percentile(searches, 99))} ms. Queries: ${QUERIES.map((q) => `\`${decodeURIComponent(q)}\``).join(', ')}.`,
      '',
      ...hostile,
      '',
      ...listTable(reads, OFFERS),
      '',
      `**Memory**: the proxy's RSS ${rss === undefined ? 'not read (no /proc)' : `${mib(rss.rss)} MiB at the end`}, ${mib(peakRss)} MiB at most (sampled every second;`,
      `kernel peak ${rss === undefined ? '?' : mib(rss.peak)} MiB). Target ≤ 300 MiB.`,
      '',
      `**Sync requests at the wire** over the first ${(observedMs / 1000).toFixed(0)} s after the proxy started: ${syncRequests.length} GET /v2/campaigns, at most`,
      `${mostInAMinute(syncRequests)} within any 60 s; the share allows ${allowed} a minute (${SHARE} × ${RATE_LIMIT_PER_MINUTE}). A full walk of ${Math.ceil(OFFERS / 50)} pages at`,
      `${allowed - 1} a window (one kept for the newest offers) takes about ${(((Math.ceil(OFFERS / 50) / (allowed - 1)) * 61) / 60).toFixed(0)} minutes.`,
      '',
      `**A newly broadcast offer** was listed (GET /api/campaigns/:id answering 200) ${Number.isNaN(listedMs) ? 'not within 5 minutes' : `${(listedMs / 1000).toFixed(1)} s`} after it was`,
      'broadcast, by the read of the newest offers that runs every minute (real time, no scaled clock). Target ≤ 2 minutes.',
      '',
      ...changes,
    ].join('\n');
  } finally {
    clearInterval(sampler);
    await stopCli(proxy);
    await wire.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
