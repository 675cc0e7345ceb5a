// A refusal no retry can fix stops the queue for everyone: the proxy's keys
// lose a scope while it runs (the sandbox's client row changes under it).
// The queued application is neither retried nor dead-lettered, however old;
// /readyz, the metrics and the log say why; a new candidate gets 503
// delivery_blocked, not a 202 that could never be kept.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProxyConfig } from '../server/proxy/config.ts';
import { startProxy } from '../server/proxy/index.ts';
import { createRegistry } from '../server/proxy/metrics.ts';
import { DEMO_KEYS, startSandbox } from '../server/sandbox/index.ts';
import { captureLogs } from '../server/test/logs.ts';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import {
  FAST_DELIVERY,
  apply,
  fetch,
  proxyEnv,
  queuedWhileServiceDown,
  startApplyWorld,
  validFields,
} from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';

const HOUR = 60 * 60 * 1000;

/** The value of delivery_blocked{reason} on a Prometheus page. */
function blockedValue(page: string, reason: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(`delivery_blocked{reason="${reason}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('when the service refuses the keys in a way no retry can fix, mid-run', () => {
  let world: ApplyWorld;
  let offsetMs = 0;
  before(async () => {
    world = await startApplyWorld({ clock: { now: () => Date.now() + offsetMs } });
  });
  after(() => world?.close());

  it('stops the queue for everyone (no attempt, nothing dead-lettered), says why on /readyz, the metrics and the log, and answers new candidates 503 delivery_blocked', async () => {
    const { sandbox, proxyUrl } = world;
    const campaignId = world.openCampaignIds[0]!;
    const { reference } = await queuedWhileServiceDown(world, campaignId);

    // The keys lose applicants_write; the service answers again; the row is past its dead-letter time.
    sandbox.context.db.run(
      'UPDATE api_clients SET scopes = ? WHERE private_key = ?',
      JSON.stringify(['campaigns_read', 'applications_read', 'applications_write']),
      DEMO_KEYS.jobboard.private_key,
    );
    sandbox.context.tokens.clear();
    await admin(sandbox, 'POST', '/faults', { count: 0 });
    offsetMs = (world.config.deadLetterAfterHours + 1) * HOUR;

    await eventually(async () => world.applications.blocked()?.reason === 'missing_scope', {
      timeoutMs: 10_000,
      what: 'delivery blocked by missing_scope',
    });
    const blockedAt = (await world.applications.outbox.get(reference))!;
    assert.equal(blockedAt.status, 'pending', 'not dead-lettered, though past its dead-letter time');

    const metrics = await (await fetch(world.metricsUrl)).text();
    assert.equal(blockedValue(metrics, 'missing_scope'), 1);
    assert.equal(blockedValue(metrics, 'wrong_client_kind'), 0);

    const ready = await fetch(`${proxyUrl}/readyz`);
    assert.equal(ready.status, 503);
    const checks = ((await ready.json()) as { checks: Record<string, Record<string, unknown>> }).checks;
    assert.equal(checks.delivery?.status, 'blocked');
    assert.equal(checks.delivery?.reason, 'missing_scope');
    assert.match(String(checks.delivery?.fix), /applicants_write.*restart the proxy/);

    const logged = world.logs.lines.filter((line) => line.event === 'delivery_blocked');
    assert.equal(logged.length, 1);
    assert.equal(logged[0]!.level, 50, 'an error line');

    const countsBefore = await world.applications.outbox.counts();
    const refused = await apply(proxyUrl, { fields: validFields(campaignId) });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.code, 'delivery_blocked');
    assert.deepEqual(await world.applications.outbox.counts(), countsBefore, 'the refused application was not stored');

    // Many poll intervals (50 ms) later, the queued row has had no further attempt.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const later = (await world.applications.outbox.get(reference))!;
    assert.equal(later.attempts, blockedAt.attempts);
    assert.equal(later.status, 'pending');
  });
});

describe("when the service could not be reached at start, and the keys turn out to be a company's once it answers", () => {
  it('blocks delivery then: /readyz 503 and new candidates 503 delivery_blocked, before any application was lost to it', async () => {
    const sandbox = await startSandbox({ admin: true, seed: 'demo', rateLimitPerMinute: 0 });
    const dataDir = mkdtempSync(join(tmpdir(), 'jbc-blocked-'));
    // Every request fails while the proxy starts: its check proves nothing, and it starts.
    await admin(sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
    const config = loadProxyConfig(
      proxyEnv(sandbox, dataDir, {
        UPSTREAM_PRIVATE_KEY: DEMO_KEYS.company.private_key,
        UPSTREAM_SECRET_KEY: DEMO_KEYS.company.secret_key,
      }),
    );
    const logs = captureLogs();
    const proxy = await startProxy({
      config,
      logger: logs.logger,
      registry: createRegistry({ defaultMetrics: false }),
      shutdownGraceMs: 0,
      upstreamRecheckMs: 50,
      applications: { delivery: FAST_DELIVERY },
    });
    try {
      assert.equal(logs.lines.filter((line) => line.event === 'upstream_unverified').length, 1);
      await admin(sandbox, 'POST', '/faults', { count: 0 });
      await eventually(
        async () =>
          (await fetch(`${proxy.url}/readyz`)).status === 503 &&
          proxy.applications.blocked()?.reason === 'wrong_client_kind',
        {
          timeoutMs: 15_000,
          what: 'delivery blocked by wrong_client_kind',
        },
      );
      const refused = await apply(proxy.url, { fields: validFields(1) });
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.code, 'delivery_blocked');
      assert.equal((await proxy.applications.outbox.counts()).pending, 0, 'nothing stored');
    } finally {
      await proxy.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
