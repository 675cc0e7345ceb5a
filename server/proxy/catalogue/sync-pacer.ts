// The catalogue's own cap on what its syncs spend: SYNC_BUDGET_SHARE of the
// service's requests a minute, counted in a sliding window like the client's
// budget (the same MemoryLedger), so that a full sync of a large catalogue is
// spread over as many minutes as it needs instead of draining the budget the
// applications share. One token of each window is kept for the sync of the
// newest offers, so that a walk in progress never delays it by a window.
import { DEFAULT_WINDOW_MS, MemoryLedger } from '../../client/index.ts';
import type { Clock } from '../../client/index.ts';
import { RATE_LIMIT_PER_MINUTE } from '../../contract/values.ts';

/** The window the share is counted in: the client budget's. */
export const SYNC_WINDOW_MS = DEFAULT_WINDOW_MS;

/** Which sync asks: a page of a full walk, or the one page of the newest offers. */
export type SyncKind = 'full' | 'newest';

export interface SyncPacer {
  /** Sync requests allowed per window, both kinds together. */
  readonly perWindow: number;
  /** Of which a full walk may take. */
  readonly fullPerWindow: number;
  /** Waits until a request of this kind fits in the share, then counts it. Rejects with the signal's reason when aborted. */
  take(kind: SyncKind, signal: AbortSignal): Promise<void>;
}

/** Sleeps `ms` (or until aborted); injectable so that tests move a fake clock instead of waiting. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export function createSyncPacer(share: number, clock: Clock, sleep: Sleep): SyncPacer {
  if (!(share > 0 && share <= 1))
    throw new RangeError(`the sync budget share must be greater than 0 and at most 1, got ${share}`);
  const perWindow = Math.max(1, Math.floor(share * RATE_LIMIT_PER_MINUTE));
  // With a single request a window, the two kinds take turns for it.
  const reserved = perWindow > 1 ? 1 : 0;
  const ledger = new MemoryLedger({ perMinute: perWindow, windowMs: SYNC_WINDOW_MS, reservedForHigh: reserved }, clock);
  return {
    perWindow,
    fullPerWindow: perWindow - reserved,
    async take(kind, signal) {
      for (;;) {
        signal.throwIfAborted();
        const answer = ledger.take(kind === 'newest' ? 'high' : 'low');
        if (answer.granted) return;
        await sleep(answer.retryInMs, signal);
      }
    },
  };
}
