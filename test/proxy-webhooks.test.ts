// Signed webhooks to the board, end to end: a real proxy in front of the
// sandbox posts its events to a receiver built from the partners' example
// (server/proxy/examples/verify-webhook.mjs), which verifies every signature
// with standardwebhooks. Each application's events arrive in order; a
// receiver that fails is retried; several instances on one PostgreSQL send
// each event once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApplicationEvent } from '../server/public-api/webhook-events.ts';
import { loadProxyConfig } from '../server/proxy/config.ts';
import { startSandbox } from '../server/sandbox/index.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';
import { captureLogs } from '../server/test/logs.ts';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import {
  apply,
  applyWorldPerSuite,
  proxyEnv,
  queuedWhileServiceDown,
  runOutboxCommand,
  startProxyStack,
  validFields,
} from './proxy-apply.test-support.ts';
import type { ApplyWorld, ProxyStack } from './proxy-apply.test-support.ts';

const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
const SETTLE_MS = 30_000;

type Handler = (
  secret: string,
  onEvent: (event: unknown, id: string) => Promise<void> | void,
) => (req: IncomingMessage, res: ServerResponse) => void;
// The partners' example, as they copy it (plain JavaScript, no types).
const EXAMPLE = new URL('../server/proxy/examples/verify-webhook.mjs', import.meta.url).href;
const { webhookHandler } = (await import(EXAMPLE)) as { webhookHandler: Handler };

interface Receiver {
  url: string;
  /** Every verified request, in arrival order (refused ones included): webhook-id and event. */
  verified: { id: string; event: ApplicationEvent }[];
  /** The events answered 2xx (delivered), in arrival order. */
  accepted: { id: string; event: ApplicationEvent }[];
  /** Requests whose signature did not verify (answered 400). */
  invalid: number;
  /** The next this many verified requests are answered 500. */
  failNext: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Omit<Receiver, 'url' | 'close'> = { verified: [], accepted: [], invalid: 0, failNext: 0 };
  const handle = webhookHandler(SECRET, (event, id) => {
    // Every body must be a contract event: a parse failure answers 500 and fails the test by its missing event.
    const parsed = ApplicationEvent.parse(event);
    receiver.verified.push({ id, event: parsed });
    if (receiver.failNext > 0) {
      receiver.failNext -= 1;
      throw new Error('the board is down');
    }
    receiver.accepted.push({ id, event: parsed });
  });
  const server = createServer((req, res) => {
    res.on('finish', () => {
      if (res.statusCode === 400) receiver.invalid += 1;
    });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/jobboard`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The types of the events the receiver accepted for one application, in arrival order. */
function typesOf(receiver: Receiver, reference: string): string[] {
  return receiver.accepted.filter((e) => e.event.data.reference === reference).map((e) => e.event.type);
}

async function settled(receiver: Receiver, reference: string, count: number, what: string): Promise<string[]> {
  await eventually(() => typesOf(receiver, reference).length >= count, { timeoutMs: SETTLE_MS, what });
  return typesOf(receiver, reference);
}

/**
 * Applies to the world's first open offer (with Idempotency-Key `key`, or a
 * new one) and waits until the receiver accepted its received and delivered
 * events, in that order; answers the application's reference and those events.
 */
async function appliedAndDelivered(world: ApplyWorld, hooks: Receiver, what: string, key?: string) {
  const answer = await apply(world.proxyUrl, { fields: validFields(world.openCampaignIds[0]!), key });
  assert.equal(answer.status, 201);
  const reference = String(answer.body.reference);
  assert.deepEqual(await settled(hooks, reference, 2, what), ['application.received', 'application.delivered']);
  const [received, delivered] = hooks.accepted.filter((e) => e.event.data.reference === reference);
  return { reference, received: received!, delivered: delivered! };
}

describe('webhooks to the board (SQLite)', () => {
  let hooks: Receiver;
  before(async () => {
    hooks = await startReceiver();
  });
  const world = applyWorldPerSuite(() => ({ env: { WEBHOOK_URL: hooks.url, WEBHOOK_SECRET: SECRET } }));
  after(async () => {
    await hooks.close();
    assert.equal(hooks.invalid, 0, 'every request the proxy sent verified');
  });

  it('tells received, then delivered, with the Idempotency-Key the widget sent and no candidate fields by default', async () => {
    const key = randomUUID();
    const { received, delivered } = await appliedAndDelivered(world(), hooks, 'received and delivered', key);
    assert.equal(received.event.data.idempotency_key, key);
    assert.equal(received.event.data.campaign_id, world().openCampaignIds[0]);
    assert.equal(received.event.data.candidate, undefined);
    assert.ok(
      delivered.event.data.delivered_at !== undefined && delivered.event.data.upstream_application_id !== undefined,
    );
    assert.notEqual(received.id, delivered.id);
  });

  it('tells an application the service refused: received, then rejected', async () => {
    const closing = world().openCampaignIds.at(-1)!;
    await admin(world().sandbox, 'PATCH', `/campaigns/${closing}`, { status: 'archived' });
    const answer = await apply(world().proxyUrl, { fields: validFields(closing) });
    assert.equal(answer.status, 422);
    const reference = String(answer.body.reference ?? '');
    const stored = (await world().applications.outbox.list({ status: 'rejected' })).find(
      (r) => r.campaign_id === closing,
    );
    assert.ok(stored, 'the refused application is kept as rejected');
    assert.ok(reference === '' || reference === stored.reference);
    assert.deepEqual(await settled(hooks, stored.reference, 2, 'received and rejected'), [
      'application.received',
      'application.rejected',
    ]);
    assert.equal(
      hooks.accepted.find((e) => e.event.type === 'application.rejected' && e.event.data.reference === stored.reference)
        ?.event.data.outcome,
      'campaign_closed',
    );
  });

  it('tells an application dead-lettered after the candidate was told it was received', async () => {
    const closing = world().openCampaignIds.at(-2)!;
    const { reference } = await queuedWhileServiceDown(world(), closing);
    await admin(world().sandbox, 'PATCH', `/campaigns/${closing}`, { status: 'archived' });
    await admin(world().sandbox, 'POST', '/faults', { count: 0 });
    assert.deepEqual(await settled(hooks, reference, 2, 'received and dead-lettered'), [
      'application.received',
      'application.dead_lettered',
    ]);
  });

  it("tells an application erased at the candidate's request (`outbox erase --email`) before it was delivered", async () => {
    const { fields, reference } = await queuedWhileServiceDown(world(), world().openCampaignIds[0]!);
    // The command reads WEBHOOK_URL as the proxy does: it records the event, the proxy sends it.
    process.env.WEBHOOK_URL = hooks.url;
    process.env.WEBHOOK_SECRET = SECRET;
    try {
      assert.match(
        await runOutboxCommand(['erase', '--email', fields.email, '--data-dir', world().config.dataDir]),
        new RegExp(reference),
      );
    } finally {
      delete process.env.WEBHOOK_URL;
      delete process.env.WEBHOOK_SECRET;
      await admin(world().sandbox, 'POST', '/faults', { count: 0 });
    }
    assert.deepEqual(await settled(hooks, reference, 2, 'received and erased'), [
      'application.received',
      'application.erased',
    ]);
    assert.equal((await world().applications.outbox.get(reference))?.status, 'rejected');
  });

  it('retries a receiver that fails, with the same webhook-id, until it answers 2xx: each event accepted once, in order', async () => {
    hooks.failNext = 3;
    const { received, delivered } = await appliedAndDelivered(world(), hooks, 'received and delivered after retries');
    assert.equal(
      hooks.verified.filter((e) => e.id === received.id).length,
      4,
      'three refused attempts, then the accepted one',
    );
    assert.equal(hooks.verified.filter((e) => e.id === delivered.id).length, 1, 'the next event waited for the first');
    const metrics = await (await fetch(world().metricsUrl)).text();
    assert.match(metrics, /^webhook_events_total\{type="application.received",outcome="retry"\} 3$/m);
  });
});

describe('webhooks of the status sync (SQLite)', () => {
  let hooks: Receiver;
  before(async () => {
    hooks = await startReceiver();
  });
  const world = applyWorldPerSuite(() => ({
    env: { WEBHOOK_URL: hooks.url, WEBHOOK_SECRET: SECRET },
    statusSync: { intervalMs: 24 * 60 * 60 * 1000, periodMs: 0 },
  }));
  after(async () => {
    await hooks.close();
    assert.equal(hooks.invalid, 0, 'every request the proxy sent verified');
  });

  it("tells application.status_changed with the company's new status, after received and delivered", async () => {
    const { reference } = await appliedAndDelivered(world(), hooks, 'received and delivered');
    const id = (await world().applications.outbox.get(reference))!.upstream_application_id!;
    await world().applications.statusSync.runOnce();
    await admin(world().sandbox, 'PUT', `/applications/${id}/status`, { value: 'interview' });
    await world().applications.statusSync.runOnce();
    assert.deepEqual(await settled(hooks, reference, 3, 'the status change'), [
      'application.received',
      'application.delivered',
      'application.status_changed',
    ]);
    assert.equal(
      hooks.accepted.find((e) => e.event.type === 'application.status_changed')?.event.data.status,
      'interview',
    );
  });
});

describe('webhooks from three instances on one PostgreSQL database', { skip: skipWithoutPostgres() }, () => {
  let sandbox: RunningSandbox;
  let hooks: Receiver;
  const stacks: ProxyStack[] = [];
  const dirs: string[] = [];
  before(async () => {
    hooks = await startReceiver();
    sandbox = await startSandbox({ port: 0, admin: true, seed: 'demo' });
    const databaseUrl = await freshDatabase();
    for (let i = 0; i < 3; i += 1) {
      const dir = mkdtempSync(join(tmpdir(), 'jbc-webhooks-pg-'));
      dirs.push(dir);
      const config = loadProxyConfig(
        proxyEnv(sandbox, dir, { DATABASE_URL: databaseUrl, WEBHOOK_URL: hooks.url, WEBHOOK_SECRET: SECRET }),
      );
      stacks.push(await startProxyStack(config, { logger: captureLogs().logger }));
    }
  });
  after(async () => {
    for (const stack of stacks) await stack.stop();
    await sandbox?.close();
    await hooks?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('sends each event once, in order per application, whichever instance took it', async () => {
    const campaign = stacks[0]!.catalogue.store.search({ page: 1, per_page: 1 }).items[0]!.id;
    const references: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const answer = await apply(stacks[i % 3]!.url, { fields: validFields(campaign) });
      // Delivered at once (201) or queued (202) as the instances' claims fall: both end delivered.
      assert.ok(answer.status === 201 || answer.status === 202, `answered ${answer.status}`);
      references.push(String(answer.body.reference));
    }
    for (const reference of references) {
      assert.deepEqual(await settled(hooks, reference, 2, `events of ${reference}`), [
        'application.received',
        'application.delivered',
      ]);
    }
    const ids = hooks.verified.map((e) => e.id);
    assert.equal(ids.length, 24);
    assert.equal(new Set(ids).size, 24, 'no event was posted twice');
    assert.equal(hooks.invalid, 0);
  });
});
