// The catalogue: background sync of the campaigns broadcast on the board's
// channel into the local store (first sync at start, then every
// SYNC_INTERVAL_SECONDS), through the shared client with priority 'low' so
// applications always go first in the request budget. It writes through a
// CatalogueCopy the storage backend opens: this instance's own, or one shared
// by several instances on one database, where only the instance holding the
// sync lock calls upstream; the others serve the copy it publishes, and try
// to take the lock at each of their own turns.
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { isCampaignOpenForApplications } from '../../contract/index.ts';
import type { Campaign } from '../../contract/index.ts';
import { ApiError, RateLimitError } from '../../client/errors.ts';
import type { InvalidRecord } from '../../client/resource.ts';
import { sanitizeCampaignHtml } from './sanitize.ts';
import type { Catalogue, CatalogueCampaign, CatalogueCopy, CatalogueStore } from './types.ts';

type Priority = 'high' | 'low';

/** The two client calls the catalogue makes (the client of server/client satisfies it). */
export interface CatalogueClient {
  campaigns: {
    listAll(
      query: { channels: string[]; status: ['online']; embed: ['address', 'channels'] },
      options: { priority: Priority; signal?: AbortSignal; onInvalidRecord?: (record: InvalidRecord) => void },
    ): AsyncIterable<Campaign>;
    get(id: number, query: { embed: ['address', 'channels'] }, options: { priority: Priority; signal?: AbortSignal }): Promise<Campaign>;
  };
}

export interface CatalogueDeps {
  config: { channel: string; syncIntervalSeconds: number };
  client: CatalogueClient;
  /** Where syncs and refreshes are written, and what answers are read from (its store). */
  copy: CatalogueCopy;
  logger: Logger;
  registry?: Registry;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** Delay before retrying a failed sync (default: the interval, at most 30 s); also how often an instance that does not sync tries to take over. */
  retryAfterFailureMs?: number;
}

export interface SyncStatus {
  /** Time of the last attempt that finished (successfully or not). */
  lastAttemptAt: Date | null;
  lastError: { at: Date; name: string; status: number | undefined; code: string } | null;
  running: boolean;
  /** Ids of the upstream campaigns left out of the last complete sync because they break the contract. */
  skippedIds: number[];
}

export interface LiveCatalogue extends Catalogue {
  /** Syncs now and schedules the next ones. */
  start(): void;
  /** Stops the schedule, aborts a running sync and waits for it. */
  stop(): Promise<void>;
  /**
   * One sync (joins a running one). Resolves the number of campaigns kept;
   * rejects with the client's error. With a shared catalogue, an instance
   * that does not hold the sync lock calls nothing upstream and resolves the
   * number of campaigns in the copy it serves.
   */
  syncNow(): Promise<number>;
  status(): SyncStatus;
  store: CatalogueStore;
}

/** The catalogue's record of an upstream campaign, its HTML sanitised. */
export function toCatalogueCampaign(c: Campaign): CatalogueCampaign {
  const address = c.address ?? null;
  return {
    id: c.id,
    company_id: c.company_id,
    company_name: c.company_name ?? null,
    name: c.name,
    status: c.status,
    job_type: c.job_type,
    working_time: c.working_time,
    city: address?.city ?? null,
    country: address?.country ?? null,
    salary_min: c.salary_min,
    salary_max: c.salary_max,
    job_start_date: c.job_start_date,
    contract_duration: c.contract_duration,
    date_end: c.date_end,
    updated_at: c.updated_at,
    description: sanitizeCampaignHtml(c.description),
    profile: sanitizeCampaignHtml(c.profile),
    address:
      address === null
        ? null
        : {
            street_number: address.street_number,
            street: address.street,
            postal_code: address.postal_code,
            city: address.city,
            country: address.country,
            name: address.name,
            latitude: address.latitude,
            longitude: address.longitude,
          },
    listed_at: c.last_activation_at ?? c.created_at,
  };
}

function isBroadcastOn(c: Campaign, channel: string): boolean {
  // Without the channels embed we trust the upstream filter.
  return c.channels === undefined || c.channels.some((ch) => ch.value === channel);
}

function registerMetrics(registry: Registry | undefined, copy: CatalogueCopy, lastSync: () => Date | null, now: () => number) {
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
    syncs: new Counter({ name: 'catalogue_syncs_total', help: 'Catalogue syncs by result', labelNames: ['result'] as const, registers: [registry] }),
    duration: new Histogram({
      name: 'catalogue_sync_duration_seconds',
      help: 'Duration of catalogue syncs',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
  };
}

export function createCatalogue(deps: CatalogueDeps): LiveCatalogue {
  const { config, client, copy, logger } = deps;
  const { store } = copy;
  const now = deps.now ?? Date.now;
  const intervalMs = config.syncIntervalSeconds * 1000;
  const retryMs = deps.retryAfterFailureMs ?? Math.min(intervalMs, 30_000);
  const log = logger.child({ module: 'catalogue' });
  const metrics = registerMetrics(deps.registry, copy, () => store.lastSyncedAt(), now);

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  let abort = new AbortController();
  const refreshing = new Map<number, Promise<CatalogueCampaign | undefined>>();
  const status: SyncStatus = { lastAttemptAt: null, lastError: null, running: false, skippedIds: [] };

  const schedule = (delayMs: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      sync(false).catch(() => undefined);
    }, delayMs);
    timer.unref();
  };

  /**
   * Whether this instance walks upstream now. With a shared copy, not when
   * another instance holds the sync lock, nor, for a scheduled sync, when the
   * copy is younger than the interval (an instance that just took over after
   * a restart does not sync again what the previous holder synced). An
   * instance's own copy always walks: its first sync at start refreshes a
   * file an older run left, however young.
   */
  async function mayWalk(forced: boolean): Promise<{ walk: true } | { walk: false; nextInMs: number }> {
    if (!copy.shared) return { walk: true };
    if (!(await copy.lead())) return { walk: false, nextInMs: retryMs };
    if (forced) return { walk: true };
    await copy.refresh();
    const at = store.lastSyncedAt();
    const dueInMs = at === null ? 0 : at.getTime() + intervalMs - now();
    return dueInMs > 0 ? { walk: false, nextInMs: dueInMs } : { walk: true };
  }

  async function runSync(signal: AbortSignal, forced: boolean): Promise<{ kept: number; skippedIds: number[] } | { followingInMs: number }> {
    const may = await mayWalk(forced);
    if (!may.walk) return { followingInMs: may.nextInMs };
    const startedAt = now();
    const kept: CatalogueCampaign[] = [];
    const skippedIds: number[] = [];
    // One campaign that breaks the contract (a new job_type value upstream...)
    // is left out and reported; it must not keep every other campaign from the board.
    // It is not kept from an earlier sync either: whether it is still online is unknown.
    const onInvalidRecord = (record: InvalidRecord) => {
      if (record.id !== undefined) skippedIds.push(record.id);
      log.warn(
        { event: 'campaign_skipped', campaign_id: record.id ?? null, fields: record.details.map((d) => d.field.replace(/^\d+\.?/, '') || '(record)') },
        `campaign ${record.id ?? '(without id)'} skipped: it breaks the API contract`,
      );
    };
    const query = { channels: [config.channel], status: ['online'] as ['online'], embed: ['address', 'channels'] as ['address', 'channels'] };
    for await (const campaign of client.campaigns.listAll(query, { priority: 'low', signal, onInvalidRecord })) {
      if (campaign.status === 'online' && isBroadcastOn(campaign, config.channel)) kept.push(toCatalogueCampaign(campaign));
    }
    // Only a complete walk replaces the store: a failure halfway keeps the previous catalogue.
    await copy.publish(kept, new Date(now()));
    metrics?.duration.observe((now() - startedAt) / 1000);
    metrics?.skipped.set(skippedIds.length);
    return { kept: kept.length, skippedIds };
  }

  function sync(forced: boolean): Promise<number> {
    if (running !== undefined) return running;
    status.running = true;
    running = runSync(abort.signal, forced)
      .then(
        (result) => {
          if ('followingInMs' in result) {
            schedule(result.followingInMs);
            return store.count();
          }
          const { kept: count, skippedIds } = result;
          status.lastError = null;
          status.skippedIds = skippedIds;
          metrics?.syncs.inc({ result: 'success' });
          log.info({ campaigns: count, skipped: skippedIds.length }, 'catalogue synced');
          schedule(intervalMs);
          return count;
        },
        (error: unknown) => {
          const e = error as Error;
          status.lastError = {
            at: new Date(now()),
            name: e.name,
            status: error instanceof ApiError ? error.status : undefined,
            code: error instanceof ApiError ? error.code : 'error',
          };
          metrics?.syncs.inc({ result: 'failure' });
          if (!stopped) log.warn({ err: e }, 'catalogue sync failed; keeping the previous catalogue');
          // The service's rate limit names its own wait; honour it when longer,
          // but never past the interval (a Retry-After of a day would freeze the catalogue).
          const askedWait = error instanceof RateLimitError ? Math.min(error.retryAfterMs ?? 0, intervalMs) : 0;
          schedule(Math.max(retryMs, askedWait));
          throw error;
        },
      )
      .finally(() => {
        status.lastAttemptAt = new Date(now());
        status.running = false;
        running = undefined;
      });
    return running;
  }

  const syncNow = () => sync(true);

  /**
   * Writes a refreshed campaign through to the copy, when it changed:
   * most refreshes find the same record, and each write makes every instance
   * reload. A failed write is logged, not thrown: the application waiting on
   * the refresh has its answer, and the next sync corrects the shared copy.
   */
  async function writeThrough(id: number, before: CatalogueCampaign | undefined, after: CatalogueCampaign | undefined): Promise<void> {
    // Compared as values: a record read back from the shared copy has its keys in another order.
    if (isDeepStrictEqual(before, after)) return;
    try {
      if (after === undefined) await copy.remove(id);
      else await copy.upsert(after);
    } catch (error) {
      log.warn({ err: error, campaign_id: id }, 'refreshed campaign not written to the shared catalogue; the next sync will');
    }
  }

  async function refresh(id: number): Promise<CatalogueCampaign | undefined> {
    const before = store.get(id);
    let campaign: Campaign;
    try {
      campaign = await client.campaigns.get(id, { embed: ['address', 'channels'] }, { priority: 'high', signal: abort.signal });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        store.remove(id);
        await writeThrough(id, before, undefined);
        return undefined;
      }
      throw error;
    }
    if (!isBroadcastOn(campaign, config.channel) || !isCampaignOpenForApplications(campaign.status)) {
      store.remove(id);
      await writeThrough(id, before, undefined);
      return undefined;
    }
    const record = toCatalogueCampaign(campaign);
    store.upsert(record);
    await writeThrough(id, before, record);
    return record;
  }

  return {
    store,
    getCampaign: (id) => store.get(id),
    lastSyncedAt: () => store.lastSyncedAt(),
    isStale() {
      const at = store.lastSyncedAt();
      return at === null || now() - at.getTime() > intervalMs;
    },
    refreshCampaign(id) {
      // Concurrent applications to one campaign share one upstream call.
      const pending = refreshing.get(id);
      if (pending !== undefined) return pending;
      const call = refresh(id).finally(() => refreshing.delete(id));
      refreshing.set(id, call);
      return call;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      abort = new AbortController();
      sync(false).catch(() => undefined);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await Promise.allSettled([running, ...refreshing.values()]);
    },
    syncNow,
    status: () => ({ ...status, skippedIds: [...status.skippedIds] }),
  };
}
