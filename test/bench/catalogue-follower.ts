// Child process of the catalogue-scale bench: one instance following the
// shared catalogue, in a process of its own as the proxy is deployed (its own
// event loop: the instances' catch-ups run side by side, not one after the
// other). Over IPC it sends { loaded: ms } once it holds the whole copy, then
// { version, at } each time it holds a new version: `at` is the wall clock
// (performance.timeOrigin + performance.now(), which every process on the
// machine reads alike) when its catch-up's write to its store returned. It
// stops when the bench disconnects. argv: the database URL, the instance's name.
import pg from 'pg';
import { pino } from 'pino';
import { z } from 'zod';
import { openSharedCatalogueStore } from '../../server/proxy/storage/catalogue/catalogue-shared.ts';
import type { FollowerMessage } from './catalogue-follower-messages.ts';

const [url, name] = z.tuple([z.string(), z.string()]).parse(process.argv.slice(2));
const send = (message: FollowerMessage) => process.send?.(message);

const pool = new pg.Pool({ connectionString: url, max: 3, application_name: name });
pool.on('error', () => undefined);
const started = performance.now();
const copy = await openSharedCatalogueStore(pool, { logger: pino({ level: 'silent' }), checkEveryMs: 3_600_000 });
send({ loaded: performance.now() - started });

// The instance holds a version once its catch-up wrote it to the store: the
// catch-up takes the version in the same turn, right after this write returns.
const store = copy.store;
const applyChanges = store.applyChanges.bind(store);
store.applyChanges = (upserts, deletes, syncedAt) => {
  const skipped = applyChanges(upserts, deletes, syncedAt);
  queueMicrotask(() => send({ version: copy.version(), at: performance.timeOrigin + performance.now() }));
  return skipped;
};

process.once('disconnect', () => {
  void copy.close().then(() => pool.end());
});
