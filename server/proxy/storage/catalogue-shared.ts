// One catalogue for several proxy instances on one PostgreSQL database.
// Exactly one instance at a time syncs from the service: the one holding a
// session-level advisory lock on a dedicated connection (when it dies, its
// connection closes, the lock goes with it, and another instance takes it at
// its next try). The syncing instance writes each complete sync to the shared
// copy (catalogue_campaigns, plus a version row) and announces the new
// version with NOTIFY. Every instance serves from its own in-memory store,
// reloaded when the version changes: at once on the notification, and after
// a version check every second in case a notification was lost (a dropped
// connection loses them). Requests never query PostgreSQL.
import type { Logger } from 'pino';
import type pg from 'pg';
import { z } from 'zod';
import { CAMPAIGN_STATUSES } from '../../contract/index.ts';
import { CampaignAddress, CampaignDetail } from '../../public-api/schemas.ts';
import type { CatalogueCampaign, CatalogueCopy } from '../catalogue/types.ts';
import { openCatalogueStore } from './catalogue-sqlite.ts';

// The shared copy's tables (catalogue_campaigns, catalogue_version) are created by the database's migrations (postgres-schema.ts).

/** The channel on which a new version is announced (payload: the version). */
const CHANNEL = 'catalogue_changed';
/** The key of the session-level advisory lock its holder syncs under. */
export const CATALOGUE_SYNC_LOCK = 7_262_001;

/** A stored record as the catalogue keeps it: the public detail plus what the store filters and orders on. */
const StoredCampaign = CampaignDetail.extend({
  status: z.enum(CAMPAIGN_STATUSES),
  listed_at: z.string(),
  // Records written before addresses had coordinates have none.
  address: CampaignAddress.extend({ latitude: z.number().nullable().default(null), longitude: z.number().nullable().default(null) }).nullable(),
}) satisfies z.ZodType<CatalogueCampaign, unknown>;
const VersionRow = z.object({ version: z.coerce.number().int(), synced_at: z.date() });
const CopyRow = VersionRow.extend({ records: z.array(z.unknown()) });

/** The copy several instances share on one PostgreSQL database. */
export interface SharedCatalogue extends CatalogueCopy {
  /** The shared version the local copy holds (0 before any sync). */
  version(): number;
  /** Stops following, releases the lock (closes its connection) and the local store. */
  close(): Promise<void>;
}

export interface SharedCatalogueOptions {
  logger: Logger;
  /** How often the version is checked in case a notification was lost (default 1,000 ms). */
  checkEveryMs?: number;
}

/**
 * Opens the shared catalogue: loads the shared copy into a new in-memory
 * store before resolving (a new instance serves at once, with no upstream
 * call), then follows its changes: createCatalogue's `copy`.
 */
export async function openSharedCatalogueStore(pool: pg.Pool, options: SharedCatalogueOptions): Promise<SharedCatalogue> {
  const shared = createSharedCatalogue(pool, options);
  await shared.load();
  return shared;
}

/**
 * The shared catalogue before its first load: its (empty) store can be handed
 * to createCatalogue at once, and load() run once the database is migrated.
 */
export function createSharedCatalogue(pool: pg.Pool, options: SharedCatalogueOptions): SharedCatalogue & { load(): Promise<void> } {
  const log = options.logger.child({ module: 'catalogue' });
  const store = openCatalogueStore(':memory:');
  let loaded = 0;
  let closed = false;
  /** The dedicated connection: LISTEN, and the sync lock while leading. */
  let dedicated: { client: pg.PoolClient; pid: number; leading: boolean } | undefined;
  let connecting: Promise<void> | undefined;
  let reloading: Promise<void> | undefined;
  let reloadAgain = false;

  const loadCopy = async () => {
    const { rows } = await pool
      .query(`SELECT v.version, v.synced_at, (SELECT coalesce(jsonb_agg(c.record), '[]'::jsonb) FROM catalogue_campaigns c) AS records FROM catalogue_version v`)
      .catch((error: unknown) => {
        if ((error as { code?: unknown } | null)?.code !== '42P01') throw error;
        throw new Error(`the shared catalogue's tables are missing in the database (${(error as Error).message}): run the database migrations ('jobboard-connector migrate', or start the proxy), which create them`, {
          cause: error,
        });
      });
    if (rows[0] === undefined) return;
    const copy = CopyRow.parse(rows[0]);
    if (copy.version === loaded) return;
    const campaigns: CatalogueCampaign[] = [];
    for (const record of copy.records) {
      const parsed = StoredCampaign.safeParse(record);
      if (parsed.success) campaigns.push(parsed.data);
      else log.warn({ event: 'shared_campaign_unreadable', fields: parsed.error.issues.map((i) => i.path.join('.')) }, 'a campaign of the shared catalogue copy is unreadable; left out');
    }
    store.replaceAll(campaigns, copy.synced_at);
    loaded = copy.version;
  };

  const refresh = (): Promise<void> => {
    if (reloading !== undefined) {
      reloadAgain = true;
      return reloading;
    }
    reloading = (async () => {
      do {
        reloadAgain = false;
        const { rows } = await pool.query('SELECT version, synced_at FROM catalogue_version');
        if (rows[0] !== undefined && VersionRow.parse(rows[0]).version !== loaded) await loadCopy();
      } while (reloadAgain && !closed);
    })().finally(() => (reloading = undefined));
    return reloading;
  };

  const dropDedicated = (error: unknown) => {
    if (dedicated === undefined) return;
    const lost = dedicated;
    dedicated = undefined;
    if (lost.leading) log.warn({ err: error }, 'catalogue sync lock lost with its connection; another instance may sync now');
    lost.client.release(error instanceof Error ? error : true);
  };

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const client = await pool.connect();
      try {
        client.on('error', (error) => dropDedicated(error));
        client.on('notification', (message) => {
          if (message.channel === CHANNEL && !closed) refresh().catch((error: unknown) => log.warn({ err: error }, 'catalogue reload failed'));
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
      await loadCopy();
      await connect();
      if (closed) return;
      checker = setInterval(check, checkEveryMs);
      checker.unref();
    })();
    return loading;
  };

  /** Fails unless this instance's dedicated connection holds the sync lock (a stale leader must not overwrite a newer sync). */
  const holdsLockSql = `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND objsubid = 1 AND pid = $2 AND granted) AS held`;

  /** Runs one write through the shared copy: bumps the version and announces it, in the write's own statement. */
  const writeOne = async (statement: string, params: unknown[]) => {
    const { rows } = await pool.query(
      `WITH write AS (${statement}),
            bumped AS (UPDATE catalogue_version SET version = version + 1 RETURNING version)
       SELECT version, pg_notify('${CHANNEL}', version::text) FROM bumped`,
      params,
    );
    const version = rows[0] === undefined ? undefined : z.coerce.number().int().parse(rows[0].version);
    // This change is already in the local store; skip reloading it unless others came in between.
    if (version !== undefined && version === loaded + 1) loaded = version;
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
      const { rows } = await current.client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [CATALOGUE_SYNC_LOCK]);
      current.leading = rows[0]?.ok === true;
      if (current.leading) log.info('this instance syncs the shared catalogue');
      return current.leading;
    },
    async publish(campaigns, syncedAt) {
      const current = dedicated;
      if (current?.leading !== true) throw new Error('not the syncing instance: the shared catalogue is written by the holder of the sync lock');
      const client = await pool.connect();
      let version: number;
      try {
        await client.query('BEGIN');
        const { rows: held } = await client.query<{ held: boolean }>(holdsLockSql, [CATALOGUE_SYNC_LOCK, current.pid]);
        if (held[0]?.held !== true) throw new Error('the sync lock was lost during the sync: its result is not published');
        await client.query('DELETE FROM catalogue_campaigns');
        await client.query(`INSERT INTO catalogue_campaigns (id, record) SELECT (r->>'id')::bigint, r FROM jsonb_array_elements($1::jsonb) AS r`, [JSON.stringify(campaigns)]);
        const { rows } = await client.query(
          `INSERT INTO catalogue_version (only_row, version, synced_at) VALUES (true, 1, $1)
           ON CONFLICT (only_row) DO UPDATE SET version = catalogue_version.version + 1, synced_at = excluded.synced_at
           RETURNING version`,
          [syncedAt],
        );
        version = z.coerce.number().int().parse(rows[0]?.version);
        await client.query(`SELECT pg_notify('${CHANNEL}', $1)`, [String(version)]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      store.replaceAll(campaigns, syncedAt);
      loaded = version;
    },
    upsert(campaign) {
      return writeOne('INSERT INTO catalogue_campaigns (id, record) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO UPDATE SET record = excluded.record', [
        campaign.id,
        JSON.stringify(campaign),
      ]);
    },
    remove(id) {
      return writeOne('DELETE FROM catalogue_campaigns WHERE id = $1', [id]);
    },
    refresh,
    leading: () => dedicated?.leading === true,
    version: () => loaded,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(checker);
      await Promise.allSettled([loading, connecting, reloading]);
      // Destroying the connection releases the lock at once: the next instance's try takes it.
      if (dedicated !== undefined) {
        dedicated.client.release(true);
        dedicated = undefined;
      }
      store.close();
    },
  };
}
