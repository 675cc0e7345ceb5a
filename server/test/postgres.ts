// What the PostgreSQL tests use (the server itself: postgres-server.ts): the
// skip rule, and a fresh database per test file, dropped when the file ends.
import { after } from 'node:test';
import pg from 'pg';
import { migratePostgres } from '../proxy/storage/postgres-schema.ts';
import { HOW_TO_RUN, TEST_DATABASE_URL, createDatabase } from './postgres-server.ts';
import { eventually } from './poll.ts';

export { TEST_DATABASE_URL, createDatabase } from './postgres-server.ts';

let warned = false;

/**
 * The `skip` option for a PostgreSQL test or suite: false when a server is
 * configured, else the one-line reason (printed once per file). In CI the
 * server is required: the suite fails instead of skipping.
 */
export function skipWithoutPostgres(): false | string {
  if (TEST_DATABASE_URL !== undefined) return false;
  if (process.env.CI === 'true')
    throw new Error('CI=true but TEST_DATABASE_URL is not set: .ci/run starts PostgreSQL and sets it');
  if (!warned) {
    warned = true;
    console.log(`# ${HOW_TO_RUN}`);
  }
  return HOW_TO_RUN;
}

const toDrop: (() => Promise<void>)[] = [];

// Registered when the file imports this module, so it is the file's first
// after() hook (they run in the order registered), before the hooks that end
// the file's pools; a drop waits for those pools' connections to close. So the
// drops are started here and not awaited: the file's own hooks run meanwhile,
// and the pending drop keeps the process alive until it is done.
after(() => {
  const drops = toDrop.splice(0).map((drop) => drop());
  Promise.all(drops).catch((error: unknown) => {
    console.error('A test database could not be dropped:', error);
    process.exitCode = 1;
  });
});

/**
 * Creates an empty database on the test server and answers its URL; it is
 * dropped when the test file ends (connections still open are cut).
 */
export async function freshDatabase(): Promise<string> {
  const database = await createDatabase();
  toDrop.push(database.drop);
  return database.url;
}

/** A fresh database with the proxy's migrations applied, as a started proxy leaves it. */
export async function freshMigratedDatabase(): Promise<string> {
  const url = await freshDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migratePostgres(pool, url);
  } finally {
    await pool.end();
  }
  return url;
}

/**
 * Cuts every connection named `applicationName` to the database at `url` and
 * waits until the server has let them go, as when it restarts or the network
 * drops. That database's only: another run of the same test file at the same
 * time (the mutation check runs two) names its connections alike.
 */
export async function cutConnectionsOf(url: string, applicationName: string): Promise<void> {
  const killer = new pg.Client({ connectionString: url });
  await killer.connect();
  try {
    const { rows } = await killer.query<{ pid: number }>(
      'SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [applicationName],
    );
    // The connections cut, by pid: a client that reconnects at once opens new ones under the same name.
    const cut = rows.map((row) => row.pid);
    await eventually(
      async () =>
        (await killer.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ANY($1)', [cut]))
          .rows[0]?.n === '0',
      {
        timeoutMs: 10_000,
        what: `the connections of ${applicationName} to close`,
      },
    );
  } finally {
    await killer.end();
  }
}
