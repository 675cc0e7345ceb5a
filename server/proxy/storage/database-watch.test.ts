// The watch /readyz reads: pings of the real PostgreSQL server through a TCP
// forwarder that the tests cut and restore, a port where nothing listens, and
// a server that accepts and never answers.
import assert from 'node:assert/strict';
import { Socket, createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { TEST_DATABASE_URL, skipWithoutPostgres } from '../../test/postgres.ts';
import { watchDatabase } from './database-watch.ts';
import type { DatabaseWatch } from './database-watch.ts';

const skipPostgres = skipWithoutPostgres();

/** A pool on 127.0.0.1:port with the server's user and database; its errors are the watch's to see. */
function poolOn(port: number): pg.Pool {
  const url = new URL(TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test');
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {});
  return pool;
}

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Forwards 127.0.0.1:<port> to the test server until closed. */
function forwarder(): { server: Server; sockets: Set<Socket> } {
  const target = new URL(TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test');
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  return { server, sockets };
}

/** Waits (bounded) until the watch's answer satisfies `done`. */
async function until(
  watch: DatabaseWatch,
  done: (check: ReturnType<DatabaseWatch['check']>) => boolean,
): Promise<ReturnType<DatabaseWatch['check']>> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const check = watch.check();
    if (done(check)) return check;
    await sleep(20);
  }
  throw new Error(`the watch still answers ${JSON.stringify(watch.check())}`);
}

describe('database watch', { skip: skipPostgres }, () => {
  it('answers ok while the server answers, unreachable with the first failure while it does not, and ok again once it is back', async () => {
    const { server, sockets } = forwarder();
    const port = await listen(server);
    const pool = poolOn(port);
    const watch = watchDatabase(pool, 'db.example:5432/jobs', { intervalMs: 20, timeoutMs: 2_000 });
    try {
      assert.deepEqual(watch.check(), { status: 'ok', ready: true }, 'ready before the first ping');
      watch.start();
      await sleep(100);
      assert.deepEqual(watch.check(), { status: 'ok', ready: true });

      await close(server, sockets);
      const down = await until(watch, (c) => !c.ready);
      assert.equal(down.status, 'unreachable');
      assert.equal(down.database, 'db.example:5432/jobs');
      assert.ok(typeof down.error === 'string' && down.error.length > 0, 'says what failed');
      assert.match(String(down.fix), /DATABASE_URL/);
      const firstSince = String(down.since);
      assert.ok(Date.parse(firstSince) <= Date.now());
      await sleep(150);
      assert.equal(watch.check().since, firstSince, 'since stays the first failure, not the latest ping');

      const again = forwarder();
      await listen(again.server, port);
      try {
        assert.deepEqual(await until(watch, (c) => c.ready), { status: 'ok', ready: true });
      } finally {
        watch.stop();
        await pool.end();
        await close(again.server, again.sockets);
      }
    } finally {
      watch.stop();
    }
  });

  it('counts a server that accepts and never answers as unreachable once the timeout passes', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    const pool = poolOn(await listen(silent));
    const watch = watchDatabase(pool, 'silent', { intervalMs: 20, timeoutMs: 100 });
    watch.start();
    try {
      const down = await until(watch, (c) => !c.ready);
      assert.match(String(down.error), /no answer within 100 ms/);
    } finally {
      watch.stop();
      await close(silent, sockets);
      await pool.end().catch(() => {});
    }
  });
});

describe('database watch timer', () => {
  it('pings on its interval, one ping at a time, and not at all once stopped, even after a second start', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    let pings = 0;
    let answer: () => void = () => {};
    const pool = {
      query: () => {
        pings += 1;
        return new Promise<void>((resolve) => (answer = resolve));
      },
    } as unknown as pg.Pool;
    const watch = watchDatabase(pool, 'counted', { intervalMs: 1_000, timeoutMs: 60_000 });
    watch.start();
    watch.start();
    t.mock.timers.tick(999);
    assert.equal(pings, 0, 'no ping before the interval');
    t.mock.timers.tick(1);
    assert.equal(pings, 1);
    t.mock.timers.tick(3_000);
    assert.equal(pings, 1, 'no second ping while the first awaits its answer');
    answer();
    await sleep(0);
    t.mock.timers.tick(1_000);
    assert.equal(pings, 2, 'the next interval pings again');
    answer();
    await sleep(0);
    watch.stop();
    t.mock.timers.tick(5_000);
    assert.equal(pings, 2, 'stopped: no ping, though start was called twice');
  });
});
