// The funnel's daily counts, on either database: one row per day, offer,
// source and stage. Nothing in it identifies a person or a device.
import type { FunnelCounts, FunnelSource, FunnelStage } from '../../../public-api/funnel.ts';

/** One addition to one count. `day` is UTC YYYY-MM-DD. */
export interface FunnelEntry {
  day: string;
  campaign_id: number;
  source: FunnelSource;
  /** A stage, or the company's status name for an outcome. */
  count: { stage: FunnelStage } | { outcome: string };
  n: number;
}

/** How the proxy counts its own stages (FUNNEL on): under the board's channel (JOBBOARD_CHANNEL). */
export interface FunnelCounting {
  channel: string;
  /** How long a count waits before it is added to the day's rows (ms; 1000 unless given): see FunnelStore.fold. */
  foldAfterMs?: number;
}

export interface FunnelPeriod {
  /** First and last day, inclusive. */
  from: string;
  to: string;
}

/** The counts of a period, grouped as GET /api/stats answers them (offers without their titles). */
export interface FunnelReport {
  totals: FunnelCounts;
  offers: { campaign_id: number; counts: FunnelCounts }[];
  offers_total: number;
  sources: (FunnelSource & { counts: FunnelCounts })[];
  days: { day: string; counts: FunnelCounts }[];
}

export interface FunnelStore {
  /** Adds each entry to its count (creating it at 0 first). */
  add(entries: readonly FunnelEntry[]): Promise<void>;
  /**
   * Adds the proxy's own counts waiting (each change of an application
   * stores one in its own transaction) to the day's rows. They are folded a
   * moment after they are made, and before every report.
   */
  fold(): Promise<void>;
  /**
   * The period's counts; `offers` sorted by `sort` (a stage, most first, then
   * by id; "listed" unless given), at most `limit` (100 unless given; 0 lists
   * none and still tells `offers_total`); `sources` sorted by `sort` too;
   * `days` every day of the period, zeros included. Rejects a period whose
   * end comes before its start, a sort that is not a stage, a negative limit.
   */
  report(period: FunnelPeriod, options?: { sort?: FunnelStage; limit?: number }): Promise<FunnelReport>;
}
