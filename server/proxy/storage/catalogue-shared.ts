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
import { CAMPAIGN_STATUSES } from '../../contract/index.ts';
import { CampaignAddress, CampaignDetail } from '../../public-api/schemas.ts';
import type { CatalogueCampaign, CatalogueChanges, CatalogueCopy, SkippedRecord } from '../catalogue/types.ts';
import { NEXT_VERSION, READ_CHANGES, READ_WHOLE, REMOVE_RECORDS, WRITE_RECORDS } from './catalogue-changes-sql.ts';
import { postgresRefusesRecord } from './catalogue-refused-records.ts';
import { openCatalogueStore } from './catalogue-sqlite.ts';

// The shared copy's tables (catalogue_campaigns, catalogue_deletions, catalogue_version) are created by the database's migrations (postgres-schema.ts).

/** The channel on which a new version is announced (payload: the version). */
const CHANNEL = 'catalogue_changed';
/** The key of the session-level advisory lock its holder syncs under. */
export const CATALOGUE_SYNC_LOCK = 7_262_001;

/** A stored record as the catalogue keeps it: the public detail plus what the store filters and orders on. */
const StoredCampaign = CampaignDetail.extend({
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
  const log = options.logger.child({ module: 'catalogue' });
  const store = openCatalogueStore(options.dataDir ?? ':memory:');
  let loaded = 0;
  let closed = false;
  /** The dedicated connection: LISTEN, and the sync lock while leading. */
  let dedicated: { client: pg.PoolClient; pid: number; leading: boolean } | undefined;
  let connecting: Promise<void> | undefined;
  let reloading: Promise<void> | undefined;
  let reloadAgain = false;
  /** The versions this instance is writing: it applies their changes itself. */
  const writing = new Set<number>();

  const keepRemovals = options.keepRemovalsForVersions ?? DEFAULT_KEEP_REMOVALS_FOR_VERSIONS;
  let lastCatchUp: ReturnType<SharedCatalogue['lastCatchUp']> = null;

  const missingTables = (error: unknown): never => {
    if ((error as { code?: unknown } | null)?.code !== '42P01') throw error;
    throw new Error(
      `the shared catalogue's tables are missing in the database (${(error as Error).message}): run the database migrations ('jobboard-connector migrate', or start the proxy), which create them`,
      {
        cause: error,
      },
    );
  };

  const readable = (record: unknown): CatalogueCampaign | undefined => {
    const parsed = StoredCampaign.safeParse(record);
    if (parsed.success) return parsed.data;
    log.warn(
      { event: 'shared_campaign_unreadable', fields: parsed.error.issues.map((i) => i.path.join('.')) },
      'a campaign of the shared catalogue copy is unreadable; left out',
    );
    return undefined;
  };

  /** The rows READ_CHANGES and READ_WHOLE answer: the version, the records written, the ids removed. */
  const readRows = (rows: unknown[]) => {
    let version: Extract<z.infer<typeof ChangeRow>, { kind: 'version' }> | undefined;
    const upserts: CatalogueCampaign[] = [];
    const deletes: number[] = [];
    for (const row of rows) {
      const change = ChangeRow.parse(row);
      if (change.kind === 'version') version = change;
      else if (change.kind === 'delete') deletes.push(change.id);
      else {
        const record = readable(change.record);
        // An unreadable record is not served in its older form either.
        if (record === undefined) deletes.push(change.id);
        else upserts.push(record);
      }
    }
    return { version, upserts, deletes };
  };

  /**
   * Brings the local store to the shared version: the records changed since
   * the version held, or every record when none is held yet or the removals
   * since were pruned. One statement, so the version and its changes agree;
   * when nothing changed, it answers the version alone.
   */
  const catchUp = async () => {
    const held = loaded;
    let whole = held === 0;
    let read = readRows(
      (await (whole ? pool.query(READ_WHOLE) : pool.query(READ_CHANGES, [held])).catch(missingTables)).rows,
    );
    if (!whole && read.version !== undefined && held < read.version.pruned_version) {
      whole = true;
      read = readRows((await pool.query(READ_WHOLE)).rows);
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
    lastCatchUp = { kind: whole ? 'whole' : 'changes', from: held, to: version.version };
    loaded = version.version;
  };

  const refresh = (): Promise<void> => {
    if (reloading !== undefined) {
      reloadAgain = true;
      return reloading;
    }
    reloading = (async () => {
      do {
        reloadAgain = false;
        await catchUp();
      } while (reloadAgain && !closed);
    })().finally(() => (reloading = undefined));
    return reloading;
  };

  const dropDedicated = (error: unknown) => {
    if (dedicated === undefined) return;
    const lost = dedicated;
    dedicated = undefined;
    if (lost.leading)
      log.warn({ err: error }, 'catalogue sync lock lost with its connection; another instance may sync now');
    lost.client.release(error instanceof Error ? error : true);
  };

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const client = await pool.connect();
      try {
        client.on('error', (error) => dropDedicated(error));
        client.on('notification', (message) => {
          if (message.channel !== CHANNEL || closed) return;
          // A version held already, or its own write's (announced before that write's COMMIT answers): nothing to read.
          const announced = Number(message.payload);
          if (announced <= loaded || writing.has(announced)) return;
          refresh().catch((error: unknown) => log.warn({ err: error }, 'catalogue reload failed'));
        });
        await client.query(`LISTEN ${CHANNEL}`);
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        dedicated = { client, pid: z.number().int().parse(rows[0]?.pid), leading: false };
      } catch (error) {
        client.release(true);
        throw error;
      }
      // Notifications sent while this connection was away are lost: look at the version now.
      await refresh();
    })().finally(() => (connecting = undefined));
    return connecting;
  };

  const checkEveryMs = options.checkEveryMs ?? 1_000;
  let checkFailed = false;
  let checker: NodeJS.Timeout | undefined;
  const check = () => {
    (dedicated === undefined ? connect() : refresh()).then(
      () => {
        if (checkFailed) log.info('shared catalogue reachable again');
        checkFailed = false;
      },
      (error: unknown) => {
        if (!checkFailed) log.warn({ err: error }, 'shared catalogue unreachable; serving the copy held in memory');
        checkFailed = true;
      },
    );
  };
  let loading: Promise<void> | undefined;
  /** Loads the shared copy, then follows its changes (LISTEN and the version check). */
  const load = (): Promise<void> => {
    loading ??= (async () => {
      await catchUp();
      await connect();
      if (closed) return;
      checker = setInterval(check, checkEveryMs);
      checker.unref();
    })();
    return loading;
  };

  /**
   * Writes the records at `version`: in one statement, or (`oneByOne`) each
   * in a savepoint, leaving out those PostgreSQL refuses.
   */
  const writeRecords = async (
    client: pg.PoolClient,
    upserts: readonly CatalogueCampaign[],
    version: number,
    oneByOne: boolean,
  ): Promise<SkippedRecord[]> => {
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
  };

  /**
   * Writes changes to the shared copy at the next version, announces it, and
   * applies them here. A sync's write (`fromSync`) is refused unless this
   * instance's dedicated connection holds the sync lock.
   */
  const writeVersion = async (
    changes: CatalogueChanges,
    syncedAt: Date | undefined,
    fromSync: boolean,
    oneByOne: boolean,
  ): Promise<SkippedRecord[]> => {
    const current = dedicated;
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
        keepRemovals,
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
    if (version === loaded + 1) loaded = version;
    return [...skipped, ...skippedHere];
  };

  /** A write whose records all go in one statement; when PostgreSQL refuses one of them, the whole write again, record by record, without it. */
  const write = async (
    changes: CatalogueChanges,
    syncedAt: Date | undefined,
    fromSync: boolean,
  ): Promise<SkippedRecord[]> => {
    try {
      return await writeVersion(changes, syncedAt, fromSync, false);
    } catch (error) {
      if (changes.upserts.length === 0 || !postgresRefusesRecord(error)) throw error;
    }
    return writeVersion(changes, syncedAt, fromSync, true);
  };

  return {
    store,
    shared: true,
    load,
    async lead() {
      if (closed) return false;
      if (dedicated === undefined) await connect();
      const current = dedicated;
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
      if (current.leading) log.info('this instance syncs the shared catalogue');
      return current.leading;
    },
    applyChanges: (changes, syncedAt) => write(changes, syncedAt, true),
    async upsert(campaign) {
      await write({ upserts: [campaign], deletes: [] }, undefined, false);
    },
    async remove(id) {
      await write({ upserts: [], deletes: [id] }, undefined, false);
    },
    refresh,
    leading: () => dedicated?.leading === true,
    version: () => loaded,
    lastCatchUp: () => lastCatchUp,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(checker);
      await Promise.allSettled([loading, connecting, reloading]);
      if (dedicated !== undefined) {
        const { client } = dedicated;
        dedicated = undefined;
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
      store.close();
    },
  };
}
