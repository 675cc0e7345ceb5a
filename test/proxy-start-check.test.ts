// `jobboard-connector proxy` against the sandbox with keys or a channel that
// cannot work: it signs in at start, and a mistake the service's answers
// prove stops it with one line saying what is wrong and what to do. A
// service that cannot be reached at start is no such proof.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkUpstream } from '../server/proxy/upstream-check.ts';
import { DEMO_KEYS, startSandbox } from '../server/sandbox/index.ts';
import { demoProxyEnv } from '../server/test/demo-proxy-env.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { CLI, startCli, stopCli } from './cli-processes.ts';

const tmp = mkdtempSync(join(tmpdir(), 'proxy-start-check-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Starts the proxy CLI and resolves with what it printed once it exited before listening, or fails if it listens. */
async function refusedStart(env: Record<string, string>, args: string[] = []): Promise<string> {
  try {
    const proxy = await startCli(CLI.sources, 'proxy', args, env);
    await stopCli(proxy);
    assert.fail(`the proxy started:\n${proxy.output()}`);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    const message = (error as Error).message;
    assert.match(message, /^proxy exited \(1\) before listening:/, message);
    return message;
  }
}

/** The lines of the output, without the JSON log lines. */
function plainLines(output: string): string[] {
  return output.split('\n').filter((line) => line !== '' && !line.startsWith('{') && !line.startsWith('proxy exited'));
}

describe('jobboard-connector proxy checks its keys and channel at start', () => {
  let sandbox: RunningSandbox;
  const env = (extra: Record<string, string>) =>
    demoProxyEnv(sandbox.url, {
      DATA_DIR: mkdtempSync(join(tmp, 'data-')),
      LOG_LEVEL: 'warn',
      ...extra,
    });
  before(async () => {
    sandbox = await startSandbox({ admin: true, seed: 'demo', rateLimitPerMinute: 0 });
  });
  after(() => sandbox?.close());

  it("with a company's API keys, exits 1 with the one line naming the company and what to create", async () => {
    const output = await refusedStart(
      env({ UPSTREAM_PRIVATE_KEY: DEMO_KEYS.company.private_key, UPSTREAM_SECRET_KEY: DEMO_KEYS.company.secret_key }),
    );
    assert.deepEqual(plainLines(output), [
      `UPSTREAM_PRIVATE_KEY/UPSTREAM_SECRET_KEY are a company's API keys (company ${DEMO_KEYS.company.company_id}), not a job board's: create a job-board API client (scopes applicants_write, applications_read, applications_write, campaigns_read) in the recruitment service, and set its keys. A company's keys read the company's own offers but cannot deliver a single application.`,
    ]);
  });

  it('with a wrong secret key, exits 1 with the one line saying the keys were refused', async () => {
    const output = await refusedStart(env({ UPSTREAM_SECRET_KEY: 'not-the-secret' }));
    assert.deepEqual(plainLines(output), [
      `UPSTREAM_PRIVATE_KEY/UPSTREAM_SECRET_KEY were refused by the recruitment API at ${sandbox.url} (401 invalid_credentials): no API client has this pair. Copy both keys of your job-board API client again, the secret key being the one issued with that private key.`,
    ]);
  });

  it('with a mistyped channel, exits 1 with the one line naming the channel of the keys', async () => {
    const output = await refusedStart(env({ JOBBOARD_CHANNEL: 'jobboard_dmeo' }));
    assert.deepEqual(plainLines(output), [
      `JOBBOARD_CHANNEL=jobboard_dmeo is not a channel of these keys (theirs: ${DEMO_KEYS.jobboard.channel}): set JOBBOARD_CHANNEL to your job board's channel value, as given with your keys.`,
    ]);
  });

  it("with another board's channel that lists offers (broadcast on both boards), exits 1 naming the channel of the keys", async () => {
    const { db } = sandbox.context;
    const shared = db.get<{ id: number }>(
      "SELECT c.id FROM campaigns c JOIN campaign_channels cc ON cc.campaign_id = c.id JOIN channels ch ON ch.id = cc.channel_id WHERE ch.value = ? AND c.status = 'online' ORDER BY c.id LIMIT 1",
      DEMO_KEYS.jobboard.channel,
    )!;
    const channels = db
      .all<{ value: string }>(
        'SELECT ch.value FROM campaign_channels cc JOIN channels ch ON ch.id = cc.channel_id WHERE cc.campaign_id = ?',
        shared.id,
      )
      .map((c) => c.value);
    await admin(sandbox, 'PATCH', `/campaigns/${shared.id}`, { channels: [...channels, 'jobboard_other'] });
    const output = await refusedStart(env({ JOBBOARD_CHANNEL: 'jobboard_other' }));
    assert.deepEqual(plainLines(output), [
      `JOBBOARD_CHANNEL=jobboard_other is not a channel of these keys (theirs: ${DEMO_KEYS.jobboard.channel}): set JOBBOARD_CHANNEL to your job board's channel value, as given with your keys.`,
    ]);
  });

  it('with keys lacking a scope the proxy needs, exits 1 with the one line naming the scopes to give', async () => {
    const keys = { private_key: 'no-write-scope-private', secret_key: 'no-write-scope-secret' };
    await admin(sandbox, 'POST', '/clients', {
      channel: DEMO_KEYS.jobboard.channel,
      scopes: ['campaigns_read', 'applications_read'],
      ...keys,
    });
    const output = await refusedStart(
      env({ UPSTREAM_PRIVATE_KEY: keys.private_key, UPSTREAM_SECRET_KEY: keys.secret_key }),
    );
    assert.deepEqual(plainLines(output), [
      "UPSTREAM_PRIVATE_KEY/UPSTREAM_SECRET_KEY are a job-board API client's without a scope the proxy needs (403 missing_scope: This API client lacks the scope applicants_write.): give that client the scopes applicants_write, applications_read, applications_write, campaigns_read in the recruitment service, then start again.",
    ]);
  });

  it('with a channel that lists no offer, exits 1 pointing to --allow-empty-catalogue, and starts with it', async () => {
    const keys = { private_key: 'empty-board-private', secret_key: 'empty-board-secret' };
    await admin(sandbox, 'POST', '/clients', { channel: 'jobboard_empty', ...keys });
    const started = env({
      UPSTREAM_PRIVATE_KEY: keys.private_key,
      UPSTREAM_SECRET_KEY: keys.secret_key,
      JOBBOARD_CHANNEL: 'jobboard_empty',
    });
    const output = await refusedStart(started);
    assert.deepEqual(plainLines(output), [
      'JOBBOARD_CHANNEL=jobboard_empty lists no online offer: check the channel value given with your keys; if your board legitimately starts with no offer, start with --allow-empty-catalogue (or ALLOW_EMPTY_CATALOGUE=true).',
    ]);
    const proxy = await startCli(CLI.sources, 'proxy', ['--allow-empty-catalogue'], started);
    try {
      assert.equal((await fetch(`${proxy.url}/healthz`)).status, 200);
    } finally {
      assert.equal(await stopCli(proxy), 0);
    }
  });

  it('without ALLOWED_ORIGINS and PUBLIC_ORIGIN, starts with one warning line naming both, what to set and why; with either, none', async () => {
    const warnings = async (extra: Record<string, string>) => {
      const proxy = await startCli(CLI.sources, 'proxy', [], env(extra));
      assert.equal(await stopCli(proxy), 0);
      return proxy
        .output()
        .split('\n')
        .filter((line) => line.includes('no_allowed_origins'))
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
    };
    assert.deepEqual(await warnings({}), [
      "Neither ALLOWED_ORIGINS nor PUBLIC_ORIGIN is set, so no board page can call this proxy from a browser (403 origin_not_allowed): set ALLOWED_ORIGINS to the origins of the pages that embed the widget (like https://jobs.acme.example, or http://localhost:5173 for a page you develop), or PUBLIC_ORIGIN to this proxy's own origin when the pages are served from it.",
    ]);
    assert.deepEqual(await warnings({ ALLOWED_ORIGINS: 'http://localhost:5173' }), []);
    assert.deepEqual(await warnings({ PUBLIC_ORIGIN: 'https://jobs.acme.example' }), []);
  });

  it("lists its probe in the sandbox's /_sandbox/creates as a probe, never as a failed application", async () => {
    await admin(sandbox, 'POST', '/reset', { seed: 'demo' });
    const config = {
      upstream: {
        url: sandbox.url,
        privateKey: DEMO_KEYS.jobboard.private_key,
        secretKey: DEMO_KEYS.jobboard.secret_key,
      },
      channel: DEMO_KEYS.jobboard.channel,
      allowEmptyCatalogue: false,
    };
    assert.equal((await checkUpstream(config)).outcome, 'checked');
    const creates = await admin<
      { path: string; status: number; probe: boolean; email: string | null; campaign_ids: number[] }[]
    >(sandbox, 'GET', '/creates');
    assert.deepEqual(
      creates.map((c) => [c.path, c.status, c.probe, c.email, c.campaign_ids]),
      [['/jobboards/applicants', 400, true, null, []]],
    );
  });

  it('when the service cannot be reached at start, starts anyway (applications are queued)', async () => {
    const proxy = await startCli(CLI.sources, 'proxy', [], env({ UPSTREAM_URL: 'http://127.0.0.1:9/v2' }));
    try {
      await eventually(() => /"event":"upstream_unverified"/.test(proxy.output()), {
        timeoutMs: 10_000,
        what: 'the warning that the keys could not be checked',
      });
    } finally {
      assert.equal(await stopCli(proxy), 0);
    }
  });
});
