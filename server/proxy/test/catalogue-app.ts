// The proxy's app over a catalogue store the test fills itself: no upstream,
// no sync job, the catalogue fresh as of `synced`.
import type { Express } from 'express';
import { Registry } from 'prom-client';
import { createProxyApp } from '../app.ts';
import type { CatalogueStore } from '../catalogue/types.ts';
import { captureLogs } from '../../test/logs.ts';
import { testConfig } from '../test-support.ts';

/** The app serving `store` as its catalogue, last synced at `synced` and never stale; `env` configures it as testConfig does. */
export function catalogueApp(
  store: CatalogueStore,
  { env = {}, synced = new Date() }: { env?: Record<string, string>; synced?: Date } = {},
): Express {
  return createProxyApp({
    config: testConfig(env),
    logger: captureLogs('silent').logger,
    registry: new Registry(),
    catalogue: {
      store,
      lastSyncedAt: () => synced,
      isStale: () => false,
      status: () => ({ lastAttemptAt: synced, lastError: null, running: false, skippedIds: [] }),
    },
  });
}
