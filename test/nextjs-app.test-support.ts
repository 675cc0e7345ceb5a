// The README's Next.js recipe (server/examples/nextjs) as a board runs it:
// its files in a folder of their own, with Next.js, React and this package
// from its packed tarball, built by `next build` and served by `next start`
// (or `next dev`). For test/nextjs.test.ts and the Lighthouse bench.
//
// Installing Next.js takes a minute and some 450 MB, so the dependencies are
// installed once per set of versions into a cache folder
// ($JOBBOARD_CACHE_DIR or ~/.cache/jobboard-connector, `nextjs-<hash>`), and
// each run gets a folder inside it: Node and Next.js find the cached
// node_modules above it (Turbopack compiles nothing outside the folder of the
// nearest lockfile, so a symbolic link to it would not do), and the package's
// fresh build is unpacked in the run's own node_modules, which comes first.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '../server/test/poll.ts';
import { ROOT, pack } from './package.test-support.ts';

const run = promisify(execFile);
export const RECIPE_DIR = join(ROOT, 'server/examples/nextjs');
/** The package's name, as the recipe imports it. */
const PACKAGE = 'jobboard-connector';
/** Run folders older than this are left over from a run that died: removed by the next one. */
const STALE_RUN_MS = 6 * 60 * 60 * 1000;
/** The cache of other versions unused for this long is removed (some 450 MB each). */
const STALE_CACHE_MS = 14 * 24 * 60 * 60 * 1000;

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The recipe's pinned versions (Next.js, React, TypeScript and the types), without the package itself. */
function recipeVersions(): Record<string, string> {
  const { dependencies = {}, devDependencies = {} } = manifest(RECIPE_DIR);
  const { [PACKAGE]: _package, ...pinned } = { ...dependencies, ...devDependencies };
  return pinned;
}

/** The cache folder of these versions: the recipe's, the package's dependencies', and the platform's (Next.js's compiler is a native binary). */
function cacheFolder(): string {
  const { dependencies, optionalDependencies, peerDependencies } = manifest(ROOT);
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        recipeVersions(),
        [dependencies, optionalDependencies, peerDependencies],
        [process.platform, process.arch],
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  const base = process.env.JOBBOARD_CACHE_DIR ?? join(homedir(), '.cache', 'jobboard-connector');
  return join(base, `nextjs-${key}`);
}

/**
 * Installs the recipe's versions and the package (with its dependencies) into
 * `cache`, unless there already: in a folder beside it first, renamed into
 * place once complete, so that a run that dies leaves no half-installed
 * cache and two runs at once each get a whole one.
 */
async function installCache(cache: string, tarball: string): Promise<void> {
  if (existsSync(join(cache, 'node_modules', '.package-lock.json'))) return;
  const staging = `${cache}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const specs = Object.entries(recipeVersions()).map(([name, version]) => `${name}@${version}`);
  writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'jobboard-nextjs-cache', private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...specs, tarball], {
    cwd: staging,
    maxBuffer: 16 * 1024 * 1024,
  });
  try {
    renameSync(staging, cache);
  } catch (error) {
    // Another run installed it meanwhile: theirs is as good.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(cache, 'node_modules', '.package-lock.json'))) throw error;
  }
}

/** Marks `cache` used now; removes the run folders a dead run left in it, and the caches of other versions left unused. */
function removeStale(cache: string): void {
  const now = new Date();
  utimesSync(cache, now, now);
  const stale = (folder: string, name: string, ms: number) =>
    Date.now() - statSync(join(folder, name)).mtimeMs > ms &&
    rmSync(join(folder, name), { recursive: true, force: true });
  for (const name of readdirSync(cache).filter((n) => n.startsWith('run-'))) stale(cache, name, STALE_RUN_MS);
  const base = dirname(cache);
  for (const name of readdirSync(base).filter((n) => n.startsWith('nextjs-') && join(base, n) !== cache))
    stale(base, name, STALE_CACHE_MS);
}

export interface NextServer {
  /** Stops the server and the processes it started (`next-server`, its workers). */
  stop(): Promise<void>;
}

export interface NextApp {
  /** The app's folder: the recipe's files, and the package in its node_modules. */
  dir: string;
  /** Runs `next build`; fails with its output. */
  build(): Promise<void>;
  /** Starts `next start` (or `next dev`) on `port` of 127.0.0.1 with `env`; resolves once it answers. */
  serve(mode: 'start' | 'dev', port: number, env: Record<string, string>): Promise<NextServer>;
  /** Removes the app's folder (the cache stays). */
  remove(): void;
}

/** The environment of every `next` command: no telemetry, whatever the machine's settings. */
const nextEnv = (env: Record<string, string> = {}) => ({ ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env });

/**
 * The recipe's app with the package of this checkout: packs it (built
 * already: `npm run build`), installs the cache if missing, then copies the
 * recipe into a run folder and unpacks the tarball there.
 */
export async function prepareNextApp(): Promise<NextApp> {
  if (!existsSync(join(ROOT, 'dist/server/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const cache = cacheFolder();
  mkdirSync(join(cache, '..'), { recursive: true });
  const packed = mkdtempSync(`${cache}.pack-`);
  try {
    // The server package alone, as a board's server installs it: the page renders no element of its own.
    const { tarball } = await pack(ROOT, packed);
    await installCache(cache, tarball);
    removeStale(cache);
    const dir = mkdtempSync(join(cache, 'run-'));
    cpSync(RECIPE_DIR, dir, { recursive: true });
    const installed = join(dir, 'node_modules', PACKAGE);
    mkdirSync(installed, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    return nextApp(dir, join(cache, 'node_modules', 'next', 'dist', 'bin', 'next'));
  } finally {
    rmSync(packed, { recursive: true, force: true });
  }
}

/** Ends the process group `child` leads, and waits for `child` to exit. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // Gone already.
  }
  await exited;
}

function nextApp(dir: string, bin: string): NextApp {
  return {
    dir,
    async build() {
      await run(process.execPath, [bin, 'build'], { cwd: dir, env: nextEnv(), maxBuffer: 16 * 1024 * 1024 }).catch(
        (error: { stdout?: string; stderr?: string }) => {
          throw new Error(`next build failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
        },
      );
    },
    async serve(mode, port, env) {
      // A process group of its own: `next` starts `next-server` and workers, which a kill of `next` alone leaves running.
      const child = spawn(process.execPath, [bin, mode, '--port', String(port), '--hostname', '127.0.0.1'], {
        cwd: dir,
        env: nextEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const server = { stop: () => stopGroup(child) };
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        await eventually(
          async () => {
            if (child.exitCode !== null) throw new Error(`next ${mode} exited with ${child.exitCode}:\n${output}`);
            return (await fetch(`http://127.0.0.1:${port}/jobs`).catch(() => undefined)) !== undefined;
          },
          { timeoutMs: 120_000, what: `next ${mode} to answer`, intervalMs: 250 },
        );
      } catch (error) {
        await server.stop();
        throw error;
      }
      return server;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
