// A CLI process run by a test from its start: its output kept whole, stdout
// and stderr apart, and its end awaited (no wait for a listening line; see
// test/cli-processes.ts for that).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

export interface CliRun {
  child: ChildProcess;
  /** Resolves with the signal or exit code once it has exited. */
  exited: Promise<NodeJS.Signals | number | null>;
  out(): string;
  err(): string;
}

/** Runs `node <cli> ...args` with only PATH and `env` in its environment. */
export function runCli(cli: string, args: string[], env: Record<string, string>): CliRun {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  return { child, exited, out: () => stdout, err: () => stderr };
}
