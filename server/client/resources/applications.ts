// Applications: API rules: Endpoints. Scope applications_read for reads,
// applications_write for create.
import type { z } from 'zod';
import { Application, CreateApplicationBody, GetApplicationQuery, ListApplicationsQuery } from '../../contract/index.ts';
import type { ApplicationEmbed } from '../../contract/index.ts';
import { toSearchParams } from '../query.ts';
import type { ResumeMayStream } from '../files.ts';
import { checkBody, checkInput, embedKeysOf, idSegment, listAll, readPage, readRecord } from '../resource.ts';
import type { ListOptions, Page, RequestOptions, ResourceContext, WithEmbeds } from '../resource.ts';

/** An embed value of the applications endpoints; `status_history:<value>` restricts the history to one status. */
export type ApplicationEmbedValue = ApplicationEmbed | `status_history:${string}`;
type EmbedKey<E> = E extends `status_history:${string}` ? 'status_history' : E;

/** An application with the embeds `E` present. */
export type ApplicationWith<E extends ApplicationEmbedValue = never> = WithEmbeds<Application, EmbedKey<E>>;

/**
 * Query of GET /applications: the contract's query input. `status` is sent in
 * bracket notation (`status[value]=hired&status[date][gte]=2024-01-01`); the
 * date filter requires `status.value`.
 */
export type ApplicationListQuery<E extends ApplicationEmbedValue = ApplicationEmbedValue> = Omit<
  z.input<typeof ListApplicationsQuery>,
  'embed' | 'campaign_id' | 'is_complete' | 'page' | 'per_page'
> & {
  embed?: readonly E[];
  campaign_id?: number;
  is_complete?: boolean;
  page?: number;
  /** 1 to 50 (default 50). */
  per_page?: number;
};

type CreateBody = z.input<typeof CreateApplicationBody>;

/** The body of POST /applications; the resume may be a StreamedFile, sent without being held in memory. */
export type ApplicationCreateInput = Omit<CreateBody, 'application'> & { application?: ResumeMayStream<NonNullable<CreateBody['application']>> };

export class Applications {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** `GET /applications`: one page of applications. */
  async list<const E extends ApplicationEmbedValue = never>(query: ApplicationListQuery<E> = {}, options?: ListOptions): Promise<Page<ApplicationWith<E>>> {
    const url = `${this.#ctx.baseUrl}/applications`;
    checkInput(ListApplicationsQuery, query, 'GET', url);
    const embedKeys = embedKeysOf(query.embed);
    return await this.#ctx.transport.send({
      method: 'GET',
      path: 'applications',
      query: toSearchParams(query),
      kind: 'read',
      auth: true,
      read: (body, response) => readPage<ApplicationWith<E>>(Application, body, response, embedKeys, options?.onInvalidRecord),
      options,
    });
  }

  /** Every application matching `query`, across all pages. */
  listAll<const E extends ApplicationEmbedValue = never>(query: ApplicationListQuery<E> = {}, options?: ListOptions): AsyncIterable<ApplicationWith<E>> {
    return listAll((page) => this.list<E>({ ...query, page }, options), query.page ?? 1, `${this.#ctx.baseUrl}/applications`);
  }

  /** `GET /applications/:id`. */
  async get<const E extends ApplicationEmbedValue = never>(id: number, params: { embed?: readonly E[] } = {}, options?: RequestOptions): Promise<ApplicationWith<E>> {
    const url = `${this.#ctx.baseUrl}/applications/${id}`;
    const path = `applications/${idSegment(id, 'id', 'GET', url)}`;
    checkInput(GetApplicationQuery, params, 'GET', url);
    const embedKeys = embedKeysOf(params.embed);
    return await this.#ctx.transport.send({
      method: 'GET',
      path,
      query: toSearchParams(params),
      kind: 'read',
      auth: true,
      read: (body) => readRecord<ApplicationWith<E>>(Application, body, embedKeys),
      options,
    });
  }

  /**
   * `POST /applications`: applies an existing applicant (`applicant_id` or
   * `applicant_email`) to an online, draft or standby campaign. A resume sets
   * the status to 'complete'. 409 `application_exists` when already applied.
   */
  async create(body: ApplicationCreateInput, options?: RequestOptions): Promise<Application> {
    const url = `${this.#ctx.baseUrl}/applications`;
    return await this.#ctx.transport.send({
      method: 'POST',
      path: 'applications',
      ...checkBody(CreateApplicationBody, body, 'POST', url),
      kind: 'create',
      auth: true,
      read: (answer) => readRecord<Application>(Application, answer, []),
      options,
    });
  }
}
