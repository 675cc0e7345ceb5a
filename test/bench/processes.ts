// What the benches running the built proxy share: which builds of it they
// compare, starting it on the demo's sandbox, waiting until it is ready, and
// one candidate's application through it, timed.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { demoProxyEnv } from '../../server/test/demo-proxy-env.ts';
import { CLI, startCli } from '../cli-processes.ts';
import type { CliProcess } from '../cli-processes.ts';

/** A build of the proxy a bench runs: this checkout's, or an older one's it is compared with. */
export interface Side {
  name: string;
  /** Its CLI, dist/server/cli.js of a built checkout. */
  cli: string;
}

/**
 * The proxies a bench measures: this checkout's build alone or, when
 * BENCH_BEFORE names an older built checkout, that one's ("before") and this
 * one's ("after"), taking turns in one run against one sandbox of this build.
 */
export function proxySides(): Side[] {
  const before = process.env.BENCH_BEFORE;
  if (before === undefined || before === '') return [{ name: 'this build', cli: CLI.built }];
  const cli = join(resolve(before), 'dist/server/cli.js');
  if (!existsSync(cli))
    throw new Error(
      `BENCH_BEFORE=${before}: ${cli} is missing; run \`npm ci && npm run build\` in that checkout first.`,
    );
  return [
    { name: 'before', cli },
    { name: 'after', cli: CLI.built },
  ];
}

/** The sides in turn `turn`'s order: as given, then reversed, so neither always goes first. */
export function inTurn<T>(sides: T[], turn: number): T[] {
  return turn % 2 === 0 ? sides : [...sides].reverse();
}

/**
 * The built proxy (`cli`, this checkout's unless given) of the demo's job
 * board on `sandbox`, warnings only in its log, with `env` on top; kept in
 * `processes` before it is awaited (so one that never gets ready is still
 * stopped), then ready within `seconds`.
 */
export async function startReadyProxy(
  sandbox: CliProcess,
  env: Record<string, string>,
  processes: CliProcess[],
  seconds: number,
  cli = CLI.built,
): Promise<CliProcess> {
  const proxy = await startCli(cli, 'proxy', [], demoProxyEnv(`${sandbox.url}/v2`, { LOG_LEVEL: 'warn', ...env }));
  processes.push(proxy);
  await untilProxyReady(proxy, seconds);
  return proxy;
}

/** Resolves once the proxy's /readyz answers 200; throws with the proxy's output after `seconds`. */
export async function untilProxyReady(proxy: CliProcess, seconds: number): Promise<void> {
  for (
    let i = 0;
    (await fetch(`${proxy.url}/readyz`).then(
      (r) => r.status,
      () => 0,
    )) !== 200;
    i++
  ) {
    if (i > seconds * 10)
      throw new Error(`the proxy at ${proxy.url} was not ready within ${seconds} s:\n${proxy.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** POSTs one application with `resume` as a PDF to the proxy at `proxyUrl`: its status and how long it took, body read. */
export async function applyThroughProxy(
  proxyUrl: string,
  campaignId: number,
  email: string,
  resume: Buffer,
): Promise<{ ms: number; status: number }> {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    campaign_id: String(campaignId),
    email,
    first_name: 'Ada',
    last_name: 'Lovelace',
    is_legals_accepted_by_manager: 'true',
  }))
    form.append(k, v);
  form.append('resume', new Blob([new Uint8Array(resume)], { type: 'application/pdf' }), 'cv.pdf');
  const started = performance.now();
  const response = await fetch(`${proxyUrl}/api/applications`, {
    method: 'POST',
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: form,
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}
