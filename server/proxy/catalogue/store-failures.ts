// A sync's writes to the catalogue's store, told apart from the service's
// failures: the store failing fails the sync under a name of its own (so
// /readyz blames the store, not the service), and a record the store
// refuses is left out, logged and counted, never the page or the sync.
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { SkippedRecord } from './types.ts';

/** The name a sync's error carries when the store failed, not the service (SyncStatus.lastError.name). */
export const STORE_FAILURE = 'CatalogueStoreError';

export class CatalogueStoreError extends Error {
  override name = STORE_FAILURE;
  readonly code = 'store_failed';
}

/** Runs one call of the catalogue's copy; its failure is the store's. */
export async function inStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new CatalogueStoreError(`the catalogue's store failed: ${(error as Error).message}`, { cause: error });
  }
}

/** One log line per record the store left out, and the count of them. */
export function reportSkipped(log: Logger, counter: Counter | undefined, skipped: readonly SkippedRecord[]): void {
  for (const { id, reason } of skipped) {
    log.warn(
      { event: 'campaign_not_stored', campaign_id: id, reason },
      `campaign ${id} skipped: the catalogue's store cannot keep it`,
    );
  }
  if (skipped.length > 0) counter?.inc(skipped.length);
}
