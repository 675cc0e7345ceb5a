// Whether the shared PostgreSQL database (DATABASE_URL) answers, for
// /readyz: a store opened at start says nothing of a database that went away
// since, and no application can be stored (or delivered) without it. A ping
// every 2 seconds, on the pool the stores use; /readyz reads its last answer.
import type pg from 'pg';

export interface DatabaseWatch {
  /** The last ping's answer, a check of /readyz: ready unless it failed. */
  check(): { ready: boolean; status: string; [key: string]: unknown };
  start(): void;
  stop(): void;
}

export function watchDatabase(
  pool: pg.Pool,
  location: string,
  options: { intervalMs?: number; timeoutMs?: number } = {},
): DatabaseWatch {
  const intervalMs = options.intervalMs ?? 2_000;
  const timeoutMs = options.timeoutMs ?? 2_000;
  let failure: { error: string; since: Date } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let pinging = false;

  async function ping(): Promise<void> {
    if (pinging) return;
    pinging = true;
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        pool.query('SELECT 1'),
        new Promise((_, reject) => {
          timeout = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      failure = undefined;
    } catch (error) {
      failure ??= { error: error instanceof Error ? error.message : String(error), since: new Date() };
    } finally {
      clearTimeout(timeout);
      pinging = false;
    }
  }

  return {
    check() {
      if (failure === undefined) return { status: 'ok', ready: true };
      return {
        status: 'unreachable',
        ready: false,
        database: location,
        since: failure.since.toISOString(),
        error: failure.error,
        fix: 'check that the database server runs and answers at DATABASE_URL; applications cannot be stored meanwhile',
      };
    },
    start() {
      if (timer !== undefined) return;
      timer = setInterval(() => void ping(), intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
