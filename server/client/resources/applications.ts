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
import type { Api, ListOptions, Page, RequestOptions, WithEmbeds } from '../resource.ts';

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
export type ApplicationCreateInput = Omit<CreateBody, 'application'> & {
  application?: ResumeMayStream<NonNullable<CreateBody['application']>>;
};

export class Applications {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /** `GET /applications`: one page of applications. */
  list<const E extends ApplicationEmbedValue = never>(
    query: ApplicationListQuery<E> = {},
    options?: ListOptions,
  ): Promise<Page<ApplicationWith<E>>> {
    return this.#api.list('applications', ListApplicationsQuery, Application, query, options);
  }

  /** Every application matching `query`, across all pages. */
  listAll<const E extends ApplicationEmbedValue = never>(
    query: ApplicationListQuery<E> = {},
    options?: ListOptions,
  ): AsyncIterable<ApplicationWith<E>> {
    return this.#api.listAll('applications', ListApplicationsQuery, Application, query, options);
  }

  /** `GET /applications/:id`. */
  get<const E extends ApplicationEmbedValue = never>(
    id: number,
    params: { embed?: readonly E[] } = {},
    options?: RequestOptions,
  ): Promise<ApplicationWith<E>> {
    return this.#api.get('applications', id, GetApplicationQuery, Application, params, options);
  }

  /**
   * `POST /applications`: applies an existing applicant (`applicant_id` or
   * `applicant_email`) to an online, draft or standby campaign. A resume sets
   * the status to 'complete'. 409 `application_exists` when already applied.
   */
  create(body: ApplicationCreateInput, options?: RequestOptions): Promise<Application> {
    return this.#api.create('applications', CreateApplicationBody, body, Application, options);
  }
}
