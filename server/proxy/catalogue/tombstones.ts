// Which offers were on the board and are no longer: a closed offer's page
// answers 410 Gone (search engines drop it at once) where one never seen
// answers 404. Kept in memory beside the store, from what the store is told:
// an offer listed in it at its first change, or written since, then removed,
// left out of a complete sync (or removed by its changes), or written closed. Lost on restart, except that
// the store's own file (an instance's catalogue.db) still lists at start what
// the first sync then removes; an offer closed before that answers 404.
import type { CatalogueCampaign, CatalogueStore } from './types.ts';

/** Closed offers remembered, at most (the oldest forgotten first): a few bytes each. */
export const MAX_TOMBSTONES = 100_000;

/** The store, telling with gone(id) whether an offer it listed is no longer listed. */
export function withTombstones(store: Omit<CatalogueStore, 'gone'>, max = MAX_TOMBSTONES): CatalogueStore {
  let listed: Set<number> | undefined;
  const gone = new Set<number>();
  /** The offers listed in the store, read at its first change rather than at opening: starting waits for no read. */
  const listedNow = (): Set<number> => (listed ??= new Set(store.listedIds()));

  const leave = (id: number) => {
    if (!listedNow().delete(id)) return;
    gone.add(id);
    if (gone.size > max) gone.delete(gone.values().next().value as number);
  };
  const note = (c: CatalogueCampaign) => {
    if (c.status !== 'online') {
      leave(c.id);
      return;
    }
    listedNow().add(c.id);
    gone.delete(c.id);
  };

  return {
    ...store,
    replaceAll(campaigns, syncedAt) {
      const before = listedNow();
      store.replaceAll(campaigns, syncedAt);
      const kept = new Set(campaigns.filter((c) => c.status === 'online').map((c) => c.id));
      for (const id of [...before]) if (!kept.has(id)) leave(id);
      for (const c of campaigns) note(c);
    },
    upsert(campaign) {
      listedNow();
      store.upsert(campaign);
      note(campaign);
    },
    remove(id) {
      listedNow();
      store.remove(id);
      leave(id);
    },
    applyChanges(upserts, deletes, syncedAt) {
      listedNow();
      const skipped = store.applyChanges(upserts, deletes, syncedAt);
      const left = new Set(skipped.map((s) => s.id));
      for (const c of upserts) if (!left.has(c.id)) note(c);
      for (const id of deletes) leave(id);
      return skipped;
    },
    gone: (id) => gone.has(id),
  };
}
