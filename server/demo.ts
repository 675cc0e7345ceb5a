// `jobboard-connector demo` (what `npm start` runs): the seeded sandbox with
// its admin surface, the proxy configured against it with the demo job-board
// keys, and a demo job-board page that embeds the widget with the same script
// tag a real board uses. One process; Ctrl+C stops everything.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox, DEMO_KEYS } from './sandbox/index.ts';
import { startProxy } from './proxy/index.ts';
import { loadProxyConfig } from './proxy/config.ts';
import { PACKAGE_ROOT, packagePath } from './package-root.ts';
import { serverRenderedBoard } from './demo-board.ts';
import { portInUseError } from './port-in-use.ts';

const HELP = `Usage: jobboard-connector demo [--sandbox-port N] [--port N] [--data-dir DIR]

Starts the seeded sandbox (admin surface on) at http://127.0.0.1:4010/v2, the
proxy against it at http://localhost:8080 and the demo job-board page at
http://localhost:8080/.

Options:
  --sandbox-port N  the sandbox's port (default 4010; SANDBOX_PORT)
  --port N          the proxy's port (default 8080; PORT)
  --data-dir DIR    the proxy's data directory (default .data/demo-proxy; DATA_DIR)
  -h, --help        this help

Every proxy variable (see the README) can be set too.`;

function port(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new Error(`${name} must be a port number from 0 to 65535, got "${value}".`);
  }
  return n;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, 'localhost', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

/** The script-tag bundle and the server renderer of a checkout that was never built. */
async function buildWidgetIfMissing(file: string): Promise<void> {
  const builds = [
    { output: file, config: 'vite.config.ts' },
    { output: packagePath('dist', 'ssr', 'render.js'), config: 'vite.ssr.config.ts' },
  ].filter((b) => !existsSync(b.output));
  if (builds.length === 0) return;
  console.log('Building the widget (first start)…');
  const { build } = await import('vite');
  for (const b of builds) await build({ root: PACKAGE_ROOT, configFile: packagePath(b.config), logLevel: 'warn' });
}

/** The demo stack, also used by the end-to-end tests (ports 0 there). */
export async function startDemo(options: {
  sandboxPort: number;
  proxyPort: number;
  env?: Record<string, string | undefined>;
  dataDir?: string;
  /** A sandbox already running (a second proxy of the same board): used, and left running if the proxy fails to start. */
  sandbox?: Awaited<ReturnType<typeof startSandbox>>;
}) {
  const env = options.env ?? {};
  // The port is known before the proxy starts: the offers' URLs on the demo page (BOARD_OFFER_URL) name it.
  const proxyPort = options.proxyPort === 0 ? await freePort() : options.proxyPort;
  const sandbox =
    options.sandbox ??
    (await startSandbox({ port: options.sandboxPort, host: '127.0.0.1', seed: 'demo', admin: true }).catch(
      (error: unknown) => {
        throw portInUseError(
          error,
          options.sandboxPort,
          '127.0.0.1',
          "give the demo's sandbox another port with --sandbox-port N or SANDBOX_PORT",
        );
      },
    ));
  try {
    const config = loadProxyConfig({
      // In the current folder: an installed package's own folder is no place for data.
      DATA_DIR: options.dataDir ?? resolve('.data/demo-proxy'),
      SYNC_INTERVAL_SECONDS: '60',
      LOG_LEVEL: 'warn',
      ...env,
      UPSTREAM_URL: sandbox.url,
      UPSTREAM_PRIVATE_KEY: DEMO_KEYS.jobboard.private_key,
      UPSTREAM_SECRET_KEY: DEMO_KEYS.jobboard.secret_key,
      JOBBOARD_CHANNEL: DEMO_KEYS.jobboard.channel,
      PORT: String(proxyPort),
      HOST: env.HOST ?? 'localhost',
      // The server-rendered page: the one search engines index, and a canonical URL off the site's root
      // (a search engine takes a canonical pointing at the homepage from another page for a mistake).
      BOARD_OFFER_URL: env.BOARD_OFFER_URL ?? `http://localhost:${proxyPort}/server-rendered/?offer={id}`,
      // The demo pages are on the proxy's own origin, reached as localhost or 127.0.0.1: without
      // PUBLIC_ORIGIN the fragment's endpoint is relative to the page, so either name works, and both
      // are allowed origins.
      ALLOWED_ORIGINS: [env.ALLOWED_ORIGINS, `http://localhost:${proxyPort}`, `http://127.0.0.1:${proxyPort}`]
        .filter(Boolean)
        .join(','),
      // Demos started side by side (the end-to-end tests) each take a free metrics port.
      METRICS_PORT: env.METRICS_PORT ?? (options.proxyPort === 0 ? '0' : undefined),
    });
    await buildWidgetIfMissing(config.widgetFile);
    const proxy = await startProxy({
      config,
      demoPageDir: packagePath('server', 'demo-page'),
      demoPages: serverRenderedBoard(packagePath('server', 'demo-page', 'index.html')),
    });
    return { sandbox, proxy };
  } catch (error) {
    if (options.sandbox === undefined) await sandbox.close();
    throw error;
  }
}

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      'sandbox-port': { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const sandboxPort = port(values['sandbox-port'] ?? process.env.SANDBOX_PORT, 'SANDBOX_PORT', 4010);
  const proxyPort = port(values.port ?? process.env.PORT, 'PORT', 8080);

  // The flag wins over DATA_DIR, as --port over PORT.
  const env =
    values['data-dir'] === undefined ? process.env : { ...process.env, DATA_DIR: resolve(values['data-dir']) };
  const { sandbox, proxy } = await startDemo({ sandboxPort, proxyPort, env });

  console.log(`
jobboard-connector demo
  job-board page   http://localhost:${proxy.port}/
  proxy API        http://localhost:${proxy.port}/api/campaigns
  sandbox API      ${sandbox.url}   (admin: ${sandbox.origin}/_sandbox/…)
  job-board keys   private ${DEMO_KEYS.jobboard.private_key}
                   secret  ${DEMO_KEYS.jobboard.secret_key}
  company keys     private ${DEMO_KEYS.company.private_key}
                   secret  ${DEMO_KEYS.company.secret_key}
Press Ctrl+C to stop.`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await proxy.close();
    await sandbox.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
