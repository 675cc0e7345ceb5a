// POST /api/alerts: a candidate's alert handed to the board's own mailing
// (ALERTS=webhook). The widget sends it only once the candidate has confirmed
// (its panel's second step); the proxy records one signed alert.requested
// event in the webhook events, which the sender posts to WEBHOOK_URL. The
// email is kept apart from the event's body and leaves once the event is
// delivered (or failed, or erased): the proxy keeps no list of addresses.
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import type { Request } from 'express';
import { MemoryStore, rateLimit } from 'express-rate-limit';
import type { z } from 'zod';
import type { ProxyConfig } from '../config.ts';
import { ProblemError, validationProblem } from '../http/problem.ts';
import { addressGroup, HOUR_MS } from '../applications/spam.ts';
import type { WebhookEventStore } from '../storage/index.ts';
import { feedUrlOf } from '../../public-api/feed-url.ts';
import { AlertRequest } from '../../public-api/schemas.ts';
import type { AlertAnswer, FieldProblem } from '../../public-api/schemas.ts';
import { ALERT_EVENT_TYPE, AlertEvent } from '../../public-api/webhook-events.ts';

export interface AlertsDeps {
  config: Pick<ProxyConfig, 'alerts' | 'publicOrigin' | 'applyRateLimitPerIp'>;
  /** The webhook events, once their store is open. */
  events: () => Promise<Pick<WebhookEventStore, 'recordAlert'>>;
  now: () => number;
}

/** Each refused field by its path (email, consent, search.radius_km…), with the code the widget says in its language. */
export function alertFieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.length === 0 ? 'body' : issue.path.map(String).join('.');
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    const code =
      field === 'consent'
        ? 'consent_required'
        : missing
          ? 'required'
          : field === 'email'
            ? issue.code === 'too_big'
              ? 'too_long'
              : 'invalid_email'
            : issue.code === 'too_big' && issue.origin === 'string'
              ? 'too_long'
              : 'invalid_value';
    return { field, code, message: issue.message };
  });
}

/** APPLY_RATE_LIMIT_PER_IP alerts an hour from one address (by /64 for IPv6), counted per instance: an alert costs no upload. */
function alertRateLimit(limit: number) {
  return rateLimit({
    windowMs: HOUR_MS,
    limit,
    standardHeaders: false,
    legacyHeaders: false,
    store: new MemoryStore(),
    keyGenerator: (req) => addressGroup(req.ip ?? req.socket.remoteAddress ?? 'unknown'),
    // addressGroup is ipKeyGenerator by /64; the check reads the key generator's source for that name.
    validate: { keyGeneratorIpFallback: false },
    handler: (req, _res, next) => {
      const resetAt =
        (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime() ?? Date.now() + HOUR_MS;
      const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      next(
        new ProblemError('rate_limited', `Too many alerts from this network; try again in ${seconds} seconds.`, {
          headers: { 'Retry-After': String(seconds) },
        }),
      );
    },
  });
}

/** The event of one confirmed alert: the search as the list's parameters and as its feed. */
export function alertEvent(request: AlertRequest, publicOrigin: string | null, now: number): AlertEvent {
  const params = Object.fromEntries(
    Object.entries(request.search).filter((entry): entry is [string, string | number] => entry[1] !== undefined),
  );
  const at = new Date(now).toISOString();
  return AlertEvent.parse({
    type: ALERT_EVENT_TYPE,
    timestamp: at,
    data: {
      alert_id: `alert_${randomBytes(12).toString('base64url')}`,
      email: request.email,
      search: { params, feed_url: feedUrlOf(publicOrigin ?? '', params, request.lang) },
      lang: request.lang,
      requested_at: at,
    },
  });
}

/** Mounted at /api/alerts, after the JSON body parser. */
export function alertsRouter(deps: AlertsDeps): Router {
  const router = Router();
  const { config } = deps;
  router.post('/', alertRateLimit(config.applyRateLimitPerIp), async (req, res) => {
    if (config.alerts !== 'webhook') {
      throw new ProblemError(
        'alerts_not_configured',
        "This job board does not hand alerts to its mailing (its proxy's ALERTS is not webhook): follow the search's Atom feed, GET /feeds/offers.atom, instead.",
      );
    }
    const parsed = AlertRequest.safeParse(req.body ?? {});
    if (!parsed.success) throw validationProblem(alertFieldProblems(parsed.error));
    const event = alertEvent(parsed.data, config.publicOrigin, deps.now());
    try {
      await (await deps.events()).recordAlert(event);
    } catch (error) {
      throw new ProblemError('not_ready', 'Alerts cannot be received right now; confirm the alert again in a minute.', {
        headers: { 'Retry-After': '30' },
        cause: error,
      });
    }
    const answer: AlertAnswer = { status: 'requested', feed_url: event.data.search.feed_url };
    res.setHeader('Cache-Control', 'no-store');
    res.status(202).json(answer);
  });
  return router;
}
