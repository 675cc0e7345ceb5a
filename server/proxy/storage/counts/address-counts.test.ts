// Where the per-address apply limit counts: in memory, or in the shared rate
// counters of the database (here a real SQLite store), as express-rate-limit
// calls a Store.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MemoryStore } from 'express-rate-limit';
import { databaseAddressCounts, memoryAddressCounts } from './address-counts.ts';
import { SqliteApplicationStore } from '../outbox/sqlite-store.ts';

const MINUTE = 60_000;

describe('per-address counts in the database', () => {
  let dir: string;
  let store: SqliteApplicationStore;
  let now = Date.UTC(2026, 0, 1, 12, 0, 30);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-address-counts-'));
    store = new SqliteApplicationStore({ dataDir: dir, owner: 'test', now: () => now });
    await store.ready();
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts each post of an address in its window, in the ip: bucket, and says when the window ends', async () => {
    const counts = databaseAddressCounts(() => Promise.resolve(store), MINUTE);
    const first = await counts.increment('203.0.113.7');
    const second = await counts.increment('203.0.113.7');
    const other = await counts.increment('198.51.100.1');
    assert.equal(first.totalHits, 1);
    assert.equal(second.totalHits, 2);
    assert.equal(other.totalHits, 1, 'another address has its own count');
    const peek = await store.peekRate('ip:203.0.113.7', MINUTE);
    assert.equal(peek.count, 2, 'kept under the ip: prefix, where the store prunes it with the other counters');
    assert.ok(first.resetTime instanceof Date);
    assert.equal(first.resetTime.getTime(), peek.resetAt);
    assert.ok(
      first.resetTime.getTime() > now && first.resetTime.getTime() <= now + MINUTE,
      'the window ends within a minute',
    );

    now += MINUTE;
    assert.equal((await counts.increment('203.0.113.7')).totalHits, 1, 'a new window starts again from one');
  });

  it('tells express-rate-limit that the counts are shared between instances', () => {
    const counts = databaseAddressCounts(() => Promise.resolve(store), MINUTE);
    assert.equal(counts.localKeys, false);
    assert.equal(counts.prefix, 'ip:');
  });

  it('rejects when the database cannot count, so the limit refuses rather than lets through', async () => {
    const counts = databaseAddressCounts(() => Promise.reject(new Error('database gone')), MINUTE);
    await assert.rejects(Promise.resolve(counts.increment('203.0.113.7')), /database gone/);
  });
});

describe('per-address counts in memory', () => {
  it("is express-rate-limit's own memory store", () => {
    assert.ok(memoryAddressCounts() instanceof MemoryStore);
  });
});
