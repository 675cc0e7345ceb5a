// The stores the proxy's end-to-end scenarios run on: SQLite in the data
// directory always, and PostgreSQL (DATABASE_URL, a fresh database per
// scenario) when a test server is there. Databases are created when this
// module loads, at the top of the test file, so they are dropped when it ends.
import { freshDatabase, skipWithoutPostgres } from '../server/test/postgres.ts';
import { DUPLICATE_SETTINGS } from './proxy-apply.test-support.ts';

export interface ScenarioStore {
  name: 'SQLite' | 'PostgreSQL';
  /** The test's skip option (PostgreSQL without a server). */
  skip: false | string;
  /** Environment of the proxy for this store (DATABASE_URL for PostgreSQL). */
  env: Record<string, string>;
}

export const SQLITE_STORE: ScenarioStore = { name: 'SQLite', skip: false, env: {} };

/** A PostgreSQL store with a database of its own (skipped without a server). */
export async function postgresStore(): Promise<ScenarioStore> {
  const skip = skipWithoutPostgres();
  return { name: 'PostgreSQL', skip, env: skip === false ? { DATABASE_URL: await freshDatabase() } : {} };
}

/**
 * Every sandbox duplicates setting on SQLite, and on PostgreSQL the 'accept'
 * one only: there the service takes a second send, so only the store's claims
 * and leases keep an application from going twice; 'refuse' would add run
 * time and prove nothing more about the store.
 */
export async function scenarioMatrix(): Promise<
  { store: ScenarioStore; duplicates: (typeof DUPLICATE_SETTINGS)[number] }[]
> {
  return [
    ...DUPLICATE_SETTINGS.map((duplicates) => ({ store: SQLITE_STORE, duplicates })),
    { store: await postgresStore(), duplicates: 'accept' as const },
  ];
}
