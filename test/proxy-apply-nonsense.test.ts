// Delivery when the service creates the application and then answers nonsense:
// HTML, a truncated JSON body, JSON without the created ids. The sandbox answers
// properly, so a relay between the proxy and the sandbox rewrites the answer of
// POST /jobboards/applicants after the sandbox created it. The sandbox takes
// duplicates here: only the proxy's look before a re-send keeps an application
// from being created twice, and the creates are counted at the wire.
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { apply, assertCreatedOnceAtTheWire, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { startSandbox } from '../server/sandbox/index.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import { eventually } from '../server/test/poll.ts';
import { SQLITE_STORE, postgresStore } from './proxy-stores.ts';

const SETTLE_MS = 60_000;

/** The answer the relay gives instead of the service's, built from the service's own body. */
interface Nonsense {
  status: number;
  type: string;
  body(real: string): string;
}

/**
 * A relay to the sandbox that forwards every request whole. Armed, it replaces
 * the answer of the next create (the sandbox did create it), and can then stop
 * listening, so the next requests meet a refused connection (surely not sent).
 */
class Relay {
  #server: Server;
  #port = 0;
  #nonsense: { answer: Nonsense; thenRefuse: boolean } | undefined;
  /** Create answers replaced so far. */
  replaced = 0;

  constructor(target: URL) {
    this.#server = createServer((req, res) => {
      const upstream = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          const armed =
            req.method === 'POST' && (req.url ?? '').endsWith('/jobboards/applicants') ? this.#nonsense : undefined;
          if (armed === undefined) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          this.#nonsense = undefined;
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            this.replaced++;
            res.writeHead(armed.answer.status, { 'content-type': armed.answer.type });
            res.end(armed.answer.body(Buffer.concat(chunks).toString()), () => {
              if (armed.thenRefuse) this.#stopListening();
            });
          });
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(this.#port, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.#port}/v2`;
  }

  /** The next create is answered `answer`; with thenRefuse, nothing is listening afterwards until listen() again. */
  arm(answer: Nonsense, thenRefuse = false): void {
    this.#nonsense = { answer, thenRefuse };
  }

  #stopListening(): void {
    this.#server.close();
    this.#server.closeAllConnections();
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    if (this.#server.listening) await new Promise((resolve) => this.#server.close(resolve));
  }
}

const HTML: Nonsense = {
  status: 200,
  type: 'text/html; charset=utf-8',
  body: () => '<!doctype html><title>Saved</title><p>Your application was saved.</p>',
};
const TRUNCATED: Nonsense = {
  status: 201,
  type: 'application/json',
  body: (real) => real.slice(0, Math.floor(real.length / 2)),
};
const WITHOUT_IDS: Nonsense = {
  status: 201,
  type: 'application/json',
  body: (real) => {
    const { id: _id, applications: _applications, ...rest } = JSON.parse(real) as Record<string, unknown>;
    return JSON.stringify(rest);
  },
};

for (const store of [SQLITE_STORE, await postgresStore()]) {
  describe(
    `delivery when the service creates the application and answers nonsense (${store.name}, sandbox duplicate_applications: accept)`,
    { skip: store.skip },
    () => {
      let sandbox: RunningSandbox;
      let relay: Relay;
      let world: ApplyWorld;
      before(async () => {
        sandbox = await startSandbox({ port: 0, admin: true, seed: 'demo' });
        relay = new Relay(new URL(sandbox.url));
        const relayUrl = await relay.listen();
        world = await startApplyWorld({ sandbox, duplicates: 'accept', env: { ...store.env, UPSTREAM_URL: relayUrl } });
      });
      after(async () => {
        await world?.close();
        await relay?.close();
        await sandbox?.close();
      });

      const row = async (reference: unknown) => world.applications.outbox.get(String(reference));

      for (const [what, nonsense, campaign] of [
        ['200 with an HTML page', HTML, 0],
        ['201 with a truncated JSON body', TRUNCATED, 1],
        ['201 with JSON without the created ids', WITHOUT_IDS, 2],
      ] as const) {
        it(`after ${what}, looks for the application before any re-send and finds it: created once at the wire`, async (t) => {
          const fields = validFields(world.openCampaignIds[campaign]!);
          relay.arm(nonsense);
          const answer = await apply(world.proxyUrl, { fields });
          assert.ok(answer.status === 201 || answer.status === 202, `answered ${answer.status}`);
          await eventually(async () => (await row(answer.body.reference))?.status === 'delivered', {
            timeoutMs: SETTLE_MS,
            what: 'delivery',
          });
          assert.equal(relay.replaced > 0, true, 'the relay replaced the answer');
          assert.equal((await row(answer.body.reference))?.outcome, 'found_delivered');
          const wire = await assertCreatedOnceAtTheWire(sandbox, fields.email, world.openCampaignIds[campaign]!);
          t.diagnostic(`at the wire: ${wire.requests} create requests, ${wire.succeeded} created an application`);
        });
      }

      it('keeps "may have reached the service" through a later attempt that surely did not reach it (connection refused), and looks first when the service is back', async (t) => {
        const fields = validFields(world.openCampaignIds[3]!);
        const replacedBefore = relay.replaced;
        relay.arm(HTML, true);
        const answer = await apply(world.proxyUrl, { fields });
        assert.equal(answer.status, 202);
        assert.equal(relay.replaced, replacedBefore + 1, 'the service created it and answered nonsense');
        // Two attempts after the nonsense met a refused connection: neither reached the service.
        await eventually(async () => ((await row(answer.body.reference))?.attempts ?? 0) >= 3, {
          timeoutMs: SETTLE_MS,
          what: 'two attempts refused',
        });
        assert.equal(
          (await row(answer.body.reference))?.status === 'delivered',
          false,
          'nothing could be delivered meanwhile',
        );
        await relay.listen();
        await eventually(async () => (await row(answer.body.reference))?.status === 'delivered', {
          timeoutMs: SETTLE_MS,
          what: 'delivery',
        });
        assert.equal((await row(answer.body.reference))?.outcome, 'found_delivered');
        const wire = await assertCreatedOnceAtTheWire(sandbox, fields.email, world.openCampaignIds[3]!);
        t.diagnostic(`at the wire: ${wire.requests} create requests, ${wire.succeeded} created an application`);
      });
    },
  );
}
