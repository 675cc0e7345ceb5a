// jobboard-connector outbox list | retry ID | purge-delivered | erase --email ADDRESS
// Inspects and replays the proxy's outbox (DATA_DIR/outbox.db, or the
// PostgreSQL database of DATABASE_URL), and answers right-to-erasure
// requests. Safe while the proxy runs: SQLite WAL lets both open the file
// (PostgreSQL is shared anyway), and a running proxy picks up a retried
// application at its next poll (a stopped one at start). So it does not take
// the data directory's lock (data-dir-lock.ts): it takes back no rows, leaves
// uploads/ alone and deletes no resume a row does not hold (the proxy may be
// storing it), which is what the lock protects. The only files it deletes are
// the resumes of the applications `erase` erases.
import { parseArgs } from 'node:util';
import { DEFAULT_PERSONAL_DATA_RETENTION_DAYS } from '../config.ts';
import { LISTING_OPTIONS, columns, iso, openCommandOutbox, out, parseLimit, printedUsage } from './preamble.ts';
import { loadWebhookConfig } from '../webhooks/config.ts';
import { emailBucket } from '../applications/form.ts';
import { OUTBOX_STATUSES, eraseAfter } from '../storage/index.ts';
import { storeCommandError } from './store-errors.ts';
import type { ErasureReport, OutboxStatus, OutboxSummary } from '../storage/index.ts';

const USAGE = `Usage: jobboard-connector outbox <command> [options]

Commands:
  list                  list applications in the outbox, with whether each still holds
                        personal data and when it is erased (no personal data is shown);
                        SOURCE "dropped": its company refused APPLICATION_SOURCE, so it
                        went without one
  retry ID              put a dead-lettered (or waiting) application back in line now
  purge-delivered       delete delivered and refused applications (they hold no personal data)
  erase --email ADDRESS erase one person's data (a right-to-erasure request): their
                        applications' fields and resumes (one not yet delivered never will
                        be), their per-email counter and the idempotency keys of those
                        applications; prints the references affected

Options:
  --data-dir DIR     the proxy's data directory (default: $DATA_DIR, else ./data)
  --status STATUS    list: only this status (${OUTBOX_STATUSES.join(', ')})
  --limit N          list: at most N rows (default 100)
  --json             list, erase: JSON (list: one object per line)
  --older-than-days N  purge-delivered: only rows older than N days (default 0)
  --email ADDRESS    erase: the applicant's email address (case and spaces around it ignored)
  -h, --help         this help

Environment: DATA_DIR, DATABASE_URL (the outbox is in that PostgreSQL database when set),
WEBHOOK_URL, WEBHOOK_SECRET, WEBHOOK_INCLUDE_CANDIDATE (as the proxy's: erase records application.erased for the board), DEAD_LETTER_AFTER_HOURS (the new deadline of a retried application, default 72),
PERSONAL_DATA_RETENTION_DAYS (list: when dead and refused applications lose their personal data,
default ${DEFAULT_PERSONAL_DATA_RETENTION_DAYS}; set it as the proxy's).`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** PERSONAL_DATA_RETENTION_DAYS as the proxy reads it (the environment only, like DEAD_LETTER_AFTER_HOURS here). */
function retentionDays(): number {
  const raw = process.env.PERSONAL_DATA_RETENTION_DAYS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_PERSONAL_DATA_RETENTION_DAYS;
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(days) || days < 1) {
    throw new Error(
      `PERSONAL_DATA_RETENTION_DAYS must be a whole number of days, at least 1, like 30 (it is "${raw}").`,
    );
  }
  return days;
}

/** What the row keeps and until when, in words: "until delivered", "until <date>", "erased <date> (request)", "none". */
function personalData(row: OutboxSummary, retentionMs: number): string {
  if (row.erased_at !== null) return `erased ${iso(row.erased_at)} (${row.erased_by ?? '-'})`;
  if (!row.personal_data) return 'none';
  const until = eraseAfter(row, retentionMs);
  return until === null ? 'until delivered' : `until ${iso(until)}`;
}

function table(rows: OutboxSummary[], retentionMs: number): string {
  const header = [
    'REFERENCE',
    'STATUS',
    'CAMPAIGN',
    'ATTEMPTS',
    'CREATED',
    'NEXT ATTEMPT',
    'ANSWERED',
    'OUTCOME',
    'SOURCE',
    'PERSONAL DATA',
    'LAST ERROR',
  ];
  const lines = rows.map((r) => [
    r.reference,
    r.status,
    String(r.campaign_id),
    String(r.attempts),
    iso(r.created_at),
    r.status === 'pending' ? iso(r.next_attempt_at) : '-',
    r.answered === null ? '-' : String(r.answered),
    r.outcome ?? '-',
    // Its company refused APPLICATION_SOURCE: it went (or goes) without one.
    r.source_dropped === 1 ? 'dropped' : '-',
    personalData(r, retentionMs),
    r.last_error ?? '-',
  ]);
  return columns(header, lines);
}

export async function main(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...LISTING_OPTIONS, 'older-than-days': { type: 'string' }, email: { type: 'string' } },
  });
  const [command, ...rest] = positionals;
  if (printedUsage(command, values.help, USAGE, out)) return;
  // As the proxy: with WEBHOOK_URL set, an erasure or a dead letter is told to the board (the proxy sends the event).
  const webhook = loadWebhookConfig(process.env);
  const {
    store: outbox,
    close,
    where,
  } = await openCommandOutbox({
    dataDir: values['data-dir'],
    owner: 'outbox-command',
    webhookEvents: webhook === null ? undefined : { includeCandidate: webhook.includeCandidate },
  });
  try {
    switch (command) {
      case 'list': {
        const status = values.status as OutboxStatus | undefined;
        if (status !== undefined && !(OUTBOX_STATUSES as readonly string[]).includes(status)) {
          throw new Error(`--status must be one of ${OUTBOX_STATUSES.join(', ')}`);
        }
        const limit = parseLimit(values.limit, 'rows');
        const retentionMs = retentionDays() * DAY_MS;
        const rows = await outbox.list({ ...(status === undefined ? {} : { status }), limit });
        if (values.json) {
          for (const row of rows) out(JSON.stringify({ ...row, erase_after: eraseAfter(row, retentionMs) }));
          return;
        }
        const counts = await outbox.counts();
        out(rows.length === 0 ? 'The outbox is empty.' : table(rows, retentionMs));
        out(`\n${OUTBOX_STATUSES.map((s) => `${s}: ${counts[s]}`).join(', ')}`);
        return;
      }
      case 'retry': {
        const [reference] = rest;
        if (reference === undefined)
          throw new Error('retry needs the reference of an application: jobboard-connector outbox retry ID');
        const hours = Number(process.env.DEAD_LETTER_AFTER_HOURS ?? 72);
        const result = await outbox.retry(
          reference,
          (Number.isFinite(hours) && hours > 0 ? hours : 72) * 60 * 60 * 1000,
        );
        if (result === 'not_found') throw new Error(`No application ${reference} in the outbox of ${outbox.location}.`);
        if (result === 'erased') {
          const row = await outbox.summary(reference);
          const why =
            row?.erased_by === 'request'
              ? 'at an erasure request (outbox erase)'
              : 'after PERSONAL_DATA_RETENTION_DAYS';
          throw new Error(
            `Application ${reference} cannot be retried: its personal data was erased on ${iso(row?.erased_at ?? null)} ${why}, so there is nothing left to deliver. The candidate has to apply again.`,
          );
        }
        if (result === 'not_retryable') {
          const row = await outbox.summary(reference);
          throw new Error(
            `Application ${reference} is ${row?.status ?? 'gone'}: only dead or waiting applications, still holding their data, can be retried.`,
          );
        }
        out(
          `Application ${reference} queued: a running proxy delivers it within seconds, a stopped one when it starts.`,
        );
        return;
      }
      case 'purge-delivered': {
        const days = values['older-than-days'] === undefined ? 0 : Number(values['older-than-days']);
        if (!Number.isFinite(days) || days < 0) throw new Error('--older-than-days must be a number of days, like 30');
        const deleted = await outbox.purgeDelivered(days * 24 * 60 * 60 * 1000);
        await outbox.compact();
        out(`Deleted ${deleted} delivered or refused application${deleted === 1 ? '' : 's'} from the outbox.`);
        return;
      }
      case 'erase': {
        const email = values.email?.trim();
        if (email === undefined || email === '')
          throw new Error("erase needs the applicant's address: jobboard-connector outbox erase --email ADDRESS");
        if (!email.includes('@')) throw new Error('--email must be an email address, like name@example.org');
        const report = await outbox.eraseByEmail(email, emailBucket(email));
        await outbox.compact();
        out(values.json ? JSON.stringify(erasureJson(report)) : erasureText(report));
        return;
      }
      default:
        throw new Error(`Unknown outbox command "${command}".\n\n${USAGE}`);
    }
  } catch (error) {
    throw storeCommandError(error, where, `run outbox ${command}`);
  } finally {
    await close();
  }
}

const DELIVERED_NOTE =
  'Applications already delivered keep no personal data here: the recruitment service holds them; erase them there too.';

function erasureJson(report: ErasureReport): object {
  return {
    applications: report.applications.map((a) => ({
      reference: a.reference,
      status_before: a.statusBefore,
      status: a.status,
      outcome: a.outcome,
    })),
    rate_counters: report.rateCounters,
    idempotency_keys: report.idempotencyKeys,
    webhook_events: report.webhookEvents,
  };
}

/** The operator's answer to an erasure request: counts and references, never the address or the data. */
function erasureText(report: ErasureReport): string {
  const { applications, rateCounters, idempotencyKeys, webhookEvents } = report;
  if (applications.length === 0 && rateCounters === 0 && idempotencyKeys === 0 && webhookEvents === 0) {
    return `Nothing held for that address: no application with personal data, no webhook event, no rate counter, no idempotency key.\n${DELIVERED_NOTE}`;
  }
  const references = applications.length === 0 ? '' : ` (${applications.map((a) => a.reference).join(', ')})`;
  const lines = ['Erased for that address:', `  applications: ${applications.length}${references}`];
  for (const a of applications) {
    if (a.statusBefore === 'pending')
      lines.push(
        `    ${a.reference} was waiting for delivery: it will not be delivered (now rejected, outcome erased)`,
      );
    if (a.statusBefore === 'delivering') {
      lines.push(
        `    ${a.reference} was being delivered at that moment: if that attempt succeeds, the list shows it delivered; erase it in the recruitment service too`,
      );
    }
    if (a.statusBefore === 'dead') lines.push(`    ${a.reference} was dead-lettered: it can no longer be retried`);
  }
  lines.push(
    `  webhook events: ${webhookEvents}${webhookEvents === 0 ? '' : " (not yet sent: an application's is still sent, without the candidate's fields; an alert's is not sent)"}`,
  );
  lines.push(`  rate counters: ${rateCounters}`, `  idempotency keys: ${idempotencyKeys}`, DELIVERED_NOTE);
  return lines.join('\n');
}
