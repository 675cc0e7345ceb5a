import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { recordedHeaders } from './security-headers.ts';

function freshResponse(): ServerResponse {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  res.setHeader('X-Powered-By', 'Express');
  return res;
}

/** The headers `middleware` leaves on a fresh response that already carries X-Powered-By. */
function headersAfter(middleware: RequestHandler): Record<string, unknown> {
  const res = freshResponse();
  let nexted = false;
  void middleware(res.req as Request, res as unknown as Response, () => {
    nexted = true;
  });
  assert.ok(nexted, 'the middleware passes the request on');
  return res.getHeaders();
}

describe('recordedHeaders', () => {
  it("sets exactly the headers helmet() sets, and removes what it removes, so helmet's defaults stay the one definition", () => {
    const res = freshResponse();
    recordedHeaders(helmet())(res as unknown as Response);
    const recorded = res.getHeaders();
    assert.deepEqual(recorded, headersAfter(helmet()));
    assert.equal(recorded['x-powered-by'], undefined);
    assert.equal(recorded['x-content-type-options'], 'nosniff');
  });

  it('refuses at start-up a middleware that answers asynchronously, whose headers it could not record', () => {
    const later: RequestHandler = (_req, _res, next) => {
      setImmediate(() => next());
    };
    assert.throws(() => recordedHeaders(later), /did not finish synchronously/);
  });
});
