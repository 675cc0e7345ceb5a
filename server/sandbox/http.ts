// Small helpers shared by the route modules: parsing requests through the
// contract's schemas, and answering lists with X-Pagination.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { PAGINATION_HEADER, paginationFor } from '../contract/index.ts';
import type { Scope } from '../contract/index.ts';
import type { ApiClient } from './auth.ts';
import { SandboxError, fromZod, notFound } from './errors.ts';
import type { RecordingRouter } from './route-table.ts';

/** Parses a JSON body; a missing or non-object body is a 400 that says what to send. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SandboxError(
      'invalid_request',
      `The body of ${what} must be a JSON object (Content-Type: application/json).`,
    );
  }
  const result = schema.safeParse(body);
  if (!result.success) throw fromZod(result.error, `body of ${what}`);
  return result.data;
}

/** Parses a query string (already bracket-parsed by qs); empty parameters are ignored (API rules: Endpoints). */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown, what: string): z.output<S> {
  const result = schema.safeParse(withoutEmpty(query) ?? {});
  if (!result.success) throw fromZod(result.error, `query of ${what}`);
  return result.data;
}

function withoutEmpty(value: unknown): unknown {
  if (value === '' || value === undefined) return undefined;
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const kept = withoutEmpty(item);
      if (kept !== undefined) out[key] = kept;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

/** A path id: a positive integer, or the record is simply not found. */
export function parseId(raw: unknown, what: string): number {
  if (typeof raw !== 'string' || !/^[1-9][0-9]{0,14}$/.test(raw)) throw notFound(`${what} with this id`);
  return Number(raw);
}

export function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** The authenticated API client (set by the auth middleware). */
export function callerOf(res: Response): ApiClient {
  return res.locals.client as ApiClient;
}

export function requireScope(client: ApiClient, scope: Scope): void {
  if (!client.scopes.includes(scope)) {
    throw new SandboxError('missing_scope', `This API client lacks the scope ${scope}.`, [
      { field: 'scope', message: scope },
    ]);
  }
}

/** What a list route answers: one page of rendered records, and how many match in all. */
export interface ListAnswer {
  items: unknown[];
  total: number;
}

/**
 * A list route (GET /campaigns, /applications, /applicants): checks the
 * scope, parses the query, and answers the page `read` gives with its
 * X-Pagination header. `read` adds the route's own filters.
 */
export function listRoute<S extends z.ZodType<{ page: number; per_page: number }>>(
  router: RecordingRouter,
  path: string,
  scope: Scope,
  querySchema: S,
  read: (q: z.output<S>, client: ApiClient, req: Request) => ListAnswer,
): void {
  router.get(path, (req, res) => {
    const client = callerOf(res);
    requireScope(client, scope);
    const q = parseQuery(querySchema, req.query, `GET ${path}`);
    const { items, total } = read(q, client, req);
    res.set(PAGINATION_HEADER, JSON.stringify(paginationFor(total, q.page, q.per_page)));
    res.json(items);
  });
}
