// The funnel a board sees (server/proxy/README.md, "Measure your board"):
// daily counts per offer and source, never a person. The widget reports the
// first four stages by beacon (POST /api/funnel); the proxy counts the rest
// as the applications move. A public contract: the widget posts the beacon
// body, the dashboard and a board's scripts read GET /api/stats.
import { z } from 'zod';
import { blankAsAbsent, wholeNumberUpTo } from './query-values.ts';

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
  /**
   * The offers with any count in the period, the most listed first (at most `limit`; `offers_total` tells how many there are);
   * the spontaneous applications (to a company, no offer) on a line of their own: kind spontaneous, campaign_id null.
   */
  offers: z.array(
    z.object({
      campaign_id: z.number().int().nullable(),
      kind: z.enum(['offer', 'spontaneous']),
      title: z.string().nullable(),
      counts: FunnelCounts,
    }),
  ),
  offers_total: z.number().int().nonnegative(),
  sources: z.array(FunnelSource.extend({ counts: FunnelCounts })),
  /** Every day of the period, in order, zeros included. */
  days: z.array(z.object({ day: FunnelDay, counts: FunnelCounts })),
});
export type StatsReport = z.infer<typeof StatsReport>;

/** The longest period GET /api/stats and the dashboard report, in days. */
export const MAX_STATS_DAYS = 366;
/** The period when neither from nor to is given: the last 30 days, today (UTC) included. */
export const DEFAULT_STATS_DAYS = 30;
/** Offers listed when limit is not given, and the most a limit may ask for. */
export const DEFAULT_STATS_OFFERS = 100;
export const MAX_STATS_OFFERS = 1000;

// A GET form's empty field (the dashboard's period chooser) sends `from=`: the same as not sending it.
const dayParameter = (description: string) =>
  z
    .preprocess(blankAsAbsent, z.iso.date({ error: 'must be a day, YYYY-MM-DD, like 2026-03-01' }).optional())
    .describe(description);

/** The query of GET /api/stats. */
export const StatsQuery = z.object({
  from: dayParameter(
    `The period's first day (UTC, YYYY-MM-DD). Default: ${DEFAULT_STATS_DAYS - 1} days before \`to\`. The period is at most ${MAX_STATS_DAYS} days.`,
  ),
  to: dayParameter("The period's last day, included (UTC, YYYY-MM-DD). Default: today (UTC)."),
  sort: z
    .preprocess(
      blankAsAbsent,
      z.enum(FUNNEL_STAGES, { error: `must be one of: ${FUNNEL_STAGES.join(', ')}` }).default('listed'),
    )
    .describe('The stage that orders the offers, most first.'),
  limit: wholeNumberUpTo(MAX_STATS_OFFERS, DEFAULT_STATS_OFFERS).describe(
    'The most offers listed (`offers_total` says how many had a count).',
  ),
  format: z
    .preprocess(blankAsAbsent, z.enum(['json', 'csv'], { error: 'must be json or csv' }).optional())
    .describe(
      'csv: the answer as CSV, as `Accept: text/csv` asks (for a link, which cannot set a header). Default: by Accept, JSON unless text/csv is preferred.',
    ),
});
export type StatsQuery = z.infer<typeof StatsQuery>;

/**
 * The columns of GET /api/stats in CSV: one row per offer of `offers` (same
 * order and limit), then one column per company outcome of the period,
 * named OUTCOME_COLUMN_PREFIX and the company's status (`outcome:hired`).
 */
export const STATS_CSV_COLUMNS = ['campaign_id', 'title', ...FUNNEL_STAGES] as const;
export const OUTCOME_COLUMN_PREFIX = 'outcome:';

/** The query of GET /dashboard (its language is `lang`, read as the receipt page reads it). */
export const DashboardQuery = StatsQuery.omit({ format: true }).extend({
  sources_sort: z
    .preprocess(
      blankAsAbsent,
      z.enum(FUNNEL_STAGES, { error: `must be one of: ${FUNNEL_STAGES.join(', ')}` }).default('listed'),
    )
    .describe('The stage that orders the sources, most first.'),
});
export type DashboardQuery = z.infer<typeof DashboardQuery>;
