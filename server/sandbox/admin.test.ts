import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JOBBOARD_SCOPES, SCOPES } from '../contract/index.ts';
import { boardApplicant, call, suiteWorld } from './test-support.ts';
import type { Json } from './test-support.ts';

// Each admin route, by the answer its body gets (reset, clock, emails and faults have their own tests in http.test.ts).
describe('sandbox admin routes (what each one creates or changes)', () => {
  const w = suiteWorld();
  const admin = (method: string, path: string, body: unknown = {}) =>
    call(`${w.t.sandbox.origin}/_sandbox${path}`, { method, body });

  it('POST /_sandbox/companies answers 201 with the company, its id and its options', async () => {
    const reply = await admin('POST', '/companies', {
      name: 'Options Co',
      entity_option: true,
      skills_option: true,
      sources: ['carriere'],
      restricted_tags: ['remote'],
    });
    assert.equal(reply.status, 201);
    assert.ok(Number.isInteger(reply.body.id));
    assert.deepEqual(
      { ...reply.body, id: 0 },
      {
        id: 0,
        name: 'Options Co',
        entity_option: true,
        skills_option: true,
        sources: ['carriere'],
        restricted_tags: ['remote'],
        duplicate_applications: 'refuse',
      },
    );
  });

  it('POST /_sandbox/clients gives a company client every scope and a job-board client the four job-board scopes by default', async () => {
    const company = await admin('POST', '/clients', { company_id: w.companyId });
    assert.equal(company.status, 201);
    assert.deepEqual([...company.body.scopes].sort(), [...SCOPES].sort());
    assert.equal(company.body.company_id, w.companyId);
    const board = await admin('POST', '/clients', { channel: 'board_other' });
    assert.deepEqual([...board.body.scopes].sort(), [...JOBBOARD_SCOPES].sort());
    assert.equal(board.body.channel, 'board_other');
    // The key pair works on POST /v2/jwt.
    const jwt = await call(`${w.t.url}/jwt`, {
      body: { private_key: board.body.private_key, secret_key: board.body.secret_key },
    });
    assert.equal(jwt.status, 200);
  });

  it('POST /_sandbox/clients takes the scopes given, and answers 422 unknown_reference for an unknown company', async () => {
    const reply = await admin('POST', '/clients', { company_id: w.companyId, scopes: ['campaigns_read'] });
    assert.deepEqual(reply.body.scopes, ['campaigns_read']);
    const token = await w.t.token(reply.body);
    assert.equal((await w.t.api(token)('/applicants')).body.error.code, 'missing_scope');
    const unknown = await admin('POST', '/clients', { company_id: 999_999 });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.error.details[0].field, 'company_id');
  });

  it('POST /_sandbox/clients with a channel and an unknown scope answers 400 naming only the scope, not company_id', async () => {
    const reply = await admin('POST', '/clients', { channel: 'jobboard_demo', scopes: ['campaigns:read'] });
    assert.equal(reply.status, 400);
    assert.deepEqual(
      reply.body.error.details.map((d: Json) => d.field),
      ['scopes.0'],
    );
  });

  it("POST /_sandbox/entities answers the entity with its units' ids, which campaigns take as unit_id; refused without the Entity option", async () => {
    const company = (await admin('POST', '/companies', { name: 'Entity Co', entity_option: true })).body;
    const entity = await admin('POST', '/entities', {
      company_id: company.id,
      name: 'North',
      units: ['Lille', 'Amiens'],
    });
    assert.equal(entity.status, 201);
    assert.deepEqual(
      entity.body.units.map((u: Json) => u.name),
      ['Lille', 'Amiens'],
    );
    assert.ok(entity.body.units.every((u: Json) => Number.isInteger(u.id) && u.entity_id === entity.body.id));
    const api = w.t.api(await w.t.token((await admin('POST', '/clients', { company_id: company.id })).body));
    const campaign = await api('/campaigns?embed=unit', {
      body: { campaign: { manage_name: 'In Lille', unit_id: entity.body.units[0].id } },
    });
    assert.equal(campaign.status, 201);
    const refused = await admin('POST', '/entities', { company_id: w.companyId, name: 'No option', units: [] });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /Entity option/);
  });

  it('POST /_sandbox/channels answers 201 with the channel; a second channel with the same value in the company answers 400', async () => {
    const reply = await admin('POST', '/channels', { company_id: w.companyId, value: 'career_de', name: 'Karriere' });
    assert.equal(reply.status, 201);
    assert.deepEqual(
      { ...reply.body, id: 0 },
      { id: 0, company_id: w.companyId, value: 'career_de', name: 'Karriere', entity_id: null },
    );
    assert.ok((await w.company('/channels')).body.some((c: Json) => c.value === 'career_de'));
    assert.equal(
      (await admin('POST', '/channels', { company_id: w.companyId, value: 'career_de', name: 'Again' })).status,
      400,
    );
    const unknownEntity = await admin('POST', '/channels', {
      company_id: w.companyId,
      value: 'career_it',
      name: 'Carriera',
      entity_id: 999_999,
    });
    assert.equal(unknownEntity.status, 422);
    assert.equal(unknownEntity.body.error.details[0].field, 'entity_id');
  });

  it('POST /_sandbox/pools answers 201 with the pool, which POST /applicants takes in applicant.pools', async () => {
    const pool = await admin('POST', '/pools', { company_id: w.companyId, name: 'Talents' });
    assert.equal(pool.status, 201);
    const created = await w.company('/applicants', {
      body: { applicant: { email: 'pooled@example.com', is_legals_accepted_by_manager: true, pools: [pool.body.id] } },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(
      created.body.pools.map((p: Json) => p.id),
      [pool.body.id],
    );
  });

  it('PATCH /_sandbox/campaigns/:id sets the status, replaces the channels and the tags, and the API shows them', async () => {
    const id = await w.campaign({ status: 'draft' });
    const reply = await admin('PATCH', `/campaigns/${id}`, {
      status: 'online',
      channels: ['career_fr', 'board_test'],
      tags: ['remote'],
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.status, 'online');
    assert.deepEqual(reply.body.channels, ['board_test', 'career_fr']);
    assert.deepEqual(reply.body.tags, ['remote']);
    assert.notEqual(reply.body.last_activation_at, null, 'going online sets last_activation_at');
    const seen = (await w.company(`/campaigns/${id}?embed=channels,tags`)).body;
    assert.equal(seen.status, 'online');
    assert.deepEqual(seen.channels.map((c: Json) => c.value).sort(), ['board_test', 'career_fr']);
    assert.deepEqual(
      seen.tags.map((t: Json) => (typeof t === 'string' ? t : t.name)),
      ['remote'],
    );
    assert.equal((await admin('PATCH', `/campaigns/${id}`, { channels: [] })).body.channels.length, 0);
    assert.equal((await w.board(`/campaigns/${id}`)).status, 404, 'no longer broadcast on the board');
    assert.equal((await admin('PATCH', '/campaigns/999999', { status: 'online' })).status, 404);
  });

  it('PATCH /_sandbox/campaigns/:id says in its answer that channels replaced the set; add_channels adds to it; both at once is 422 conflicting_fields', async () => {
    const id = await w.campaign({ status: 'online', channels: ['board_test'] });
    const replaced = await admin('PATCH', `/campaigns/${id}`, { channels: ['career_fr'] });
    assert.deepEqual([replaced.status, replaced.body.channels], [200, ['career_fr']]);
    assert.equal(
      replaced.body.note,
      'channels replaced the whole set: broadcast on career_fr (was board_test). To add channels and keep the others, send add_channels.',
    );
    const added = await admin('PATCH', `/campaigns/${id}`, { add_channels: ['board_test', 'career_fr'] });
    assert.deepEqual([added.status, added.body.channels], [200, ['board_test', 'career_fr']]);
    assert.equal(added.body.note, 'add_channels added to the set: broadcast on board_test, career_fr (was career_fr).');
    assert.equal((await w.board(`/campaigns/${id}`)).status, 200, 'broadcast on the board again');
    const both = await admin('PATCH', `/campaigns/${id}`, { channels: ['career_fr'], add_channels: ['board_test'] });
    assert.equal(both.status, 422);
    assert.equal(both.body.error.code, 'conflicting_fields');
    assert.deepEqual(both.body.error.details, [
      {
        field: 'add_channels',
        message:
          'cannot go with channels: channels replaces the whole set the campaign is broadcast on, add_channels adds to it. Send one of them',
      },
    ]);
    assert.equal(
      (await admin('PATCH', `/campaigns/${id}`, { status: 'online' })).body.note,
      undefined,
      'no note when the channels are left alone',
    );
  });

  it("PATCH /_sandbox/companies/:id replaces the company's sources, which applications are then checked against; a bad list is 400 naming it", async () => {
    const applyWith = (source: string) =>
      boardApplicant(w, {
        email: `src.${source}.${Date.now()}@example.org`,
        first_name: 'A',
        last_name: 'B',
        applications: [{ campaign_id: w.campaignId, source }],
      });
    assert.equal((await applyWith('partner_board')).body.error?.code, 'source_not_allowed');
    const patched = await admin('PATCH', `/companies/${w.companyId}`, {
      sources: ['carriere', 'board', 'partner_board'],
    });
    assert.deepEqual(
      [patched.status, patched.body.sources, patched.body.duplicate_applications],
      [200, ['carriere', 'board', 'partner_board'], 'refuse'],
    );
    assert.equal((await applyWith('partner_board')).status, 201);
    for (const [body, field] of [
      [{ sources: ['board', 'board'] }, 'sources'],
      [{ sources: [''] }, 'sources.0'],
      [{ sources: 'board' }, 'sources'],
      [{}, ''],
    ] as const) {
      const refused = await admin('PATCH', `/companies/${w.companyId}`, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.deepEqual(
        refused.body.error.details.map((d: Json) => d.field),
        [field],
        JSON.stringify(refused.body),
      );
    }
    assert.equal((await admin('PATCH', '/companies/999999', { sources: ['board'] })).status, 404);
  });

  it('PUT /_sandbox/applications/:id/status sets the status at the given time and records it in the history', async () => {
    const applicant = await w.company('/applicants', {
      body: { applicant: { email: 'moved@example.com', is_legals_accepted_by_manager: true } },
    });
    const application = await w.company('/applications', {
      body: { campaign_id: w.campaignId, applicant_id: applicant.body.id },
    });
    const reply = await admin('PUT', `/applications/${application.body.id}/status`, {
      value: 'interview',
      at: '2025-06-02T09:30:00Z',
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.status, 'interview');
    const seen = (await w.company(`/applications/${application.body.id}?embed=status_history`)).body;
    assert.equal(seen.status, 'interview');
    assert.deepEqual(
      seen.status_history.find((change: Json) => change.value === 'interview'),
      { value: 'interview', changed_at: '2025-06-02T09:30:00.000Z' },
    );
  });
});
