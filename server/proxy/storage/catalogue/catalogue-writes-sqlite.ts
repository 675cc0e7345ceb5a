// The catalogue store's writes (catalogue-sqlite.ts): a campaign's row, its
// record and its texts, each change in one transaction that moves the
// version readers cache by, and the full-text index merged once writes pause.
import type { DatabaseSync } from 'node:sqlite';
import { foldForSearch, searchColumns } from '../../catalogue/search-text.ts';
import type { CatalogueCampaign, SkippedRecord } from '../../catalogue/types.ts';
import type { FacetColumns } from './catalogue-facet-counts.ts';
import type { FacetCache } from './catalogue-facets-sqlite.ts';
import { sqliteRefusesRecord } from './catalogue-refused-records.ts';
import type { CatalogueStatements } from './catalogue-schema-sqlite.ts';

/**
 * Pages of the full-text index one merge step writes (about a millisecond:
 * a request waits behind one step at most). FTS5 writes each transaction's
 * terms as a new segment, and by default merges segments within the write:
 * most of a small change's time, and for one write in many, hundreds of
 * milliseconds. Writes here leave segments unmerged (automerge 0); the
 * merging runs after, a step at a time, between other work.
 */
const MERGE_PAGES = 16;
/**
 * How long the store goes without a write before its full-text index is
 * merged. A burst of writes (a sync's pages, changes applied on every
 * instance sharing a catalogue) is applied first, with no merge taking the
 * processor from it: merging right after each write took longer than the
 * write itself. A few more segments in the meantime cost a search little,
 * and FTS5 still merges within a write if a level reaches 16 segments.
 */
const MERGE_WHEN_QUIET_MS = 250;

export class CatalogueWrites {
  /** Moves with each write that changed something: readers' caches key on it. */
  version = 1;
  private readonly db: DatabaseSync;
  private readonly statements: CatalogueStatements;
  private readonly facets: FacetCache;
  private merging: NodeJS.Timeout | undefined;

  constructor(db: DatabaseSync, statements: CatalogueStatements, facets: FacetCache) {
    this.db = db;
    this.statements = statements;
    this.facets = facets;
  }

  /**
   * The one write of a campaign (a sync's, a refresh's): its row and its
   * texts. A record held already as it is is not written again: false then,
   * and the version (readers' caches) stays.
   */
  write(c: CatalogueCampaign, held: 'compare' | 'none' = 'compare'): boolean {
    const { getOne, facetColumns, insert, insertRecord, deleteText, insertText } = this.statements;
    const record = JSON.stringify(c);
    if (held === 'compare' && (getOne.get(c.id) as { record: string } | undefined)?.record === record) return false;
    // Records kept before coordinates were have no latitude: none until the next sync.
    const lat = c.address?.latitude ?? null;
    const lon = c.address?.longitude ?? null;
    const located = lat !== null && lon !== null;
    const pay = c.salary_max ?? c.salary_min;
    const before = held === 'none' ? undefined : (facetColumns.get(c.id) as FacetColumns | undefined);
    insert.run(
      c.id,
      c.status,
      c.listed_at,
      c.company_id,
      c.company_name,
      c.job_type,
      c.working_time,
      c.city,
      c.city === null ? null : foldForSearch(c.city),
      located ? lat : null,
      located ? lon : null,
      pay,
    );
    this.facets.recount(before, c);
    insertRecord.run(c.id, record);
    // Only listed offers are searched: the index holds no other.
    deleteText.run(c.id);
    if (c.status !== 'online') return true;
    const text = searchColumns(c);
    insertText.run(c.id, text.title, text.company, text.body);
    return true;
  }

  /** False when the store held no such campaign. */
  removeOne(id: number): boolean {
    const { facetColumns, deleteOne, deleteRecord, deleteText } = this.statements;
    const before = facetColumns.get(id) as FacetColumns | undefined;
    const removed = deleteOne.run(id).changes > 0;
    if (before !== undefined) this.facets.recount(before, undefined);
    deleteRecord.run(id);
    deleteText.run(id);
    return removed;
  }

  /** One merge step of the full-text index, then the next one on a later turn of the event loop, until FTS5 finds nothing to merge. */
  private mergeStep(): void {
    const { db } = this;
    const { totalChanges, mergeText } = this.statements;
    this.merging = undefined;
    if (!db.isOpen) return;
    const before = (totalChanges.get() as { n: number }).n;
    try {
      mergeText.run(MERGE_PAGES);
    } catch {
      // Unmerged segments slow searches a little, and lose nothing: the next write tries again.
      return;
    }
    // FTS5's own signal: a step that merged something changes two rows or more.
    if ((totalChanges.get() as { n: number }).n - before >= 2)
      this.merging = setTimeout(() => this.mergeStep(), 0).unref();
  }

  /** Merging starts (or, after a write in between, starts again where FTS5 left off) once no write came for MERGE_WHEN_QUIET_MS. */
  private mergeWhenQuiet(): void {
    clearTimeout(this.merging);
    this.merging = setTimeout(() => this.mergeStep(), MERGE_WHEN_QUIET_MS).unref();
  }

  /** No merge step after this (the store closes). */
  stop(): void {
    clearTimeout(this.merging);
  }

  /** Runs `work` in one transaction; a new version when it says it changed something. */
  inTransaction(work: () => boolean): void {
    const { db } = this;
    let changed: boolean;
    db.exec('BEGIN IMMEDIATE');
    try {
      changed = work();
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      // The counts moved with writes now undone.
      this.facets.forget();
      throw error;
    }
    if (!changed) return;
    this.version += 1;
    this.mergeWhenQuiet();
  }

  replaceAll(campaigns: readonly CatalogueCampaign[], syncedAt: Date): void {
    const { db } = this;
    const { setMeta } = this.statements;
    this.inTransaction(() => {
      db.exec('DELETE FROM campaigns; DELETE FROM campaign_records; DELETE FROM campaigns_text;');
      this.facets.forget();
      for (const c of campaigns) this.write(c, 'none');
      setMeta.run('last_synced_at', syncedAt.toISOString());
      return true;
    });
  }

  applyChanges(upserts: readonly CatalogueCampaign[], deletes: readonly number[], syncedAt?: Date): SkippedRecord[] {
    const { setMeta } = this.statements;
    const skipped: SkippedRecord[] = [];
    // In rowid order: FTS5 writes its pending terms out as a new segment whenever a rowid is lower than the last (a stable sort: the last write of an id wins).
    let left = [...upserts].sort((a, b) => a.id - b.id);
    // A record the tables refuse undoes the batch, which is written again without it: no savepoint per record (FTS5 writes a segment at each).
    for (;;) {
      let writing: CatalogueCampaign | undefined;
      try {
        this.inTransaction(() => {
          let changed = false;
          for (const c of left) {
            writing = c;
            changed = this.write(c) || changed;
          }
          writing = undefined;
          for (const id of [...deletes].sort((a, b) => a - b)) changed = this.removeOne(id) || changed;
          // The sync time alone is in no reader's answer: it changes no version.
          if (syncedAt !== undefined) setMeta.run('last_synced_at', syncedAt.toISOString());
          return changed;
        });
        return skipped;
      } catch (error) {
        const refused = writing;
        if (refused === undefined || !sqliteRefusesRecord(error)) throw error;
        skipped.push({ id: refused.id, reason: (error as Error).message });
        left = left.filter((c) => c !== refused);
      }
    }
  }
}
