// One catalogue for several proxy instances on one PostgreSQL database.
// Exactly one instance at a time syncs from the service: the one holding a
// session-level advisory lock on a dedicated connection (when it dies, its
// connection closes, the lock goes with it, and another instance takes it at
// its next try). The syncing instance writes what each sync found changed to
// the shared copy (catalogue_campaigns, each record stamped with the version
// that last wrote it; catalogue_deletions, the ids removed) and announces the
// new version with NOTIFY. Every instance serves from its own in-memory
// store and, when the version changes (at once on the notification, and
// after a version check every second in case a notification was lost: a
// dropped connection loses them), applies only the records changed since the
// version it holds; it reloads the whole copy only at start, or when it is so
// far behind that the removals it missed were pruned. Requests never query
// PostgreSQL.
import type { Logger } from 'pino';
import type pg from 'pg';
import { z } from 'zod';
import { CAMPAIGN_STATUSES } from '../../../contract/index.ts';
import { CampaignAddress, CampaignDetail } from '../../../public-api/schemas.ts';
import type { CatalogueCampaign, CatalogueChanges, CatalogueCopy, SkippedRecord } from '../../catalogue/types.ts';
import { NEXT_VERSION, READ_CHANGES, READ_WHOLE, REMOVE_RECORDS, WRITE_RECORDS } from './catalogue-changes-sql.ts';
import { postgresRefusesRecord } from './catalogue-refused-records.ts';
import { openCatalogueStore } from './catalogue-sqlite.ts';

// The shared copy's tables (catalogue_campaigns, catalogue_deletions, catalogue_version) are created by the database's migrations (postgres-schema.ts).

/** The channel on which a new version is announced (payload: the version). */
const CHANNEL = 'catalogue_changed';
/** The key of the session-level advisory lock its holder syncs under. */
export const CATALOGUE_SYNC_LOCK = 7_262_001;

/** A stored record as the catalogue keeps it: the public detail plus what the store filters and orders on. */
// The public published_at is the record's listed_at, written once (reader.ts): not stored twice.
const StoredCampaign = CampaignDetail.omit({ published_at: true }).extend({
  status: z.enum(CAMPAIGN_STATUSES),
  listed_at: z.string(),
  // Records written before addresses had coordinates have none.
  address: CampaignAddress.extend({
    latitude: z.number().nullable().default(null),
    longitude: z.number().nullable().default(null),
  }).nullable(),
}) satisfies z.ZodType<CatalogueCampaign, unknown>;
const ChangeRow = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('version'),
    version: z.coerce.number().int(),
    synced_at: z.date().nullable(),
    pruned_version: z.coerce.number().int(),
  }),
  z.object({ kind: z.literal('upsert'), id: z.coerce.number().int(), record: z.unknown() }),
  z.object({ kind: z.literal('delete'), id: z.coerce.number().int() }),
]);
/** How many versions a removal is remembered (each sync page with changes, each written-through refresh takes one). */
const DEFAULT_KEEP_REMOVALS_FOR_VERSIONS = 10_000;

/** The copy several instances share on one PostgreSQL database. */
export interface SharedCatalogue extends CatalogueCopy {
  /** The shared version the local copy holds (0 before any sync). */
  version(): number;
  /** How the local copy last caught up: the changes since the version it held, or the whole copy. */
  lastCatchUp(): { kind: 'changes' | 'whole'; from: number; to: number } | null;
  /** Stops following, releases the lock (closes its connection) and the local store. */
  close(): Promise<void>;
}

export interface SharedCatalogueOptions {
  logger: Logger;
  /**
   * The instance's own folder (DATA_DIR): the local copy is kept in its
   * catalogue.db, so that its searches run on a thread of their own; in
   * memory without one. A file left by an earlier run is brought to the
   * shared copy by the first load, as any copy held is.
   */
  dataDir?: string;
  /** How often the version is checked in case a notification was lost (default 1,000 ms). */
  checkEveryMs?: number;
  /** How many versions a removal is remembered; an instance further behind reloads the whole copy (default 10,000). */
  keepRemovalsForVersions?: number;
}

/**
 * Opens the shared catalogue: loads the shared copy into the local store
 * before resolving (a new instance serves at once, with no upstream
 * call), then follows its changes: createCatalogue's `copy`.
 */
export async function openSharedCatalogueStore(
  pool: pg.Pool,
  options: SharedCatalogueOptions,
): Promise<SharedCatalogue> {
  const shared = createSharedCatalogue(pool, options);
  await shared.load();
  return shared;
}

/**
 * The shared catalogue before its first load: its (empty) store can be handed
 * to createCatalogue at once, and load() run once the database is migrated.
 */
export function createSharedCatalogue(
  pool: pg.Pool,
  options: SharedCatalogueOptions,
): SharedCatalogue & { load(): Promise<void> } {
  return new SharedCatalogueCopy(pool, options);
}

function missingTables(error: unknown): never {
  if ((error as { code?: unknown } | null)?.code !== '42P01') throw error;
  throw new Error(
    `the shared catalogue's tables are missing in the database (${(error as Error).message}): run the database migrations ('jobboard-connector migrate', or start the proxy), which create them`,
    {
      cause: error,
    },
  );
}

function readable(record: unknown, log: Logger): CatalogueCampaign | undefined {
  const parsed = StoredCampaign.safeParse(record);
  if (parsed.success) return parsed.data;
  log.warn(
    { event: 'shared_campaign_unreadable', fields: parsed.error.issues.map((i) => i.path.join('.')) },
    'a campaign of the shared catalogue copy is unreadable; left out',
  );
  return undefined;
}

/** The rows READ_CHANGES and READ_WHOLE answer: the version, the records written, the ids removed. */
function readRows(rows: unknown[], log: Logger) {
  let version: Extract<z.infer<typeof ChangeRow>, { kind: 'version' }> | undefined;
  const upserts: CatalogueCampaign[] = [];
  const deletes: number[] = [];
  for (const row of rows) {
    const change = ChangeRow.parse(row);
    if (change.kind === 'version') version = change;
    else if (change.kind === 'delete') deletes.push(change.id);
    else {
      const record = readable(change.record, log);
      // An unreadable record is not served in its older form either.
      if (record === undefined) deletes.push(change.id);
      else upserts.push(record);
    }
  }
  return { version, upserts, deletes };
}

/**
 * Writes the records at `version`: in one statement, or (`oneByOne`) each
 * in a savepoint, leaving out those PostgreSQL refuses.
 */
async function writeRecords(
  client: pg.PoolClient,
  upserts: readonly CatalogueCampaign[],
  version: number,
  oneByOne: boolean,
): Promise<SkippedRecord[]> {
  if (!oneByOne) {
    await client.query(WRITE_RECORDS, [JSON.stringify(upserts), version]);
    return [];
  }
  const skipped: SkippedRecord[] = [];
  for (const record of upserts) {
    await client.query('SAVEPOINT record');
    try {
      await client.query(WRITE_RECORDS, [JSON.stringify([record]), version]);
      await client.query('RELEASE SAVEPOINT record');
    } catch (error) {
      if (!postgresRefusesRecord(error)) throw error;
      await client.query('ROLLBACK TO SAVEPOINT record');
      skipped.push({ id: record.id, reason: (error as Error).message });
    }
  }
  return skipped;
}

/** The shared copy: the local store, the dedicated connection its changes are followed on, the writes. */
class SharedCatalogueCopy implements SharedCatalogue {
  readonly store: ReturnType<typeof openCatalogueStore>;
  readonly shared = true;
  private readonly pool: pg.Pool;
  private readonly log: Logger;
  private readonly keepRemovals: number;
  private readonly checkEveryMs: number;
  /** The shared version the local store holds. */
  private loaded = 0;
  private closed = false;
  /** The dedicated connection: LISTEN, and the sync lock while leading. */
  private dedicated: { client: pg.PoolClient; pid: number; leading: boolean } | undefined;
  private connecting: Promise<void> | undefined;
  private reloading: Promise<void> | undefined;
  private reloadAgain = false;
  /** The versions this instance is writing: it applies their changes itself. */
  private readonly writing = new Set<number>();
  private caughtUp: ReturnType<SharedCatalogue['lastCatchUp']> = null;
  private checkFailed = false;
  private checker: NodeJS.Timeout | undefined;
  private loading: Promise<void> | undefined;

  constructor(pool: pg.Pool, options: SharedCatalogueOptions) {
    this.pool = pool;
    this.log = options.logger.child({ module: 'catalogue' });
    this.store = openCatalogueStore(options.dataDir ?? ':memory:');
    this.keepRemovals = options.keepRemovalsForVersions ?? DEFAULT_KEEP_REMOVALS_FOR_VERSIONS;
    this.checkEveryMs = options.checkEveryMs ?? 1_000;
  }

  /**
   * Brings the local store to the shared version: the records changed since
   * the version held, or every record when none is held yet or the removals
   * since were pruned. One statement, so the version and its changes agree;
   * when nothing changed, it answers the version alone.
   */
  private async catchUp(): Promise<void> {
    const { pool, store, log } = this;
    const held = this.loaded;
    let whole = held === 0;
    let read = readRows(
      (await (whole ? pool.query(READ_WHOLE) : pool.query(READ_CHANGES, [held])).catch(missingTables)).rows,
      log,
    );
    if (!whole && read.version !== undefined && held < read.version.pruned_version) {
      whole = true;
      read = readRows((await pool.query(READ_WHOLE)).rows, log);
    }
    const { version, upserts, deletes } = read;
    if (version === undefined) {
      // No shared copy yet: what a file holds from an earlier run is not served.
      if (whole) store.applyChanges([], store.ids());
      return;
    }
    if (version.version === held) return;
    if (whole) {
      const kept = new Set(upserts.map((c) => c.id));
      deletes.push(...store.ids().filter((id) => !kept.has(id)));
    }
    store.applyChanges(upserts, deletes, version.synced_at ?? undefined);
    this.caughtUp = { kind: whole ? 'whole' : 'changes', from: held, to: version.version };
    this.loaded = version.version;
  }

  refresh(): Promise<void> {
    if (this.reloading !== undefined) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.reloadAgain = false;
        await this.catchUp();
      } while (this.reloadAgain && !this.closed);
    })().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private dropDedicated(error: unknown): void {
    if (this.dedicated === undefined) return;
    const lost = this.dedicated;
    this.dedicated = undefined;
    if (lost.leading)
      this.log.warn({ err: error }, 'catalogue sync lock lost with its connection; another instance may sync now');
    lost.client.release(error instanceof Error ? error : true);
  }

  private connect(): Promise<void> {
    const { pool, log } = this;
    this.connecting ??= (async () => {
      const client = await pool.connect();
      try {
        client.on('error', (error) => this.dropDedicated(error));
        client.on('notification', (message) => {
          if (message.channel !== CHANNEL || this.closed) return;
          // A version held already, or its own write's (announced before that write's COMMIT answers): nothing to read.
          const announced = Number(message.payload);
          if (announced <= this.loaded || this.writing.has(announced)) return;
          this.refresh().catch((error: unknown) => log.warn({ err: error }, 'catalogue reload failed'));
        });
        await client.query(`LISTEN ${CHANNEL}`);
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        this.dedicated = { client, pid: z.number().int().parse(rows[0]?.pid), leading: false };
      } catch (error) {
        client.release(true);
        throw error;
      }
      // Notifications sent while this connection was away are lost: look at the version now.
      await this.refresh();
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private check(): void {
    const { log } = this;
    (this.dedicated === undefined ? this.connect() : this.refresh()).then(
      () => {
        if (this.checkFailed) log.info('shared catalogue reachable again');
        this.checkFailed = false;
      },
      (error: unknown) => {
        if (!this.checkFailed)
          log.warn({ err: error }, 'shared catalogue unreachable; serving the copy held in memory');
        this.checkFailed = true;
      },
    );
  }

  /** Loads the shared copy, then follows its changes (LISTEN and the version check). */
  load(): Promise<void> {
    this.loading ??= (async () => {
      await this.catchUp();
      await this.connect();
      if (this.closed) return;
      this.checker = setInterval(() => this.check(), this.checkEveryMs);
      this.checker.unref();
    })();
    return this.loading;
  }

  /**
   * Writes changes to the shared copy at the next version, announces it, and
   * applies them here. A sync's write (`fromSync`) is refused unless this
   * instance's dedicated connection holds the sync lock.
   */
  private async writeVersion(
    changes: CatalogueChanges,
    syncedAt: Date | undefined,
    fromSync: boolean,
    oneByOne: boolean,
  ): Promise<SkippedRecord[]> {
    const { pool, store, writing } = this;
    const current = this.dedicated;
    if (fromSync && current?.leading !== true)
      throw new Error('not the syncing instance: the shared catalogue is written by the holder of the sync lock');
    const client = await pool.connect();
    let version: number | undefined;
    let skipped: SkippedRecord[] = [];
    try {
      await client.query('BEGIN');
      // The lock check, the version, the pruning and the announcement in one round trip.
      const { rows } = await client.query(NEXT_VERSION, [
        syncedAt ?? null,
        this.keepRemovals,
        CHANNEL,
        fromSync ? current!.pid : null,
        CATALOGUE_SYNC_LOCK,
      ]);
      if (rows[0] === undefined) throw new Error('the sync lock was lost during the sync: its result is not published');
      version = z.object({ version: z.coerce.number().int() }).parse(rows[0]).version;
      writing.add(version);
      if (changes.upserts.length > 0) skipped = await writeRecords(client, changes.upserts, version, oneByOne);
      if (changes.deletes.length > 0) await client.query(REMOVE_RECORDS, [changes.deletes, version]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
      // Applied below in this same turn of the event loop, before any announcement is handled; a version rolled back is taken again by the next write.
      if (version !== undefined) writing.delete(version);
    }
    const left = new Set(skipped.map((s) => s.id));
    const written = left.size === 0 ? changes.upserts : changes.upserts.filter((c) => !left.has(c.id));
    const skippedHere = store.applyChanges(written, changes.deletes, syncedAt);
    // These changes are in the local store now; skip reading them back unless others came in between.
    if (version === this.loaded + 1) this.loaded = version;
    return [...skipped, ...skippedHere];
  }

  /** A write whose records all go in one statement; when PostgreSQL refuses one of them, the whole write again, record by record, without it. */
  private async write(
    changes: CatalogueChanges,
    syncedAt: Date | undefined,
    fromSync: boolean,
  ): Promise<SkippedRecord[]> {
    try {
      return await this.writeVersion(changes, syncedAt, fromSync, false);
    } catch (error) {
      if (changes.upserts.length === 0 || !postgresRefusesRecord(error)) throw error;
    }
    return this.writeVersion(changes, syncedAt, fromSync, true);
  }

  async lead(): Promise<boolean> {
    if (this.closed) return false;
    if (this.dedicated === undefined) await this.connect();
    const current = this.dedicated;
    if (current === undefined) return false;
    if (current.leading) {
      // Still connected means still holding it; a broken connection throws here and drops it.
      await current.client.query('SELECT 1');
      return true;
    }
    const { rows } = await current.client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [
      CATALOGUE_SYNC_LOCK,
    ]);
    current.leading = rows[0]?.ok === true;
    if (current.leading) this.log.info('this instance syncs the shared catalogue');
    return current.leading;
  }

  applyChanges(changes: CatalogueChanges, syncedAt?: Date): Promise<SkippedRecord[]> {
    return this.write(changes, syncedAt, true);
  }

  async upsert(campaign: CatalogueCampaign): Promise<void> {
    await this.write({ upserts: [campaign], deletes: [] }, undefined, false);
  }

  async remove(id: number): Promise<void> {
    await this.write({ upserts: [], deletes: [id] }, undefined, false);
  }

  leading(): boolean {
    return this.dedicated?.leading === true;
  }

  version(): number {
    return this.loaded;
  }

  lastCatchUp(): ReturnType<SharedCatalogue['lastCatchUp']> {
    return this.caughtUp;
  }

  async close(): Promise<void> {
    const { pool } = this;
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.checker);
    await Promise.allSettled([this.loading, this.connecting, this.reloading]);
    if (this.dedicated !== undefined) {
      const { client } = this.dedicated;
      this.dedicated = undefined;
      // Destroyed, not handed back: its session and the lock end with it. Waited for, so that another instance's next try takes the lock.
      const ended = new Promise<void>((resolve) => {
        const removed = (gone: pg.PoolClient) => {
          if (gone !== client) return;
          pool.off('remove', removed);
          resolve();
        };
        pool.on('remove', removed);
      });
      client.release(true);
      await ended;
    }
    this.store.close();
  }
}
