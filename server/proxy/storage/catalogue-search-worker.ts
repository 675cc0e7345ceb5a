// A file catalogue's searches, run on a thread of their own
// (catalogue-search-thread.ts) rather than the event loop's: a search is up
// to its time budget of synchronous SQLite work, and on the event loop every
// other request (a health check, an application) would wait for it. The
// thread answers one search at a time, in the order asked.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SearchOverBudgetError } from '../catalogue/search-text.ts';
import type { CampaignFilters } from '../catalogue/types.ts';

export interface SearchThreadData {
  path: string;
  budgetMs: number;
}

export interface SearchRows {
  ids: number[];
  total: number;
}

/** The thread's answer to one search. */
export type SearchReply =
  | { id: number; rows: SearchRows }
  | { id: number; overBudget: { budgetMs: number; field: SearchOverBudgetError['field'] } }
  | { id: number; failed: string };

export interface SearchWorker {
  search(filters: CampaignFilters): Promise<SearchRows>;
  /** Stops the thread; searches still waiting are refused. */
  close(): void;
}

// The thread's module beside this one: .ts in a checkout, .js once built.
const THREAD = new URL(`./catalogue-search-thread${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** Searches of the catalogue file at path, on a thread started at the first search (and again after a thread that failed). */
export function createSearchWorker(data: SearchThreadData): SearchWorker {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (rows: SearchRows) => void; reject: (error: Error) => void }>();

  const refuseAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };

  const start = (): Worker => {
    const started = new Worker(THREAD, { workerData: data });
    // The searches waited for keep the process alive, not an idle thread.
    started.unref();
    started.on('message', (reply: SearchReply) => {
      const asked = waiting.get(reply.id);
      if (asked === undefined) return;
      waiting.delete(reply.id);
      if ('rows' in reply) asked.resolve(reply.rows);
      else if ('overBudget' in reply) asked.reject(new SearchOverBudgetError(reply.overBudget.budgetMs, reply.overBudget.field));
      else asked.reject(new Error(`the catalogue's search failed: ${reply.failed}`));
    });
    const ended = (error: Error) => {
      if (worker !== started) return;
      worker = undefined;
      refuseAll(error);
    };
    started.on('error', (error: Error) => ended(new Error(`the catalogue's search thread failed: ${error.message}`, { cause: error })));
    started.on('exit', (code) => ended(new Error(`the catalogue's search thread stopped (exit code ${code})`)));
    return started;
  };

  return {
    search(filters) {
      worker ??= start();
      const id = nextId++;
      const asked = worker;
      return new Promise<SearchRows>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        // Counted while a search waits: the process must live to answer it.
        asked.ref();
        asked.postMessage({ id, filters });
      }).finally(() => {
        if (waiting.size === 0 && worker === asked) asked.unref();
      });
    },
    close() {
      const stopping = worker;
      worker = undefined;
      refuseAll(new Error('the catalogue is closed'));
      void stopping?.terminate();
    },
  };
}
