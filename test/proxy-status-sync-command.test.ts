// `jobboard-connector status-sync --now` beside a running proxy, over real
// HTTP: the sandbox, the proxy (its own passes held off, so only the
// command reads) and a board's receiver verifying signatures. The command
// reads every delivered application at once, says what it found, and the
// change it records reaches the receiver as application.status_changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { main } from '../server/proxy/commands/status-sync.ts';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { apply, proxyEnv, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { runMain } from './in-process-command.ts';
import { RECEIVER_SECRET, startReceiver } from './webhook-receiver.ts';
import type { Receiver } from './webhook-receiver.ts';

/** Runs the command in this process with `env` set; answers what it printed. */
const run = (args: string[], env: Record<string, string>) => runMain(main, args, env);

describe('jobboard-connector status-sync --now', () => {
  let receiver: Receiver;
  let world: ApplyWorld;
  let env: Record<string, string>;

  before(async () => {
    receiver = await startReceiver();
    const webhook = { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: RECEIVER_SECRET };
    world = await startApplyWorld({ env: webhook, statusSync: { intervalMs: 24 * 60 * 60 * 1000 } });
    env = proxyEnv(world.sandbox, world.config.dataDir, webhook);
  });
  after(async () => {
    await world?.close();
    await receiver?.close();
  });

  it('reads every delivered application now, says what it found, and the change reaches the receiver as application.status_changed', async () => {
    const answer = await apply(world.proxyUrl, { fields: validFields(world.openCampaignIds[0]!) });
    assert.ok(answer.status === 201 || answer.status === 202, answer.text);
    const reference = String(answer.body.reference);
    const id = await eventually(async () => (await world.applications.outbox.get(reference))?.upstream_application_id, {
      timeoutMs: 20_000,
      what: 'delivery',
    });

    assert.equal(
      await run(['--now'], env),
      'checked 1 application, 0 statuses changed, 0 webhook events queued. 1 application was read for the first time: that status is the starting point, a change after it is an event.\n',
    );
    await admin(world.sandbox, 'PUT', `/applications/${id}/status`, { value: 'interview' });
    assert.equal(
      await run(['--now', '--data-dir', world.config.dataDir], { ...env, DATA_DIR: '/nowhere' }),
      'checked 1 application, 1 status changed, 1 webhook event queued.\n',
    );

    const changed = await eventually(() => receiver.events.find((e) => e.event.type === 'application.status_changed'), {
      timeoutMs: 10_000,
      what: 'application.status_changed at the receiver',
    });
    assert.deepEqual([changed.event.data.reference, changed.event.data.status], [reference, 'interview']);
    assert.equal(
      await run(['--now'], env),
      'checked 1 application, 0 statuses changed, 0 webhook events queued.\n',
      'the same status again is no change',
    );
  });

  it('without --now prints its help and exits 2; with STATUS_SYNC_DAYS=0 or without an outbox, says what to do', async () => {
    const help = await run([], env);
    assert.match(help, /^Usage: jobboard-connector status-sync --now/);
    assert.equal(process.exitCode, 2);
    process.exitCode = undefined;
    await assert.rejects(
      run(['--now'], { ...env, STATUS_SYNC_DAYS: '0' }),
      /^Error: STATUS_SYNC_DAYS is 0: the status sync is off, so no status is read\. Set it to/,
    );
    await assert.rejects(
      run(['--now', '--data-dir', '/nowhere/at/all'], env),
      /^Error: No outbox in \/nowhere\/at\/all \(no outbox\.db there\), so no delivered application\. Pass the proxy's data directory with --data-dir/,
    );
    await assert.rejects(
      run(['--now'], { ...env, UPSTREAM_URL: '' }),
      /^Error: status-sync reads the proxy's configuration, and it is not valid:\n {2}- UPSTREAM_URL is required\n/,
    );
  });
});
