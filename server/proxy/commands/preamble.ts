// What the store's commands (outbox, webhooks, migrate, status-sync) share:
// the usage on --help or on a missing command, the outbox they open where the
// proxy keeps it, the flags and reading of --limit of a listing, and how rows are printed.
import { resolve } from 'node:path';
import { loadDatabaseUrl } from '../config.ts';
import { openStoreForCommand, storageExists, storageLocation } from '../storage/index.ts';
import type { WebhookEventOptions } from '../storage/index.ts';
import { storeCommandError } from './store-errors.ts';

/** True, after printing `usage`, when the line asks for help or names no command (then exit code 2, so a script missing it fails). */
export function printedUsage(
  command: string | undefined,
  help: boolean | undefined,
  usage: string,
  out: (text: string) => void,
): boolean {
  if (help !== true && command !== undefined) return false;
  out(usage);
  if (command === undefined && help !== true) process.exitCode = 2;
  return true;
}

/** The message when the proxy's outbox is not where a command looks; `without` says what that means for the command. */
export function noOutboxError(dataDir: string, without = ''): Error {
  return new Error(
    `No outbox in ${dataDir} (no outbox.db there)${without}. Pass the proxy's data directory with --data-dir or DATA_DIR (or DATABASE_URL, as the proxy has it).`,
  );
}

/** The flags of a command that lists rows (outbox, webhooks), for parseArgs: which data, which rows, how many, as JSON, help. */
export const LISTING_OPTIONS = {
  'data-dir': { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** --limit: how many rows a list shows, 100 unless given. */
export function parseLimit(value: string | undefined, rows: string): number {
  const limit = value === undefined ? 100 : Number(value);
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`--limit must be a whole number of ${rows}, like 100`);
  return limit;
}

/**
 * Opens the outbox of the proxy whose data directory is `dataDir` (--data-dir), DATA_DIR or ./data, or whose
 * database is DATABASE_URL, as the proxy has them. `without` tells what a missing outbox means for the command
 * (`create`: a missing one is made, as migrate does); `where` names the outbox in the command's messages.
 */
export async function openCommandOutbox(options: {
  dataDir: string | undefined;
  owner: string;
  without?: string;
  create?: boolean;
  action?: string;
  webhookEvents?: WebhookEventOptions | undefined;
}) {
  const dataDir = resolve(options.dataDir ?? process.env.DATA_DIR ?? './data');
  const databaseUrl = loadDatabaseUrl(process.env);
  if (options.create !== true && !storageExists({ dataDir, databaseUrl }))
    throw noOutboxError(dataDir, options.without);
  const where = storageLocation({ dataDir, databaseUrl });
  const opened = await openStoreForCommand({
    dataDir,
    databaseUrl,
    owner: options.owner,
    webhookEvents: options.webhookEvents,
  }).catch((error: unknown) => {
    throw storeCommandError(error, where, options.action ?? 'open the outbox');
  });
  return { ...opened, where };
}

/** A line on stdout. */
export function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** A stored time as printed: to the second, in UTC; '-' for none. */
export function iso(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Rows as aligned columns under their header, two spaces apart. */
export function columns(header: readonly string[], lines: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  return [header, ...lines]
    .map((cells) =>
      cells
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
