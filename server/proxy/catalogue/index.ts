// The campaign catalogue: the campaigns broadcast on the board's channel,
// kept in the proxy's own store so pages never call upstream per view.
export type {
  Catalogue,
  CatalogueCampaign,
  CatalogueChanges,
  CatalogueAddress,
  CatalogueCopy,
  CatalogueStore,
  CampaignFilters,
  Facets,
} from './types.ts';
export { createCatalogue, toCatalogueCampaign } from './catalogue.ts';
export type { CatalogueClient, CatalogueDeps, LiveCatalogue, SyncStatus } from './catalogue.ts';
export { foldForSearch } from './search-text.ts';
export { ownCatalogueCopy } from './own-copy.ts';
export { createCatalogueReader } from './routes/reader.ts';
export type { CatalogueReader } from './routes/reader.ts';
export { sanitizeCampaignHtml, htmlToText } from './sanitize.ts';
import type { Catalogue, CatalogueCampaign } from './types.ts';

/**
 * A catalogue over a fixed list, for tests of modules that only read it
 * (refreshCampaign answers from the same list).
 */
export function createStaticCatalogue(campaigns: CatalogueCampaign[], syncedAt: Date | null = new Date()): Catalogue {
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  return {
    getCampaign: (id) => byId.get(id),
    lastSyncedAt: () => syncedAt,
    isStale: () => syncedAt === null,
    refreshCampaign: async (id) => byId.get(id),
  };
}
