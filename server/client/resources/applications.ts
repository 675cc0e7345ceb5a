// Applications: API rules: Endpoints. Scope applications_read for reads,
// applications_write for create.
import type { z } from 'zod';
import {
  Application,
  CreateApplicationBody,
  GetApplicationQuery,
  ListApplicationsQuery,
} from '../../contract/index.ts';
import type { ApplicationEmbed } from '../../contract/index.ts';
import type { ResumeMayStream } from '../files.ts';
import { Collection } from '../resource.ts';
import type { Api, EmbedKey, RequestOptions, WithEmbeds } from '../resource.ts';

/** An embed value of the applications endpoints; `status_history:<value>` restricts the history to one status. */
export type ApplicationEmbedValue = ApplicationEmbed | `status_history:${string}`;

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
export type ApplicationCreateInput = Omit<CreateBody, 'application'> & {
  application?: ResumeMayStream<NonNullable<CreateBody['application']>>;
};

/** `list`, `listAll` and `get` of GET /applications, and `create`. */
export class Applications extends Collection<ApplicationEmbedValue, ApplicationListQuery, Application, number> {
  constructor(api: Api) {
    super(api, {
      path: 'applications',
      listQuery: ListApplicationsQuery,
      getQuery: GetApplicationQuery,
      record: Application,
    });
  }

  /**
   * `POST /applications`: applies an existing applicant (`applicant_id` or
   * `applicant_email`) to an online, draft or standby campaign. A resume sets
   * the status to 'complete'. 409 `application_exists` when already applied.
   */
  create(body: ApplicationCreateInput, options?: RequestOptions): Promise<Application> {
    return this.api.create('applications', CreateApplicationBody, body, Application, options);
  }
}
