// The catalogue's own records: what the proxy keeps of each broadcast
// campaign, already sanitised, flattened for search and for the public API.
import type { CampaignStatus } from '../../contract/index.ts';
import type { CampaignListQuery } from '../../public-api/schemas.ts';

export interface CatalogueAddress {
  street_number: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  name: string | null;
  /** Where the offer is, for searches near a point; null when the service has no coordinates. */
  latitude: number | null;
  longitude: number | null;
}

export interface CatalogueCampaign {
  id: number;
  company_id: number;
  company_name: string | null;
  name: string | null;
  status: CampaignStatus;
  job_type: string | null;
  working_time: string | null;
  city: string | null;
  country: string | null;
  salary_min: number | null;
  salary_max: number | null;
  job_start_date: string | null;
  contract_duration: number | null;
  date_end: string | null;
  updated_at: string;
  /** Sanitised HTML (see sanitize.ts), or null. */
  description: string | null;
  /** Sanitised HTML (see sanitize.ts), or null. */
  profile: string | null;
  address: CatalogueAddress | null;
  /** Orders the list: last activation, else creation time. */
  listed_at: string;
}

export interface Catalogue {
  /** From the local store; never calls upstream. */
  getCampaign(id: number): CatalogueCampaign | undefined;
  /** Time of the last complete, successful sync; null before the first. */
  lastSyncedAt(): Date | null;
  /** True before the first sync and when the last one is older than SYNC_INTERVAL_SECONDS. */
  isStale(): boolean;
  /**
   * Re-checks one campaign upstream (priority high: an application waits on
   * it) and updates the store. Resolves undefined when the campaign is not
   * found, no longer broadcast on the board's channel, or not open for
   * applications. Rejects with the client's error when upstream cannot answer
   * (the caller decides whether to trust the local copy then).
   */
  refreshCampaign(id: number): Promise<CatalogueCampaign | undefined>;
}

/** A place on Earth, in degrees. */
export interface GeoPoint {
  lat: number;
  lon: number;
}

/**
 * A list query as the store searches it: the query schema's parameters (their
 * meaning is described there), with `near` resolved to a point (offers without
 * coordinates are left out of a search near one).
 */
export type CampaignFilters = Omit<CampaignListQuery, 'near'> & { near?: GeoPoint | undefined };

export interface Facets {
  job_types: string[];
  working_times: string[];
  cities: string[];
  companies: { id: number; name: string | null }[];
}

/** What a sync found changed: campaigns new or different, and ids no longer broadcast. */
export interface CatalogueChanges {
  upserts: readonly CatalogueCampaign[];
  deletes: readonly number[];
}

/** A campaign record a store could not keep, and why: skipped, the rest of its write kept. */
export interface SkippedRecord {
  id: number;
  /** The store's own words (never the record's text). */
  reason: string;
}

export interface CatalogueStore {
  /** Replaces every listed campaign by these, in one transaction, and records the sync time. */
  replaceAll(campaigns: CatalogueCampaign[], syncedAt: Date): void;
  upsert(campaign: CatalogueCampaign): void;
  remove(id: number): void;
  /**
   * Writes these campaigns and removes these ids, in one transaction; with
   * `syncedAt`, also records a complete sync at that time. A record the
   * store refuses is left out (a copy held before stays as it was) and
   * answered; any other failure throws and writes nothing.
   */
  applyChanges(upserts: readonly CatalogueCampaign[], deletes: readonly number[], syncedAt?: Date): SkippedRecord[];
  /** The id of every campaign held, listed or not (a complete sync removes those it did not see). */
  ids(): number[];
  /** The id of every listed (online) campaign. */
  listedIds(): number[];
  get(id: number): CatalogueCampaign | undefined;
  /** Online campaigns matching the filters, in the order `sort` asks. */
  search(filters: CampaignFilters): { items: CatalogueCampaign[]; total: number };
  /**
   * The same search, for the routes: a store on a file runs it on a thread of
   * its own, so that a costly search keeps no other request waiting.
   */
  searchAsync(filters: CampaignFilters): Promise<{ items: CatalogueCampaign[]; total: number }>;
  /** The average position of the online offers in this city (case and accents ignored); undefined when none has coordinates. */
  placeOf(city: string): GeoPoint | undefined;
  /** Values present among online campaigns, for the widget's filter lists. */
  facets(): Facets;
  count(): number;
  lastSyncedAt(): Date | null;
  /** Increases on every change (a write of a record held as it is, or of the sync time alone, is none); readers key their caches on it. */
  version(): number;
  /** True when the offer was listed and no longer is (tombstones.ts); false for one never seen or still listed. */
  gone(id: number): boolean;
  close(): void;
}

/**
 * Where a catalogue's complete syncs and single refreshes go, and who walks
 * upstream: this instance's own file (it always leads), or the copy several
 * instances share on one database (only the holder of its sync lock walks).
 * The storage backend chooses; the catalogue writes through it alike.
 */
export interface CatalogueCopy {
  /** What every answer is read from. */
  readonly store: CatalogueStore;
  /**
   * True when several instances follow this copy: only the lock holder syncs,
   * it does not sync again a copy younger than the interval, and the
   * catalogue_sync_leader gauge says which instance leads.
   */
  readonly shared: boolean;
  /** True when this instance may sync the copy, trying to take the sync lock when it does not hold it. */
  lead(): Promise<boolean>;
  /** Whether this instance held the sync lock at its last look (for the metrics; no query). */
  leading(): boolean;
  /**
   * Writes what a sync found changed (only while leading) and applies it
   * here; with `syncedAt`, the write ends a complete sync at that time. A
   * shared copy hands the other instances these changes only, not a new copy.
   * Resolves the records left out (see CatalogueStore.applyChanges).
   */
  applyChanges(changes: CatalogueChanges, syncedAt?: Date): Promise<SkippedRecord[]>;
  /** Writes one campaign re-read upstream (already in `store`) through to the copy the other instances follow. */
  upsert(campaign: CatalogueCampaign): Promise<void>;
  /** Removes one campaign (already gone from `store`) from the copy the other instances follow. */
  remove(id: number): Promise<void>;
  /** Reloads `store` when the copy changed elsewhere; resolves when done. */
  refresh(): Promise<void>;
}
