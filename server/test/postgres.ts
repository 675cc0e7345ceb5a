// The PostgreSQL server the tests use: TEST_DATABASE_URL (CI sets it; see the
// README). Each test file gets a database of its own, created here and
// dropped afterwards, so files running side by side never see each other's
// rows. Without TEST_DATABASE_URL the PostgreSQL tests are skipped with one
// line saying how to run them; in CI (CI=true) a missing server is a failure.
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

const HOW_TO_RUN = 'PostgreSQL tests skipped: set TEST_DATABASE_URL (e.g. postgres://root@127.0.0.1:5432/test) to run them';

let warned = false;

/**
 * The `skip` option for a PostgreSQL test or suite: false when a server is
 * configured, else the one-line reason (printed once per file). In CI the
 * server is required: the suite fails instead of skipping.
 */
export function skipWithoutPostgres(): false | string {
  if (TEST_DATABASE_URL !== undefined) return false;
  if (process.env.CI === 'true') throw new Error('CI=true but TEST_DATABASE_URL is not set: .ci/run starts PostgreSQL and sets it');
  if (!warned) {
    warned = true;
    console.log(`# ${HOW_TO_RUN}`);
  }
  return HOW_TO_RUN;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Creates an empty database on the test server and answers its URL; it is
 * dropped when the test file ends (connections still open are cut).
 */
export async function freshDatabase(): Promise<string> {
  if (TEST_DATABASE_URL === undefined) throw new Error(HOW_TO_RUN);
  const name = `jc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  after(async () => {
    const dropper = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await dropper.connect();
    try {
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await dropper.end();
    }
  });
  return withDatabase(TEST_DATABASE_URL, name);
}
