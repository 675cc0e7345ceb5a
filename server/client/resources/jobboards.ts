// Job-board entry point: API rules: Endpoints, POST /jobboards/applicants. Scope applicants_write.
import type { z } from 'zod';
import { CreateJobboardApplicantBody, CreatedApplicant } from '../../contract/index.ts';
import type { ResumeMayStream } from '../files.ts';
import { checkBody, readRecord } from '../resource.ts';
import type { RequestOptions, ResourceContext } from '../resource.ts';

type Body = z.input<typeof CreateJobboardApplicantBody>;

/** The body of POST /jobboards/applicants; the resume may be a StreamedFile, sent without being held in memory. */
export type JobboardApplicantCreateInput = Omit<Body, 'applicant'> & { applicant: ResumeMayStream<Body['applicant']> };

export class Jobboards {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /**
   * `POST /jobboards/applicants`: creates an applicant for `company_id`, with
   * its applications. Each campaign must be broadcast on the calling job
   * board (422 `campaign_not_broadcast`); 409 `applicant_exists` when the
   * email is already known to that company.
   */
  async createApplicant(body: JobboardApplicantCreateInput, options?: RequestOptions): Promise<CreatedApplicant> {
    const url = `${this.#ctx.baseUrl}/jobboards/applicants`;
    return await this.#ctx.transport.send({
      method: 'POST',
      path: 'jobboards/applicants',
      ...checkBody(CreateJobboardApplicantBody, body, 'POST', url),
      kind: 'create',
      auth: true,
      read: (answer) => readRecord(CreatedApplicant, answer, []),
      options,
    });
  }
}
