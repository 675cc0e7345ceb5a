// The sandbox and proxies in processes of their own, started from the CLI as a
// partner runs them (`jobboard-connector sandbox | proxy`), each on port 0:
// its URL is read from the line it prints once it listens. For the tests and
// benches of several proxy instances, where one must die by kill -9.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The CLI from the sources (no build needed) and from the build (what the package ships). */
export const CLI = {
  sources: fileURLToPath(new URL('../server/cli.ts', import.meta.url)),
  built: fileURLToPath(new URL('../dist/server/cli.js', import.meta.url)),
};

const LISTENING = {
  sandbox: /Sandbox recruitment API listening on (http:\/\/\S+)\/v2/,
  proxy: /Proxy listening on (http:\/\/\S+?)(?:\s|$)/,
};

/** What a process printed last, for failure messages. */
const OUTPUT_KEPT = 20_000;

export interface CliProcess {
  child: ChildProcess;
  /** Its origin (http://127.0.0.1:PORT). */
  url: string;
  pid: number;
  /** Resolves with the signal or exit code once it has exited. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** The last of what it printed (stdout and stderr). */
  output(): string;
}

/**
 * Starts `jobboard-connector <command> ...args` with `env` added to this
 * process's environment and resolves once it prints where it listens; fails
 * with what it printed if it exits before.
 */
export async function startCli(
  cli: string,
  command: 'sandbox' | 'proxy',
  args: string[],
  env: Record<string, string>,
): Promise<CliProcess> {
  const child = spawn(process.execPath, [cli, command, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
      const found = LISTENING[command].exec(output);
      if (found !== null) resolve(found[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((how) => reject(new Error(`${command} exited (${String(how)}) before listening:\n${output}`)));
  });
  return { child, url, pid: child.pid!, exited, output: () => output };
}

/** Stops a process (SIGTERM, or the given signal) and waits for it to exit; nothing if it already has. */
export async function stopCli(
  process: CliProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<NodeJS.Signals | number | null> {
  if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill(signal);
  return process.exited;
}

/** A port free now, for a listener whose address the CLI does not print (METRICS_PORT). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The value of an unlabelled gauge or counter in a Prometheus text page, undefined when absent. */
export function metricValue(page: string, name: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}
