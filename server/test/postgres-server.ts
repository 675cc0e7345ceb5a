// The PostgreSQL server the tests and benches use: TEST_DATABASE_URL (CI sets it; see the
// README), else the development machines' usual server (127.0.0.1:5432,
// database test, user root or postgres) when one answers. Each test file or
// bench run gets a database of its own, so runs side by side never see each
// other's rows. With no server the PostgreSQL tests are skipped with one line
// saying how to run them (postgres.ts); in CI (CI=true) a missing server is a
// failure. Nothing here needs the test runner, so benches use it too.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const USUAL_SERVERS = ['postgres://root@127.0.0.1:5432/test', 'postgres://postgres@127.0.0.1:5432/test'];

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function findServer(): Promise<string | undefined> {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  for (const url of USUAL_SERVERS) if (await answers(url)) return url;
  return undefined;
}

export const TEST_DATABASE_URL = await findServer();

/**
 * The start of every test database's name. The mutation check sets its own
 * (TEST_DATABASE_PREFIX): its test runs end at their first failure, before
 * their hooks drop their databases, so it drops them by this name.
 */
export const TEST_DATABASE_PREFIX = process.env.TEST_DATABASE_PREFIX ?? 'jc_test';
if (!/^[a-z][a-z0-9_]{0,40}$/.test(TEST_DATABASE_PREFIX)) {
  throw new Error(
    `TEST_DATABASE_PREFIX "${TEST_DATABASE_PREFIX}" is not a database name start: use lower-case letters, digits and _ (at most 41)`,
  );
}

export const HOW_TO_RUN =
  'PostgreSQL tests skipped: set TEST_DATABASE_URL (e.g. postgres://root@127.0.0.1:5432/test) to run them';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The databases this process created and has not dropped yet. */
const undropped = new Set<string>();
/** Set once the process drops them all on its way out: tests still running then may not create more. */
let ending = false;

/**
 * Drops the databases this process created and has not dropped, connections
 * cut: for a process about to exit before its tests' hooks ran.
 */
export async function dropUndroppedDatabases(): Promise<void> {
  ending = true;
  if (TEST_DATABASE_URL === undefined || undropped.size === 0) return;
  await dropDatabases(TEST_DATABASE_URL, [...undropped]);
  undropped.clear();
}

/**
 * Creates an empty database on the test server and answers its URL and how
 * to drop it (connections still open are cut). For a test file, use
 * freshDatabase; this is for what runs outside the test runner (benches).
 */
export async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (TEST_DATABASE_URL === undefined) throw new Error(HOW_TO_RUN);
  if (ending) throw new Error('This process is ending and has dropped its test databases: no new one is created');
  const server = TEST_DATABASE_URL;
  const name = `${TEST_DATABASE_PREFIX}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    undropped.add(name);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(server, name),
    async drop() {
      const dropper = new pg.Client({ connectionString: server });
      await dropper.connect();
      try {
        // pg's pool.end() resolves before its backends have exited: a forced drop right away would cut
        // them mid-goodbye, an uncaught error in the test's process. Give them a moment (bounded) first.
        for (let waited = 0; waited < 2_000; waited += 50) {
          const { rows } = await dropper.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (rows[0]?.n === 0) break;
          await sleep(50);
        }
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        undropped.delete(name);
      } finally {
        await dropper.end();
      }
    },
  };
}

async function dropDatabases(server: string, names: readonly string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Drops every database of the test server whose name starts with prefix and _, connections cut. */
export async function dropDatabasesStartingWith(prefix: string): Promise<void> {
  if (TEST_DATABASE_URL === undefined) return;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  let names: string[];
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE left(datname, length($1)) = $1',
      [`${prefix}_`],
    );
    names = rows.map((r) => r.datname);
  } finally {
    await admin.end();
  }
  await dropDatabases(TEST_DATABASE_URL, names);
}
