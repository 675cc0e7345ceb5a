// The demo stack an end-to-end test drives: a temporary folder (the proxy's
// data, the test's own files), the seeded sandbox and the proxy on free ports,
// and Debian's Chromium. close() stops and removes it all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { freePort } from '../cli-processes.ts';
import { startDemo } from '../../server/demo.ts';

export interface DemoWorld {
  demo: Awaited<ReturnType<typeof startDemo>>;
  browser: Browser;
  /** A temporary folder, removed by close(). */
  dir: string;
  close(): Promise<void>;
}

/**
 * `name` tells the temporary folders of the tests apart; `env` is given to the
 * demo's proxy (logs are off), or made from the proxy's port when a variable
 * names the proxy's own address.
 */
export async function startDemoWorld(
  name: string,
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
): Promise<DemoWorld> {
  const dir = await mkdtemp(join(tmpdir(), `jobboard-e2e-${name}-`));
  const port = await freePort();
  const proxyEnv = typeof env === 'function' ? env(port) : env;
  const demo = await startDemo({
    sandboxPort: 0,
    proxyPort: port,
    dataDir: join(dir, 'proxy'),
    env: { LOG_LEVEL: 'silent', METRICS_PORT: '0', ...proxyEnv },
  });
  const browser = await launchChromium();
  return {
    demo,
    browser,
    dir,
    async close() {
      await browser.close();
      await demo.proxy.close();
      await demo.sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
