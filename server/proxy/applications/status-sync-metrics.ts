// Metrics of the status sync (status-sync.ts), on the app's registry.
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

export interface StatusSyncMetrics {
  checks: Counter<'result'>;
  forbidden: Counter<never>;
}

export function statusSyncMetrics(registry: Registry, enabled: () => boolean): StatusSyncMetrics {
  new Gauge({
    name: 'status_sync_enabled',
    help: 'Whether the status sync follows delivered applications: 0 when STATUS_SYNC_DAYS is 0 or the API keys may not read applications (then alert, or give the scope applications_read)',
    registers: [registry],
    collect() {
      this.set(enabled() ? 1 : 0);
    },
  });
  return {
    checks: new Counter({
      name: 'status_checks_total',
      help: 'Delivered applications whose company status was read, by result (changed, unchanged, not_found), and passes stopped by an error (error)',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    forbidden: new Counter({
      name: 'status_sync_forbidden_total',
      help: 'Times the status sync stopped because the API keys lack the scope applications_read',
      registers: [registry],
    }),
  };
}
