import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import express from 'express';
import type { Request, Response } from 'express';
import { searchTurns } from './search-turns.ts';

/** Holds the thread as a costly search does: synchronous work of `ms`. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * A client of its own (another process, as a load balancer's health check is) sends six costly searches at once, then a
 * health check as soon as the server says the first search began. Gives what the server answered, in order.
 */
async function burst(withTurns: boolean): Promise<string[]> {
  const app = express();
  const answered: string[] = [];
  let client: ReturnType<typeof spawn> | undefined;
  if (withTurns) app.get('/search', searchTurns());
  app.get('/search', (_req, res) => {
    if (answered.length === 0) client?.stdin?.write('go\n');
    // Long enough for the client process to send its check while this search runs, on a busy machine too.
    busyFor(60);
    answered.push('search');
    res.end('found');
  });
  app.get('/healthz', (_req, res) => {
    answered.push('health');
    res.end('healthy');
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const script = `
    const searches = Array.from({ length: 6 }, () => fetch('${base}/search').then((a) => a.text()));
    process.stdin.once('data', () => fetch('${base}/healthz').then((a) => a.text()).then(() => process.stdin.destroy()));
    await Promise.all(searches);`;
  try {
    client = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'inherit', 'inherit'] });
    const code = await new Promise((resolve) => client!.once('exit', resolve));
    assert.equal(code, 0, 'the client process ended well');
    return answered;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('search turns', () => {
  it('answers a health check that came while a burst of costly searches ran before most of the burst', async () => {
    // Without turns, every search read with the first runs before the check: the setting this test depends on.
    assert.ok((await burst(false)).indexOf('health') >= 4);
    assert.ok((await burst(true)).indexOf('health') <= 2, 'one search, or two, before the health check');
  });

  it('runs every search that waited, one after the other, in the order they came', async () => {
    const turns = searchTurns();
    const ran: number[] = [];
    await new Promise<void>((resolve) => {
      for (let i = 0; i < 4; i += 1) {
        turns({} as Request, {} as Response, () => {
          ran.push(i);
          if (ran.length === 4) resolve();
        });
      }
    });
    assert.deepEqual(ran, [0, 1, 2, 3]);
  });
});
