// The widget's funnel beacons in the proxy's OpenAPI document (openapi.ts):
// POST /api/funnel, what navigator.sendBeacon posts as the candidate moves
// through the list and the form.
import { schemaRef } from '../openapi/zod.ts';
import type { JsonSchema } from '../openapi/zod.ts';
import { BEACON_DAILY_LIMIT_PER_ADDRESS, MAX_BEACON_OFFERS } from './funnel.ts';
import { explained, problems } from './openapi-parts.ts';

export function funnelPaths(): Record<string, JsonSchema> {
  const beacon = { schema: schemaRef('FunnelBeacon') };
  return {
    '/api/funnel': {
      post: {
        operationId: 'postFunnelBeacon',
        tags: ['Funnel'],
        summary: "Count a step of the board's funnel: offers listed, an offer opened, a form started or submitted",
        description: `Adds 1 to the stage's count of each offer named (at most ${MAX_BEACON_OFFERS}), today (UTC), under the board's channel and the visit's utm_source and utm_campaign (a value breaking the campaign parameters' rule is dropped, not refused). Nothing else is kept: no cookie, no address, no identifier. The body is JSON, sent as text/plain (navigator.sendBeacon: no preflight) or application/json, at most 4 KB. One address adds at most ${BEACON_DAILY_LIMIT_PER_ADDRESS} a day to one stage of one offer: beyond, the beacon is answered 204 and not counted. With FUNNEL=false (GET /api/config says \`funnel: false\`), 404 funnel_disabled.`,
        requestBody: { required: true, content: { 'text/plain': beacon, 'application/json': beacon } },
        responses: {
          204: { description: 'Counted (or over the daily limit of this address, and not counted)' },
          ...explained(
            problems(
              'malformed_request',
              'origin_not_allowed',
              'funnel_disabled',
              'request_too_large',
              'beacon_invalid',
              'beacon_offer_unknown',
            ),
            {
              404: 'FUNNEL=false: the board does not count its funnel',
              422: 'An unknown field or stage, more offers than a page holds, or an offer the catalogue does not hold',
            },
          ),
        },
      },
    },
  };
}
