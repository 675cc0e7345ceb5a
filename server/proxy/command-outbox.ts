// What the outbox and webhooks commands share: the usage on --help or on a
// missing command, and the outbox they open where the proxy keeps it.
import { resolve } from 'node:path';
import { loadDatabaseUrl } from './config.ts';
import { openStoreForCommand, storageExists, storageLocation } from './storage/index.ts';
import type { WebhookEventOptions } from './storage/index.ts';
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

/**
 * Opens the outbox of the proxy whose data directory is `dataDir` (--data-dir), DATA_DIR or ./data, or whose
 * database is DATABASE_URL, as the proxy has them. `without` tells what a missing outbox means for the command;
 * `where` names the outbox in the command's messages.
 */
export async function openCommandOutbox(options: {
  dataDir: string | undefined;
  owner: string;
  without?: string;
  webhookEvents?: WebhookEventOptions | undefined;
}) {
  const dataDir = resolve(options.dataDir ?? process.env.DATA_DIR ?? './data');
  const databaseUrl = loadDatabaseUrl(process.env);
  if (!storageExists({ dataDir, databaseUrl })) {
    throw new Error(
      `No outbox in ${dataDir} (no outbox.db there)${options.without ?? ''}. Pass the proxy's data directory with --data-dir or DATA_DIR (or DATABASE_URL, as the proxy has it).`,
    );
  }
  const where = storageLocation({ dataDir, databaseUrl });
  const { store, close } = await openStoreForCommand({
    dataDir,
    databaseUrl,
    owner: options.owner,
    webhookEvents: options.webhookEvents,
  }).catch((error: unknown) => {
    throw storeCommandError(error, where, 'open the outbox');
  });
  return { store, close, where };
}
