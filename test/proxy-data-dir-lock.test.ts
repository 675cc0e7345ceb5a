// One proxy per data directory, with real processes (`jobboard-connector proxy`):
// a second one on the same DATA_DIR is refused before it touches anything;
// the directory is free again after kill -9 or a clean stop of its holder;
// the outbox commands keep working beside a running proxy.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteApplicationStore } from '../server/proxy/storage/index.ts';
import { claimed } from '../server/proxy/storage/test-support.ts';
import { startSandbox } from '../server/sandbox/index.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import { runCli } from '../server/test/cli-run.ts';
import type { CliRun } from '../server/test/cli-run.ts';
import { CLI, startCli } from './cli-processes.ts';
import { enqueueApplication } from './outbox-rows.test-support.ts';
import { fetch, proxyEnv } from './proxy-apply.test-support.ts';

// A proxy that wrongly starts never exits by itself: fail, not hang.
const TIMEOUT = { timeout: 60_000 };

function run(args: string[], env: Record<string, string>): CliRun {
  return runCli(CLI.sources, args, env);
}

function outboxCommand(
  args: string[],
  dataDir: string,
): Promise<{ code: NodeJS.Signals | number | null; out: string; err: string }> {
  const p = run(['outbox', ...args, '--data-dir', dataDir], {});
  return p.exited.then((code) => ({ code, out: p.out(), err: p.err() }));
}

describe('one proxy per data directory', () => {
  let sandbox: RunningSandbox;
  let tmp: string;
  const running: Pick<CliRun, 'child' | 'exited'>[] = [];
  const track = <T extends Pick<CliRun, 'child' | 'exited'>>(p: T): T => {
    running.push(p);
    return p;
  };

  before(async () => {
    sandbox = await startSandbox({ port: 0, admin: true, seed: 'demo' });
    tmp = mkdtempSync(join(tmpdir(), 'jbc-data-dir-lock-'));
  });
  after(async () => {
    for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    await sandbox.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const envFor = (dataDir: string) => proxyEnv(sandbox, dataDir, { LOG_LEVEL: 'silent' });

  it(
    'refuses a second proxy at start with the holder pid and exit code 1, leaving its uploads alone; after kill -9 of the holder a new one starts',
    TIMEOUT,
    async () => {
      const dataDir = mkdtempSync(join(tmp, 'data-'));
      const first = track(await startCli(CLI.sources, 'proxy', [], envFor(dataDir)));
      assert.equal(readFileSync(join(dataDir, 'proxy.pid'), 'utf8').trim(), String(first.child.pid));
      // An upload the first proxy is receiving: a proxy that started anyway would empty uploads/.
      const inFlight = join(dataDir, 'uploads', 'in-flight.part');
      writeFileSync(inFlight, '%PDF-1.4 half a resume');

      const second = track(run(['proxy'], envFor(dataDir)));
      assert.equal(await second.exited, 1);
      assert.equal(
        second.err().trim(),
        `Another proxy (pid ${first.child.pid}) is using the data directory ${dataDir}: stop it, or give this one another DATA_DIR.`,
      );
      assert.ok(existsSync(inFlight), "the refused proxy left the holder's uploads alone");
      assert.equal((await fetch(`${first.url}/healthz`)).status, 200, 'the holder still serves');

      first.child.kill('SIGKILL');
      assert.equal(await first.exited, 'SIGKILL');
      const third = track(await startCli(CLI.sources, 'proxy', [], envFor(dataDir)));
      assert.equal((await fetch(`${third.url}/healthz`)).status, 200);
      assert.equal(readFileSync(join(dataDir, 'proxy.pid'), 'utf8').trim(), String(third.child.pid));
      third.child.kill('SIGTERM');
      assert.equal(await third.exited, 0);
    },
  );

  it('frees the directory on a clean stop (SIGTERM): proxy.pid is gone and a new proxy starts', TIMEOUT, async () => {
    const dataDir = mkdtempSync(join(tmp, 'data-'));
    const first = track(await startCli(CLI.sources, 'proxy', [], envFor(dataDir)));
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    assert.equal(existsSync(join(dataDir, 'proxy.pid')), false);

    const next = track(await startCli(CLI.sources, 'proxy', [], envFor(dataDir)));
    assert.equal((await fetch(`${next.url}/healthz`)).status, 200);
    next.child.kill('SIGTERM');
    assert.equal(await next.exited, 0);
  });

  it(
    'keeps the outbox commands working beside a running proxy (list, retry, erase, purge-delivered)',
    TIMEOUT,
    async () => {
      const dataDir = mkdtempSync(join(tmp, 'data-'));
      const outbox = new SqliteApplicationStore({ dataDir, owner: 'test' });
      const seed = { 'dead-1': 'grace@example.org', 'dead-2': 'ada@example.org', 'done-1': 'grace@example.org' };
      for (const [reference, email] of Object.entries(seed)) {
        await enqueueApplication(outbox, { reference, email, resumeIn: dataDir, countEmail: true });
      }
      for (const reference of ['dead-1', 'dead-2']) {
        const lease = await claimed(outbox, reference, 1000);
        await outbox.markDead(lease, 'expired', 'service_unavailable (503)');
      }
      const done1Lease = await claimed(outbox, 'done-1', 1000);
      await outbox.markDelivered(done1Lease, 'created_applicant', { applicantId: 1, applicationId: 2 });
      await outbox.close();
      const proxy = track(await startCli(CLI.sources, 'proxy', [], envFor(dataDir)));

      const list = await outboxCommand(['list'], dataDir);
      assert.equal(list.code, 0, list.err);
      assert.match(list.out, /dead-1\s+dead\s+7/);
      const purge = await outboxCommand(['purge-delivered'], dataDir);
      assert.equal(purge.code, 0, purge.err);
      assert.match(purge.out, /Deleted 1 delivered or refused application/);
      // Erased before anything is retried: the running proxy delivers a retried application within its next poll.
      const erase = await outboxCommand(['erase', '--email', 'grace@example.org'], dataDir);
      assert.equal(erase.code, 0, erase.err);
      assert.match(erase.out, /dead-1/);
      const retry = await outboxCommand(['retry', 'dead-2'], dataDir);
      assert.equal(retry.code, 0, retry.err);
      assert.match(retry.out, /dead-2 queued/);

      assert.equal((await fetch(`${proxy.url}/healthz`)).status, 200, 'the proxy still serves');
      assert.equal(
        readFileSync(join(dataDir, 'proxy.pid'), 'utf8').trim(),
        String(proxy.child.pid),
        'and still holds the directory',
      );
      proxy.child.kill('SIGTERM');
      assert.equal(await proxy.exited, 0);
    },
  );
});
