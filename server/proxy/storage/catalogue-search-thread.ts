// The thread a file catalogue's searches run on (catalogue-search-worker.ts
// starts it): its own read-only connection to the same file, the same
// statements and time budget as a search on the event loop's thread. SQLite
// in WAL mode lets it read while the store writes.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { SearchOverBudgetError } from '../catalogue/search-text.ts';
import type { CampaignFilters } from '../catalogue/types.ts';
import { createCatalogueSearch } from './catalogue-search-sqlite.ts';
import type { SearchReply, SearchThreadData } from './catalogue-search-worker.ts';

const { path, budgetMs } = workerData as SearchThreadData;
const db = new DatabaseSync(path, { readOnly: true });
db.exec('PRAGMA busy_timeout = 5000');
const search = createCatalogueSearch(db, budgetMs);

parentPort!.on('message', ({ id, filters }: { id: number; filters: CampaignFilters }) => {
  let reply: SearchReply;
  try {
    reply = { id, rows: search(filters) };
  } catch (error) {
    reply = error instanceof SearchOverBudgetError
      ? { id, overBudget: { budgetMs: error.budgetMs, field: error.field } }
      : { id, failed: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
