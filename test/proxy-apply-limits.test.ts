// POST /api/applications under hostile traffic, over real sockets: the limits
// act before the costly work (reading the body), a stalled upload is cut, and
// the catalogue keeps answering through a flood.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { apply, applyWorldPerSuite, fetch, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';

/** A POST whose headers announce a body of `length` bytes, of which only `sent` are sent: an upload in progress. */
function openUpload(
  url: string,
  length: number,
  sent = 0,
  headers: Record<string, string> = {},
): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const lines = [
        'POST /api/applications HTTP/1.1',
        `Host: ${hostname}:${port}`,
        'Content-Type: multipart/form-data; boundary=----x',
        `Content-Length: ${length}`,
        'Idempotency-Key: slow-upload',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n${'-'.repeat(sent)}`);
      let received = '';
      const answer = new Promise<string>((done) => {
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('close', () => done(received));
        socket.on('error', () => undefined);
      });
      resolve({ socket, answer });
    });
    socket.once('error', reject);
  });
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);

describe('POST /api/applications under hostile traffic', () => {
  const world = applyWorldPerSuite({
    env: {
      UPLOAD_TIMEOUT_SECONDS: '2',
      MAX_CONCURRENT_UPLOADS: '3',
      APPLY_RATE_LIMIT_PER_IP: '1000',
      TRUST_PROXY: '1',
    },
  });

  it('cuts an upload that stalls at UPLOAD_TIMEOUT_SECONDS: its socket is closed', { timeout: 30_000 }, async () => {
    const started = Date.now();
    const { answer } = await openUpload(world().proxyUrl, 1_000_000, 1_000);
    const raw = await answer;
    const seconds = (Date.now() - started) / 1000;
    // Only a lower bound: a stall the proxy never cut would fail at this test's timeout.
    assert.ok(seconds >= 1.5, `closed after ${seconds.toFixed(1)} s, before UPLOAD_TIMEOUT_SECONDS`);
    assert.ok(raw === '' || statusOf(raw) === 408, `answered ${raw.slice(0, 40)}`);
  });

  it('past MAX_CONCURRENT_UPLOADS uploads in progress, answers 503 server_busy with Retry-After before reading the body', async () => {
    const uploads = await Promise.all([1, 2, 3].map(() => openUpload(world().proxyUrl, 1_000_000, 100)));
    // Let the three reach the route.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await openUpload(world().proxyUrl, 5_000_000, 0);
    const raw = await refused.answer;
    assert.equal(statusOf(raw), 503);
    assert.match(raw, /retry-after: 5/i);
    assert.match(raw, /"code":"server_busy"/);
    for (const upload of uploads) upload.socket.destroy();
    // Their places come back: a real application goes through.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answer = await apply(world().proxyUrl, { fields: validFields(world().openCampaignIds[0]!) });
    assert.ok(answer.status === 201 || answer.status === 202, `answered ${answer.status}`);
  });

  it('checks the per-IP limit before the body is read, counting IPv6 addresses by /64', async () => {
    const limited = await startApplyWorld({ env: { APPLY_RATE_LIMIT_PER_IP: '2', TRUST_PROXY: '1' } });
    try {
      const from = (ip: string) => ({ 'X-Forwarded-For': ip });
      const invalidPost = (ip: string) =>
        fetch(`${limited.proxyUrl}/api/applications`, {
          method: 'POST',
          headers: { ...from(ip), 'Idempotency-Key': ip },
          body: new FormData(),
        }).then((r) => r.status);
      for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9']) assert.equal(await invalidPost(ip), 422, ip);
      // The same /64, a third post: refused at once, though its 5 MB body never comes.
      const { answer } = await openUpload(limited.proxyUrl, 5_000_000, 0, from('2001:db8:1:2:abcd::1'));
      const raw = await answer;
      assert.equal(statusOf(raw), 429);
      assert.match(raw, /retry-after: \d+/i);
      // Another /64 of the same /48 has its own count.
      assert.equal(await invalidPost('2001:db8:1:3::1'), 422);
    } finally {
      await limited.close();
    }
  });

  it(
    'with DATABASE_URL, counts the per-IP limit across instances: a balancer spreading one address over two does not double it',
    { skip: skipWithoutPostgres() },
    async () => {
      const databaseUrl = await freshDatabase();
      const env = { APPLY_RATE_LIMIT_PER_IP: '2', TRUST_PROXY: '1', DATABASE_URL: databaseUrl };
      const first = await startApplyWorld({ env });
      const second = await startApplyWorld({ env, sandbox: first.sandbox });
      try {
        const invalidPost = (proxyUrl: string, ip: string) =>
          fetch(`${proxyUrl}/api/applications`, {
            method: 'POST',
            headers: { 'X-Forwarded-For': ip, 'Idempotency-Key': crypto.randomUUID() },
            body: new FormData(),
          }).then((r) => r.status);
        assert.equal(await invalidPost(first.proxyUrl, '198.51.100.7'), 422);
        assert.equal(await invalidPost(second.proxyUrl, '198.51.100.7'), 422);
        assert.equal(
          await invalidPost(first.proxyUrl, '198.51.100.7'),
          429,
          'the third post of the hour, whichever instance gets it',
        );
        assert.equal(await invalidPost(second.proxyUrl, '198.51.100.8'), 422, 'another address has its own count');
      } finally {
        await second.close();
        await first.close();
      }
    },
  );

  it("writes nothing to the disk for a refused post: the outbox's write-ahead log does not grow", async () => {
    // Settle what the start wrote (the first sync, the sweep) and the counts of one application (folded a moment
    // after it, here at once), then measure.
    const wal = join(world().config.dataDir, 'outbox.db-wal');
    const size = () => statSync(wal, { throwIfNoEntry: false })?.size ?? 0;
    await apply(world().proxyUrl, { fields: validFields(world().openCampaignIds[0]!) });
    await world().applications.outbox.funnel.fold();
    const before = size();
    // Three senders at a time: this proxy takes MAX_CONCURRENT_UPLOADS=3.
    const refused: number[][] = [];
    await Promise.all(
      Array.from({ length: 3 }, async (_, sender) => {
        for (let i = sender; i < 50; i += 3) {
          const invalid = await apply(world().proxyUrl, {
            fields: { ...validFields(world().openCampaignIds[0]!), email: 'not an email' },
            key: `refused-${i}`,
          });
          const robot = await apply(world().proxyUrl, {
            fields: { ...validFields(world().openCampaignIds[0]!), website: 'http://spam.example' },
            key: `robot-${i}`,
          });
          refused.push([invalid.status, robot.status]);
        }
      }),
    );
    assert.equal(refused.length, 50);
    assert.ok(
      refused.every(([invalid, robot]) => invalid === 422 && robot === 202),
      JSON.stringify(refused),
    );
    assert.equal(size(), before);
  });

  it('keeps answering GET /api/campaigns through a flood of invalid posts', async () => {
    const flood = Array.from({ length: 300 }, (_, i) =>
      fetch(`${world().proxyUrl}/api/applications`, {
        method: 'POST',
        headers: { 'Idempotency-Key': `flood-${i}`, 'X-Forwarded-For': `198.51.100.${i % 250}` },
        body: (() => {
          const form = new FormData();
          form.set('campaign_id', 'not a number');
          form.set('email', 'not an email');
          return form;
        })(),
      }).then((r) => r.status),
    );
    // Meanwhile (how fast is for `npm run bench -- proxy-apply`), every read of the catalogue is answered.
    for (let i = 0; i < 20; i += 1) {
      const response = await fetch(`${world().proxyUrl}/api/campaigns`);
      assert.equal(response.status, 200);
      assert.ok(((await response.json()) as { items: unknown[] }).items.length > 0);
    }
    const statuses = await Promise.all(flood);
    assert.ok(
      statuses.every((s) => s === 422 || s === 503),
      `statuses ${[...new Set(statuses)].join(', ')}`,
    );
    assert.ok(statuses.includes(422));
  });
});
