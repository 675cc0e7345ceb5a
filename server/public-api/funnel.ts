// The funnel a board sees (server/proxy/README.md, "Measure your board"):
// daily counts per offer and source, never a person. The widget reports the
// first four stages by beacon (POST /api/funnel); the proxy counts the rest
// as the applications move. A public contract: the widget posts the beacon
// body, the dashboard and a board's scripts read GET /api/stats.
import { z } from 'zod';

/** The stages the widget reports, in funnel order. */
export const BEACON_STAGES = ['listed', 'opened', 'started', 'submitted'] as const;
export type BeaconStage = (typeof BEACON_STAGES)[number];

/** Every stage counted, in funnel order: the widget's, then the proxy's (an application received, then how it ended). */
export const FUNNEL_STAGES = [...BEACON_STAGES, 'received', 'delivered', 'rejected', 'dead'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

/** Most offers one beacon names (a page of the list). */
export const MAX_BEACON_OFFERS = 100;

/** What one address may add to one count of one offer in a day; more is dropped. */
export const BEACON_DAILY_LIMIT_PER_ADDRESS = 20;

/** A day as the counts keep it: UTC, YYYY-MM-DD. */
export const FunnelDay = z.iso.date();

/** The body of a beacon (sent as text/plain JSON by navigator.sendBeacon, so no preflight). */
export const FunnelBeacon = z.strictObject({
  stage: z.enum(BEACON_STAGES),
  campaign_ids: z.array(z.number().int().positive()).min(1).max(MAX_BEACON_OFFERS),
  utm_source: z.string().optional(),
  utm_campaign: z.string().optional(),
});
export type FunnelBeacon = z.infer<typeof FunnelBeacon>;

/** Where candidates came from: the board's channel and the visit's campaign parameters (null when the visit had none). */
export const FunnelSource = z.object({
  channel: z.string(),
  utm_source: z.string().nullable(),
  utm_campaign: z.string().nullable(),
});
export type FunnelSource = z.infer<typeof FunnelSource>;

/** One count per stage, and the company's outcomes (its status names, from the status sync) with how many reached each. */
export const FunnelCounts = z.object({
  ...Object.fromEntries(FUNNEL_STAGES.map((stage) => [stage, z.number().int().nonnegative()])),
  outcomes: z.record(z.string(), z.number().int().nonnegative()),
} as Record<FunnelStage, z.ZodNumber> & { outcomes: z.ZodRecord<z.ZodString, z.ZodNumber> });
export type FunnelCounts = z.infer<typeof FunnelCounts>;

/** The answer of GET /api/stats: the period's funnel in total, per offer, per source and per day. */
export const StatsReport = z.object({
  from: FunnelDay,
  to: FunnelDay,
  totals: FunnelCounts,
  /** The offers with any count in the period, the most listed first (at most `limit`; `offers_total` tells how many there are). */
  offers: z.array(z.object({ campaign_id: z.number().int(), title: z.string().nullable(), counts: FunnelCounts })),
  offers_total: z.number().int().nonnegative(),
  sources: z.array(FunnelSource.extend({ counts: FunnelCounts })),
  /** Every day of the period, in order, zeros included. */
  days: z.array(z.object({ day: FunnelDay, counts: FunnelCounts })),
});
export type StatsReport = z.infer<typeof StatsReport>;
