// The service's 120 requests a minute as one budget for every proxy instance
// on one PostgreSQL database: a BudgetLedger (see server/client/budget.ts)
// whose tokens are rows of spent times, so three instances behind a balancer
// spend 120 a minute together, not 120 each.
//
// Each take is one call of upstream_budget_take(), one transaction that:
// waits for the budget's transaction-level advisory lock (takes are serialised,
// so two instances can never both see the last free token), forgets the times
// older than the window, and spends a token when the priority may have one.
// Times come from the database's clock (clock_timestamp()), so the instances'
// own clocks do not matter. The cost is one round-trip per upstream request,
// plus one every 250 ms at most per instance while requests wait.
//
// What each instance keeps to itself: its queue of waiting requests, high
// before low (RequestBudget). What is shared: the spent times, a pause after a
// `rate_limited` answer (seen by one instance, it holds all), and a mark that
// a high-priority request waits somewhere, which makes low-priority takes wait
// until it was served, whatever instance it waits in.
import type pg from 'pg';
import { z } from 'zod';
import { RequestBudget } from '../../../client/index.ts';
import type {
  BudgetLedger,
  BudgetLimits,
  LedgerAnswer,
  Priority,
  RequestBudgetOptions,
} from '../../../client/index.ts';

/** How long a refused high-priority take keeps low-priority takes waiting; its instance asks again well within it. */
const HIGH_WAITING_MARK_MS = 1_000;

// Its tables and upstream_budget_take() are created by the database's migrations (postgres-schema.ts).

/** PostgreSQL's codes for a missing table and a missing function: the migrations have not run. */
const MISSING_SCHEMA_CODES = new Set(['42P01', '42883']);

/** Says what to do when the shared budget's tables are missing, else the error as it is. */
function explained(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !MISSING_SCHEMA_CODES.has(code)) return error;
  return new Error(
    `the shared request budget's tables are missing in the database (${(error as Error).message}): run the database migrations ('jobboard-connector migrate', or start the proxy), which create them`,
    {
      cause: error,
    },
  );
}

const TakeRow = z.object({ retry_ms: z.int().min(0), used: z.int().min(0) });

/** A budget's name: several API clients may share one database, each with its own budget. */
const BudgetName = z.string().regex(/^[a-z0-9_.:-]{1,100}$/, 'letters a-z, digits and ._:- only, 1 to 100 characters');

export interface SharedBudgetOptions extends Omit<RequestBudgetOptions, 'clock' | 'ledger'> {
  /** The budget's name in the tables, one per API client (default 'upstream'). Every instance must use the same name, limits and window. */
  name?: string;
  /** Told when a pause could not be written to the database (this instance still holds it). */
  onError?: (error: unknown, what: string) => void;
}

/** The ledger of a budget shared through PostgreSQL; RequestBudget asks it one question at a time. */
export class PostgresBudgetLedger implements BudgetLedger {
  readonly #pool: pg.Pool;
  readonly #name: string;
  readonly #limits: BudgetLimits;
  readonly #onError: (error: unknown, what: string) => void;
  /** This instance's own pause, so that it holds at once, before the database has it. */
  #pausedUntil = 0;
  /** Tokens spent in the window at this instance's last take. */
  #used = 0;

  constructor(
    pool: pg.Pool,
    name: string,
    limits: BudgetLimits,
    onError: (error: unknown, what: string) => void = () => {},
  ) {
    const parsed = BudgetName.safeParse(name);
    if (!parsed.success)
      throw new Error(`shared budget name "${name}" is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    this.#pool = pool;
    this.#name = parsed.data;
    this.#limits = limits;
    this.#onError = onError;
  }

  async take(priority: Priority): Promise<LedgerAnswer> {
    const pausedFor = this.#pausedUntil - Date.now();
    if (pausedFor > 0) return { granted: false, retryInMs: pausedFor };
    const { rows } = await this.#pool
      .query('SELECT retry_ms, used FROM upstream_budget_take($1, $2, $3, $4, $5, $6)', [
        this.#name,
        priority,
        this.#limits.perMinute,
        this.#limits.reservedForHigh,
        this.#limits.windowMs,
        HIGH_WAITING_MARK_MS,
      ])
      .catch((error: unknown) => {
        throw explained(error);
      });
    const row = TakeRow.parse(rows[0]);
    this.#used = row.used;
    return row.retry_ms === 0 ? { granted: true } : { granted: false, retryInMs: row.retry_ms };
  }

  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
    this.#pool
      .query(
        `INSERT INTO upstream_budget_state (budget, paused_until) VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
         ON CONFLICT (budget) DO UPDATE SET paused_until = greatest(upstream_budget_state.paused_until, excluded.paused_until)`,
        [this.#name, Math.ceil(ms)],
      )
      .catch((error: unknown) =>
        this.#onError(
          explained(error),
          'shared budget pause not written; the other instances will meet the limit themselves',
        ),
      );
  }

  available(priority: Priority): number {
    if (Date.now() < this.#pausedUntil) return 0;
    const limit = priority === 'high' ? this.#limits.perMinute : this.#limits.perMinute - this.#limits.reservedForHigh;
    return Math.max(0, limit - this.#used);
  }
}

/**
 * A RequestBudget spending from the budget shared by every instance on this
 * database: pass it as the client's `budget`. Same limits as an in-memory
 * budget (120 a minute, a 62 s window, 10% reserved for high priority).
 */
export function createSharedBudget(pool: pg.Pool, options: SharedBudgetOptions = {}): RequestBudget {
  const { name = 'upstream', onError, ...limits } = options;
  return new RequestBudget({ ...limits, ledger: (sized) => new PostgresBudgetLedger(pool, name, sized, onError) });
}
