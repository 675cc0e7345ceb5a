// The PostgreSQL connection the proxy's shared stores use (DATABASE_URL): one
// pg.Pool per process, opened here and handed to each store that needs it.
import pg from 'pg';
import type { Raw, Sql } from './sql.ts';

/**
 * Connections per instance: 10 for deliveries in flight, requests being
 * stored, budget takes and the sweeps, plus the one the shared catalogue keeps
 * for LISTEN and its sync lock.
 */
export const POOL_SIZE = 11;

/**
 * A pool for `url` (postgres:// or postgresql://). pg connects lazily: a wrong
 * address or password shows at the first query (the migrations, at start).
 * An idle client that loses its server emits an error; without a listener it
 * would end the process, so it is logged and the pool drops that client.
 */
export function openPostgres(url: string, onIdleError: (error: Error) => void = () => {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: 10_000 });
  pool.on('error', onIdleError);
  return pool;
}

/** Runs `fn` in one transaction on one client of the pool (rolled back if it throws). */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The PostgreSQL side of the seam (Sql, sql.ts): each statement on the pool,
 * a transaction on one client of it; on that client's runner, a nested
 * transaction joins the one open.
 */
export function postgresSql(pool: pg.Pool): Sql {
  return { ...statementsOn(pool), transaction: (work) => inTransaction(pool, (client) => work(clientSql(client))) };
}

function clientSql(client: pg.PoolClient): Sql {
  const sql: Sql = { ...statementsOn(client), transaction: (work) => work(sql) };
  return sql;
}

function statementsOn(runner: pg.Pool | pg.PoolClient): Pick<Sql, 'all' | 'run'> {
  return {
    all: async (text, params = []) => (await runner.query(text, [...params])).rows as Raw[],
    run: async (text, params = []) => (await runner.query(text, [...params])).rowCount ?? 0,
  };
}
