import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Database } from './db.ts';
import { ListQuery } from './list-query.ts';
import type { ListSource } from './list-query.ts';

const APPLICATIONS: ListSource<'created_at' | 'source'> = {
  count: 'SELECT COUNT(*) AS n FROM applications a',
  select: 'SELECT a.* FROM applications a',
  id: 'a.id',
  orderBy: { created_at: 'a.created_at', source: 'a.source COLLATE NOCASE' },
};
const SINCE = { count: 'a.status_changed_at >= ?', page: '+a.status_changed_at >= ?' };

function statusSince(): ListQuery<'created_at' | 'source'> {
  return new ListQuery(APPLICATIONS, { sql: 'a.company_id = ?', params: [7] })
    .where('a.status = ?', 'hired')
    .where(SINCE, '2024-05-01');
}

describe('sandbox list query', () => {
  it('counts and pages with the scope first, then the conditions with their parameters in order', () => {
    const list = statusSince().where("(a.source LIKE ? ESCAPE '\\' OR a.source = ?)", '%jobs%', 'web');
    assert.deepEqual(list.countQuery(), {
      sql: "SELECT COUNT(*) AS n FROM applications a WHERE a.company_id = ? AND a.status = ? AND a.status_changed_at >= ? AND (a.source LIKE ? ESCAPE '\\' OR a.source = ?)",
      params: [7, 'hired', '2024-05-01', '%jobs%', 'web'],
    });
    assert.deepEqual(list.pageQuery({ order: 'created_at', sort: 'desc', page: 3, per_page: 20 }), {
      sql:
        "SELECT a.* FROM applications a WHERE a.company_id = ? AND a.status = ? AND +a.status_changed_at >= ? AND (a.source LIKE ? ESCAPE '\\' OR a.source = ?)" +
        ' ORDER BY a.created_at DESC, a.id DESC LIMIT ? OFFSET ?',
      params: [7, 'hired', '2024-05-01', '%jobs%', 'web', 20, 40],
    });
  });

  it('writes a split condition differently only where asked: the count and the page differ by that one "+", with the same parameters', () => {
    const list = statusSince();
    const conditions = (sql: string) =>
      sql
        .slice(sql.indexOf(' WHERE ') + ' WHERE '.length)
        .split(' ORDER BY ')[0]!
        .split(' AND ');
    assert.deepEqual(conditions(list.countQuery().sql), [
      'a.company_id = ?',
      'a.status = ?',
      'a.status_changed_at >= ?',
    ]);
    assert.deepEqual(conditions(list.pageQuery({ order: 'created_at', sort: 'asc', page: 1, per_page: 50 }).sql), [
      'a.company_id = ?',
      'a.status = ?',
      '+a.status_changed_at >= ?',
    ]);
    assert.deepEqual(
      list.countQuery().params,
      list.pageQuery({ order: 'created_at', sort: 'asc', page: 1, per_page: 50 }).params.slice(0, -2),
    );
  });

  it('orders by the mapped column in the asked direction, the id breaking ties, from the first row of the page', () => {
    const list = new ListQuery(APPLICATIONS, { sql: 'a.created_by_client = ?', params: [3] });
    assert.deepEqual(list.pageQuery({ order: 'source', sort: 'asc', page: 1, per_page: 50 }), {
      sql: 'SELECT a.* FROM applications a WHERE a.created_by_client = ? ORDER BY a.source COLLATE NOCASE ASC, a.id ASC LIMIT ? OFFSET ?',
      params: [3, 50, 0],
    });
  });

  it('refuses a condition whose placeholders and parameters differ in number, which would shift every later value', () => {
    const list = statusSince();
    assert.throws(() => list.where('a.source = ?'), /takes 1 parameters, not 0/);
    assert.throws(() => list.where({ count: 'a.x = ? AND a.y = ?', page: 'a.x = ?' }, 1), /parameters/);
  });

  it('leads SQLite to the status_changed_at index for the count and to the created_at order for the page', () => {
    const db = new Database(':memory:');
    try {
      const list = statusSince();
      const plan = ({ sql, params }: { sql: string; params: (string | number)[] }) =>
        db
          .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...params)
          .map((row) => row.detail)
          .join('\n');
      assert.match(
        plan(list.countQuery()),
        /applications_company_status \(company_id=\? AND status=\? AND status_changed_at>\?\)/,
      );
      const page = plan(list.pageQuery({ order: 'created_at', sort: 'desc', page: 1, per_page: 50 }));
      assert.match(page, /applications_company_status_created/);
      assert.doesNotMatch(page, /TEMP B-TREE/, 'the page is read in index order, not sorted');
    } finally {
      db.close();
    }
  });
});
