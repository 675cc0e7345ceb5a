// The thread a file catalogue's searches run on (catalogue-search-worker.ts
// starts it): its own read-only connection to the same file, the same
// statements and time budget as a search on the event loop's thread, and the
// page's records read in the same transaction. SQLite in WAL mode lets it read
// while the store writes.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { SearchOverBudgetError } from '../../catalogue/search-text.ts';
import type { CampaignFilters } from '../../catalogue/types.ts';
import { createCatalogueSearch } from './catalogue-search-sqlite.ts';
import type { SearchReply, SearchThreadData } from './catalogue-search-worker.ts';

const { path, budgetMs } = workerData as SearchThreadData;
const db = new DatabaseSync(path, { readOnly: true });
db.exec('PRAGMA busy_timeout = 5000');
const search = createCatalogueSearch(db, budgetMs);
const record = db.prepare('SELECT record FROM campaign_records WHERE id = ?');

function found(filters: CampaignFilters): SearchReply {
  db.exec('BEGIN');
  try {
    const { ids, total } = search(filters);
    return { found: { records: ids.map((id) => (record.get(id) as { record: string }).record), total } };
  } finally {
    db.exec('COMMIT');
  }
}

parentPort!.on('message', (filters: CampaignFilters) => {
  let reply: SearchReply;
  try {
    reply = found(filters);
  } catch (error) {
    reply =
      error instanceof SearchOverBudgetError
        ? { overBudget: { budgetMs: error.budgetMs, field: error.field } }
        : { failed: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
