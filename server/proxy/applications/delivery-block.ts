// A refusal no retry can fix: the service answers 403 because of who we are
// (a company's keys, not a job board's; a client without a scope we need),
// not because of the application. Retrying every row for 72 hours and then
// dead-lettering it only loses what candidates were told was received. So the
// first such answer stops the queue for everyone: no more attempts until the
// configuration is fixed and the proxy restarted, nothing dead-lettered
// because of it, an alert metric (delivery_blocked{reason} = 1), an error
// line, /readyz 503, and new candidates answered 503 delivery_blocked instead
// of a 202 that could never be kept.
import type { RequestHandler } from 'express';
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { PermissionError } from '../../client/index.ts';
import { ProblemError } from '../http/problem.ts';
import type { ApplicationMetrics } from './metrics.ts';

/** The service's 403 codes that say the keys cannot deliver at all (from contract/errors.ts). */
export const BLOCKING_CODES = ['wrong_client_kind', 'missing_scope'] as const;
export type BlockReason = (typeof BLOCKING_CODES)[number];

export interface DeliveryBlock {
  reason: BlockReason;
  /** The service's answer, as the delivery attempt recorded it ("wrong_client_kind (403)"). */
  error: string;
  since: Date;
}

/** The reason an upstream error blocks every delivery, or undefined when it concerns one attempt only. */
export function blockingReason(error: unknown): BlockReason | undefined {
  if (!(error instanceof PermissionError)) return undefined;
  return (BLOCKING_CODES as readonly string[]).includes(error.code) ? (error.code as BlockReason) : undefined;
}

/** What the operator is told to do, per reason. */
export const BLOCK_FIX: Record<BlockReason, string> = {
  wrong_client_kind:
    "UPSTREAM_PRIVATE_KEY/UPSTREAM_SECRET_KEY are not a job board's API keys: set the keys of a job-board API client, then restart the proxy; the waiting applications are delivered then",
  missing_scope:
    'the API client of UPSTREAM_PRIVATE_KEY lacks a scope delivery needs: give it applicants_write, applications_read, applications_write and campaigns_read, then restart the proxy; the waiting applications are delivered then',
};

/** The gauge delivery_blocked{reason}: 1 while that reason holds (an alert), 0 otherwise. */
export function blockedGauge(registry: Registry, current: () => DeliveryBlock | undefined): Gauge<'reason'> {
  return new Gauge({
    name: 'delivery_blocked',
    // Stryker disable next-line StringLiteral: the metric's description, for people
    help: 'Whether delivery is stopped for everyone by a refusal no retry can fix (wrong client kind, missing scope): 1 while it holds, by reason. Alert on it.',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      const block = current();
      for (const reason of BLOCKING_CODES) this.set({ reason }, block?.reason === reason ? 1 : 0);
    },
  });
}

/** Before the body is read: while delivery is blocked, a new application is refused, not stored. */
export function refuseWhileBlocked(
  current: () => DeliveryBlock | undefined,
  metrics: ApplicationMetrics,
): RequestHandler {
  return (_req, _res, next) => {
    if (current() === undefined) {
      next();
      return;
    }
    metrics.refused.inc({ code: 'delivery_blocked' });
    throw new ProblemError(
      'delivery_blocked',
      'This job board cannot deliver applications to the recruiter right now, through no fault of yours: its connection to the recruitment service is misconfigured. Your application was not sent; try again later.',
      { headers: { 'Retry-After': '3600', Connection: 'close' } },
    );
  };
}
