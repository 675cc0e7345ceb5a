// jobboard-connector webhooks list | retry ID | send-test
// Inspects the webhook events the proxy posts to WEBHOOK_URL (kept in the
// same store as the outbox: DATA_DIR/outbox.db, or DATABASE_URL), puts a
// failed one back in line, and sends a signed test event to check the
// board's receiver. Safe while the proxy runs, like `outbox`: a running
// proxy sends a retried event at its next poll.
import { parseArgs } from 'node:util';
import { TEST_EVENT_TYPE, TestEvent } from '../../public-api/webhook-events.ts';
import { LISTING_OPTIONS, columns, iso, openCommandOutbox, out, parseLimit, printedUsage } from './preamble.ts';
import { loadWebhookConfig } from '../webhooks/config.ts';
import { WEBHOOK_EVENT_STATUSES, newEventId } from '../storage/index.ts';
import type { WebhookEventRow, WebhookEventStatus } from '../storage/index.ts';
import { storeCommandError } from './store-errors.ts';
import { postEvent } from '../webhooks/post-event.ts';

const USAGE = `Usage: jobboard-connector webhooks <command> [options]

Commands:
  list          list the webhook events (no candidate data is shown)
  retry ID      put a failed event back in line now, with three more days of retries
  send-test     post a signed ${TEST_EVENT_TYPE} event to WEBHOOK_URL now and print the answer

Options:
  --data-dir DIR     the proxy's data directory (default: $DATA_DIR, else ./data)
  --status STATUS    list: only this status (${WEBHOOK_EVENT_STATUSES.join(', ')})
  --limit N          list: at most N events (default 100)
  --json             list: one JSON object per line
  -h, --help         this help

Environment: DATA_DIR, DATABASE_URL (as the proxy's), WEBHOOK_URL and WEBHOOK_SECRET (send-test).`;

function table(rows: WebhookEventRow[]): string {
  const header = [
    'ID',
    'TYPE',
    'REFERENCE',
    'STATUS',
    'ATTEMPTS',
    'CREATED',
    'NEXT ATTEMPT',
    'DELIVERED',
    'LAST ERROR',
  ];
  const lines = rows.map((r) => [
    r.id,
    r.type,
    r.reference,
    r.status,
    String(r.attempts),
    iso(r.created_at),
    r.status === 'pending' ? iso(r.next_attempt_at) : '-',
    iso(r.delivered_at),
    r.last_error ?? '-',
  ]);
  return columns(header, lines);
}

/** What list --json prints: the row, its body without candidate fields (they are never shown). */
function json(row: WebhookEventRow): string {
  const { payload, ...rest } = row;
  return JSON.stringify({ ...rest, event: JSON.parse(payload) as unknown });
}

async function sendTest(out: (text: string) => void): Promise<void> {
  const webhook = loadWebhookConfig(process.env);
  if (webhook === null)
    throw new Error(
      'send-test needs WEBHOOK_URL (and WEBHOOK_SECRET), as the proxy has them: set them, then run it again.',
    );
  const now = new Date();
  const id = newEventId();
  const body = JSON.stringify(
    TestEvent.parse({
      type: TEST_EVENT_TYPE,
      timestamp: now.toISOString(),
      data: {
        message: 'A test event from jobboard-connector: your receiver verified its signature if it answered 2xx.',
      },
    }),
  );
  const result = await postEvent(webhook, id, body, { now });
  if (result.kind === 'unreachable') {
    throw new Error(
      `Sent ${TEST_EVENT_TYPE} ${id} to ${webhook.url}: no answer (${result.error}). Check that the board's receiver runs and that this machine reaches it.`,
    );
  }
  const said = `${TEST_EVENT_TYPE} ${id} to ${webhook.url}: HTTP ${result.status}${result.body === '' ? '' : `\n${result.body}`}`;
  if (!result.ok)
    throw new Error(
      `Sent ${said}\nThe receiver did not accept it (not 2xx): check that it verifies with the same WEBHOOK_SECRET.`,
    );
  out(`Sent ${said}`);
}

/** `print`: where the answer goes (stdout; tests collect it). */
export async function main(args: string[], print: (text: string) => void = out): Promise<void> {
  const out = print;
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: LISTING_OPTIONS,
  });
  const [command, ...rest] = positionals;
  if (printedUsage(command, values.help, USAGE, out)) return;
  if (command === 'send-test') return sendTest(out);
  if (command !== 'list' && command !== 'retry') throw new Error(`Unknown webhooks command "${command}".\n\n${USAGE}`);
  const { store, close, where } = await openCommandOutbox({
    dataDir: values['data-dir'],
    owner: 'webhooks-command',
    without: ', so no webhook events',
  });
  try {
    if (command === 'list') {
      const status = values.status as WebhookEventStatus | undefined;
      if (status !== undefined && !(WEBHOOK_EVENT_STATUSES as readonly string[]).includes(status))
        throw new Error(`--status must be one of ${WEBHOOK_EVENT_STATUSES.join(', ')}`);
      const limit = parseLimit(values.limit, 'events');
      const rows = await store.webhooks.list({ ...(status === undefined ? {} : { status }), limit });
      if (values.json) {
        for (const row of rows) out(json(row));
        return;
      }
      const counts = await store.webhooks.counts();
      out(rows.length === 0 ? 'No webhook events.' : table(rows));
      out(`\n${WEBHOOK_EVENT_STATUSES.map((s) => `${s}: ${counts[s]}`).join(', ')}`);
      return;
    }
    const [id] = rest;
    if (id === undefined)
      throw new Error(
        'retry needs the id of an event (webhooks list shows it): jobboard-connector webhooks retry msg_…',
      );
    const result = await store.webhooks.retry(id);
    if (result === 'not_found')
      throw new Error(
        `No webhook event ${id} in ${where}: \`jobboard-connector webhooks list --status failed\` shows the failed ones.`,
      );
    if (result === 'emptied')
      throw new Error(
        `Webhook event ${id} is an alert that failed: the proxy kept neither its email nor its search, so it cannot be sent again (the candidate creates the alert again).`,
      );
    if (result === 'not_failed') {
      const row = await store.webhooks.get(id);
      throw new Error(
        `Webhook event ${id} is ${row?.status ?? 'gone'}: only failed events can be retried (pending ones are retried by the proxy already).`,
      );
    }
    out(
      `Webhook event ${id} queued: a running proxy with WEBHOOK_URL sends it within seconds, a stopped one when it starts.`,
    );
  } catch (error) {
    throw storeCommandError(error, where, `run webhooks ${command}`);
  } finally {
    await close();
  }
}
