// Job-board entry point: API rules: Endpoints, POST /jobboards/applicants. Scope applicants_write.
import type { z } from 'zod';
import { CreateJobboardApplicantBody, CreatedApplicant } from '../../contract/index.ts';
import type { ResumeMayStream } from '../files.ts';
import type { Api, RequestOptions } from '../resource.ts';

type Body = z.input<typeof CreateJobboardApplicantBody>;

/** The body of POST /jobboards/applicants; the resume may be a StreamedFile, sent without being held in memory. */
export type JobboardApplicantCreateInput = Omit<Body, 'applicant'> & { applicant: ResumeMayStream<Body['applicant']> };

export class Jobboards {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /**
   * `POST /jobboards/applicants`: creates an applicant for `company_id`, with
   * its applications. Each campaign must be broadcast on the calling job
   * board (422 `campaign_not_broadcast`); 409 `applicant_exists` when the
   * email is already known to that company.
   */
  createApplicant(body: JobboardApplicantCreateInput, options?: RequestOptions): Promise<CreatedApplicant> {
    return this.#api.create('jobboards/applicants', CreateJobboardApplicantBody, body, CreatedApplicant, options);
  }
}
