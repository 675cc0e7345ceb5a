// What the benches running the built proxy share: waiting until it is ready,
// and one candidate's application through it, timed.
import type { CliProcess } from '../cli-processes.ts';

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
