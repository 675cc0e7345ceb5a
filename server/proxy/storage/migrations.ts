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
    if (i > 0 && m.version <= migrations[i - 1]!.version)
      throw new Error(`migration ${m.version} (${m.name}) is out of order`);
  });
}

/**
 * The store's schema is older than this proxy needs and the proxy's own
 * database role may not change it: the owner migrates it, once, with the
 * migrate command.
 */
export class SchemaBehindError extends Error {
  /** The version the store is at (0: never migrated). */
  readonly current: number;
  /** The version this proxy needs. */
  readonly needed: number;

  constructor(where: string, current: number, needed: number, options?: ErrorOptions) {
    const why = options?.cause instanceof Error ? ` (${options.cause.message})` : '';
    super(
      `${where}: the schema is at version ${current}, this proxy needs version ${needed}, and its database role may not migrate it${why}: run \`jobboard-connector migrate\` with the owner's DATABASE_URL, then start the proxy again.`,
      options,
    );
    this.name = 'SchemaBehindError';
    this.current = current;
    this.needed = needed;
  }
}

/** A newer proxy wrote this store: running an older one over it could lose what it does not know. */
export function refuseNewer(applied: readonly number[], known: readonly MigrationRecord[], where: string): void {
  const latest = known.at(-1)?.version ?? 0;
  const newer = applied.filter((v) => v > latest);
  if (newer.length > 0) {
    throw new Error(
      `${where} was migrated by a newer jobboard-connector (schema version ${Math.max(...newer)}, this one knows up to ${latest}): run the newer version.`,
    );
  }
}
