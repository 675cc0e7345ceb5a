// The stop of every delivery on a refusal no retry can fix: its alert gauge
// and the refusal of new applications while it holds (the whole story, over
// HTTP with a proxy process, is test/proxy-delivery-blocked.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NextFunction, Request, Response } from 'express';
import { Registry } from 'prom-client';
import { ProblemError } from '../http/problem.ts';
import { applicationMetrics } from './metrics.ts';
import { AuthenticationError, PermissionError } from '../../client/index.ts';
import { BLOCK_FIX, BLOCKING_CODES, blockedGauge, blockingReason, refuseWhileBlocked } from './delivery-block.ts';
import type { DeliveryBlock } from './delivery-block.ts';

const BLOCK: DeliveryBlock = { reason: 'missing_scope', error: 'missing_scope (403)', since: new Date(0) };

async function gaugeValues(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric('delivery_blocked')?.get();
  return Object.fromEntries((metric?.values ?? []).map((v) => [String(v.labels.reason), v.value]));
}

describe('blockingReason', () => {
  it('is the code of a 403 that no retry can fix, and nothing for another error with that code', () => {
    const where = { method: 'POST', url: 'http://upstream/v2/jobboards/applicants' };
    assert.equal(
      blockingReason(new PermissionError({ ...where, status: 403, code: 'missing_scope', message: '' })),
      'missing_scope',
    );
    assert.equal(
      blockingReason(new AuthenticationError({ ...where, status: 401, code: 'missing_scope', message: '' })),
      undefined,
    );
    assert.equal(blockingReason({ code: 'wrong_client_kind' }), undefined);
  });
});

describe('blockedGauge', () => {
  it('is 1 for the reason that holds and 0 for the others, all 0 when nothing blocks', async () => {
    const blocks: (DeliveryBlock | undefined)[] = [undefined, BLOCK];
    const registry = new Registry();
    blockedGauge(registry, () => blocks.shift());
    assert.deepEqual(await gaugeValues(registry), { wrong_client_kind: 0, missing_scope: 0 }, 'nothing blocks');
    assert.deepEqual(await gaugeValues(registry), { wrong_client_kind: 0, missing_scope: 1 }, 'missing_scope blocks');
  });
});

describe('refuseWhileBlocked', () => {
  const metrics = applicationMetrics(new Registry(), () => undefined);
  const refused = async (): Promise<number> =>
    (await metrics.refused.get()).values.find((v) => v.labels.code === 'delivery_blocked')?.value ?? 0;
  /** Runs the middleware; answers how often it called next. */
  function run(current: DeliveryBlock | undefined): number {
    let nexts = 0;
    refuseWhileBlocked(() => current, metrics)(
      {} as Request,
      {} as Response,
      (() => {
        nexts += 1;
      }) as NextFunction,
    );
    return nexts;
  }

  it('lets the application through while nothing blocks', async () => {
    assert.equal(run(undefined), 1);
    assert.equal(await refused(), 0);
  });

  it('while delivery is blocked, refuses it with 503 delivery_blocked, Retry-After an hour and the connection closed, and counts it', async () => {
    assert.throws(
      () => run(BLOCK),
      (error: unknown) =>
        error instanceof ProblemError &&
        error.status === 503 &&
        error.code === 'delivery_blocked' &&
        /no fault of yours.*not sent; try again later/.test(error.detail) &&
        JSON.stringify(error.headers) === JSON.stringify({ 'Retry-After': '3600', Connection: 'close' }),
    );
    assert.equal(await refused(), 1);
  });
});

describe('BLOCK_FIX', () => {
  it('tells the operator what to set for each reason, and to restart', () => {
    assert.deepEqual(Object.keys(BLOCK_FIX).sort(), [...BLOCKING_CODES].sort());
    assert.match(BLOCK_FIX.wrong_client_kind, /UPSTREAM_PRIVATE_KEY.*restart the proxy/);
    assert.match(
      BLOCK_FIX.missing_scope,
      /applicants_write, applications_read, applications_write and campaigns_read.*restart the proxy/,
    );
  });
});
