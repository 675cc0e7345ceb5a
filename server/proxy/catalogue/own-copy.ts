// The catalogue copy of an instance that keeps its own (SQLite in DATA_DIR):
// it always leads, a sync's changes are written to its store, and a refreshed
// campaign, already written to the store, has no other copy to reach.
import type { CatalogueCopy, CatalogueStore } from './types.ts';

export function ownCatalogueCopy(store: CatalogueStore): CatalogueCopy {
  return {
    store,
    shared: false,
    lead: async () => true,
    leading: () => true,
    applyChanges: async ({ upserts, deletes }, syncedAt) => store.applyChanges(upserts, deletes, syncedAt),
    upsert: async () => {},
    remove: async () => {},
    refresh: async () => {},
  };
}
