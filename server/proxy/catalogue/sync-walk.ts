// What one sync reads upstream and writes to the copy: the full walk of every
// page (which also drops what is no longer broadcast), and the first page of
// the most recently activated offers. When they run is the catalogue's.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Campaign } from '../../contract/index.ts';
import type { InvalidRecord } from '../../client/resource.ts';
import { isBroadcastOn, toCatalogueCampaign } from './campaign-record.ts';
import type { SyncQuery, UpstreamReaderDeps } from './catalogue-client.ts';
import type { CatalogueMetrics } from './metrics.ts';
import { inStore, reportSkipped } from './store-failures.ts';
import type { SyncPacer } from './sync-pacer.ts';
import type { CatalogueCampaign, CatalogueStore } from './types.ts';

/** Records a list page holds (the service's maximum): a full walk costs one request per this many campaigns. */
export const SYNC_PAGE_SIZE = 50;

export interface SyncWalkDeps extends UpstreamReaderDeps {
  store: CatalogueStore;
  now: () => number;
  intervalMs: number;
  /** How soon an instance that does not hold the sync lock tries again. */
  retryMs: number;
  pacer: SyncPacer;
  metrics: CatalogueMetrics;
}

export class SyncWalk {
  private readonly deps: SyncWalkDeps;

  constructor(deps: SyncWalkDeps) {
    this.deps = deps;
  }

  /**
   * Whether this instance walks upstream now. With a shared copy, not when
   * another instance holds the sync lock, nor, for a scheduled sync, when the
   * copy is younger than the interval (an instance that just took over after
   * a restart does not sync again what the previous holder synced). An
   * instance's own copy always walks: its first sync at start refreshes a
   * file an older run left, however young.
   */
  private async mayWalk(forced: boolean): Promise<{ walk: true } | { walk: false; nextInMs: number }> {
    const { copy, store, now, intervalMs, retryMs } = this.deps;
    if (!copy.shared) return { walk: true };
    if (!(await inStore(() => copy.lead()))) return { walk: false, nextInMs: retryMs };
    if (forced) return { walk: true };
    await inStore(() => copy.refresh());
    const at = store.lastSyncedAt();
    const dueInMs = at === null ? 0 : at.getTime() + intervalMs - now();
    return dueInMs > 0 ? { walk: false, nextInMs: dueInMs } : { walk: true };
  }

  private query(page: number): SyncQuery {
    return {
      channels: [this.deps.config.channel],
      status: ['online'],
      embed: ['address', 'channels'],
      page,
      per_page: SYNC_PAGE_SIZE,
    };
  }

  /**
   * The records of a page to keep (online, broadcast here), and of those the
   * ones the store does not hold as they are. Each record in a turn of the
   * event loop of its own: sanitising a page's HTML in one go held the
   * requests arriving meanwhile for several milliseconds (the walk's pages
   * come in bursts).
   */
  private async readPage(campaigns: readonly Campaign[], kept: Set<number>): Promise<CatalogueCampaign[]> {
    const { config, store } = this.deps;
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

  async runSync(
    signal: AbortSignal,
    forced: boolean,
  ): Promise<{ kept: number; skippedIds: number[] } | { followingInMs: number }> {
    const { client, copy, store, now, pacer, log, metrics } = this.deps;
    const may = await this.mayWalk(forced);
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
      const answer = await client.campaigns.list(this.query(page), { priority: 'low', signal, onInvalidRecord });
      // Each page's changes are written as they come: a walk spread over many minutes lists what it found at once.
      const changed = await this.readPage(answer.data, kept);
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
  async runNewest(signal: AbortSignal): Promise<void> {
    const { client, copy, pacer, log, metrics } = this.deps;
    if (!(await copy.lead())) return;
    await pacer.take('newest', signal);
    metrics?.requests.inc({ kind: 'newest' });
    const answer = await client.campaigns.list(
      { ...this.query(1), order: 'last_activation_at', sort: 'desc' },
      // A record breaking the contract is the full walk's to report (and skip).
      { priority: 'low', signal, onInvalidRecord: () => undefined },
    );
    const changed = await this.readPage(answer.data, new Set());
    if (changed.length > 0) {
      reportSkipped(log, metrics?.notStored, await copy.applyChanges({ upserts: changed, deletes: [] }));
      log.info({ campaigns: changed.length }, 'newest campaigns synced');
    }
  }
}
