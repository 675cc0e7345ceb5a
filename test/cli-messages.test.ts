// What the CLI says as a partner meets it: its version, where the proxy
// really listens and keeps its data, a busy port named with the flag that
// changes it, the demo's --data-dir, and database errors of migrate and
// outbox that name the database and what to do.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEMO_KEYS, startSandbox } from '../server/sandbox/index.ts';
import { demoProxyEnv } from '../server/test/demo-proxy-env.ts';
import { eventually } from '../server/test/poll.ts';
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';
import { CLI, startCli, stopCli } from './cli-processes.ts';
import type { CliProcess } from './cli-processes.ts';

const tmp = mkdtempSync(join(tmpdir(), 'cli-messages-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `jobboard-connector ...args` to its end; DATABASE_URL and DATA_DIR only when given. */
function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI.sources, ...args], { env: { ...base, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
    });
  });
}

/** The line a proxy printed once it listened. */
const startLine = (proxy: CliProcess) =>
  proxy
    .output()
    .split('\n')
    .find((l) => l.startsWith('Proxy listening on'));

describe('jobboard-connector, as a partner meets it', () => {
  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const answer = await run(['--version']);
    assert.deepEqual([answer.code, answer.stdout], [0, `${version}\n`]);
  });

  it('proxy on 0.0.0.0: the start line gives a URL a person can open and says it is bound to every interface', async () => {
    const sandbox = await startSandbox({ seed: 'demo', rateLimitPerMinute: 0 });
    const dataDir = mkdtempSync(join(tmp, 'data-'));
    const proxy = await startCli(
      CLI.sources,
      'proxy',
      [],
      demoProxyEnv(sandbox.url, { DATA_DIR: dataDir, HOST: '0.0.0.0', LOG_LEVEL: 'warn' }),
    );
    try {
      const port = new URL(proxy.url).port;
      assert.equal(
        startLine(proxy),
        `Proxy listening on http://127.0.0.1:${port} (bound to every IPv4 interface, 0.0.0.0:${port}; channel ${DEMO_KEYS.jobboard.channel}, data in ${dataDir})`,
      );
    } finally {
      await stopCli(proxy);
      await sandbox.close();
    }
  });

  it(
    'proxy with DATABASE_URL: the start line names the database, without its password',
    { skip: skipWithoutPostgres() },
    async () => {
      const sandbox = await startSandbox({ seed: 'demo', rateLimitPerMinute: 0 });
      const database = new URL(await freshDatabase());
      database.password = 'never-printed';
      const dataDir = mkdtempSync(join(tmp, 'data-'));
      const proxy = await startCli(
        CLI.sources,
        'proxy',
        [],
        demoProxyEnv(sandbox.url, { DATABASE_URL: database.href, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }),
      );
      try {
        const port = new URL(proxy.url).port;
        database.password = '';
        assert.equal(
          startLine(proxy),
          `Proxy listening on http://127.0.0.1:${port} (bound to 127.0.0.1:${port} only; channel ${DEMO_KEYS.jobboard.channel}, data in ${database.href} (uploads in ${dataDir}))`,
        );
      } finally {
        await stopCli(proxy);
        await sandbox.close();
      }
    },
  );

  it('sandbox on a busy port: exits 1 naming the port and --port', async () => {
    const first = await startCli(CLI.sources, 'sandbox', ['--port', '0'], {});
    try {
      const port = new URL(first.url).port;
      const second = await run(['sandbox', '--port', port]);
      assert.equal(second.code, 1);
      assert.equal(
        second.stderr,
        `Port ${port} on 127.0.0.1 is already in use: stop what uses it, or start the sandbox on another port with --port N (--port 0 picks a free one).\n`,
      );
    } finally {
      await stopCli(first);
    }
  });

  it('demo --data-dir keeps the proxy data in that folder', async () => {
    const dataDir = join(tmp, 'demo-data');
    const { DATABASE_URL: _url, DATA_DIR: _dir, ...base } = process.env;
    const child = spawn(
      process.execPath,
      [CLI.sources, 'demo', '--port', '0', '--sandbox-port', '0', '--data-dir', dataDir],
      { env: base, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await eventually(() => output.includes('Press Ctrl+C to stop.') || child.exitCode !== null, {
        timeoutMs: 60_000,
        what: 'the demo banner',
      });
      assert.match(output, /Press Ctrl\+C to stop\./, output);
      assert.ok(existsSync(join(dataDir, 'outbox.db')), `the outbox is in ${dataDir}`);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('migrate and outbox, when the database refuses connections: one line naming the database and what to do', async () => {
    const env = { DATABASE_URL: 'postgres://jobs:secret@127.0.0.1:1/jobs' };
    const migrate = await run(['migrate'], env);
    assert.equal(migrate.code, 1);
    assert.equal(
      migrate.stderr,
      'Could not migrate the application store: cannot reach the database at postgres://jobs@127.0.0.1:1/jobs: is it running? Check DATABASE_URL (connect ECONNREFUSED 127.0.0.1:1).\n',
    );
    const outbox = await run(['outbox', 'list'], env);
    assert.equal(outbox.code, 1);
    assert.equal(
      outbox.stderr,
      'Could not open the outbox: cannot reach the database at postgres://jobs@127.0.0.1:1/jobs: is it running? Check DATABASE_URL (connect ECONNREFUSED 127.0.0.1:1).\n',
    );
  });
});
