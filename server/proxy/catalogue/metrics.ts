// The catalogue's metrics: its age and size, its syncs by kind and result,
// and on a shared copy which instance syncs it.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { CatalogueCopy } from './types.ts';

export type CatalogueMetrics = ReturnType<typeof registerCatalogueMetrics>;

export function registerCatalogueMetrics(
  registry: Registry | undefined,
  copy: CatalogueCopy,
  lastSync: () => Date | null,
  now: () => number,
) {
  if (registry === undefined) return undefined;
  const { store } = copy;
  // Kept for a shared copy only: an instance that keeps its own has no leader to tell.
  if (copy.shared) {
    new Gauge({
      name: 'catalogue_sync_leader',
      help: 'With a catalogue shared by several instances: 1 on the instance that syncs it, 0 on the others',
      registers: [registry],
      collect() {
        this.set(copy.leading() ? 1 : 0);
      },
    });
  }
  new Gauge({
    name: 'catalogue_age_seconds',
    help: 'Seconds since the last successful catalogue sync (+Inf before the first)',
    registers: [registry],
    collect() {
      const at = lastSync();
      this.set(at === null ? Number.POSITIVE_INFINITY : Math.max(0, (now() - at.getTime()) / 1000));
    },
  });
  new Gauge({
    name: 'catalogue_campaigns',
    help: 'Campaigns listed in the catalogue',
    registers: [registry],
    collect() {
      this.set(store.count());
    },
  });
  const skipped = new Gauge({
    name: 'catalogue_skipped_campaigns',
    help: 'Upstream campaigns left out of the last catalogue sync because they break the contract',
    registers: [registry],
  });
  return {
    skipped,
    notStored: new Counter({
      name: 'catalogue_skipped_campaigns_total',
      help: "Campaign records the catalogue's store refused (each left out, the rest of its page kept), counted at every write that met one",
      registers: [registry],
    }),
    syncs: new Counter({
      name: 'catalogue_syncs_total',
      help: 'Complete catalogue syncs (every page) by result',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    newest: new Counter({
      name: 'catalogue_newest_syncs_total',
      help: 'Reads of the most recently activated offers (one page, every minute) by result',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    requests: new Counter({
      name: 'catalogue_sync_requests_total',
      help: 'Requests the catalogue syncs sent upstream, by sync kind (full or newest); within SYNC_BUDGET_SHARE of the 120 a minute',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'catalogue_sync_duration_seconds',
      help: 'Duration of catalogue syncs',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
  };
}
