// Metrics of applications and the outbox, registered on the app's registry.
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { OutboxStore } from '../storage/outbox/application-store.ts';
import { OUTBOX_STATUSES } from '../storage/outbox/application-store.ts';

export interface ApplicationMetrics {
  received: Counter<never>;
  delivered: Counter<'outcome'>;
  queued: Counter<never>;
  deadLettered: Counter<'outcome'>;
  refused: Counter<'code'>;
  resumeMissing: Counter<never>;
  sourceRefused: Counter<'company_id'>;
  utmDropped: Counter<'field'>;
}

export function applicationMetrics(registry: Registry, outbox: () => OutboxStore | undefined): ApplicationMetrics {
  new Gauge({
    name: 'outbox_applications',
    help: 'Applications in the outbox, by status (pending and delivering make the depth)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const store = outbox();
      if (store === undefined || !store.isOpen) return;
      const counts = await store.counts();
      for (const status of OUTBOX_STATUSES) this.set({ status }, counts[status]);
    },
  });
  new Gauge({
    name: 'outbox_depth',
    help: 'Applications waiting to be delivered (pending or being delivered)',
    registers: [registry],
    async collect() {
      const store = outbox();
      if (store === undefined || !store.isOpen) return;
      const counts = await store.counts();
      this.set(counts.pending + counts.delivering);
    },
  });
  return {
    received: new Counter({
      name: 'applications_received_total',
      help: 'Applications accepted and stored in the outbox',
      registers: [registry],
    }),
    delivered: new Counter({
      name: 'applications_delivered_total',
      help: 'Applications delivered to the recruitment service, by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    queued: new Counter({
      name: 'applications_queued_total',
      help: 'Applications answered 202: stored, delivered later',
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: 'applications_dead_lettered_total',
      help: 'Applications given up on after being answered as received (see `jobboard-connector outbox list`)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    resumeMissing: new Counter({
      name: 'applications_resume_missing_total',
      help: 'Stored applications whose resume the outbox no longer had at delivery (deleted from outside the proxy), dead-lettered at once: alert on any',
      registers: [registry],
    }),
    sourceRefused: new Counter({
      name: 'application_source_refused_total',
      help: "Applications whose source (APPLICATION_SOURCE) the company refused, each then sent again without it; add the source to that company's sources",
      labelNames: ['company_id'] as const,
      registers: [registry],
    }),
    utmDropped: new Counter({
      name: 'applications_utm_dropped_total',
      help: 'Campaign parameters (utm_*) posted with an application that broke their rule (too long, not printable), dropped while the application went on, by field',
      labelNames: ['field'] as const,
      registers: [registry],
    }),
    refused: new Counter({
      name: 'applications_refused_total',
      help: 'Application requests answered with a problem, by problem code',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
  };
}
