// The funnel in Prometheus: today's (UTC) counts by stage, a gauge read from
// the store at each scrape. Not counters kept in each process: the counts are
// written by every instance (and by the widget's beacons to any of them) into
// one shared store, so the store is the total; an instance's own increments
// would be a share that no sum across instances puts back together once one
// restarts. Every instance on one database reports the same values
// (aggregate with max, not sum). Only the stage is a label: offers and
// sources stay in the dashboard and GET /api/stats.
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { FUNNEL_STAGES } from '../../public-api/funnel.ts';
import type { FunnelStore } from '../storage/funnel/funnel-store.ts';
import { utcDay } from './stats-period.ts';

export function funnelMetrics(
  registry: Registry,
  source: { funnel(): Promise<FunnelStore>; now(): number },
  onError: (error: unknown) => void,
): void {
  new Gauge({
    name: 'funnel_today',
    help: "Today's funnel counts so far (UTC day), by stage, from the shared store: the same on every instance of one database (aggregate with max); back to 0 at midnight UTC",
    labelNames: ['stage'] as const,
    registers: [registry],
    async collect() {
      const today = utcDay(source.now());
      try {
        // One offer is enough: only the totals are read.
        const { totals } = await (await source.funnel()).report({ from: today, to: today }, { limit: 1 });
        for (const stage of FUNNEL_STAGES) this.set({ stage }, totals[stage]);
      } catch (error) {
        // No value rather than yesterday's or a failed scrape of every other metric.
        this.reset();
        onError(error);
      }
    },
  });
}
