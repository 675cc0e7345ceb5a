import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the command was still running after BOUND_MS and had to be killed. */
  killedAfterBound: boolean;
}

/** Far beyond a normal run even on a loaded machine; only there so that a hung command fails instead of hanging the suite. */
const BOUND_MS = 60_000;

/** Runs the command; with untilOutput, sends one SIGTERM once stdout matches it (all of stdout so far, however it was chunked). */
function run(args: string[], untilOutput?: RegExp): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'sandbox', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    let killedAfterBound = false;
    const bound = setTimeout(() => {
      killedAfterBound = true;
      child.kill('SIGKILL');
    }, BOUND_MS);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (!signalled && untilOutput?.test(stdout)) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => {
      clearTimeout(bound);
      resolve({ code, stdout, stderr, killedAfterBound });
    });
  });
}

describe('jobboard-connector sandbox command', () => {
  it('--help prints the options', async () => {
    const { code, stdout } = await run(['--help']);
    assert.equal(code, 0);
    for (const flag of ['--port', '--host', '--db', '--seed', '--admin', '--rate-limit', '--rate-limit-window-ms'])
      assert.match(stdout, new RegExp(flag));
  });

  it('when a flag is unknown, exits non-zero with a message', async () => {
    const { code, stderr } = await run(['--prot', '4010']);
    assert.notEqual(code, 0);
    assert.match(stderr, /--prot/);
  });

  it('when --port is not a number, says so', async () => {
    const { code, stderr } = await run(['--port', 'abc']);
    assert.notEqual(code, 0);
    assert.match(stderr, /--port must be a whole number/);
  });

  it('when --rate-limit-window-ms is 0 or not a number, says so', async () => {
    for (const value of ['0', '1s']) {
      const { code, stderr } = await run(['--rate-limit-window-ms', value]);
      assert.notEqual(code, 0);
      assert.match(stderr, /--rate-limit-window-ms must be/);
    }
  });

  it('when --seed is not "demo", says so', async () => {
    const { stderr } = await run(['--seed', 'full']);
    assert.match(stderr, /--seed must be "demo"/);
  });

  it('prints the URL and the demo keys, and shuts down cleanly on SIGTERM', async () => {
    // The signal goes once the last demo key line is out: the handlers are installed before anything is printed.
    const { code, stdout, stderr, killedAfterBound } = await run(
      ['--port', '0', '--seed', 'demo'],
      /company 2 .*secret_key=\S+\n/,
    );
    const output = `stdout:\n${stdout}\nstderr:\n${stderr}`;
    assert.equal(killedAfterBound, false, `still running ${BOUND_MS / 1000} s after start\n${output}`);
    assert.equal(code, 0, output);
    assert.match(stdout, /listening on http:\/\/127\.0\.0\.1:\d+\/v2/);
    assert.match(stdout, /private_key=7d3f9a2e-4b1c-4e8a-9f60-2c5d8b1a7e34/);
    assert.match(stdout, /SIGTERM: closing the sandbox/);
    assert.equal(stderr, '', 'nothing is reported on stderr while closing');
  });
});
