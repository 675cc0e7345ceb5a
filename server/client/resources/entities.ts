// Entities: API rules: Endpoints, GET /entities/:entity_id/channels. Scope campaigns_read.
import { Channel } from '../../contract/index.ts';
import { idSegment } from '../resource.ts';
import type { Api, RequestOptions } from '../resource.ts';

export class Entities {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /** `GET /entities/:entity_id/channels`: the channels activated for one entity (when the Entity option is on). */
  listChannels(entityId: number, options?: RequestOptions): Promise<Channel[]> {
    const entity = idSegment(entityId, 'entity_id', 'GET', this.#api.url(`entities/${entityId}/channels`));
    return this.#api.array(`entities/${entity}/channels`, Channel, options);
  }
}
