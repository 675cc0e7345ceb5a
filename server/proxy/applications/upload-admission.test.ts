import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { Registry } from 'prom-client';
import { captureLogs } from '../../test/logs.ts';
import { ProblemError } from '../http/problem.ts';
import { httpMetrics } from '../metrics.ts';
import { applicationMetrics } from './metrics.ts';
import { QueueCeiling } from './queue-ceiling.ts';
import { addressGroup, networkGroup } from './spam.ts';
import { UploadSlots, admitUploads } from './upload-admission.ts';

describe('addressGroup', () => {
  it('counts an IPv4 address as itself, and an IPv4-mapped IPv6 address as its IPv4 address', () => {
    assert.equal(addressGroup('127.0.0.2'), '127.0.0.2');
    assert.notEqual(addressGroup('127.0.0.2'), addressGroup('127.0.0.3'));
    assert.equal(addressGroup('::ffff:198.51.100.7'), '198.51.100.7');
  });

  it('counts IPv6 addresses by their /64 prefix: one host or household, whatever its interface identifiers', () => {
    assert.equal(addressGroup('2001:db8:1:2::1'), addressGroup('2001:db8:1:2:ffff:abcd:1234:9'));
    assert.equal(addressGroup('2001:0db8:0001:0002:0000:0000:0000:0001'), addressGroup('2001:db8:1:2::77'));
    assert.notEqual(addressGroup('2001:db8:1:2::1'), addressGroup('2001:db8:1:3::1'), 'another /64 of the same /48');
    assert.notEqual(addressGroup('2001:db8:1:2::1'), addressGroup('2001:db9:1:2::1'));
  });
});

describe('networkGroup', () => {
  it('counts IPv6 addresses by their /48: every /64 of one site, one network', () => {
    assert.equal(networkGroup('2001:db8:1:2::1', false), '2001:db8:1::/48');
    assert.equal(networkGroup('2001:db8:1:ff00::9', true), '2001:db8:1::/48', 'another /64 of the same /48');
    assert.notEqual(networkGroup('2001:db8:1:2::1', false), networkGroup('2001:db8:2:2::1', false));
  });

  it('counts an IPv4 address by its /24 only when asked (addresses from X-Forwarded-For), else as itself', () => {
    assert.equal(networkGroup('198.51.100.7', true), '198.51.100.0/24');
    assert.equal(networkGroup('::ffff:198.51.100.200', true), '198.51.100.0/24');
    assert.equal(networkGroup('198.51.100.7', false), '198.51.100.7');
    assert.notEqual(networkGroup('198.51.100.7', true), networkGroup('198.51.101.7', true));
  });
});

describe('UploadSlots', () => {
  it('gives one address group at most its share, while others still get places, and takes each place back once', () => {
    const slots = new UploadSlots({ max: 5, perAddress: 2, perNetwork: 5 });
    const a = [slots.take('a', 'n'), slots.take('a', 'n')];
    assert.equal(slots.take('a', 'n'), 'address_full');
    const b = [slots.take('b', 'n'), slots.take('b', 'n')];
    const c = slots.take('c', 'n');
    assert.equal(typeof c, 'function');
    assert.equal(slots.take('d', 'm'), 'full');
    const releaseA = a[0];
    assert.ok(typeof releaseA === 'function');
    releaseA();
    releaseA();
    assert.equal(typeof slots.take('d', 'm'), 'function', 'a released place is free again');
    assert.equal(slots.take('e', 'm'), 'full', 'released twice, it counts once');
    assert.ok(b.every((release) => typeof release === 'function'));
  });

  it('gives one network at most its share, whatever its addresses, while other networks still get places', () => {
    const slots = new UploadSlots({ max: 10, perAddress: 2, perNetwork: 3 });
    const held = [slots.take('a', 'n'), slots.take('b', 'n'), slots.take('c', 'n')];
    assert.equal(slots.take('d', 'n'), 'network_full', 'a fourth address of the full network');
    assert.equal(slots.take('a', 'n'), 'network_full', 'an address under its own cap, in the full network');
    assert.equal(typeof slots.take('e', 'other'), 'function', 'another network');
    const release = held[1];
    assert.ok(typeof release === 'function');
    release();
    assert.equal(typeof slots.take('d', 'n'), 'function', 'a place of the network released is free again');
    assert.equal(slots.take('f', 'n'), 'network_full');
  });

  it('refuses an address at its cap as the address, before its network or the total', () => {
    const slots = new UploadSlots({ max: 2, perAddress: 2, perNetwork: 2 });
    slots.take('a', 'n');
    slots.take('a', 'n');
    assert.equal(slots.take('a', 'n'), 'address_full');
    assert.equal(slots.take('b', 'n'), 'network_full');
    assert.equal(slots.take('c', 'm'), 'full');
  });
});

describe('admitUploads', () => {
  const disk = { queued: 0, free: 10_000, fails: false };
  const logs = captureLogs();
  const registry = new Registry();
  /** Answers of the admitted requests, held until the test lets them end. */
  const held: (() => void)[] = [];
  let url: string;
  let close: () => void;

  before(async () => {
    const app = express();
    app.set('trust proxy', true);
    const observe = httpMetrics(registry);
    app.use((req, res, next) => {
      res.on('finish', () => observe(req, res, 0));
      next();
    });
    const ceiling = new QueueCeiling({
      maxQueuedBytes: 1_000,
      minFreeDiskBytes: 100,
      dataDir: '/data',
      ttlMs: 0,
      queuedBytes: async () => {
        if (disk.fails) throw new Error('database gone');
        return disk.queued;
      },
      freeSpace: async () => disk.free,
    });
    const slots = new UploadSlots({ max: 3, perAddress: 1, perNetwork: 2 });
    app.post(
      '/',
      admitUploads({ slots, ceiling, metrics: applicationMetrics(registry, () => undefined), log: logs.logger }),
      (req, res) => {
        held.push(() => res.json({ admitted: true }));
      },
    );
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      assert.ok(error instanceof ProblemError);
      res.status(error.status).set(error.headers).json(error.toBody());
    });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    close = () => server.close();
    server.keepAliveTimeout = 1;
  });
  after(() => close());

  const post = async (ip: string) => {
    const response = await fetch(url, { method: 'POST', headers: { 'X-Forwarded-For': ip } });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      connection: response.headers.get('connection'),
      body: (await response.json()) as { code?: string; detail?: string },
    };
  };
  /** Posts straight from the loopback address `local`, with no X-Forwarded-For. */
  const postFrom = (local: string) =>
    new Promise<{ status: number }>((resolve, reject) => {
      const req = request(url, { method: 'POST', localAddress: local }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      });
      req.on('error', reject);
      req.end();
    });
  /** Posts from `ip` (X-Forwarded-For, or `{ local }`: straight from that address) whose answers wait; resolves once the app holds them (or refused them). */
  const hold = async (ip: string | { local: string }) => {
    const before = held.length;
    let answered = false;
    const answer = (typeof ip === 'string' ? post(ip) : postFrom(ip.local)).finally(() => {
      answered = true;
    });
    // An answer refused comes back at once: not held, it ends the wait too.
    while (held.length === before && !answered) await new Promise((resolve) => setTimeout(resolve, 5));
    // Wrapped: returned bare, the caller would wait for the held answer itself.
    return { answer };
  };
  const refusals = async () =>
    (await registry.getSingleMetricAsString('applications_refused_total'))
      .split('\n')
      .filter((line) => !line.startsWith('#'));

  it("refuses with 503 server_busy and Retry-After past an address's, a network's and all places, and gives a place back once its answer ended", async () => {
    const first = await hold('2001:db8:1:1::1');
    const address = await post('2001:db8:1:1::2');
    assert.deepEqual(
      [address.status, address.body.code, address.retryAfter, address.connection],
      [503, 'server_busy', '5', 'close'],
    );
    assert.match(address.body.detail ?? '', /from your network/);
    const second = await hold('2001:db8:1:2::1');
    const network = await post('2001:db8:1:3::1');
    assert.deepEqual([network.status, network.body.code], [503, 'server_busy']);
    assert.match(network.body.detail ?? '', /from your network/);
    const third = await hold('198.51.100.1');
    const all = await post('203.0.113.9');
    assert.deepEqual([all.status, all.body.code, all.retryAfter], [503, 'server_busy', '5']);
    assert.match(all.body.detail ?? '', /being received right now/);
    for (const end of held.splice(0)) end();
    assert.deepEqual(
      (await Promise.all([first.answer, second.answer, third.answer])).map((a) => a.status),
      [200, 200, 200],
    );
    const again = await hold('2001:db8:1:3::1');
    held.splice(0).forEach((end) => end());
    assert.equal((await again.answer).status, 200, 'places given back');
    assert.ok((await refusals()).includes('applications_refused_total{code="server_busy"} 3'));
  });

  it('counts the IPv4 addresses given by X-Forwarded-For by their /24', { timeout: 5_000 }, async () => {
    const first = await hold('198.51.100.1');
    const second = await hold('198.51.100.2');
    const third = await post('198.51.100.3');
    assert.deepEqual([third.status, third.body.code], [503, 'server_busy']);
    assert.match(third.body.detail ?? '', /from your network/);
    const other = await hold('198.51.101.3');
    for (const end of held.splice(0)) end();
    assert.deepEqual(
      (await Promise.all([first.answer, second.answer, other.answer])).map((a) => a.status),
      [200, 200, 200],
    );
  });

  it(
    'counts an IPv4 address that connects straight, not through a declared proxy, as its own network',
    { timeout: 5_000 },
    async () => {
      // Without a proxy that says who the client is, one /24 may be a balancer's few addresses: each counts alone.
      const answers = [
        await hold({ local: '127.0.0.2' }),
        await hold({ local: '127.0.0.3' }),
        await hold({ local: '127.0.0.4' }),
      ];
      for (const end of held.splice(0)) end();
      assert.deepEqual(
        (await Promise.all(answers.map((a) => a.answer))).map((a) => a.status),
        [200, 200, 200],
      );
    },
  );

  it('counts a refusal in the HTTP metrics under the route /api/applications, as its admitted requests are', async () => {
    const first = await hold('192.0.2.9');
    const refused = await post('192.0.2.9');
    for (const end of held.splice(0)) end();
    await first.answer;
    assert.equal(refused.status, 503);
    const refusals = (await registry.getSingleMetricAsString('http_requests_total'))
      .split('\n')
      .filter((line) => line.includes('status="503"'));
    assert.deepEqual(
      refusals.map((line) => /route="([^"]*)"/.exec(line)?.[1]),
      ['/api/applications'],
    );
  });

  it('gives back the place of a client that leaves before its answer', { timeout: 5_000 }, async () => {
    const leaving = new AbortController();
    const before = held.length;
    const gone = fetch(url, {
      method: 'POST',
      headers: { 'X-Forwarded-For': '192.0.2.30' },
      signal: leaving.signal,
    }).catch(() => 'aborted');
    while (held.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    leaving.abort();
    assert.equal(await gone, 'aborted');
    // Its answer is never sent: only the closed connection can free its place.
    held.pop();
    // The server may see the connection close a moment after the client left: a few tries.
    let again = await hold('192.0.2.30');
    for (let tries = 0; held.length === 0 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await hold('192.0.2.30');
    }
    for (const end of held.splice(0)) end();
    assert.equal((await again.answer).status, 200, 'the address has its place again');
  });

  it("refuses with 503 storage_full past the queue's ceiling or below the disk floor, before any place is taken", async () => {
    disk.queued = 1_000;
    const queued = await post('192.0.2.1');
    disk.queued = 0;
    disk.free = 99;
    const floor = await post('192.0.2.1');
    disk.free = 10_000;
    for (const answer of [queued, floor])
      assert.deepEqual([answer.status, answer.body.code, answer.connection], [503, 'storage_full', 'close']);
    assert.ok((await refusals()).includes('applications_refused_total{code="storage_full"} 2'));
  });

  it("fails closed with 503 not_ready, logged, when the queue's room cannot be read", async () => {
    disk.fails = true;
    const answer = await post('192.0.2.2');
    disk.fails = false;
    assert.deepEqual([answer.status, answer.body.code, answer.connection], [503, 'not_ready', 'close']);
    assert.deepEqual(
      logs.lines.filter((line) => line.event === 'queue_ceiling_error').map((line) => [line.error, line.msg]),
      [['database gone', "the queue's room on disk could not be read: application refused"]],
    );
    assert.ok((await refusals()).includes('applications_refused_total{code="not_ready"} 1'));
  });
});
