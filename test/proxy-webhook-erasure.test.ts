// An erasure reaches every copy, on both stores, through the real proxy:
// with WEBHOOK_INCLUDE_CANDIDATE=true and the board's receiver down, a
// candidate applies (201: delivered, the row keeps nothing personal, its
// events still wait with the candidate's fields), `outbox erase --email`
// runs and counts those events, then the receiver comes back: the events
// arrive, with no personal data.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../server/test/poll.ts';
import { apply, applyWorldPerSuite, runOutboxCommand, validFields } from './proxy-apply.test-support.ts';
import type { Fields } from './proxy-apply.test-support.ts';
import { SQLITE_STORE, postgresStore } from './proxy-stores.ts';
import { withEnv } from './in-process-command.ts';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** A board's receiver: answers 503 while down, else 204, keeping the bodies it accepted. */
async function startReceiver() {
  const state = { up: false, attempts: 0, accepted: [] as string[] };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      state.attempts += 1;
      if (!state.up) return void res.writeHead(503).end();
      state.accepted.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return Object.assign(state, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

/** Runs `outbox erase --email` with the proxy's environment (its database, its webhooks). */
function erase(env: Record<string, string>, email: string, dataDir: string): Promise<string> {
  return withEnv(env, () => runOutboxCommand(['erase', '--email', email, '--data-dir', dataDir]));
}

for (const store of [SQLITE_STORE, await postgresStore()]) {
  describe(`an erasure reaches the webhook events not yet sent, on ${store.name}`, { skip: store.skip }, () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    before(async () => {
      receiver = await startReceiver();
    });
    // Read once the receiver is up (its before runs first): its URL is the proxy's WEBHOOK_URL.
    const env = (): Record<string, string> => ({
      ...store.env,
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_INCLUDE_CANDIDATE: 'true',
    });
    const world = applyWorldPerSuite(() => ({ env: env() }));
    after(() => receiver?.close());

    it(
      'apply with the receiver down, erase, receiver back: the events arrive without the email, names or cover letter',
      { timeout: 60_000 },
      async () => {
        const fields: Fields = {
          ...validFields(world().openCampaignIds[0]!),
          cover_letter: 'A letter only the company should read.',
        };
        const answer = await apply(world().proxyUrl, { fields });
        assert.equal(answer.status, 201, answer.text);
        const reference = String(answer.body.reference);
        await eventually(() => receiver.attempts > 0, {
          timeoutMs: 10_000,
          what: 'a first attempt at the receiver, refused',
        });

        const output = await erase(env(), fields.email, world().config.dataDir);

        assert.match(output, /applications: 0/);
        assert.match(
          output,
          /webhook events: 2 \(not yet sent: an application's is still sent, without the candidate's fields; an alert's is not sent\)/,
        );
        // An attempt already on its way when the erasure ran carries what it read before (as an application being sent at that moment):
        // the receiver stays down until two more attempts, read after the erasure, were refused.
        const refusedBefore = receiver.attempts;
        await eventually(() => receiver.attempts >= refusedBefore + 2, {
          timeoutMs: 10_000,
          what: 'two more attempts refused',
        });
        receiver.up = true;
        const mine = () => receiver.accepted.filter((body) => body.includes(reference));
        await eventually(() => mine().length >= 2, {
          timeoutMs: 30_000,
          what: 'received and delivered, once the receiver is back',
        });
        const events = mine().map((body) => JSON.parse(body) as { type: string; data: { candidate?: unknown } });
        assert.deepEqual(
          events.map((e) => e.type),
          ['application.received', 'application.delivered'],
        );
        for (const event of events) assert.equal(event.data.candidate, undefined);
        for (const body of mine()) {
          for (const name of ['email', 'first_name', 'last_name', 'cover_letter'])
            assert.ok(!body.includes(fields[name]!), `no ${name} sent`);
        }
      },
    );
  });
}
