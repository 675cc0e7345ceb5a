// STATUS_SYNC_INTERVAL_MINUTES as a trial uses it, in real time (the one slow
// test of the status sync, about two minutes): the sandbox, the proxy with
// its real timings and a 1-minute interval, and a board's receiver verifying
// signatures, all over real HTTP. A status the company changes after the
// proxy's first read reaches the receiver as application.status_changed
// within 2 minutes, with no command and no clock moved.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { apply, applyWorldPerSuite, validFields } from './proxy-apply.test-support.ts';
import { RECEIVER_SECRET, startReceiver } from './webhook-receiver.ts';
import type { Receiver } from './webhook-receiver.ts';

const MINUTE = 60_000;

describe('STATUS_SYNC_INTERVAL_MINUTES=1', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  const world = applyWorldPerSuite(() => ({
    env: { STATUS_SYNC_INTERVAL_MINUTES: '1', WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: RECEIVER_SECRET },
  }));
  after(async () => {
    await receiver?.close();
  });

  it(
    'a status changed in the sandbox reaches the receiver as application.status_changed within 2 minutes',
    { timeout: 5 * MINUTE },
    async () => {
      const answer = await apply(world().proxyUrl, { fields: validFields(world().openCampaignIds[0]!) });
      assert.ok(answer.status === 201 || answer.status === 202, answer.text);
      const reference = String(answer.body.reference);
      const row = async () => world().applications.outbox.get(reference);
      const id = await eventually(async () => (await row())?.upstream_application_id, {
        timeoutMs: 20_000,
        what: 'delivery',
      });
      // The first read is the starting point (the proxy's next pass, within a minute): a change before it is no event.
      await eventually(async () => (await row())?.company_status, {
        timeoutMs: 2 * MINUTE,
        what: "the proxy's first read of the status",
        intervalMs: 200,
      });

      await admin(world().sandbox, 'PUT', `/applications/${id}/status`, { value: 'interview' });
      const changedAt = Date.now();
      const changed = await eventually(
        () => receiver.events.find((e) => e.event.type === 'application.status_changed'),
        {
          timeoutMs: 2 * MINUTE,
          what: 'application.status_changed at the receiver',
          intervalMs: 200,
        },
      );
      assert.deepEqual([changed.event.data.reference, changed.event.data.status], [reference, 'interview']);
      assert.ok(changed.at - changedAt <= 2 * MINUTE, `${changed.at - changedAt} ms after the change`);
    },
  );
});
