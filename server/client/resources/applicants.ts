// Applicants (candidate accounts): API rules: Endpoints. Scope
// applicants_read for reads, applicants_write for create.
import type { z } from 'zod';
import {
  Applicant,
  CreateApplicantBody,
  CreatedApplicant,
  GetApplicantQuery,
  ListApplicantsQuery,
} from '../../contract/index.ts';
import type { ApplicantEmbed, ApplicantInput } from '../../contract/index.ts';
import type { Api, ListOptions, Page, RequestOptions, WithEmbeds } from '../resource.ts';

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
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /** `GET /applicants`: one page; `keywords` searches first name, last name and email. */
  list<const E extends ApplicantEmbed = never>(
    query: ApplicantListQuery<E> = {},
    options?: ListOptions,
  ): Promise<Page<ApplicantWith<E>>> {
    return this.#api.list('applicants', ListApplicantsQuery, Applicant, query, options);
  }

  /** Every applicant matching `query`, across all pages. */
  listAll<const E extends ApplicantEmbed = never>(
    query: ApplicantListQuery<E> = {},
    options?: ListOptions,
  ): AsyncIterable<ApplicantWith<E>> {
    return this.#api.listAll('applicants', ListApplicantsQuery, Applicant, query, options);
  }

  /** `GET /applicants/:id`, by id or by email address. */
  get<const E extends ApplicantEmbed = never>(
    idOrEmail: number | string,
    params: { embed?: readonly E[] } = {},
    options?: RequestOptions,
  ): Promise<ApplicantWith<E>> {
    return this.#api.get('applicants', idOrEmail, GetApplicantQuery, Applicant, params, options);
  }

  /**
   * `POST /applicants`: creates an applicant, with its applications when
   * `applications` is given. 409 `applicant_exists` when the email is taken.
   */
  create(applicant: ApplicantCreateInput, options?: RequestOptions): Promise<CreatedApplicant> {
    return this.#api.create('applicants', CreateApplicantBody, { applicant }, CreatedApplicant, options);
  }
}
