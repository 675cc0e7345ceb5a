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
import { setImmediate as nextTurn, setTimeout as sleepFor } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { isCampaignOpenForApplications } from '../../contract/index.ts';
import type { Campaign, PaginationHeader } from '../../contract/index.ts';
import { ApiError, RateLimitError } from '../../client/errors.ts';
import type { InvalidRecord } from '../../client/resource.ts';
import { withCleanStrings } from './clean-strings.ts';
import { registerCatalogueMetrics } from './metrics.ts';
import { CatalogueStoreError, inStore, reportSkipped } from './store-failures.ts';
import { sanitizeCampaignHtml } from './sanitize.ts';
import { SYNC_WINDOW_MS, createSyncPacer } from './sync-pacer.ts';
import type { Sleep } from './sync-pacer.ts';
import type { Catalogue, CatalogueCampaign, CatalogueCopy, CatalogueStore } from './types.ts';

type Priority = 'high' | 'low';

/** Records a list page holds (the service's maximum): a full walk costs one request per this many campaigns. */
export const SYNC_PAGE_SIZE = 50;
/** How often the first page of the most recently activated offers is read. */
export const NEWEST_SYNC_EVERY_MS = 60_000;

interface SyncQuery {
  channels: string[];
  status: ['online'];
  embed: ['address', 'channels'];
  page: number;
  per_page: number;
  order?: 'last_activation_at';
  sort?: 'desc';
}

/** The two client calls the catalogue makes (the client of server/client satisfies it). */
export interface CatalogueClient {
  campaigns: {
    list(
      query: SyncQuery,
      options: { priority: Priority; signal?: AbortSignal; onInvalidRecord?: (record: InvalidRecord) => void },
    ): Promise<{ data: Campaign[]; pagination: Pick<PaginationHeader, 'next-page'> }>;
    get(
      id: number,
      query: { embed: ['address', 'channels'] },
      options: { priority: Priority; signal?: AbortSignal },
    ): Promise<Campaign>;
  };
}

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
  store: CatalogueStore;
}

/** The catalogue's record of an upstream campaign, its HTML sanitised, its strings without control characters. */
export function toCatalogueCampaign(c: Campaign): CatalogueCampaign {
  const address = c.address ?? null;
  return withCleanStrings({
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
  });
}

function isBroadcastOn(c: Campaign, channel: string): boolean {
  // Without the channels embed we trust the upstream filter.
  return c.channels === undefined || c.channels.some((ch) => ch.value === channel);
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

  let timer: NodeJS.Timeout | undefined;
  let newestTimer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let runningForced = false;
  let forcedNext: Promise<number> | undefined;
  let newestRunning: Promise<void> | undefined;
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
    if (!(await inStore(() => copy.lead()))) return { walk: false, nextInMs: retryMs };
    if (forced) return { walk: true };
    await inStore(() => copy.refresh());
    const at = store.lastSyncedAt();
    const dueInMs = at === null ? 0 : at.getTime() + intervalMs - now();
    return dueInMs > 0 ? { walk: false, nextInMs: dueInMs } : { walk: true };
  }

  const query = (page: number): SyncQuery => ({
    channels: [config.channel],
    status: ['online'],
    embed: ['address', 'channels'],
    page,
    per_page: SYNC_PAGE_SIZE,
  });

  /**
   * The records of a page to keep (online, broadcast here), and of those the
   * ones the store does not hold as they are. Each record in a turn of the
   * event loop of its own: sanitising a page's HTML in one go held the
   * requests arriving meanwhile for several milliseconds (the walk's pages
   * come in bursts).
   */
  async function readPage(campaigns: readonly Campaign[], kept: Set<number>): Promise<CatalogueCampaign[]> {
    const changed: CatalogueCampaign[] = [];
    for (const campaign of campaigns) {
      // A record already seen on an earlier page (a new offer shifted the pages by one) is the same record.
      if (kept.has(campaign.id) || campaign.status !== 'online' || !isBroadcastOn(campaign, config.channel)) continue;
      kept.add(campaign.id);
      await nextTurn();
      const record = toCatalogueCampaign(campaign);
      // Compared as values: a record read back from the shared copy has its keys in another order.
      if (!isDeepStrictEqual(store.get(campaign.id), record)) changed.push(record);
    }
    return changed;
  }

  async function runSync(
    signal: AbortSignal,
    forced: boolean,
  ): Promise<{ kept: number; skippedIds: number[] } | { followingInMs: number }> {
    const may = await mayWalk(forced);
    if (!may.walk) return { followingInMs: may.nextInMs };
    const startedAt = now();
    // A catalogue never complete walks at the budget's own pace: an empty board
    // serves no one, and the budget still keeps the applications first.
    const paced = store.lastSyncedAt() !== null;
    const kept = new Set<number>();
    const skippedIds: number[] = [];
    // One campaign that breaks the contract (a new job_type value upstream...)
    // is left out and reported; it must not keep every other campaign from the board.
    // It is not kept from an earlier sync either: whether it is still online is unknown.
    const onInvalidRecord = (record: InvalidRecord) => {
      if (record.id !== undefined) skippedIds.push(record.id);
      log.warn(
        {
          event: 'campaign_skipped',
          campaign_id: record.id ?? null,
          fields: record.details.map((d) => d.field.replace(/^\d+\.?/, '') || '(record)'),
        },
        `campaign ${record.id ?? '(without id)'} skipped: it breaks the API contract`,
      );
    };
    for (let page: number | null = 1; page !== null;) {
      if (paced) await pacer.take('full', signal);
      metrics?.requests.inc({ kind: 'full' });
      const answer = await client.campaigns.list(query(page), { priority: 'low', signal, onInvalidRecord });
      // Each page's changes are written as they come: a walk spread over many minutes lists what it found at once.
      const changed = await readPage(answer.data, kept);
      if (changed.length > 0) {
        const skipped = await inStore(() => copy.applyChanges({ upserts: changed, deletes: [] }));
        reportSkipped(log, metrics?.notStored, skipped);
        // Not kept: the walk's end removes a copy held from before, now out of date.
        for (const { id } of skipped) kept.delete(id);
      }
      const next: number | null = answer.pagination['next-page'];
      if (next !== null && next <= page)
        throw new Error(`the service's next-page ${next} does not come after page ${page}: the walk stops here`);
      page = next;
    }
    // Only a complete walk removes what it did not see: a failure halfway keeps every campaign held.
    await inStore(() =>
      copy.applyChanges({ upserts: [], deletes: store.ids().filter((id) => !kept.has(id)) }, new Date(now())),
    );
    metrics?.duration.observe((now() - startedAt) / 1000);
    metrics?.skipped.set(skippedIds.length);
    return { kept: kept.size, skippedIds };
  }

  /** The first page of the most recently activated offers, written when new or changed; removes nothing. */
  async function runNewest(signal: AbortSignal): Promise<void> {
    if (!(await copy.lead())) return;
    await pacer.take('newest', signal);
    metrics?.requests.inc({ kind: 'newest' });
    const answer = await client.campaigns.list(
      { ...query(1), order: 'last_activation_at', sort: 'desc' },
      // A record breaking the contract is the full walk's to report (and skip).
      { priority: 'low', signal, onInvalidRecord: () => undefined },
    );
    const changed = await readPage(answer.data, new Set());
    if (changed.length > 0) {
      reportSkipped(log, metrics?.notStored, await copy.applyChanges({ upserts: changed, deletes: [] }));
      log.info({ campaigns: changed.length }, 'newest campaigns synced');
    }
  }

  function syncNewest(): Promise<void> {
    newestRunning ??= runNewest(abort.signal)
      .then(
        () => metrics?.newest.inc({ result: 'success' }),
        (error: unknown) => {
          metrics?.newest.inc({ result: 'failure' });
          if (!stopped) log.warn({ err: error }, 'reading the newest campaigns failed; the next minute tries again');
        },
      )
      .finally(() => (newestRunning = undefined));
    return newestRunning;
  }

  const scheduleNewest = () => {
    // One chain of timers, even when a read still running at stop() ends after a new start().
    clearTimeout(newestTimer);
    if (stopped) return;
    newestTimer = setTimeout(() => {
      void syncNewest().finally(scheduleNewest);
    }, newestEveryMs);
    newestTimer.unref();
  };

  function sync(forced: boolean): Promise<number> {
    if (running !== undefined) {
      if (!forced || runningForced) return running;
      // Asked to sync now during a scheduled sync, which may have read its pages long before: the next one, once that one ends.
      forcedNext ??= running
        .catch(() => undefined)
        .then(() => {
          forcedNext = undefined;
          return sync(true);
        });
      return forcedNext;
    }
    status.running = true;
    runningForced = forced;
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
            code: error instanceof ApiError || error instanceof CatalogueStoreError ? error.code : 'error',
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
   * most refreshes find the same record, and each write is a change every
   * instance applies. A failed write is logged, not thrown: the application waiting on
   * the refresh has its answer, and the next sync corrects the shared copy.
   */
  async function writeThrough(
    id: number,
    before: CatalogueCampaign | undefined,
    after: CatalogueCampaign | undefined,
  ): Promise<void> {
    // Compared as values: a record read back from the shared copy has its keys in another order.
    if (isDeepStrictEqual(before, after)) return;
    try {
      if (after === undefined) await copy.remove(id);
      else await copy.upsert(after);
    } catch (error) {
      log.warn(
        { err: error, campaign_id: id },
        'refreshed campaign not written to the shared catalogue; the next sync will',
      );
    }
  }

  async function refresh(id: number): Promise<CatalogueCampaign | undefined> {
    const before = store.get(id);
    let campaign: Campaign;
    try {
      campaign = await client.campaigns.get(
        id,
        { embed: ['address', 'channels'] },
        { priority: 'high', signal: abort.signal },
      );
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
      // A paced walk of a large catalogue takes minutes of its own: the catalogue is stale once a walk is overdue.
      const walkMs = (Math.ceil(store.count() / SYNC_PAGE_SIZE) / pacer.fullPerWindow) * SYNC_WINDOW_MS;
      return at === null || now() - at.getTime() > intervalMs + walkMs;
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
      scheduleNewest();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(newestTimer);
      abort.abort();
      await Promise.allSettled([running, newestRunning, ...refreshing.values()]);
    },
    syncNewest,
    syncNow,
    status: () => ({ ...status, skippedIds: [...status.skippedIds] }),
  };
}
