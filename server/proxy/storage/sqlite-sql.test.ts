// The SQLite side of the seam: a transaction may await, and no statement of
// the same file in this process slips into it meanwhile (it would be rolled
// back with it); a second connection to the file waits its turn instead of
// blocking the thread on busy_timeout; and a check-then-write that was
// atomic while node:sqlite's transactions were synchronous still is.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { IDEMPOTENCY_TTL_MS } from './outbox/application-store.ts';
import { AsyncLock, SqliteSql } from './sqlite-sql.ts';
import type { Sql } from './sql.ts';
import { SqliteApplicationStore } from './outbox/sqlite-store.ts';
import { newApplication } from './test-support.ts';

describe('SQLite connection behind an async lock', () => {
  let dir: string;
  let path: string;
  const open: SqliteSql[] = [];
  const connect = (): SqliteSql => {
    const db = new DatabaseSync(path);
    db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
    const sql = new SqliteSql(db, path);
    open.push(sql);
    return sql;
  };
  const values = async (sql: Sql) => (await sql.all('SELECT v FROM t ORDER BY v')).map((r) => r.v);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-sqlite-sql-'));
    path = join(dir, 'test.db');
    await connect().run('CREATE TABLE t (v text)');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((sql) => sql.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a statement issued while a transaction awaits after it, not inside it: the rollback keeps it', async () => {
    const sql = open[0]!;
    let outside: Promise<number> | undefined;
    const failed = sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (v) VALUES ('in')");
      outside = sql.run("INSERT INTO t (v) VALUES ('out')");
      // A real wait (a timer), as a transaction awaiting I/O would.
      await sleep(20);
      assert.deepEqual(await values(tx), ['in'], 'the statement issued meanwhile has not run yet');
      throw new Error('no');
    });
    await assert.rejects(failed, /no/);
    assert.equal(await outside, 1);
    assert.deepEqual(await values(sql), ['out']);
  });

  it('makes a second connection of this process to the file wait for the transaction, without SQLITE_BUSY', async () => {
    const first = open[0]!;
    const second = connect();
    const order: string[] = [];
    const tx = first.transaction(async (sql) => {
      await sql.run("INSERT INTO t (v) VALUES ('a')");
      await sleep(50);
      order.push('committed');
    });
    await sleep(5);
    const started = Date.now();
    await second.run("INSERT INTO t (v) VALUES ('b')");
    order.push('second wrote');
    await tx;
    assert.deepEqual(order, ['committed', 'second wrote']);
    assert.ok(Date.now() - started < 2_000, 'waited on the lock, not on busy_timeout');
    assert.deepEqual(await values(first), ['a', 'b']);
  });

  it("joins a nested transaction to the one open, and refuses a statement on a transaction's runner once it ended", async () => {
    const sql = open[0]!;
    let kept: Sql | undefined;
    await sql.transaction(async (tx) => {
      kept = tx;
      await tx.transaction(async (nested) => nested.run("INSERT INTO t (v) VALUES ('nested')"));
    });
    assert.deepEqual(await values(sql), ['nested']);
    await assert.rejects(kept!.run("INSERT INTO t (v) VALUES ('late')"), /transaction that has ended/);
  });

  it('runs work in the order asked, each after the one before settled, a failure included', async () => {
    const lock = new AsyncLock();
    const seen: number[] = [];
    const slow = lock.run(async () => {
      await sleep(20);
      seen.push(1);
      throw new Error('first fails');
    });
    const next = lock.run(() => seen.push(2));
    await assert.rejects(slow);
    await next;
    assert.deepEqual(seen, [1, 2]);
  });
});

describe('SQLite store claims made at once', () => {
  let dir: string;
  let store: SqliteApplicationStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-sqlite-claims-'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives a key a killed process stored to one of two requests arriving at once; the other is told it is in progress', async () => {
    const gone = new SqliteApplicationStore({ dataDir: dir, owner: 'process-1' });
    assert.deepEqual(await gone.claimKey('k', 'f'), { kind: 'claimed' });
    await gone.enqueue(newApplication('r1'), { deadLetterAfterMs: IDEMPOTENCY_TTL_MS, key: 'k' });
    await gone.close();
    store = new SqliteApplicationStore({ dataDir: dir, owner: 'process-2' });
    const claims = await Promise.all([store.claimKey('k', 'f'), store.claimKey('k', 'f')]);
    assert.deepEqual(claims, [{ kind: 'stored', reference: 'r1' }, { kind: 'in_progress' }]);
  });

  it('claims each due row once when two claims run at once', async () => {
    store = new SqliteApplicationStore({ dataDir: dir, owner: 'process-1' });
    for (const reference of ['r1', 'r2', 'r3'])
      await store.enqueue(newApplication(reference), { deadLetterAfterMs: IDEMPOTENCY_TTL_MS });
    const [a, b] = await Promise.all([store.claimDue(2, 60_000), store.claimDue(2, 60_000)]);
    const references = [...a, ...b].map((row) => row.reference).sort();
    assert.deepEqual(references, ['r1', 'r2', 'r3']);
  });
});
