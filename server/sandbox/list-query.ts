// The SQL of a list route (GET /campaigns, /applications, /applicants): the
// client's access scope and the filters, ANDed; a COUNT(*) for the total; one
// page ordered by a column from the route's fixed map, the id breaking ties.
// SQL text comes only from the route's constants; every value is a parameter.
import type { Database } from './db.ts';

export type SqlValue = string | number;

/** A SQL fragment with its parameters, in order. */
export interface Sql {
  sql: string;
  params: SqlValue[];
}

/** What a list reads, all fixed SQL text. */
export interface ListSource<Order extends string> {
  /** The query counted, without WHERE: "SELECT COUNT(*) AS n FROM campaigns c". */
  count: string;
  /** The query of the page, without WHERE: "SELECT c.* FROM campaigns c". */
  select: string;
  /** The id column, the tie-breaker that makes paging stable: "c.id". */
  id: string;
  /** The columns a client may order by, by the name it gives. */
  orderBy: Readonly<Record<Order, string>>;
}

/**
 * A condition, or one written differently for the count and for the page (the
 * same condition in both, with the same parameters, but worded so that SQLite
 * picks another index for each).
 */
export type Condition = string | { count: string; page: string };

export interface PageRequest<Order extends string> {
  order: Order;
  sort: 'asc' | 'desc';
  page: number;
  per_page: number;
}

export class ListQuery<Order extends string> {
  readonly #source: ListSource<Order>;
  readonly #count: string[] = [];
  readonly #page: string[] = [];
  readonly #params: SqlValue[] = [];

  /** Starts from what the client may see (access.ts). */
  constructor(source: ListSource<Order>, scope: Sql) {
    this.#source = source;
    this.where(scope.sql, ...scope.params);
  }

  /** Adds a condition (ANDed) and the values of its "?" placeholders. */
  where(condition: Condition, ...params: SqlValue[]): this {
    const { count, page } = typeof condition === 'string' ? { count: condition, page: condition } : condition;
    // A placeholder without its value would shift every later parameter onto the wrong "?".
    if (placeholders(count) !== params.length || placeholders(page) !== params.length) {
      throw new Error(`The condition "${page}" takes ${placeholders(page)} parameters, not ${params.length}.`);
    }
    this.#count.push(count);
    this.#page.push(page);
    this.#params.push(...params);
    return this;
  }

  countQuery(): Sql {
    return { sql: `${this.#source.count} WHERE ${this.#count.join(' AND ')}`, params: [...this.#params] };
  }

  pageQuery(request: PageRequest<Order>): Sql {
    const dir = request.sort === 'asc' ? 'ASC' : 'DESC';
    const column = this.#source.orderBy[request.order];
    return {
      sql: `${this.#source.select} WHERE ${this.#page.join(' AND ')} ORDER BY ${column} ${dir}, ${this.#source.id} ${dir} LIMIT ? OFFSET ?`,
      params: [...this.#params, request.per_page, (request.page - 1) * request.per_page],
    };
  }

  /** The number of matching rows (cached by the database until the next write). */
  count(db: Database): number {
    const { sql, params } = this.countQuery();
    return db.count(sql, ...params);
  }

  page<T>(db: Database, request: PageRequest<Order>): T[] {
    const { sql, params } = this.pageQuery(request);
    return db.all<T>(sql, ...params);
  }
}

function placeholders(sql: string): number {
  return sql.split('?').length - 1;
}
