// A file catalogue's searches, run on a thread of their own
// (catalogue-search-thread.ts) rather than the event loop's: a search is up
// to its time budget of synchronous SQLite work, and on the event loop every
// other request (a health check, an application) would wait for it. The
// thread answers one search at a time, in the order asked, with the records
// it found as stored (read in the same transaction as the search).
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SearchOverBudgetError } from '../../catalogue/search-text.ts';
import type { CampaignFilters } from '../../catalogue/types.ts';

export interface SearchThreadData {
  path: string;
  /** undefined: the search's default budget. */
  budgetMs: number | undefined;
}

/** A search's page of records (JSON, as stored) and its count of matches. */
export interface FoundRecords {
  records: string[];
  total: number;
}

/** The thread's answer to the oldest search it was asked. */
export type SearchReply =
  | { found: FoundRecords }
  | { overBudget: { budgetMs: number; field: SearchOverBudgetError['field'] } }
  | { failed: string };

export interface SearchWorker {
  search(filters: CampaignFilters): Promise<FoundRecords>;
  /** Stops the thread; searches still waiting are refused. */
  close(): void;
}

// The thread's module beside this one: .ts in a checkout, .js once built.
const THREAD = new URL(`./catalogue-search-thread${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/**
 * Searches of the catalogue file at path, on a thread started at the first
 * search, and again after a thread that failed. The thread does not keep the
 * process alive: the server whose routes search does.
 */
export function createSearchWorker(data: SearchThreadData): SearchWorker {
  let worker: Worker | undefined;
  // The searches asked and not answered yet, oldest first: the thread answers in that order.
  const waiting: { resolve: (found: FoundRecords) => void; reject: (error: Error) => void }[] = [];

  const refuseAll = (error: Error) => {
    for (const { reject } of waiting.splice(0)) reject(error);
  };

  const start = (): Worker => {
    const started = new Worker(THREAD, { workerData: data });
    started.unref();
    started.on('message', (reply: SearchReply) => {
      const asked = waiting.shift()!;
      if ('found' in reply) asked.resolve(reply.found);
      else if ('overBudget' in reply)
        asked.reject(new SearchOverBudgetError(reply.overBudget.budgetMs, reply.overBudget.field));
      else asked.reject(new Error(`the catalogue's search failed: ${reply.failed}`));
    });
    // A thread that cannot open the file, or dies: its searches are refused, and the next search starts another.
    started.on('error', (error: Error) => {
      worker = undefined;
      refuseAll(new Error(`the catalogue's search thread failed: ${error.message}`, { cause: error }));
    });
    return started;
  };

  return {
    search(filters) {
      worker ??= start();
      const asking = worker;
      return new Promise<FoundRecords>((resolve, reject) => {
        waiting.push({ resolve, reject });
        asking.postMessage(filters);
      });
    },
    close() {
      const stopping = worker;
      worker = undefined;
      // No answer is read after this: those still waiting are refused now.
      stopping?.removeAllListeners('message');
      refuseAll(new Error('the catalogue is closed'));
      void stopping?.terminate();
    },
  };
}
