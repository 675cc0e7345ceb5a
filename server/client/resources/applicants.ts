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
import { Collection } from '../resource.ts';
import type { Api, RequestOptions, WithEmbeds } from '../resource.ts';

/** An applicant with the embeds `E` present. */
export type ApplicantWith<E extends ApplicantEmbed = never> = WithEmbeds<Applicant, E>;

/**
 * Query of GET /applicants: the contract's query input, with embeds as an
 * array; `keywords` searches first name, last name and email.
 */
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

/** `list`, `listAll` and `get` (by id or by email address) of GET /applicants, and `create`. */
export class Applicants extends Collection<ApplicantEmbed, ApplicantListQuery, Applicant, number | string> {
  constructor(api: Api) {
    super(api, { path: 'applicants', listQuery: ListApplicantsQuery, getQuery: GetApplicantQuery, record: Applicant });
  }

  /**
   * `POST /applicants`: creates an applicant, with its applications when
   * `applications` is given. 409 `applicant_exists` when the email is taken.
   */
  create(applicant: ApplicantCreateInput, options?: RequestOptions): Promise<CreatedApplicant> {
    return this.api.create('applicants', CreateApplicantBody, { applicant }, CreatedApplicant, options);
  }
}
