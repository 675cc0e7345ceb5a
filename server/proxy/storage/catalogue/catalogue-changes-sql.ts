// The statements of the shared catalogue's copy and change log
// (catalogue-shared.ts; tables from migrations 2 and 7 in postgres-schema.ts).
// Every write takes the next version on the version row (its row lock
// orders the writers, so versions commit in order), stamps the records it
// writes and the ids it removes with it, and prunes the oldest tombstones.
// A reader asks for what changed after the version it holds, in one
// statement (one snapshot: the version and its changes agree).

/**
 * The changes after version $1: one row for the version (the copy's version,
 * its last complete sync, and the version below which removals are
 * forgotten), one per record written since (found by the changed_version
 * index), one per id removed since. The version row alone when nothing
 * changed, or when removals after $1 were forgotten (the whole copy is read then).
 */
export const READ_CHANGES = `
  SELECT 'version' AS kind, NULL::bigint AS id, NULL::jsonb AS record, v.version, v.synced_at, v.pruned_version FROM catalogue_version v
  UNION ALL
  SELECT 'upsert', c.id, c.record, NULL, NULL, NULL FROM catalogue_campaigns c
    WHERE c.changed_version > $1 AND $1 >= (SELECT pruned_version FROM catalogue_version)
  UNION ALL
  SELECT 'delete', d.id, NULL, NULL, NULL, NULL FROM catalogue_deletions d
    WHERE d.deleted_version > $1 AND $1 >= (SELECT pruned_version FROM catalogue_version)`;

/** The whole copy, in the rows READ_CHANGES answers: the version, then every record. */
export const READ_WHOLE = `
  SELECT 'version' AS kind, NULL::bigint AS id, NULL::jsonb AS record, v.version, v.synced_at, v.pruned_version FROM catalogue_version v
  UNION ALL
  SELECT 'upsert', c.id, c.record, NULL, NULL, NULL FROM catalogue_campaigns c`;

/**
 * Takes the next version ($1: the sync time when the write ends a complete
 * sync, else null to keep the last one; $2: how many versions removals are
 * remembered), forgets the removals it prunes, and announces it on $3 (sent
 * at commit). With $4, a sync's write: only while the session $4 holds the
 * sync lock $5 (a stale leader must not overwrite a newer sync), no row
 * otherwise. The first write creates the row. One statement: one round trip.
 */
export const NEXT_VERSION = `
  WITH next AS (
    INSERT INTO catalogue_version AS v (only_row, version, synced_at, pruned_version)
    SELECT true, 1, $1, 0 WHERE $4::int IS NULL OR EXISTS (
      SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $5 AND objsubid = 1 AND pid = $4 AND granted)
    ON CONFLICT (only_row) DO UPDATE SET version = v.version + 1, synced_at = coalesce(excluded.synced_at, v.synced_at),
      pruned_version = greatest(v.pruned_version, v.version + 1 - $2)
    RETURNING version, pruned_version),
  pruned AS (DELETE FROM catalogue_deletions d USING next WHERE d.deleted_version <= next.pruned_version)
  SELECT version, pruned_version, pg_notify($3, version::text) FROM next`;

/** Writes the records of the JSON array $1 at version $2, and forgets their earlier removal. */
export const WRITE_RECORDS = `
  WITH written AS (
    INSERT INTO catalogue_campaigns (id, record, changed_version) SELECT (r->>'id')::bigint, r, $2 FROM jsonb_array_elements($1::jsonb) AS r
    ON CONFLICT (id) DO UPDATE SET record = excluded.record, changed_version = excluded.changed_version
    RETURNING id)
  DELETE FROM catalogue_deletions d USING written WHERE d.id = written.id`;

/** Removes the ids $1 at version $2, leaving a tombstone for the instances that hold them. */
export const REMOVE_RECORDS = `
  WITH removed AS (DELETE FROM catalogue_campaigns WHERE id = ANY($1::bigint[]))
  INSERT INTO catalogue_deletions (id, deleted_version) SELECT unnest($1::bigint[]), $2
  ON CONFLICT (id) DO UPDATE SET deleted_version = excluded.deleted_version`;
