// The seam's contract (Sql, sql.ts), the same on both databases: statements
// with and without parameters, a transaction committed or rolled back as one,
// and a transaction opened on a transaction's runner joining the one open.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, afterEach, before, describe, it } from 'node:test';
import pg from 'pg';
import { freshDatabase, skipWithoutPostgres } from '../../test/postgres.ts';
import { postgresSql } from './postgres.ts';
import type { Sql } from './sql.ts';
import { SqliteSql } from './sqlite-sql.ts';

function contract(connect: () => Promise<Sql>): void {
  let sql: Sql;
  const values = async () => (await sql.all('SELECT v FROM t ORDER BY v')).map((row) => row.v);
  before(async () => {
    sql = await connect();
  });
  afterEach(async () => {
    await sql.run('DELETE FROM t');
  });

  it('runs a statement without parameters and answers how many rows it changed', async () => {
    assert.equal(await sql.run("INSERT INTO t (v) VALUES ('a'), ('b')"), 2);
    assert.deepEqual(await values(), ['a', 'b']);
  });

  it('runs a statement with parameters', async () => {
    await sql.run('INSERT INTO t (v) VALUES ($1)', ['p']);
    const rows = await sql.all('SELECT v FROM t WHERE v = $1', ['p']);
    assert.deepEqual(
      rows.map((row) => row.v),
      ['p'],
    );
  });

  it('commits the statements of a transaction whose work resolves', async () => {
    const answer = await sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (v) VALUES ('kept')");
      return 'done';
    });
    assert.equal(answer, 'done');
    assert.deepEqual(await values(), ['kept']);
  });

  it('rolls back, with the transaction it joined, a nested transaction whose work committed', async () => {
    let seenInside: unknown[] = [];
    const failed = sql.transaction(async (tx) => {
      await tx.transaction(async (nested) => nested.run("INSERT INTO t (v) VALUES ('nested')"));
      seenInside = (await tx.all('SELECT v FROM t')).map((row) => row.v);
      throw new Error('the outer work fails');
    });
    await assert.rejects(failed, /the outer work fails/);
    assert.deepEqual(seenInside, ['nested'], 'the nested work ran on the open transaction');
    assert.deepEqual(await values(), []);
  });
}

describe('Sql on SQLite', () => {
  let dir: string;
  let sqlite: SqliteSql;
  contract(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-sql-'));
    const path = join(dir, 'test.db');
    sqlite = new SqliteSql(new DatabaseSync(path), path);
    await sqlite.run('CREATE TABLE t (v text)');
    return sqlite;
  });
  after(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('Sql on PostgreSQL', { skip: skipWithoutPostgres() }, () => {
  let pool: pg.Pool;
  contract(async () => {
    pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
    const sql = postgresSql(pool);
    await sql.run('CREATE TABLE t (v text)');
    return sql;
  });
  after(async () => {
    await pool.end();
  });
});
