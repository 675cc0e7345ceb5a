// POST /api/funnel: the widget's beacons (listed, opened, started, submitted),
// each a small JSON body (FunnelBeacon) sent by navigator.sendBeacon as
// text/plain, so a board's page sends it cross-origin without a preflight
// (CORS on /api lets the allowed origins in, as for every widget call). A
// beacon adds 1 to its stage's count of each offer it names, today (UTC),
// under the board's channel and the visit's campaign parameters: nothing
// else of the request is kept, not even its address (beacon-limit.ts).
// Refused beacons are answered problem+json and counted by reason in
// funnel_beacons_refused_total; those over an address's daily limit are
// answered 204 like the others and counted there as `limited`.
import express, { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { z } from 'zod';
import { utmFaultOf } from '../../public-api/campaign-tracking.ts';
import { BEACON_STAGES, FunnelBeacon, MAX_BEACON_OFFERS } from '../../public-api/funnel.ts';
import { ProblemError } from '../http/problem.ts';
import { dayOf } from '../storage/index.ts';
import type { FunnelStore } from '../storage/index.ts';
import type { BeaconLimiter } from './beacon-limit.ts';

/** The largest beacon body taken: a page of 100 offer ids and two campaign parameters fit in well under it. */
export const BEACON_BODY_LIMIT = 4 * 1024;

/** Why a beacon was not counted, as funnel_beacons_refused_total labels it. */
export const BEACON_REFUSALS = ['malformed', 'too_large', 'invalid', 'unknown_offer', 'limited'] as const;
export type BeaconRefusal = (typeof BEACON_REFUSALS)[number];

export interface BeaconDeps {
  /** The board's channel (JOBBOARD_CHANNEL), every beacon's source. */
  channel: string;
  /** Whether the board broadcasts this offer (the catalogue holds it). */
  isBroadcast(campaignId: number): boolean;
  /** The funnel's store, once it is open. */
  funnel(): Promise<FunnelStore>;
  limiter: BeaconLimiter;
  registry: Registry;
  now(): number;
}

const EXPECTED = `{"stage": one of ${BEACON_STAGES.join(', ')}, "campaign_ids": [1 to ${MAX_BEACON_OFFERS} offer ids], and optionally "utm_source" and "utm_campaign"}`;

/** What is wrong with a beacon, said without repeating anything it sent. */
function invalidDetail(error: z.ZodError): string {
  const faults = new Set<string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') faults.add('it holds a field the funnel does not count');
    else if (issue.path[0] === 'stage') faults.add(`stage is one of ${BEACON_STAGES.join(', ')}`);
    else if (issue.path[0] === 'campaign_ids')
      faults.add(`campaign_ids is a list of 1 to ${MAX_BEACON_OFFERS} offer ids (positive whole numbers)`);
    else if (issue.path.length === 0) faults.add('the body is not an object');
    else faults.add(`${String(issue.path[0])} is text`);
  }
  return `The beacon is not one the funnel counts: ${[...faults].join('; ')}. Send ${EXPECTED}.`;
}

/** A campaign parameter as the apply form keeps it: trimmed; blank or breaking the rule, none. */
function keptUtm(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || utmFaultOf(trimmed) !== null ? null : trimmed;
}

export function beaconRouter(deps: BeaconDeps): Router {
  const refused = new Counter({
    name: 'funnel_beacons_refused_total',
    help: "The widget's funnel beacons not counted, by reason (limited: some of its counts over an address's daily limit, answered 204)",
    labelNames: ['reason'] as const,
    registers: [deps.registry],
  });
  const counted = new Counter({
    name: 'funnel_beacons_total',
    help: "The widget's funnel beacons counted, by stage",
    labelNames: ['stage'] as const,
    registers: [deps.registry],
  });
  const refuse = (reason: BeaconRefusal, problem: ProblemError): ProblemError => {
    refused.inc({ reason });
    return problem;
  };

  /** The beacon of a body read as text (text/plain or application/json alike). */
  const beaconOf = (body: unknown): FunnelBeacon => {
    let parsed: unknown;
    try {
      if (typeof body !== 'string') throw new TypeError('no text body');
      parsed = JSON.parse(body);
    } catch {
      throw refuse(
        'malformed',
        new ProblemError(
          'malformed_request',
          `The beacon could not be read: send ${EXPECTED} as JSON, with Content-Type text/plain (as navigator.sendBeacon does) or application/json.`,
        ),
      );
    }
    const result = FunnelBeacon.safeParse(parsed);
    if (!result.success) throw refuse('invalid', new ProblemError('beacon_invalid', invalidDetail(result.error)));
    return result.data;
  };

  const router = Router();
  router.use(readableAcrossOrigins);
  router.post(
    '/',
    express.text({ type: ['text/plain', 'application/json'], limit: BEACON_BODY_LIMIT }),
    async (req: Request, res: Response) => {
      const beacon = beaconOf(req.body);
      const offers = [...new Set(beacon.campaign_ids)];
      if (!offers.every((id) => deps.isBroadcast(id)))
        throw refuse(
          'unknown_offer',
          new ProblemError(
            'beacon_offer_unknown',
            'campaign_ids names an offer this board does not broadcast (unknown, or no longer online): a beacon counts the offers of the catalogue only.',
          ),
        );
      const allowed = await deps.limiter.allowed(req.ip ?? req.socket.remoteAddress ?? '', beacon.stage, offers);
      if (allowed.length < offers.length) refused.inc({ reason: 'limited' });
      if (allowed.length > 0) {
        const source = {
          channel: deps.channel,
          utm_source: keptUtm(beacon.utm_source),
          utm_campaign: keptUtm(beacon.utm_campaign),
        };
        const day = dayOf(deps.now());
        const count = { stage: beacon.stage };
        await (await deps.funnel()).add(allowed.map((campaign_id) => ({ day, campaign_id, source, count, n: 1 })));
        counted.inc({ stage: beacon.stage });
      }
      res.setHeader('Cache-Control', 'no-store');
      res.status(204).end();
    },
  );
  // The body reader's refusals (too large, an unknown charset), as beacons' problems.
  router.use((error: unknown, _req: Request, _res: Response, next: NextFunction) => {
    const status = (error as { status?: unknown } | null)?.status;
    if (status === 413)
      next(
        refuse(
          'too_large',
          new ProblemError(
            'request_too_large',
            `A beacon is at most ${BEACON_BODY_LIMIT} bytes: send ${EXPECTED}, at most ${MAX_BEACON_OFFERS} offers in one.`,
          ),
        ),
      );
    else if (typeof status === 'number' && status >= 400 && status < 500 && !(error instanceof ProblemError))
      next(
        refuse('malformed', new ProblemError('malformed_request', `The beacon could not be read: send ${EXPECTED}.`)),
      );
    else next(error);
  });
  return router;
}

/**
 * A beacon of text/plain is a no-cors request: the browser checks its answer
 * against Cross-Origin-Resource-Policy, and the same-origin one every answer
 * carries would make a board's console report each beacon as blocked. Its
 * answer holds nothing a page could use (204, or a problem).
 */
function readableAcrossOrigins(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  next();
}

/** POST /api/funnel when the funnel is off (FUNNEL=false): 404 funnel_disabled, so a widget that still sends learns why. */
export function funnelDisabledRouter(): Router {
  const router = Router();
  router.use(readableAcrossOrigins);
  router.post('/', () => {
    throw new ProblemError(
      'funnel_disabled',
      'This board does not count its funnel (FUNNEL=false): /api/config says funnel false, and the widget sends no beacon.',
    );
  });
  return router;
}
