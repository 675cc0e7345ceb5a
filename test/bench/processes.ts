// What the benches running the built proxy share: starting it on the demo's
// sandbox, waiting until it is ready, and one candidate's application through
// it, timed.
import { demoProxyEnv } from '../../server/test/demo-proxy-env.ts';
import { CLI, startCli } from '../cli-processes.ts';
import type { CliProcess } from '../cli-processes.ts';

/**
 * The built proxy of the demo's job board on `sandbox`, warnings only in its
 * log, with `env` on top; kept in `processes` before it is awaited (so one
 * that never gets ready is still stopped), then ready within `seconds`.
 */
export async function startReadyProxy(
  sandbox: CliProcess,
  env: Record<string, string>,
  processes: CliProcess[],
  seconds: number,
): Promise<CliProcess> {
  const proxy = await startCli(
    CLI.built,
    'proxy',
    [],
    demoProxyEnv(`${sandbox.url}/v2`, { LOG_LEVEL: 'warn', ...env }),
  );
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
