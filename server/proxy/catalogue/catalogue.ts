// The catalogue: background sync of the campaigns broadcast on the board's
// channel into the local store, through the shared client with priority 'low'
// so applications always go first in the request budget. Two syncs, both
// within SYNC_BUDGET_SHARE of the service's requests (sync-pacer.ts): a full
// walk of every page (at start, then SYNC_INTERVAL_SECONDS after the last
// one ended; spread over as many minutes as the share needs), which also
// drops what is no longer broadcast; and, every minute, the first page of the
// most recently activated offers, so a new offer is listed within two
// minutes whatever the catalogue's size. Both write only what changed
// through a CatalogueCopy the storage backend opens: this instance's own, or
// one shared by several instances on one database, where only the instance
// holding the sync lock calls upstream; the others apply the changes it
// publishes, and try to take the lock at each of their own turns.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { CampaignRefresh } from './campaign-refresh.ts';
import type { CatalogueClient } from './catalogue-client.ts';
import { registerCatalogueMetrics } from './metrics.ts';
import { SYNC_WINDOW_MS, createSyncPacer } from './sync-pacer.ts';
import type { Sleep } from './sync-pacer.ts';
import { SyncSchedule } from './sync-schedule.ts';
import { SYNC_PAGE_SIZE, SyncWalk } from './sync-walk.ts';
import type { Catalogue, CatalogueCopy, CatalogueStore } from './types.ts';
import type { SyncStatus } from './sync-schedule.ts';

export { toCatalogueCampaign } from './campaign-record.ts';
export type { CatalogueClient } from './catalogue-client.ts';
export type { SyncStatus } from './sync-schedule.ts';
export { SYNC_PAGE_SIZE } from './sync-walk.ts';

/** How often the first page of the most recently activated offers is read. */
export const NEWEST_SYNC_EVERY_MS = 60_000;

export interface CatalogueDeps {
  config: { channel: string; syncIntervalSeconds: number; syncBudgetShare: number };
  client: CatalogueClient;
  /** Where syncs and refreshes are written, and what answers are read from (its store). */
  copy: CatalogueCopy;
  logger: Logger;
  registry?: Registry;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** Delay before retrying a failed sync (default: the interval, at most 30 s); also how often an instance that does not sync tries to take over. */
  retryAfterFailureMs?: number;
  /** How a paced sync waits for its share (default: a timer); tests move a fake clock instead. */
  sleep?: Sleep;
  /** How often the newest offers are read (default NEWEST_SYNC_EVERY_MS). */
  newestEveryMs?: number;
}

export interface LiveCatalogue extends Catalogue {
  /** Syncs now and schedules the next ones. */
  start(): void;
  /** Stops the schedule, aborts a running sync and waits for it. */
  stop(): Promise<void>;
  /**
   * One sync now: joins one asked for the same way, but a scheduled one
   * running is waited for, then another runs (it sees what changed since
   * that one started). Resolves the number of campaigns kept;
   * rejects with the client's error. With a shared catalogue, an instance
   * that does not hold the sync lock calls nothing upstream and resolves the
   * number of campaigns in the copy it serves.
   */
  syncNow(): Promise<number>;
  /** One read of the newest offers (joins a running one); never rejects (a failure is logged, the next minute tries again). */
  syncNewest(): Promise<void>;
  status(): SyncStatus;
  /** A company with an offer online on the board (the facets' companies), for a spontaneous application; undefined when none. */
  getCompany(id: number): { id: number; name: string | null } | undefined;
  store: CatalogueStore;
}

export function createCatalogue(deps: CatalogueDeps): LiveCatalogue {
  const { config, client, copy, logger } = deps;
  const { store } = copy;
  const now = deps.now ?? Date.now;
  const intervalMs = config.syncIntervalSeconds * 1000;
  const retryMs = deps.retryAfterFailureMs ?? Math.min(intervalMs, 30_000);
  const newestEveryMs = deps.newestEveryMs ?? NEWEST_SYNC_EVERY_MS;
  const pacer = createSyncPacer(
    config.syncBudgetShare,
    { now },
    deps.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal })),
  );
  const log = logger.child({ module: 'catalogue' });
  const metrics = registerCatalogueMetrics(deps.registry, copy, () => store.lastSyncedAt(), now);

  const walk = new SyncWalk({ config, client, copy, store, now, intervalMs, retryMs, pacer, log, metrics });
  const syncs = new SyncSchedule({ walk, store, now, intervalMs, retryMs, newestEveryMs, log, metrics });
  const refresh = new CampaignRefresh({ config, client, copy, log, signal: () => syncs.signal });

  return {
    store,
    getCampaign: (id) => store.get(id),
    getCompany: (id) => store.facets().companies.find((company) => company.id === id),
    lastSyncedAt: () => store.lastSyncedAt(),
    isStale() {
      const at = store.lastSyncedAt();
      // A paced walk of a large catalogue takes minutes of its own: the catalogue is stale once a walk is overdue.
      const walkMs = (Math.ceil(store.count() / SYNC_PAGE_SIZE) / pacer.fullPerWindow) * SYNC_WINDOW_MS;
      return at === null || now() - at.getTime() > intervalMs + walkMs;
    },
    refreshCampaign: (id) => refresh.refreshCampaign(id),
    start: () => syncs.start(),
    async stop() {
      await Promise.allSettled([syncs.stop(), ...refresh.pending()]);
    },
    syncNewest: () => syncs.syncNewest(),
    syncNow: () => syncs.sync(true),
    status: () => syncs.status(),
  };
}
