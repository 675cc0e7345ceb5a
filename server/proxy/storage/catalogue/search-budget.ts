// A time budget for one search of the SQLite catalogue. node:sqlite runs a
// statement synchronously and offers neither SQLite's progress handler nor
// sqlite3_interrupt, so the budget is checked from inside the statement: an
// SQL function the search's statements call for one row in 64 they consider
// (by id: calling into JavaScript for every row cost as much as a search)
// throws once the budget is spent, and SQLite stops the statement there. A
// search's statements run one after the other; the same deadline holds
// across them. The budget is of the thread's own CPU time, not of the
// clock: the cost of the search itself, which other work on a busy machine
// does not inflate.
import type { DatabaseSync } from 'node:sqlite';
import { SearchOverBudgetError } from '../../catalogue/search-text.ts';

const FUNCTION = 'within_search_budget';

/** Rows between two checks of the budget (a power of two). */
const ROWS_PER_CHECK = 64;

/** The check, for a search's WHERE: true, or the statement stops; `id` is the column of the row's id (SQLite evaluates OR's right side only when the left is false). */
export function withinBudget(id: string): string {
  return `((${id} & ${ROWS_PER_CHECK - 1}) != 0 OR ${FUNCTION}())`;
}

/** The CPU time this thread has used, in milliseconds. */
function threadCpuMs(): number {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
}

export interface SearchBudget {
  /** Runs one search's statements under the budget; throws SearchOverBudgetError, naming what made the search costly, once it is spent. */
  run<T>(costly: SearchOverBudgetError['field'], search: () => T): T;
}

/** Registers the budget's SQL function on db: each search run through it gets budgetMs. */
export function createSearchBudget(db: DatabaseSync, budgetMs: number, now: () => number = threadCpuMs): SearchBudget {
  let deadline = Number.POSITIVE_INFINITY;
  let costly: SearchOverBudgetError['field'] = 'q';
  db.function(FUNCTION, { deterministic: false, directOnly: true }, () => {
    if (now() >= deadline) throw new SearchOverBudgetError(budgetMs, costly);
    return 1;
  });
  return {
    run(field, search) {
      costly = field;
      deadline = now() + budgetMs;
      try {
        return search();
      } finally {
        deadline = Number.POSITIVE_INFINITY;
      }
    },
  };
}
