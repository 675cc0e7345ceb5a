// What every resource module shares: the generic calls (one page, every
// page, one record, a plain array, a create) over the one transport, each
// checking its input against the contract before spending a request, reading
// records and pages, and checking that the embeds asked for came back. A
// resource method is one call of these with its path and schemas.
import { z } from 'zod';
import { PAGINATION_HEADER, PaginationHeader, detailsFromIssues } from '../contract/index.ts';
import type { ErrorDetail } from '../contract/index.ts';
import { SchemaError, ValidationError } from './errors.ts';
import { toSearchParams } from './query.ts';
import { withStreamedFiles } from './streamed-json.ts';
import type { StreamedBody } from './streamed-json.ts';
import { ContractViolation, parseWith } from './transport.ts';
import type { RequestOptions, Transport } from './transport.ts';

/** One page of a list endpoint with the decoded `X-Pagination` header. */
export interface Page<T> {
  data: T[];
  pagination: PaginationHeader;
}

/** `T` with the embedded keys `K` present (they may still be null, e.g. a campaign without address). */
export type WithEmbeds<T, K extends PropertyKey> = Simplify<
  Omit<T, K & keyof T> & { [P in K & keyof T]-?: Exclude<T[P], undefined> }
>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Query or body checked against the contract before anything is sent; a failure names its fields. */
export function checkInput(
  schema: z.ZodType,
  value: unknown,
  method: string,
  url: string,
  prefix: readonly PropertyKey[] = [],
): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError({
    method,
    url,
    code: 'invalid_request',
    message: 'not sent: the request breaks the contract',
    details: detailsFromIssues(result.error.issues, prefix),
    attempts: 0,
  });
}

/**
 * A create's body checked against the contract: plain JSON, or, when it holds
 * StreamedFiles, a body that streams them (each checked as a file of its type).
 */
export function checkBody(
  schema: z.ZodType,
  value: unknown,
  method: string,
  url: string,
): { json: unknown } | { body: StreamedBody } {
  const streamed = withStreamedFiles(value);
  if (streamed === undefined) return { json: checkInput(schema, value, method, url) };
  return { body: streamed.body(checkInput(schema, streamed.standIn, method, url)) };
}

/**
 * Parses one record and checks that each asked-for embed is there. `T` is the
 * schema's output narrowed by the embeds; that runtime check is what makes
 * the narrowing safe.
 */
export function readRecord<T>(
  schema: z.ZodType,
  body: unknown,
  embedKeys: readonly string[],
  prefix: readonly PropertyKey[] = [],
): T {
  const record = parseWith(schema, body, prefix);
  for (const key of embedKeys) {
    if (!(key in (record as object))) {
      throw new ContractViolation(`the embed "${key}" was asked for but is missing`, [
        { field: [...prefix, key].map(String).join('.'), message: 'embed asked for but missing' },
      ]);
    }
  }
  return record as T;
}

/** A record of a list answer that breaks the contract, skipped because the caller asked for it. */
export interface InvalidRecord {
  /** Position in the page's array. */
  index: number;
  /** The record's `id` when it has a numeric one. */
  id: number | undefined;
  message: string;
  /** Fields named from the page's array, like `3.job_type`. */
  details: readonly ErrorDetail[];
}

/** Options of the list methods (`list`, `listAll`). */
export interface ListOptions extends RequestOptions {
  /**
   * Skip the records that break the contract and report each here, instead of
   * failing the whole page with SchemaError (a background sync that must not
   * lose every record to one bad one). The page's shape and its
   * X-Pagination header are still checked.
   */
  onInvalidRecord?: (record: InvalidRecord) => void;
}

export function readList<T>(
  schema: z.ZodType,
  body: unknown,
  embedKeys: readonly string[],
  onInvalidRecord?: (record: InvalidRecord) => void,
): T[] {
  if (!Array.isArray(body)) throw new ContractViolation('a list endpoint answered something else than a JSON array');
  const records: T[] = [];
  body.forEach((item: unknown, index) => {
    try {
      records.push(readRecord<T>(schema, item, embedKeys, [index]));
    } catch (error) {
      if (onInvalidRecord === undefined || !(error instanceof ContractViolation)) throw error;
      const id = (item as { id?: unknown } | null)?.id;
      onInvalidRecord({
        index,
        id: typeof id === 'number' ? id : undefined,
        message: error.message,
        details: error.details,
      });
    }
  });
  return records;
}

export function readPage<T>(
  schema: z.ZodType,
  body: unknown,
  response: Response,
  embedKeys: readonly string[],
  onInvalidRecord?: (record: InvalidRecord) => void,
): Page<T> {
  const header = response.headers.get(PAGINATION_HEADER);
  if (header === null) throw new ContractViolation(`the ${PAGINATION_HEADER} header is missing`);
  let decoded: unknown;
  try {
    decoded = JSON.parse(header);
  } catch {
    throw new ContractViolation(`the ${PAGINATION_HEADER} header is not JSON: ${header.slice(0, 100)}`);
  }
  const pagination = parseWith(PaginationHeader, decoded, [PAGINATION_HEADER]);
  return { data: readList<T>(schema, body, embedKeys, onInvalidRecord), pagination };
}

/** Embed values as the keys they add: `status_history:hired` fills `status_history`. */
export function embedKeysOf(embed: readonly string[] | string | undefined): string[] {
  if (embed === undefined) return [];
  const values = typeof embed === 'string' ? embed.split(',') : embed;
  return values.map((value) => value.trim().split(':')[0] ?? '').filter((key) => key !== '');
}

/**
 * Every record of a list, page after page, following `next-page` until it is
 * null. Records already yielded are skipped: with the default newest-first
 * order, a record created during the walk shifts the later pages by one and
 * would otherwise come twice. Nothing that existed when the walk began is missed.
 */
export async function* listAll<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  firstPage: number,
  url: string,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<number>();
  let page: number | null = firstPage;
  while (page !== null) {
    const current: Page<T> = await fetchPage(page);
    for (const record of current.data) {
      const { id } = record as { id: number };
      if (seen.has(id)) continue;
      seen.add(id);
      yield record;
    }
    const next: number | null = current.pagination['next-page'];
    if (next !== null && next <= page) {
      throw new SchemaError({
        method: 'GET',
        url,
        code: 'schema_mismatch',
        message: `${PAGINATION_HEADER} next-page ${next} does not come after page ${page}`,
        details: [{ field: `${PAGINATION_HEADER}.next-page`, message: 'must be greater than current-page' }],
      });
    }
    page = next;
  }
}

/** A list's query as the generic calls read it: its embeds (checked in the answer) and its start page. */
interface ListQuery {
  embed?: readonly string[] | undefined;
  page?: number | undefined;
}

/**
 * The generic calls of the API, over the one transport: every resource
 * method is one of them. `path` is relative to the /v2 root (`campaigns`,
 * `applicants/12`); `record` is the contract's schema of what comes back.
 * `T` is the record's type narrowed by the embeds asked for: the answer is
 * checked to hold them.
 */
export class Api {
  readonly #transport: Transport;
  /** The /v2 root without trailing slash, for messages of errors raised before sending. */
  readonly #baseUrl: string;

  constructor(transport: Transport, baseUrl: string) {
    this.#transport = transport;
    this.#baseUrl = baseUrl;
  }

  /** The full URL of a path, as errors name it. */
  url(path: string): string {
    return `${this.#baseUrl}/${path}`;
  }

  /** `GET path`: one page of records, the query checked against `querySchema` first. */
  async list<T>(
    path: string,
    querySchema: z.ZodType,
    record: z.ZodType,
    query: ListQuery,
    options?: ListOptions,
  ): Promise<Page<T>> {
    checkInput(querySchema, query, 'GET', this.url(path));
    const embedKeys = embedKeysOf(query.embed);
    return await this.#transport.send({
      method: 'GET',
      path,
      query: toSearchParams(query),
      kind: 'read',
      auth: true,
      read: (body, response) => readPage<T>(record, body, response, embedKeys, options?.onInvalidRecord),
      options,
    });
  }

  /** Every record of `GET path` across its pages, from `query.page` (default 1). */
  listAll<T>(
    path: string,
    querySchema: z.ZodType,
    record: z.ZodType,
    query: ListQuery,
    options?: ListOptions,
  ): AsyncIterable<T> {
    return listAll(
      (page) => this.list<T>(path, querySchema, record, { ...query, page }, options),
      query.page ?? 1,
      this.url(path),
    );
  }

  /** `GET collection/:id`: one record; a numeric id must be a positive whole number, a text one (an email) is encoded. */
  async get<T>(
    collection: string,
    id: number | string,
    querySchema: z.ZodType,
    record: z.ZodType,
    params: { embed?: readonly string[] | undefined },
    options?: RequestOptions,
  ): Promise<T> {
    const url = this.url(`${collection}/${id}`);
    const segment = typeof id === 'number' ? idSegment(id, 'id', 'GET', url) : encodeURIComponent(id);
    checkInput(querySchema, params, 'GET', url);
    const embedKeys = embedKeysOf(params.embed);
    return await this.#transport.send({
      method: 'GET',
      path: `${collection}/${segment}`,
      query: toSearchParams(params),
      kind: 'read',
      auth: true,
      read: (body) => readRecord<T>(record, body, embedKeys),
      options,
    });
  }

  /** `GET path` of an endpoint that answers a plain array, not paginated. */
  async array<T>(path: string, record: z.ZodType<T>, options?: RequestOptions): Promise<T[]> {
    return await this.#transport.send({
      method: 'GET',
      path,
      kind: 'read',
      auth: true,
      read: (body) => readRecord<T[]>(z.array(record), body, []),
      options,
    });
  }

  /** `POST path`: a create, its body checked against `bodySchema` (and streamed when it holds StreamedFiles). */
  async create<T>(
    path: string,
    bodySchema: z.ZodType,
    body: unknown,
    record: z.ZodType<T>,
    options?: RequestOptions,
  ): Promise<T> {
    return await this.#transport.send({
      method: 'POST',
      path,
      ...checkBody(bodySchema, body, 'POST', this.url(path)),
      kind: 'create',
      auth: true,
      read: (answer) => readRecord<T>(record, answer, []),
      options,
    });
  }
}

/** The key an embed value fills: `status_history:hired` fills `status_history`. */
export type EmbedKey<E extends string> = E extends `${infer K}:${string}` ? K : E;

/** What a collection resource reads with: its path under /v2 and the contract's schemas. */
export interface CollectionSchemas {
  /** `campaigns`: GET campaigns lists, GET campaigns/:id reads one. */
  path: string;
  listQuery: z.ZodType;
  getQuery: z.ZodType;
  record: z.ZodType;
}

/**
 * The reads every collection resource has (campaigns, applicants,
 * applications): one page, every page, one record, each typed with the
 * embeds asked for. `Embed` is what its `embed` takes, `Query` its list
 * query (whose `embed` is retyped per call), `R` its record, `Id` what names
 * one record in its path. A resource adds its create.
 */
export class Collection<
  Embed extends string,
  Query extends { embed?: readonly Embed[] },
  R,
  Id extends number | string,
> {
  protected readonly api: Api;
  readonly #schemas: CollectionSchemas;

  constructor(api: Api, schemas: CollectionSchemas) {
    this.api = api;
    this.#schemas = schemas;
  }

  /** `GET /<collection>`: one page (see the resource's list query for its filters). */
  list<const E extends Embed = never>(
    query?: Omit<Query, 'embed'> & { embed?: readonly E[] },
    options?: ListOptions,
  ): Promise<Page<WithEmbeds<R, EmbedKey<E>>>> {
    const { path, listQuery, record } = this.#schemas;
    return this.api.list(path, listQuery, record, query ?? {}, options);
  }

  /** Every record matching `query`, across all pages: `for await (const record of resource.listAll(query))`. */
  listAll<const E extends Embed = never>(
    query?: Omit<Query, 'embed'> & { embed?: readonly E[] },
    options?: ListOptions,
  ): AsyncIterable<WithEmbeds<R, EmbedKey<E>>> {
    const { path, listQuery, record } = this.#schemas;
    return this.api.listAll(path, listQuery, record, query ?? {}, options);
  }

  /** `GET /<collection>/:id`, with the embeds asked for present in the result's type. */
  get<const E extends Embed = never>(
    id: Id,
    params: { embed?: readonly E[] } = {},
    options?: RequestOptions,
  ): Promise<WithEmbeds<R, EmbedKey<E>>> {
    const { path, getQuery, record } = this.#schemas;
    return this.api.get(path, id, getQuery, record, params, options);
  }
}

/** Path segment of a numeric id, refused before sending when it is not a positive whole number. */
export function idSegment(id: number, name: string, method: string, url: string): string {
  if (Number.isInteger(id) && id > 0) return String(id);
  throw new ValidationError({
    method,
    url,
    code: 'invalid_request',
    message: 'not sent: the request breaks the contract',
    details: [{ field: name, message: `must be a positive whole number, got ${String(id)}` }],
    attempts: 0,
  });
}

export type { RequestOptions };
