// POST /api/alerts: a search's alert handed to the board's own mailing
// (ALERTS=webhook), as a signed alert.requested event.
import { schemaRef } from '../openapi/zod.ts';
import type { JsonSchema } from '../openapi/zod.ts';
import { FEED_PATH } from './feed-url.ts';
import { explained, problems } from './openapi-parts.ts';

export function alertPaths(): Record<string, JsonSchema> {
  return {
    '/api/alerts': {
      post: {
        operationId: 'postAlert',
        tags: ['Alerts'],
        summary: "Hand a search's alert to the board's mailing, once the candidate has confirmed it",
        description: `Records one \`alert.requested\` webhook event (the email, the search's parameters and its feed, GET ${FEED_PATH}, the language and the time), which the proxy posts, signed, to WEBHOOK_URL; the board's own mailing then sends the search's new offers. The widget sends it only after its confirmation step. The proxy keeps no address: the email is dropped once the event is delivered (or given up, or erased by \`outbox erase --email\`). With ALERTS=feed (GET /api/config says \`alerts.email: false\`), 404 alerts_not_configured. At most APPLY_RATE_LIMIT_PER_IP an hour from one address.`,
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('AlertRequest') } } },
        responses: {
          202: {
            description: 'Recorded: the event is posted to the board within seconds',
            content: { 'application/json': { schema: schemaRef('AlertAnswer') } },
          },
          ...explained(
            problems(
              'malformed_request',
              'origin_not_allowed',
              'alerts_not_configured',
              'request_too_large',
              'validation_failed',
              'rate_limited',
              'not_ready',
            ),
            {
              404: "ALERTS=feed: the board hands no alert to its mailing; the search's feed is the alert",
              422: 'A field is missing or not valid (email, consent, search.<parameter>, lang): `errors` names each',
            },
          ),
        },
      },
    },
  };
}
