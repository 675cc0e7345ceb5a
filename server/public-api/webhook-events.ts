// The events the proxy posts to the board's WEBHOOK_URL (server/proxy/README.md,
// "Webhooks"): one JSON body per event, signed by the Standard Webhooks rules
// (webhook-id, webhook-timestamp, webhook-signature). A public contract: the
// board parses these bodies; the proxy writes them only through these schemas.
import { z } from 'zod';

/** The events of one application, in the order they can happen. */
export const APPLICATION_EVENT_TYPES = [
  /** The proxy stored the application (before its first delivery attempt). */
  'application.received',
  /** The recruitment API has it. */
  'application.delivered',
  /** Refused for good (the candidate was told why), or erased before delivery at the candidate's request. */
  'application.rejected',
  /** Not deliverable, though the candidate was told it was received: kept for an operator (`outbox retry`). */
  'application.dead_lettered',
  /** Its personal data was erased here (a candidate's request, or the retention period). */
  'application.erased',
  /** The company moved it to another status of its own (`data.status`). */
  'application.status_changed',
] as const;
export type ApplicationEventType = (typeof APPLICATION_EVENT_TYPES)[number];

/** The event `webhooks send-test` sends: it tells nothing about an application. */
export const TEST_EVENT_TYPE = 'webhook.test';

const instant = z.iso.datetime();

/** Every event's body: its type, when it happened (the webhook-timestamp header is when it was sent), and its data. */
function eventBody<Type extends z.ZodType, Data extends z.ZodType>(type: Type, data: Data) {
  return z.object({ type, timestamp: instant, data });
}

/** The candidate's fields as the form named them (email, first_name, last_name, phone…), only with WEBHOOK_INCLUDE_CANDIDATE=true. */
export const WebhookCandidate = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type WebhookCandidate = z.infer<typeof WebhookCandidate>;

export const ApplicationEventData = z.object({
  /** The proxy's reference of the application (the candidate's receipt shows it). */
  reference: z.string(),
  /** The Idempotency-Key the widget sent with it; null when it sent none. */
  idempotency_key: z.string().nullable(),
  /** The offer applied to; null for a spontaneous application (`kind: 'spontaneous'`, with no offer). */
  campaign_id: z.number().int().nullable(),
  company_id: z.number().int(),
  /** An application to an offer, or a spontaneous one to the company (absent from events stored before it was added: offer). */
  kind: z.enum(['offer', 'spontaneous']).optional(),
  /** When the proxy stored it. */
  created_at: instant,
  /** When the recruitment API got it. */
  delivered_at: instant.optional(),
  /** When it was refused or dead-lettered. */
  ended_at: instant.optional(),
  /** When its personal data was erased here. */
  erased_at: instant.optional(),
  /** Why it ended as it did (created_applicant, upstream_rejected, campaign_closed, expired, erased…). */
  outcome: z.string().optional(),
  /** The application's id in the recruitment API, once delivered. */
  upstream_application_id: z.number().int().optional(),
  /** application.status_changed only: the company's own status value. */
  status: z.string().optional(),
  /** Only with WEBHOOK_INCLUDE_CANDIDATE=true, and only while the proxy still holds the candidate's data. */
  candidate: WebhookCandidate.optional(),
});
export type ApplicationEventData = z.infer<typeof ApplicationEventData>;

export const ApplicationEvent = eventBody(z.enum(APPLICATION_EVENT_TYPES), ApplicationEventData);
export type ApplicationEvent = z.infer<typeof ApplicationEvent>;

/** A candidate confirmed an alert: the board's own mailing sends them the search's new offers. */
export const ALERT_EVENT_TYPE = 'alert.requested';

export const AlertEventData = z.object({
  /** The alert's own id (the webhook-id differs at each event; this one names the request). */
  alert_id: z.string(),
  /** The address the candidate typed, to which the board sends the offers; the proxy keeps it only until the event is delivered. */
  email: z.string(),
  search: z.object({
    /** The list's parameters of the search (GET /api/campaigns), without its page. */
    params: z.record(z.string(), z.union([z.string(), z.number()])),
    /** Its Atom feed (GET /feeds/offers.atom with those parameters): absolute with PUBLIC_ORIGIN, else a path on the proxy. */
    feed_url: z.string(),
  }),
  /** The language of the widget the candidate used: en, fr or es. */
  lang: z.string(),
  /** When the candidate confirmed it. */
  requested_at: instant,
});
export type AlertEventData = z.infer<typeof AlertEventData>;

export const AlertEvent = eventBody(z.literal(ALERT_EVENT_TYPE), AlertEventData);
export type AlertEvent = z.infer<typeof AlertEvent>;

export const TestEvent = eventBody(z.literal(TEST_EVENT_TYPE), z.object({ message: z.string() }));
export type TestEvent = z.infer<typeof TestEvent>;

/** Any body the proxy posts to WEBHOOK_URL. */
export const WebhookEvent = z.discriminatedUnion('type', [ApplicationEvent, AlertEvent, TestEvent]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
