// jobboard-connector status-sync --now
// One pass of the proxy's status sync, now, over every application the
// proxy delivered in the last STATUS_SYNC_DAYS, whatever
// STATUS_SYNC_INTERVAL_MINUTES says: a trial sees application.status_changed
// without waiting, an operator checks at once. It reads the proxy's own
// configuration and store, records the events in the store (the running
// proxy sends them to WEBHOOK_URL), and prints what it found. Safe while the
// proxy runs, like `outbox`: each read is claimed in the store, so an
// application is not read by both at once, and on PostgreSQL it spends from
// the instances' shared status-sync budget.
import { parseArgs } from 'node:util';
import { upstreamClient } from '../upstream-check.ts';
import { StatusSync, recordStatusChanged, statusSyncShare } from '../applications/status-sync.ts';
import type { PassResult } from '../applications/status-sync.ts';
import { ConfigError, loadProxyConfig } from '../config.ts';
import { openBackend, storageExists, storageLocation } from '../storage/index.ts';
import { storeCommandError } from './store-errors.ts';
import { noOutboxError, out } from './preamble.ts';

const USAGE = `Usage: jobboard-connector status-sync --now [options]

Reads now the company's status of every application the proxy delivered in
the last STATUS_SYNC_DAYS (one GET /applications/:id each, at most 12 a
minute), whatever STATUS_SYNC_INTERVAL_MINUTES says, and prints what it
found. A status changed since the last read records application.status_changed
for WEBHOOK_URL: the running proxy sends it within a second or two (a
stopped one when it starts). The first read of an application is its
starting point, not a change. The proxy does the same by itself, each
application every STATUS_SYNC_INTERVAL_MINUTES (default 360).

Options:
  --now              read now (the command's one action)
  --data-dir DIR     the proxy's data directory (default: $DATA_DIR, else ./data)
  -h, --help         this help

Environment: the proxy's own (UPSTREAM_URL, UPSTREAM_PRIVATE_KEY,
UPSTREAM_SECRET_KEY, JOBBOARD_CHANNEL, DATA_DIR or DATABASE_URL,
STATUS_SYNC_DAYS, WEBHOOK_URL, WEBHOOK_SECRET...), or CONFIG_FILE.`;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `print`: where the answer goes (stdout; tests collect it). */
export async function main(args: string[], print: (text: string) => void = out): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      now: { type: 'boolean' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.now) {
    print(USAGE);
    if (!values.help) process.exitCode = 2;
    return;
  }
  const env = { ...process.env, ...(values['data-dir'] === undefined ? {} : { DATA_DIR: values['data-dir'] }) };
  let config;
  try {
    config = loadProxyConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new Error(
      `status-sync reads the proxy's configuration, and it is not valid:\n${error.problems.map((p) => `  - ${p}`).join('\n')}\nRun it with the proxy's environment (or its CONFIG_FILE).`,
      { cause: error },
    );
  }
  if (config.statusSyncDays === 0)
    throw new Error(
      'STATUS_SYNC_DAYS is 0: the status sync is off, so no status is read. Set it to the days after delivery to follow applications, like 90.',
    );
  if (!storageExists(config)) {
    throw noOutboxError(config.dataDir, ', so no delivered application');
  }
  const where = storageLocation(config);
  const backend = openBackend({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const store = backend.openApplications({
      owner: 'status-sync-command',
      webhookEvents: config.webhook === null ? undefined : { includeCandidate: config.webhook.includeCandidate },
      // The company's statuses it records are the funnel's outcomes, as the proxy's own sync counts them.
      funnel: config.funnel ? { channel: config.channel } : undefined,
    });
    await store.ready().catch((error: unknown) => {
      throw storeCommandError(error, where, 'open the outbox');
    });
    const budgetError = () => {};
    const client = upstreamClient(config.upstream, { budget: backend.requestBudget(budgetError) });
    let changes = 0;
    let queued = 0;
    let failure: unknown;
    let forbidden = false;
    const sync = new StatusSync(
      {
        store,
        client,
        budget: backend.requestBudget(budgetError, statusSyncShare(client.budget)),
        now: Date.now,
        async onStatusChanged(change) {
          changes += 1;
          if (await recordStatusChanged(store.webhooks, change)) queued += 1;
        },
        events: {
          onForbidden: () => (forbidden = true),
          onError: (error) => (failure = error),
        },
      },
      // Period 0: every application followed is due now, however recently the proxy read it.
      { days: config.statusSyncDays, periodMs: 0, intervalMs: 0 },
    );
    const result: PassResult = await sync.runOnce();
    if (forbidden) {
      throw new Error(
        "The API client of UPSTREAM_PRIVATE_KEY may not read applications (403 missing_scope: applications_read). Give it that scope in the recruitment service, then run this again; the proxy's status sync needs it too.",
      );
    }
    const firstReads = result.changed - changes;
    const summary = [
      `checked ${plural(result.checked, 'application', 'applications')}`,
      `${plural(changes, 'status', 'statuses')} changed`,
      `${plural(queued, 'webhook event', 'webhook events')} queued${config.webhook === null ? ' (WEBHOOK_URL is not set: none is recorded)' : ''}`,
    ].join(', ');
    print(
      `${summary}.${firstReads > 0 ? ` ${plural(firstReads, 'application was', 'applications were')} read for the first time: that status is the starting point, a change after it is an event.` : ''}`,
    );
    if (failure !== undefined) {
      const why = failure instanceof Error ? failure.message : String(failure);
      throw new Error(
        `The pass stopped before the end (${why}): ${plural(result.released, 'application was', 'applications were')} not read. Run it again once the recruitment API answers.`,
      );
    }
  } catch (error) {
    throw storeCommandError(error, where, 'run status-sync');
  } finally {
    await backend.close();
  }
}
