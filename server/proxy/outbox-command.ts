// jobboard-connector outbox list | retry ID | purge-delivered
// Inspects and replays the proxy's outbox (DATA_DIR/outbox.db). Safe while
// the proxy runs: SQLite WAL lets both open the file, and a running proxy
// picks up a retried application at its next poll (a stopped one at start).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { OUTBOX_STATUSES, Outbox } from './applications/outbox.ts';
import type { OutboxStatus, OutboxSummary } from './applications/outbox.ts';

const USAGE = `Usage: jobboard-connector outbox <command> [options]

Commands:
  list               list applications in the outbox (no personal data is shown)
  retry ID           put a dead-lettered (or waiting) application back in line now
  purge-delivered    delete delivered and refused applications (they hold no personal data)

Options:
  --data-dir DIR     the proxy's data directory (default: $DATA_DIR, else ./data)
  --status STATUS    list: only this status (${OUTBOX_STATUSES.join(', ')})
  --limit N          list: at most N rows (default 100)
  --json             list: one JSON object per line
  --older-than-days N  purge-delivered: only rows older than N days (default 0)
  -h, --help         this help

Environment: DATA_DIR, DEAD_LETTER_AFTER_HOURS (the new deadline of a retried application, default 72).`;

function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

function iso(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function table(rows: OutboxSummary[]): string {
  const header = ['REFERENCE', 'STATUS', 'CAMPAIGN', 'ATTEMPTS', 'CREATED', 'NEXT ATTEMPT', 'ANSWERED', 'OUTCOME', 'LAST ERROR'];
  const lines = rows.map((r) => [
    r.reference,
    r.status,
    String(r.campaign_id),
    String(r.attempts),
    iso(r.created_at),
    r.status === 'pending' ? iso(r.next_attempt_at) : '-',
    r.answered === null ? '-' : String(r.answered),
    r.outcome ?? '-',
    r.last_error ?? '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  return [header, ...lines].map((cells) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n');
}

export async function main(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      status: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      'older-than-days': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    out(USAGE);
    if (command === undefined && !values.help) process.exitCode = 2;
    return;
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  if (!existsSync(join(dataDir, 'outbox.db'))) {
    throw new Error(`No outbox in ${dataDir} (no outbox.db there). Pass the proxy's data directory with --data-dir or DATA_DIR.`);
  }
  const outbox = new Outbox({ dataDir, owner: 'outbox-command' });
  try {
    switch (command) {
      case 'list': {
        const status = values.status as OutboxStatus | undefined;
        if (status !== undefined && !(OUTBOX_STATUSES as readonly string[]).includes(status)) {
          throw new Error(`--status must be one of ${OUTBOX_STATUSES.join(', ')}`);
        }
        const limit = values.limit === undefined ? 100 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a whole number of rows, like 100');
        const rows = outbox.list({ ...(status === undefined ? {} : { status }), limit });
        if (values.json) {
          for (const row of rows) out(JSON.stringify(row));
          return;
        }
        const counts = outbox.counts();
        out(rows.length === 0 ? 'The outbox is empty.' : table(rows));
        out(`\n${OUTBOX_STATUSES.map((s) => `${s}: ${counts[s]}`).join(', ')}`);
        return;
      }
      case 'retry': {
        const [reference] = rest;
        if (reference === undefined) throw new Error('retry needs the reference of an application: jobboard-connector outbox retry ID');
        const hours = Number(process.env.DEAD_LETTER_AFTER_HOURS ?? 72);
        const result = outbox.retry(reference, (Number.isFinite(hours) && hours > 0 ? hours : 72) * 60 * 60 * 1000);
        if (result === 'not_found') throw new Error(`No application ${reference} in the outbox of ${dataDir}.`);
        if (result === 'not_retryable') {
          const row = outbox.summary(reference);
          throw new Error(`Application ${reference} is ${row?.status ?? 'gone'}: only dead or waiting applications, still holding their data, can be retried.`);
        }
        out(`Application ${reference} queued: a running proxy delivers it within seconds, a stopped one when it starts.`);
        return;
      }
      case 'purge-delivered': {
        const days = values['older-than-days'] === undefined ? 0 : Number(values['older-than-days']);
        if (!Number.isFinite(days) || days < 0) throw new Error('--older-than-days must be a number of days, like 30');
        const deleted = outbox.purgeDelivered(days * 24 * 60 * 60 * 1000);
        outbox.vacuum();
        out(`Deleted ${deleted} delivered or refused application${deleted === 1 ? '' : 's'} from the outbox.`);
        return;
      }
      default:
        throw new Error(`Unknown outbox command "${command}".\n\n${USAGE}`);
    }
  } finally {
    outbox.close();
  }
}
