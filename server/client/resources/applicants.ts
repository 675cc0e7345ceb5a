// Applicants (candidate accounts): API rules: Endpoints. Scope
// applicants_read for reads, applicants_write for create.
import type { z } from 'zod';
import { Applicant, CreateApplicantBody, CreatedApplicant, GetApplicantQuery, ListApplicantsQuery } from '../../contract/index.ts';
import type { ApplicantEmbed, ApplicantInput } from '../../contract/index.ts';
import { toSearchParams } from '../query.ts';
import { checkInput, embedKeysOf, idSegment, listAll, readPage, readRecord } from '../resource.ts';
import type { ListOptions, Page, RequestOptions, ResourceContext, WithEmbeds } from '../resource.ts';

/** An applicant with the embeds `E` present. */
export type ApplicantWith<E extends ApplicantEmbed = never> = WithEmbeds<Applicant, E>;

/** Query of GET /applicants: the contract's query input, with embeds as an array. */
export type ApplicantListQuery<E extends ApplicantEmbed = ApplicantEmbed> = Omit<
  z.input<typeof ListApplicantsQuery>,
  'embed' | 'page' | 'per_page'
> & {
  embed?: readonly E[];
  page?: number;
  /** 1 to 50 (default 50). */
  per_page?: number;
};

export type ApplicantCreateInput = z.input<typeof ApplicantInput>;

export class Applicants {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** `GET /applicants`: one page; `keywords` searches first name, last name and email. */
  async list<const E extends ApplicantEmbed = never>(query: ApplicantListQuery<E> = {}, options?: ListOptions): Promise<Page<ApplicantWith<E>>> {
    const url = `${this.#ctx.baseUrl}/applicants`;
    checkInput(ListApplicantsQuery, query, 'GET', url);
    const embedKeys = embedKeysOf(query.embed);
    return await this.#ctx.transport.send({
      method: 'GET',
      path: 'applicants',
      query: toSearchParams(query),
      kind: 'read',
      auth: true,
      read: (body, response) => readPage<ApplicantWith<E>>(Applicant, body, response, embedKeys, options?.onInvalidRecord),
      options,
    });
  }

  /** Every applicant matching `query`, across all pages. */
  listAll<const E extends ApplicantEmbed = never>(query: ApplicantListQuery<E> = {}, options?: ListOptions): AsyncIterable<ApplicantWith<E>> {
    return listAll((page) => this.list<E>({ ...query, page }, options), query.page ?? 1, `${this.#ctx.baseUrl}/applicants`);
  }

  /** `GET /applicants/:id`, by id or by email address. */
  async get<const E extends ApplicantEmbed = never>(idOrEmail: number | string, params: { embed?: readonly E[] } = {}, options?: RequestOptions): Promise<ApplicantWith<E>> {
    const url = `${this.#ctx.baseUrl}/applicants/${idOrEmail}`;
    const segment = typeof idOrEmail === 'number' ? idSegment(idOrEmail, 'id', 'GET', url) : encodeURIComponent(idOrEmail);
    checkInput(GetApplicantQuery, params, 'GET', url);
    const embedKeys = embedKeysOf(params.embed);
    return await this.#ctx.transport.send({
      method: 'GET',
      path: `applicants/${segment}`,
      query: toSearchParams(params),
      kind: 'read',
      auth: true,
      read: (body) => readRecord<ApplicantWith<E>>(Applicant, body, embedKeys),
      options,
    });
  }

  /**
   * `POST /applicants`: creates an applicant, with its applications when
   * `applications` is given. 409 `applicant_exists` when the email is taken.
   */
  async create(applicant: ApplicantCreateInput, options?: RequestOptions): Promise<CreatedApplicant> {
    const url = `${this.#ctx.baseUrl}/applicants`;
    const body = checkInput(CreateApplicantBody, { applicant }, 'POST', url);
    return await this.#ctx.transport.send({
      method: 'POST',
      path: 'applicants',
      json: body,
      kind: 'create',
      auth: true,
      read: (answer) => readRecord<CreatedApplicant>(CreatedApplicant, answer, []),
      options,
    });
  }
}
