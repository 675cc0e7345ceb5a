// The world of the stats' tests (the routes', the dashboard's in Chromium)
// and of the dashboard's screenshots: the seeded sandbox and a proxy started
// against it (DASHBOARD_TOKEN set unless told otherwise), and a month of
// funnel counts added through the proxy's own store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FunnelSource } from '../../public-api/funnel.ts';
import { DEMO_KEYS, startSandbox } from '../../sandbox/index.ts';
import type { RunningSandbox } from '../../sandbox/index.ts';
import { captureLogs } from '../../test/logs.ts';
import { startProxy } from '../index.ts';
import type { RunningProxy } from '../index.ts';
import type { FunnelEntry } from '../storage/funnel/funnel-store.ts';
import { testConfig } from '../test-support.ts';
import { addDays, utcDay } from './stats-period.ts';
import { seededRandom } from '../../test/seeded-random.ts';

export const TEST_DASHBOARD_TOKEN = 'dashboard-token-of-the-tests-7f3a';

export interface StatsWorld {
  sandbox: RunningSandbox;
  proxy: RunningProxy;
  /** The offers the board lists (from the first sync). */
  listedIds: number[];
  close(): Promise<void>;
}

/** The sandbox and a synced proxy; `token` null: no DASHBOARD_TOKEN. */
export async function startStatsWorld(
  options: { token?: string | null; env?: Record<string, string> } = {},
): Promise<StatsWorld> {
  const token = options.token === undefined ? TEST_DASHBOARD_TOKEN : options.token;
  const dataDir = mkdtempSync(join(tmpdir(), 'jbc-stats-'));
  const sandbox = await startSandbox({ admin: true, seed: 'demo', rateLimitPerMinute: 0 });
  const config = testConfig({
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_PRIVATE_KEY: DEMO_KEYS.jobboard.private_key,
    UPSTREAM_SECRET_KEY: DEMO_KEYS.jobboard.secret_key,
    JOBBOARD_CHANNEL: DEMO_KEYS.jobboard.channel,
    DATA_DIR: dataDir,
    ...(token === null ? {} : { DASHBOARD_TOKEN: token }),
    ...options.env,
  });
  const proxy = await startProxy({ config, logger: captureLogs('silent').logger, shutdownGraceMs: 0 });
  await proxy.catalogue.syncNow();
  return {
    sandbox,
    proxy,
    listedIds: proxy.catalogue.store.listedIds().sort((a, b) => a - b),
    async close() {
      await proxy.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An Authorization header of HTTP Basic authentication. */
export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A source of the board's channel, with these campaign parameters. */
export function sourceOf(utm_source: string | null = null, utm_campaign: string | null = null): FunnelSource {
  return { channel: DEMO_KEYS.jobboard.channel, utm_source, utm_campaign };
}

/**
 * A month of counts to the day of `now`: for each of `offers` (a bigger funnel for the first ones),
 * three sources, every stage below the one before it, and the companies' outcomes.
 */
export function monthOfCounts(offers: readonly number[], now: number): FunnelEntry[] {
  const random = seededRandom(42);
  const share = (n: number, rate: number) => Math.round(n * rate * (0.75 + random() / 2));
  const sources = [sourceOf(), sourceOf('newsletter', 'spring'), sourceOf('linkedin')];
  const entries: FunnelEntry[] = [];
  for (let back = 29; back >= 0; back--) {
    const day = addDays(utcDay(now), -back);
    for (const [i, campaign_id] of offers.entries()) {
      for (const [j, source] of sources.entries()) {
        const listed = share(400 / (i + 1) / (j + 1), 1);
        const opened = share(listed, 0.3);
        const started = share(opened, 0.45);
        const submitted = share(started, 0.6);
        const delivered = share(submitted, 0.9);
        const counts = { listed, opened, started, submitted, received: submitted, delivered };
        const add = (count: FunnelEntry['count'], n: number) =>
          n > 0 && entries.push({ day, campaign_id, source, count, n });
        for (const [stage, n] of Object.entries(counts)) add({ stage: stage as keyof typeof counts }, n);
        add({ stage: 'rejected' }, submitted - delivered > 1 ? 1 : 0);
        add({ outcome: 'interview' }, share(delivered, 0.3));
        add({ outcome: 'hired' }, share(delivered, 0.08));
      }
    }
  }
  return entries;
}
