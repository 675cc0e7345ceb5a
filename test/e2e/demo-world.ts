// The demo stack an end-to-end test drives: a temporary folder (the proxy's
// data, the test's own files), the seeded sandbox and the proxy on free ports,
// and Debian's Chromium. close() stops and removes it all.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { freePort } from '../cli-processes.ts';
import { startDemo } from '../../server/demo.ts';
import { pdf } from '../../server/test/files.ts';
import type { Board } from './board-server.ts';

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

/** A demo world of one suite, read in its hooks and tests once started. */
export type SuiteWorld = Omit<DemoWorld, 'close'>;

/** What a suite reads of its world and board: throws when read before they started. */
function suiteView(world: () => DemoWorld | undefined, board: () => Board | undefined): SuiteWorld & { board: Board } {
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the demo world is read before it started');
    return value;
  };
  return {
    get demo() {
      return started(world()).demo;
    },
    get browser() {
      return started(world()).browser;
    },
    get dir() {
      return started(world()).dir;
    },
    get board() {
      return started(board());
    },
  };
}

/** Starts a demo world (see startDemoWorld) before the tests of the calling suite and closes it after them. */
export function demoWorldPerSuite(name: string): SuiteWorld {
  let world: DemoWorld | undefined;
  before(async () => {
    world = await startDemoWorld(name);
  });
  after(() => world?.close());
  return suiteView(
    () => world,
    () => undefined,
  );
}

/**
 * A board's own web server and a demo world whose proxy allows the board's
 * origin, for the tests of the calling suite. The board starts first (the
 * proxy must know its origin); `startBoard` is given the proxy's address to
 * read when a page is asked for.
 */
export function boardWorldPerSuite(
  name: string,
  startBoard: (proxyUrl: () => string) => Promise<Board>,
): SuiteWorld & { board: Board } {
  let world: DemoWorld | undefined;
  let board: Board | undefined;
  const view = suiteView(
    () => world,
    () => board,
  );
  before(async () => {
    board = await startBoard(() => view.demo.proxy.url);
    world = await startDemoWorld(name, { ALLOWED_ORIGINS: board.origin });
  });
  after(async () => {
    await world?.close();
    board?.server.close();
  });
  return view;
}

/** Writes a PDF resume (reading `text` when given) in `dir`; answers its path. */
export async function writeResume(dir: string, text?: string, name = 'cv.pdf'): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, pdf({ text }));
  return path;
}
