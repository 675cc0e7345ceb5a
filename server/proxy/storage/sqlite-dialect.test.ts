import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { toSqlite } from './sqlite-dialect.ts';

describe('toSqlite', () => {
  it('numbers the placeholders as SQLite binds them by position, a placeholder used twice included', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (a INTEGER, b INTEGER, c INTEGER)');
    db.prepare(toSqlite('INSERT INTO t (a, b, c) VALUES ($1, $2, $1)')).run(7, 8);
    assert.deepEqual({ ...db.prepare('SELECT a, b, c FROM t').get() }, { a: 7, b: 8, c: 7 });
  });

  it('drops FOR UPDATE: a SQLite write transaction holds the whole file', () => {
    assert.equal(
      toSqlite('SELECT status FROM outbox WHERE reference = $1 FOR UPDATE'),
      'SELECT status FROM outbox WHERE reference = ?1',
    );
  });

  it('drops FOR UPDATE SKIP LOCKED closing a subquery: SQLite has one writer, there is nobody to skip', () => {
    assert.equal(
      toSqlite(
        'UPDATE t SET a = 1 WHERE id IN (SELECT id FROM t WHERE a = $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING *',
      ),
      'UPDATE t SET a = 1 WHERE id IN (SELECT id FROM t WHERE a = ?1 LIMIT ?2) RETURNING *',
    );
  });

  it('drops FOR UPDATE SKIP LOCKED inside a subquery, where SQLite would refuse the statement', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (a INTEGER)');
    db.exec('INSERT INTO t (a) VALUES (1), (2)');
    const sql =
      'UPDATE t SET a = a + 10 WHERE a IN (SELECT a FROM t ORDER BY a LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING a';
    assert.deepEqual(
      db
        .prepare(toSqlite(sql))
        .all(1)
        .map((r) => r.a),
      [11],
    );
  });

  it('drops FOR UPDATE SKIP LOCKED written over several indented lines, leaving no space behind', () => {
    assert.equal(
      toSqlite('SELECT id FROM t WHERE a = $1\n    ORDER BY id LIMIT $2\n    FOR UPDATE\n      SKIP LOCKED'),
      'SELECT id FROM t WHERE a = ?1\n    ORDER BY id LIMIT ?2',
    );
    assert.equal(toSqlite('SELECT id FROM t WHERE a = $1\n    FOR UPDATE'), 'SELECT id FROM t WHERE a = ?1');
  });
});
