import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Channel } from '../contract/index.ts';
import { suiteWorld } from './test-support.ts';
import type { Json } from './test-support.ts';

describe('sandbox channels (GET /channels, GET /entities/:entity_id/channels)', () => {
  const plain = suiteWorld();
  const entities = suiteWorld({}, { entity_option: true });
  let entityId: number;

  before(async () => {
    await plain.t.admin('POST', '/channels', { company_id: plain.companyId, value: 'career_fr', name: 'Careers (fr)' });
    entityId = (
      await entities.t.admin('POST', '/entities', { company_id: entities.companyId, name: 'South', units: ['Nice'] })
    ).id;
    await entities.t.admin('POST', '/channels', {
      company_id: entities.companyId,
      value: 'career_all',
      name: 'Group careers',
    });
    await entities.t.admin('POST', '/channels', {
      company_id: entities.companyId,
      value: 'career_south',
      name: 'South careers',
      entity_id: entityId,
    });
  });

  it('without the Entity option, GET /channels lists every channel of the company', async () => {
    const reply = await plain.company('/channels');
    assert.equal(reply.status, 200);
    const channels = (reply.body as unknown[]).map((c) => Channel.parse(c));
    // board_test was created when the world's campaign was broadcast on it.
    assert.deepEqual(
      channels.map((c) => c.value),
      ['board_test', 'career_fr'],
    );
  });

  it('without the Entity option, GET /entities/:id/channels answers 404 (the company has no entities)', async () => {
    const reply = await plain.company('/entities/1/channels');
    assert.equal(reply.status, 404);
  });

  it("with the Entity option, GET /entities/:id/channels lists that entity's channels", async () => {
    const reply = await entities.company(`/entities/${entityId}/channels`);
    assert.equal(reply.status, 200);
    assert.deepEqual(
      reply.body.map((c: Json) => [c.value, c.entity_id]),
      [['career_south', entityId]],
    );
  });

  it('with the Entity option, GET /channels lists only the company-wide channels', async () => {
    const reply = await entities.company('/channels');
    assert.deepEqual(
      reply.body.map((c: Json) => c.value),
      ['career_all'],
    );
  });

  it('when the entity belongs to another company, answers 404', async () => {
    const reply = await plain.company(`/entities/${entityId}/channels`);
    assert.equal(reply.status, 404);
  });

  it('a job-board client sees the channels with its own value', async () => {
    const reply = await plain.board('/channels');
    assert.deepEqual(
      reply.body.map((c: Json) => c.value),
      ['board_test'],
    );
  });
});
