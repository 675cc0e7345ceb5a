// jobboard-connector migrate: brings the application store's schema up to
// date and says what it applied, without starting the proxy (a proxy whose
// database role may create tables also migrates at start; this lets a
// deployment do it once, before the instances, as the role owning the tables).
// Like the outbox command it does not take the data directory's lock, and so
// deletes no file: it may run beside a proxy that is storing applications.
import { parseArgs } from 'node:util';
import { openCommandOutbox } from './preamble.ts';

const USAGE = `Usage: jobboard-connector migrate [options]

Applies the schema migrations the application store lacks (the outbox, the
idempotency keys, the rate counters), records them in schema_migrations and
prints what it applied. Safe to run while proxies run and more than once:
instances take turns on a lock, and what is applied is not applied again.

Where: the PostgreSQL database of DATABASE_URL when it is set, else
DATA_DIR/outbox.db (SQLite; created when missing). With PostgreSQL, give it
the DATABASE_URL of the role that owns the tables: the proxies may run with a
role that only reads and writes rows (see the partners' guide).

Options:
  --data-dir DIR   the proxy's data directory (default: $DATA_DIR, else ./data)
  -h, --help       this help

Environment: DATABASE_URL, DATA_DIR.`;

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const { store, migrations, close } = await openCommandOutbox({
    dataDir: values['data-dir'],
    owner: 'migrate-command',
    create: true,
    action: 'migrate the application store',
  });
  try {
    if (migrations.applied.length === 0) {
      console.log(`${store.location}: up to date (schema version ${migrations.version}).`);
      return;
    }
    console.log(
      `${store.location}: applied ${migrations.applied.length} migration${migrations.applied.length === 1 ? '' : 's'}:`,
    );
    for (const m of migrations.applied) console.log(`  ${m.version} ${m.name}`);
    console.log(`Schema version ${migrations.version}.`);
  } finally {
    await close();
  }
}
