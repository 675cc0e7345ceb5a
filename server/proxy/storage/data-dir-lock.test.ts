// The data directory's lock within one process (createProxy, as partners embed
// it, and as tests start and stop proxies), and against a real second process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';
import { createProxy } from '../index.ts';
import { captureLogs } from '../../test/logs.ts';
import { testConfig } from '../test-support.ts';

const MODULE = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Tries the lock from a new process: its exit code and what it printed. */
function lockFromAnotherProcess(dataDir: string): Promise<{ code: number | null; err: string }> {
  const script = `import { lockDataDir } from ${JSON.stringify(MODULE)};
try { lockDataDir(${JSON.stringify(dataDir)}); } catch (error) { console.error(error.message); process.exit(1); }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, err })));
}

describe('the data directory lock', () => {
  it('makes a second createProxy on the same DATA_DIR throw DataDirInUseError before it opens a store or clears uploads, and stop() frees the directory', async () => {
    const dataDir = mkdtempSync(join(tmp, 'data-'));
    const config = testConfig({ DATA_DIR: dataDir });
    const first = createProxy({ config, logger: captureLogs().logger });
    const upload = join(dataDir, 'uploads', 'in-flight.part');
    writeFileSync(upload, 'half a resume');

    assert.throws(
      () => createProxy({ config, logger: captureLogs().logger }),
      (error: unknown) =>
        error instanceof DataDirInUseError &&
        error.pid === process.pid &&
        error.dataDir === dataDir &&
        error.message ===
          `Another proxy (pid ${process.pid}) is using the data directory ${dataDir}: stop it, or give this one another DATA_DIR.`,
    );
    assert.ok(existsSync(upload), 'the refused proxy left uploads/ alone');

    await first.stop();
    assert.equal(existsSync(join(dataDir, 'proxy.pid')), false);
    const next = createProxy({ config, logger: captureLogs().logger });
    assert.equal(existsSync(upload), false, 'the new holder cleared what the stopped one was receiving');
    await next.stop();
  });

  it('still excludes other processes after a refused attempt in the holder process, and frees the directory on release', async () => {
    const dataDir = mkdtempSync(join(tmp, 'data-'));
    const lock = lockDataDir(dataDir);
    assert.throws(() => lockDataDir(dataDir), DataDirInUseError);
    // POSIX file locks are per process and dropped when any of its descriptors on the file closes: the refused attempt must not have done that.
    const refused = await lockFromAnotherProcess(dataDir);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.err.trim(),
      `Another proxy (pid ${process.pid}) is using the data directory ${dataDir}: stop it, or give this one another DATA_DIR.`,
    );

    lock.release();
    lock.release();
    assert.deepEqual(readdirSync(dataDir), ['proxy.lock'], 'no journal, no pid file left behind');
    assert.deepEqual(await lockFromAnotherProcess(dataDir), { code: 0, err: '' });
  });

  it('says the pid is unknown when proxy.pid cannot be read', () => {
    const dataDir = mkdtempSync(join(tmp, 'data-'));
    const lock = lockDataDir(dataDir);
    try {
      writeFileSync(join(dataDir, 'proxy.pid'), 'not a pid');
      assert.throws(() => lockDataDir(dataDir), {
        name: 'DataDirInUseError',
        message: /^Another proxy \(pid unknown\) is using the data directory /,
      });
    } finally {
      lock.release();
    }
  });

  it('names the directory and what to check when the lock file cannot be opened', () => {
    const missing = join(tmp, 'no-such-dir');
    assert.throws(
      () => lockDataDir(missing),
      (error: unknown) =>
        error instanceof Error &&
        !(error instanceof DataDirInUseError) &&
        error.message.startsWith(`Could not lock the data directory ${missing} (proxy.lock): `) &&
        /local disk the proxy's user can write to/.test(error.message),
    );
  });
});
