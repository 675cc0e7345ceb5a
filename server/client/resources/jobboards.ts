// Job-board entry point: API rules: Endpoints, POST /jobboards/applicants. Scope applicants_write.
import type { z } from 'zod';
import { CreateJobboardApplicantBody, CreatedApplicant } from '../../contract/index.ts';
import { checkInput, readRecord } from '../resource.ts';
import type { RequestOptions, ResourceContext } from '../resource.ts';

export type JobboardApplicantCreateInput = z.input<typeof CreateJobboardApplicantBody>;

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
    const checked = checkInput(CreateJobboardApplicantBody, body, 'POST', url);
    return await this.#ctx.transport.send({
      method: 'POST',
      path: 'jobboards/applicants',
      json: checked,
      kind: 'create',
      auth: true,
      read: (answer) => readRecord(CreatedApplicant, answer, []),
      options,
    });
  }
}
