// POST /api/applications and the durable outbox behind it (skeleton: the
// interface A wires into the app; behaviour lands in the following commits).
import { Router } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { CampaignStatus } from '../../contract/index.ts';
import type { ProxyConfig } from '../config.ts';

/** What the applications module needs from the catalogue (A's Catalogue satisfies it). */
export interface ApplicationsCatalogue {
  getCampaign(id: number): { id: number; company_id: number; status: CampaignStatus } | undefined;
  isStale(): boolean;
  refreshCampaign(id: number): Promise<{ id: number; company_id: number; status: CampaignStatus } | undefined>;
}

/** The two client calls delivery makes (the client of server/client satisfies it). */
export interface ApplicationsClient {
  jobboards: {
    createApplicant(body: { company_id: number; applicant: Record<string, unknown> }, options?: Record<string, unknown>): Promise<unknown>;
  };
  applications: {
    create(body: { campaign_id: number; applicant_email: string; application?: Record<string, unknown> }, options?: Record<string, unknown>): Promise<unknown>;
  };
}

export interface Clock {
  now(): number;
}

export interface ApplicationsDeps {
  config: ProxyConfig;
  client: ApplicationsClient;
  catalogue: ApplicationsCatalogue;
  logger: Logger;
  registry: Registry;
  clock?: Clock;
}

export interface ApplicationsModule {
  /** Mounted at /api/applications. */
  router: Router;
  /** Starts the delivery worker. */
  start(): void;
  /** Stops the worker after in-flight deliveries end, then closes the outbox. */
  stop(): Promise<void>;
  outbox: unknown;
  /** False until the outbox is open (and after stop). */
  ready(): boolean;
}

export function createApplicationsModule(deps: ApplicationsDeps): ApplicationsModule {
  void deps;
  const router = Router();
  let open = true;
  return {
    router,
    start() {},
    async stop() {
      open = false;
    },
    outbox: null,
    ready: () => open,
  };
}
