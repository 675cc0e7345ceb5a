// The partners' Node receiver (server/proxy/examples/verify-webhook.mjs) run
// as they run it, `node verify-webhook.mjs` with WEBHOOK_SECRET and PORT, in a
// process of its own: it takes a request signed as the proxy signs and prints
// what the event says (its type, the application's reference, the company's
// status), refuses another method before reading anything, and refuses a body
// over its limit as the bytes arrive, whether or not the body says its length.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { withEventStore } from '../server/proxy/storage/test-support.ts';
import { postEvent } from '../server/proxy/webhooks/post-event.ts';
import { main as webhooksCommand } from '../server/proxy/commands/webhooks.ts';
import { eventually } from '../server/test/poll.ts';
import { enqueueApplication } from './outbox-rows.test-support.ts';

const SECRET = `whsec_${Buffer.alloc(32, 6).toString('base64')}`;
const EXAMPLE = new URL('../server/proxy/examples/verify-webhook.mjs', import.meta.url);
const { MAX_BODY_BYTES } = (await import(EXAMPLE.href)) as { MAX_BODY_BYTES: number };

describe("the partners' Node webhook receiver, run as a process", () => {
  let receiver: ChildProcessWithoutNullStreams;
  let output = '';
  let url: string;

  before(async () => {
    receiver = spawn(process.execPath, [EXAMPLE.pathname], {
      env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: '0' },
    });
    receiver.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const port = await eventually(() => /Receiving webhook events on port (\d+)/.exec(output)?.[1], {
      timeoutMs: 10_000,
      what: 'the receiver to listen',
    });
    url = `http://127.0.0.1:${port}/hooks`;
  });
  after(() => receiver?.kill());

  function signed(body: string, id: string): Record<string, string> {
    const at = new Date();
    return {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(SECRET).sign(id, at, body),
    };
  }

  /** Sends an event of `type` about the application `reference`, signed as the proxy signs it, under webhook-id `id`. */
  function sendSigned(id: string, type: string, reference: string, method = 'POST'): Promise<Response> {
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data: { reference } });
    return fetch(url, { method, headers: signed(body, id), body });
  }

  /**
   * Streams `total` bytes without a Content-Length (chunked), as fast as the
   * receiver takes them, until it answers: its status, and how many bytes
   * were written by then.
   */
  function streamed(total: number): Promise<{ status: number | undefined; written: number }> {
    return new Promise((resolve) => {
      let written = 0;
      let status: number | undefined;
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const req = request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      const pump = () => {
        while (status === undefined && written < total && !req.destroyed) {
          written += chunk.length;
          if (!req.write(chunk)) return;
        }
        if (written >= total) req.end();
      };
      req.on('drain', pump);
      req.on('response', (res) => {
        status = res.statusCode;
        res.resume();
        req.destroy();
        resolve({ status, written });
      });
      // A refused upload may be cut before the answer is read: it then has no status.
      req.on('error', () => resolve({ status, written }));
      pump();
    });
  }

  it('takes an event the proxy signed, answers 204 and hands it on', async () => {
    const response = await sendSigned('msg_node_1', 'application.delivered', 'r-node-1');
    assert.equal(response.status, 204);
    await eventually(() => output.includes('msg_node_1 application.delivered reference=r-node-1\n'), {
      timeoutMs: 5_000,
      what: 'the event handed on',
    });
  });

  it("prints an application.status_changed event the proxy's store recorded: its type, reference and the company's status", async () => {
    await withEventStore(async (store) => {
      await enqueueApplication(store, { reference: 'r-node-status', email: 'grace@example.org' });
      assert.equal(
        await store.webhooks.record('r-node-status', 'application.status_changed', { status: 'interview' }),
        true,
      );
      // An application's events go in order: application.received first, then the status change.
      const [received] = await store.webhooks.claimDue(10, 60_000);
      await store.webhooks.markDelivered(received!);
      const [changed] = await store.webhooks.claimDue(10, 60_000);
      assert.equal(changed?.type, 'application.status_changed');
      const result = await postEvent({ url, secret: SECRET }, changed.id, changed.body);
      assert.deepEqual(result, { kind: 'answered', status: 204, ok: true, body: '' });
      await eventually(
        () => output.includes(`${changed.id} application.status_changed reference=r-node-status status=interview\n`),
        { timeoutMs: 5_000, what: 'the status change printed' },
      );
    });
  });

  it('prints the webhook.test event `webhooks send-test` posts, with its message and no undefined', async () => {
    const saved = { WEBHOOK_URL: process.env.WEBHOOK_URL, WEBHOOK_SECRET: process.env.WEBHOOK_SECRET };
    Object.assign(process.env, { WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET });
    let said = '';
    try {
      await webhooksCommand(['send-test'], (text) => (said += text));
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    const id = /^Sent webhook\.test (msg_\S+) /.exec(said)?.[1];
    assert.ok(id !== undefined, said);
    const line = await eventually(() => output.split('\n').find((l) => l.startsWith(`${id} `)), {
      timeoutMs: 5_000,
      what: 'the test event printed',
    });
    assert.match(line, new RegExp(`^${id} webhook\\.test A test event from jobboard-connector: `));
    assert.ok(!line.includes('undefined'), line);
  });

  it('refuses an unsigned body with 400', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"type":"application.delivered"}',
    });
    assert.equal(response.status, 400);
  });

  it('answers 405 with Allow: POST to a GET, and to a PUT carrying a signed event', async () => {
    const get = await fetch(url);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    const put = await sendSigned('msg_node_put', 'application.delivered', 'r-node-put', 'PUT');
    assert.equal(put.status, 405);
    assert.ok(!output.includes('msg_node_put'), 'a PUT hands nothing on');
  });

  it(`answers 413 to a body over ${MAX_BODY_BYTES} bytes that says its length, signed or not`, async () => {
    const body = JSON.stringify({
      type: 'application.delivered',
      data: { reference: 'r-node-big', pad: 'x'.repeat(MAX_BODY_BYTES) },
    });
    const response = await fetch(url, { method: 'POST', headers: signed(body, 'msg_node_big'), body });
    assert.equal(response.status, 413);
    assert.ok(!output.includes('msg_node_big'), 'nothing handed on');
  });

  it('takes a body of exactly the limit as far as its signature (then 400 for a wrong one)', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(MAX_BODY_BYTES),
    });
    assert.equal(response.status, 400);
  });

  it('answers 413 to a body without a length once it passes the limit, before the rest is sent', async () => {
    const total = 256 * 1024 * 1024;
    // The receiver closes a refused upload, and a client still writing may see that reset before it reads the 413:
    // up to three tries for the answer; every one must end far below the body.
    for (let tries = 1; ; tries += 1) {
      const { status, written } = await streamed(total);
      // Written by the end: the limit and what the sockets between hold, far below the body.
      assert.ok(written < 32 * 1024 * 1024, `${written} bytes were written before the answer`);
      if (status !== undefined || tries === 3) {
        assert.equal(status, 413);
        break;
      }
    }
  });

  it('still takes a signed event after refusing the others', async () => {
    const response = await sendSigned('msg_node_2', 'application.received', 'r-node-2');
    assert.equal(response.status, 204);
  });
});
