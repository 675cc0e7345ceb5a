// Entities: API rules: Endpoints, GET /entities/:entity_id/channels. Scope campaigns_read.
import { z } from 'zod';
import { Channel } from '../../contract/index.ts';
import { idSegment, readRecord } from '../resource.ts';
import type { RequestOptions, ResourceContext } from '../resource.ts';

export class Entities {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** `GET /entities/:entity_id/channels`: the channels activated for one entity (when the Entity option is on). */
  async listChannels(entityId: number, options?: RequestOptions): Promise<Channel[]> {
    const url = `${this.#ctx.baseUrl}/entities/${entityId}/channels`;
    const path = `entities/${idSegment(entityId, 'entity_id', 'GET', url)}/channels`;
    return await this.#ctx.transport.send({
      method: 'GET',
      path,
      kind: 'read',
      auth: true,
      read: (body) => readRecord<Channel[]>(z.array(Channel), body, []),
      options,
    });
  }
}
