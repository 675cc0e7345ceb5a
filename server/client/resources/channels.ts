// Channels: API rules: Endpoints, GET /channels. Scope campaigns_read.
import { Channel } from '../../contract/index.ts';
import type { Api, RequestOptions } from '../resource.ts';

export class Channels {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /** `GET /channels`: every channel activated for the company (when the Entity option is off). Not paginated. */
  list(options?: RequestOptions): Promise<Channel[]> {
    return this.#api.array('channels', Channel, options);
  }
}
