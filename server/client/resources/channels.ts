// Channels: API rules: Endpoints, GET /channels. Scope campaigns_read.
import { z } from 'zod';
import { Channel } from '../../contract/index.ts';
import { readRecord } from '../resource.ts';
import type { RequestOptions, ResourceContext } from '../resource.ts';

export class Channels {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** `GET /channels`: every channel activated for the company (when the Entity option is off). Not paginated. */
  async list(options?: RequestOptions): Promise<Channel[]> {
    return await this.#ctx.transport.send({
      method: 'GET',
      path: 'channels',
      kind: 'read',
      auth: true,
      read: (body) => readRecord<Channel[]>(z.array(Channel), body, []),
      options,
    });
  }
}
