// Versioned schema migrations, the same way for both stores: an ordered list
// of (version, name, up), the versions applied recorded in
// schema_migrations(version, name, applied_at), each run once under a lock
// (SQLite: one write transaction; PostgreSQL: an advisory lock, then one
// transaction per migration). Our own ~60 lines rather than a library
// (node-pg-migrate, umzug...): two stores, a handful of migrations, SQLite
// through node:sqlite that those libraries do not drive, and the 0.2.0
// resume-blob migration is code (files written), not SQL.

export interface MigrationRecord {
  version: number;
  name: string;
}

/** What a run did: the migrations it applied now, and the version the store is at. */
export interface MigrationReport {
  applied: MigrationRecord[];
  version: number;
}

/** Checks a list is in strictly increasing version order (a typo there would skip or repeat one). */
export function checkOrder(migrations: readonly MigrationRecord[]): void {
  migrations.forEach((m, i) => {
    if (i > 0 && m.version <= migrations[i - 1]!.version) throw new Error(`migration ${m.version} (${m.name}) is out of order`);
  });
}

/** A newer proxy wrote this store: running an older one over it could lose what it does not know. */
export function refuseNewer(applied: readonly number[], known: readonly MigrationRecord[], where: string): void {
  const latest = known.at(-1)?.version ?? 0;
  const newer = applied.filter((v) => v > latest);
  if (newer.length > 0) {
    throw new Error(`${where} was migrated by a newer jobboard-connector (schema version ${Math.max(...newer)}, this one knows up to ${latest}): run the newer version.`);
  }
}
