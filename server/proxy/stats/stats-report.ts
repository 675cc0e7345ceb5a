// What GET /api/stats answers and the dashboard shows: the store's report of
// a period, each offer named by the catalogue as it is now, parsed through
// the public contract (StatsReport) so that neither can answer anything else.
import { StatsReport } from '../../public-api/funnel.ts';
import type { FunnelStage } from '../../public-api/funnel.ts';
import type { FunnelPeriod, FunnelStore } from '../storage/funnel/funnel-store.ts';
import { applicationTarget } from '../storage/outbox/application-store.ts';

/** What the stats read: the funnel's counts, the offers' titles, the clock. */
export interface StatsSource {
  /** The funnel's store, once the application store is open. */
  funnel(): Promise<FunnelStore>;
  /** The offer's title as the catalogue holds it now; null when it holds none (an offer gone, or never synced). */
  titleOf(campaignId: number): string | null;
  now(): number;
}

export async function readStatsReport(
  source: StatsSource,
  period: FunnelPeriod,
  options: { sort: FunnelStage; limit: number },
): Promise<StatsReport> {
  const report = await (await source.funnel()).report(period, options);
  return StatsReport.parse({
    from: period.from,
    to: period.to,
    totals: report.totals,
    // The spontaneous applications (no offer) count on a line of their own.
    offers: report.offers.map((offer) => {
      const target = applicationTarget(offer.campaign_id);
      return { ...offer, ...target, title: target.campaign_id === null ? null : source.titleOf(target.campaign_id) };
    }),
    offers_total: report.offers_total,
    sources: report.sources,
    days: report.days,
  });
}
