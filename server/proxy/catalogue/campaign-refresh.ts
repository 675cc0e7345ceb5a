// One campaign re-checked upstream (an application to it, when the catalogue
// is old): kept, updated or removed in this instance's store, and written
// through to the copy when it changed. Concurrent checks of one campaign
// share one call.
import { isDeepStrictEqual } from 'node:util';
import { isCampaignOpenForApplications } from '../../contract/index.ts';
import type { Campaign } from '../../contract/index.ts';
import { ApiError } from '../../client/errors.ts';
import { isBroadcastOn, toCatalogueCampaign } from './campaign-record.ts';
import type { UpstreamReaderDeps } from './catalogue-client.ts';
import type { CatalogueCampaign } from './types.ts';

export interface CampaignRefreshDeps extends UpstreamReaderDeps {
  /** Aborted when the catalogue stops. */
  signal: () => AbortSignal;
}

export class CampaignRefresh {
  private readonly deps: CampaignRefreshDeps;
  private readonly refreshing = new Map<number, Promise<CatalogueCampaign | undefined>>();

  constructor(deps: CampaignRefreshDeps) {
    this.deps = deps;
  }

  refreshCampaign(id: number): Promise<CatalogueCampaign | undefined> {
    const { refreshing } = this;
    // Concurrent applications to one campaign share one upstream call.
    const pending = refreshing.get(id);
    if (pending !== undefined) return pending;
    const call = this.refresh(id).finally(() => refreshing.delete(id));
    refreshing.set(id, call);
    return call;
  }

  /** The refreshes under way. */
  pending(): Promise<CatalogueCampaign | undefined>[] {
    return [...this.refreshing.values()];
  }

  /**
   * Writes a refreshed campaign through to the copy, when it changed:
   * most refreshes find the same record, and each write is a change every
   * instance applies. A failed write is logged, not thrown: the application waiting on
   * the refresh has its answer, and the next sync corrects the shared copy.
   */
  private async writeThrough(
    id: number,
    before: CatalogueCampaign | undefined,
    after: CatalogueCampaign | undefined,
  ): Promise<void> {
    const { copy, log } = this.deps;
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

  private async refresh(id: number): Promise<CatalogueCampaign | undefined> {
    const { config, client } = this.deps;
    const { store } = this.deps.copy;
    const before = store.get(id);
    let campaign: Campaign;
    try {
      campaign = await client.campaigns.get(
        id,
        { embed: ['address', 'channels'] },
        { priority: 'high', signal: this.deps.signal() },
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        store.remove(id);
        await this.writeThrough(id, before, undefined);
        return undefined;
      }
      throw error;
    }
    if (!isBroadcastOn(campaign, config.channel) || !isCampaignOpenForApplications(campaign.status)) {
      store.remove(id);
      await this.writeThrough(id, before, undefined);
      return undefined;
    }
    const record = toCatalogueCampaign(campaign);
    store.upsert(record);
    await this.writeThrough(id, before, record);
    return record;
  }
}
