// The catalogue-scale bench's list throughput: GET /api/campaigns?per_page=20
// from the proxy against a bare Express route answering the same bytes, each
// server in a process of its own, rounds taking turns.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { median } from './stats.ts';

const READ_ROUNDS = 3;
const READ_SECONDS = 5;
const READ_CONNECTIONS = 10;
export const LIST_PATH = '/api/campaigns?per_page=20';

/** The bare route in a child process of its own, answering the proxy's bytes. */
async function startBare(sampleFile: string): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, [new URL('./bare-route-server.ts', import.meta.url).pathname, sampleFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the bare route exited (${code})`)));
  });
  return { url: line.trim(), pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

interface ListReads {
  proxy: number[];
  bare: number[];
  /** CPU time (user + system) of each server's process per request answered, in µs, per round; empty without /proc. */
  cpu: { proxy: number[]; bare: number[] };
}

/** CPU time (user + system) a process has used, in µs, from /proc (Linux); undefined elsewhere. */
function cpuOf(pid: number): number | undefined {
  try {
    // After the command's name in parentheses: utime and stime are the 12th and 13th fields, in clock ticks (100 a second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** GET LIST_PATH's requests/s, a round each in turn, from the proxy and from the bare route answering its bytes. */
export async function listThroughput(proxyUrl: string, proxyPid: number, dataDir: string): Promise<ListReads> {
  const sample = await fetch(`${proxyUrl}${LIST_PATH}`, { headers: { 'Accept-Encoding': 'identity' } });
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding']);
  const sampleFile = join(dataDir, 'bare-sample.json');
  writeFileSync(
    sampleFile,
    JSON.stringify({
      headers: [...sample.headers].filter(([name]) => !skip.has(name)),
      body: Buffer.from(await sample.arrayBuffer()).toString('base64'),
    }),
  );
  const bare = await startBare(sampleFile);
  try {
    const reads: ListReads = { proxy: [], bare: [], cpu: { proxy: [], bare: [] } };
    for (const url of [proxyUrl, bare.url])
      await autocannon({ url: `${url}${LIST_PATH}`, connections: 2, duration: 1 });
    for (let round = 0; round < READ_ROUNDS; round++) {
      for (const [name, url, pid] of [
        ['proxy', proxyUrl, proxyPid],
        ['bare', bare.url, bare.pid],
      ] as const) {
        const cpuBefore = cpuOf(pid);
        const result = await autocannon({
          url: `${url}${LIST_PATH}`,
          connections: READ_CONNECTIONS,
          duration: READ_SECONDS,
        });
        const cpuAfter = cpuOf(pid);
        reads[name].push(result.requests.average);
        if (cpuBefore !== undefined && cpuAfter !== undefined)
          reads.cpu[name].push((cpuAfter - cpuBefore) / result.requests.total);
      }
    }
    return reads;
  } finally {
    bare.stop();
  }
}

export function listTable(reads: ListReads, offers: number): string[] {
  const ratio = median(reads.proxy) / median(reads.bare);
  const cpu = (name: 'proxy' | 'bare') => (reads.cpu[name].length === 0 ? '?' : median(reads.cpu[name]).toFixed(0));
  return [
    `**GET ${LIST_PATH}** (autocannon, ${READ_CONNECTIONS} connections, ${READ_SECONDS} s a round, ${READ_ROUNDS} rounds taking turns) against a bare Express route answering`,
    "the same bytes and headers from a process of its own; medians of the rounds. CPU: the server process's CPU time (user + system, from /proc) per",
    "request answered during its rounds, steadier than requests/s when other work shares the machine; the proxy's includes its background sync.",
    '',
    '| server | requests/s, median | ratio | CPU µs/request, median |',
    '|---|---:|---:|---:|',
    `| proxy, ${offers.toLocaleString('en')} offers | ${Math.round(median(reads.proxy))} | ${ratio.toFixed(2)} | ${cpu('proxy')} |`,
    `| bare Express route | ${Math.round(median(reads.bare))} | 1.00 | ${cpu('bare')} |`,
    '',
    `Target ratio ≥ 0.6: ${ratio >= 0.6 ? 'met' : 'not met'}.`,
  ];
}
