// One signed POST to a receiver over real HTTP (servers on port 0): the
// headers a receiver verifies, what counts as accepted, and how much of an
// answer is read. A receiver's answer is read only as far as a log excerpt
// needs, whatever it sends after.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../../test/poll.ts';
import { ANSWER_BYTES, ANSWER_CHARS, postEvent, signedHeaders } from './post-event.ts';

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const BODY = JSON.stringify({ type: 'webhook.test', timestamp: '2026-01-01T00:00:00.000Z', data: { message: 'hi' } });

const servers: Server[] = [];
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

/** Reads the request's body, then answers with `status` and `answer`. */
function answering(status: number, answer = '', headers: Record<string, string> = {}) {
  const requests: { headers: IncomingMessage['headers']; body: string; method: string | undefined }[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), method: req.method });
      res.writeHead(status, headers).end(answer);
    });
  };
  return { requests, handler };
}

/**
 * A receiver that answers 200 and then streams up to `total` bytes as fast
 * as the connection takes them: how many it got out before the connection
 * closed, and whether the whole answer went (it must not).
 */
function streamingAnswer(total: number, status = 200) {
  const seen = { written: 0, finished: false, closed: false };
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'text/plain' });
    const pump = () => {
      while (seen.written < total && !res.destroyed) {
        seen.written += chunk.length;
        if (!res.write(chunk)) return;
      }
      if (seen.written >= total) res.end();
    };
    res.on('drain', pump);
    res.on('finish', () => {
      seen.finished = true;
    });
    res.on('close', () => {
      seen.closed = true;
    });
    pump();
  };
  return { seen, handler };
}

describe('posting one webhook event', () => {
  it('signs it by the Standard Webhooks rules: the receiver verifies the webhook-id, timestamp and signature', async () => {
    const receiver = answering(204);
    const url = await serve(receiver.handler);
    const at = new Date();
    const result = await postEvent({ url, secret: SECRET }, 'msg_1', BODY, { now: at });
    assert.deepEqual(result, { kind: 'answered', status: 204, ok: true, body: '' });
    const [request] = receiver.requests;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.body, BODY);
    assert.equal(request?.headers['content-type'], 'application/json');
    assert.equal(request?.headers['user-agent'], 'jobboard-connector-webhooks');
    assert.equal(request?.headers['webhook-id'], 'msg_1');
    assert.equal(request?.headers['webhook-timestamp'], String(Math.floor(at.getTime() / 1000)));
    const headers = Object.fromEntries(Object.entries(request!.headers).map(([k, v]) => [k, String(v)]));
    assert.deepEqual(new Webhook(SECRET).verify(BODY, headers), JSON.parse(BODY));
  });

  it('gives the same headers for one id, body and instant, and a signature no other secret makes', () => {
    const at = new Date(Date.UTC(2026, 0, 1));
    const headers = signedHeaders(SECRET, 'msg_1', BODY, at);
    assert.deepEqual(headers, signedHeaders(SECRET, 'msg_1', BODY, at));
    assert.equal(headers['webhook-timestamp'], String(at.getTime() / 1000));
    assert.match(headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]+=*$/);
    assert.notEqual(
      signedHeaders(`whsec_${Buffer.alloc(32, 4).toString('base64')}`, 'msg_1', BODY, at)['webhook-signature'],
      headers['webhook-signature'],
    );
  });

  it('counts only a 2xx as accepted: 200 and 299 are, 300 to 399 and the rest are not, and a redirect is not followed', async () => {
    for (const [status, ok] of [
      [200, true],
      [299, true],
      [300, false],
      [302, false],
      [399, false],
      [400, false],
      [500, false],
    ] as const) {
      const url = await serve(answering(status, 'why', status === 302 ? { location: '/elsewhere' } : {}).handler);
      const result = await postEvent({ url, secret: SECRET }, 'msg_1', BODY);
      assert.deepEqual(result, { kind: 'answered', status, ok, body: 'why' }, `HTTP ${status}`);
    }
    const elsewhere = answering(204);
    const target = await serve(elsewhere.handler);
    const redirecting = await serve(answering(307, '', { location: target }).handler);
    assert.equal((await postEvent({ url: redirecting, secret: SECRET }, 'msg_1', BODY)).kind, 'answered');
    assert.equal(elsewhere.requests.length, 0, 'the redirect was not followed');
  });

  it(`keeps the first ${ANSWER_CHARS} characters of an answer`, async () => {
    const long = `${'é'.repeat(ANSWER_CHARS)}tail`;
    const url = await serve(answering(500, long).handler);
    const result = await postEvent({ url, secret: SECRET }, 'msg_1', BODY);
    assert.equal(result.kind === 'answered' && result.body, 'é'.repeat(ANSWER_CHARS));
  });

  it('reads an answer that comes in pieces up to its end, when it is short', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(503);
      let pieces = 0;
      const next = () => {
        pieces += 1;
        // 50 two-byte characters a piece, a few milliseconds apart: ten pieces, 1,000 bytes.
        if (pieces <= 10) res.write('é'.repeat(50), () => setTimeout(next, 5));
        else res.end();
      };
      next();
    });
    const result = await postEvent({ url, secret: SECRET }, 'msg_1', BODY);
    assert.deepEqual(result, { kind: 'answered', status: 503, ok: false, body: 'é'.repeat(ANSWER_CHARS) });
  });

  it('gives the status and what was read of an answer that breaks off', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(502, { 'content-length': '1000' });
      res.write('half an answer', () => setTimeout(() => res.destroy(), 20));
    });
    const result = await postEvent({ url, secret: SECRET }, 'msg_1', BODY);
    assert.deepEqual(result, { kind: 'answered', status: 502, ok: false, body: 'half an answer' });
  });

  it(`reads at most about ${ANSWER_BYTES} bytes of a huge answer, then closes it: the receiver cannot send it all`, async () => {
    const total = 128 * 1024 * 1024;
    for (const status of [200, 500]) {
      const receiver = streamingAnswer(total, status);
      const url = await serve(receiver.handler);
      // A timeout far beyond the test's wait: the connection must close because the answer was cut, not because time ran out.
      const result = await postEvent({ url, secret: SECRET }, 'msg_1', BODY, { timeoutMs: 600_000 });
      assert.equal(result.kind === 'answered' && result.status, status);
      assert.equal(result.kind === 'answered' && result.body, 'a'.repeat(ANSWER_CHARS));
      // The connection was closed on it: the server learns it once the socket goes.
      await eventually(() => receiver.seen.closed, { timeoutMs: 10_000, what: 'the connection closed' });
      assert.equal(receiver.seen.finished, false, `HTTP ${status}: the answer was cut, not read to its end`);
      // What the socket buffers hold at most, far below the answer's size.
      assert.ok(
        receiver.seen.written < 16 * 1024 * 1024,
        `HTTP ${status}: ${receiver.seen.written} bytes went out before the connection closed`,
      );
    }
  });

  it('tells a refused connection and a receiver that does not answer in time', async () => {
    const closed = await serve(() => {});
    servers.pop()!.close();
    const refused = await postEvent({ url: closed, secret: SECRET }, 'msg_1', BODY);
    assert.deepEqual(refused, { kind: 'unreachable', error: 'ECONNREFUSED' });
    const silent = await serve(() => {});
    assert.deepEqual(await postEvent({ url: silent, secret: SECRET }, 'msg_1', BODY, { timeoutMs: 50 }), {
      kind: 'unreachable',
      error: 'no answer within 50 ms',
    });
  });

  it('stops when its caller gives up (the lease was lost)', async () => {
    const silent = await serve(() => {});
    const lost = new AbortController();
    const posting = postEvent({ url: silent, secret: SECRET }, 'msg_1', BODY, { signal: lost.signal });
    lost.abort(new Error('the lease was lost'));
    assert.deepEqual(await posting, { kind: 'unreachable', error: 'Error: the lease was lost' });
  });
});
