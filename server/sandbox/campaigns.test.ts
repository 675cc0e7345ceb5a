import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Campaign, JOB_TYPES, PaginationHeader, WORKING_TIMES } from '../contract/index.ts';
import { suiteWorld } from './test-support.ts';
import type { Json } from './test-support.ts';

const pagination = (reply: { headers: Headers }) =>
  PaginationHeader.parse(JSON.parse(reply.headers.get('x-pagination') ?? 'null'));

describe('sandbox campaigns (GET /campaigns, GET /campaigns/:id, POST /campaigns)', () => {
  const w = suiteWorld();
  const ids: Record<string, number> = {};

  before(async () => {
    // campaignId (online, board_test) already exists; add one per status, on varied channels.
    ids.online = w.campaignId;
    ids.standby = await w.campaign(
      { status: 'standby', channels: ['board_test', 'career_fr'], tags: ['remote'] },
      { name: 'Beta' },
    );
    ids.draft = await w.campaign({ channels: ['career_fr'] }, { name: 'alpha' });
    ids.archived = await w.campaign(
      { status: 'online', channels: ['board_test'] },
      { name: 'Gamma', address: { city: 'Lyon', postal_code: '69002' } },
    );
    await w.t.admin('PATCH', `/campaigns/${ids.archived}`, { status: 'archived' });
  });

  it('answers a JSON array of campaigns that parse as the contract records, with X-Pagination', async () => {
    const reply = await w.company('/campaigns');
    assert.equal(reply.status, 200);
    const list = (reply.body as unknown[]).map((c) => Campaign.parse(c));
    assert.equal(list.length, 4);
    assert.deepEqual(pagination(reply), { 'total-count': 4, 'current-page': 1, 'next-page': null, 'last-page': 1 });
  });

  it('filters by comma-separated status values', async () => {
    const reply = await w.company('/campaigns?status=standby,archived');
    assert.deepEqual(reply.body.map((c: Json) => c.status).sort(), ['archived', 'standby']);
  });

  it('when status has an unknown value, answers 400 naming the allowed values', async () => {
    const reply = await w.company('/campaigns?status=online,closed');
    assert.equal(reply.status, 400);
    assert.match(reply.body.error.details[0].message, /allowed: online, standby, draft, archived/);
  });

  it('ignores empty parameters', async () => {
    const reply = await w.company('/campaigns?status=&channels=&embed=&page=');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.length, 4);
  });

  it('filters by comma-separated channel values', async () => {
    const reply = await w.company('/campaigns?channels=career_fr');
    assert.deepEqual(reply.body.map((c: Json) => c.id).sort(), [ids.standby, ids.draft].sort());
    const both = await w.company('/campaigns?channels=career_fr,board_test');
    assert.equal(both.body.length, 4);
  });

  it('orders by created_at desc by default and asc on request', async () => {
    const desc = await w.company('/campaigns');
    assert.deepEqual(
      desc.body.map((c: Json) => c.id),
      [ids.archived, ids.draft, ids.standby, ids.online],
    );
    const asc = await w.company('/campaigns?sort=asc');
    assert.deepEqual(
      asc.body.map((c: Json) => c.id),
      [ids.online, ids.standby, ids.draft, ids.archived],
    );
  });

  it('orders by name (case-insensitive) and by last_activation_at', async () => {
    const byName = await w.company('/campaigns?order=name&sort=asc');
    assert.deepEqual(
      byName.body.map((c: Json) => c.name),
      ['alpha', 'Beta', 'Gamma', 'Job'],
    );
    const byActivation = await w.company('/campaigns?order=last_activation_at&sort=desc');
    const activations = byActivation.body.map((c: Json) => c.last_activation_at);
    assert.deepEqual(
      activations,
      [...activations].sort((a: string | null, b: string | null) =>
        a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? 1 : -1,
      ),
      'newest first, never-activated last',
    );
    assert.equal(byActivation.body.at(-1).last_activation_at, null);
  });

  it('when order is not allowed, answers 400', async () => {
    assert.equal((await w.company('/campaigns?order=salary')).status, 400);
  });

  it('pages with page and per_page, and says so in X-Pagination', async () => {
    const reply = await w.company('/campaigns?per_page=3&page=2');
    assert.equal(reply.body.length, 1);
    assert.deepEqual(pagination(reply), { 'total-count': 4, 'current-page': 2, 'next-page': null, 'last-page': 2 });
    const first = await w.company('/campaigns?per_page=3');
    assert.equal(pagination(first)['next-page'], 2);
  });

  it('when per_page is above 50 or page below 1, answers 422 page_out_of_range', async () => {
    for (const query of ['per_page=51', 'per_page=0', 'page=0', 'page=-3']) {
      const reply = await w.company(`/campaigns?${query}`);
      assert.equal(reply.status, 422, query);
      assert.equal(reply.body.error.code, 'page_out_of_range', query);
    }
  });

  it('embeds address, channels, tags, entity and unit on request', async () => {
    const reply = await w.company(`/campaigns/${ids.archived}?embed=address,channels,tags,entity,unit`);
    const c = Campaign.parse(reply.body);
    assert.equal(c.address?.city, 'Lyon');
    assert.equal(c.address?.street, null);
    assert.deepEqual(
      c.channels?.map((ch) => ch.value),
      ['board_test'],
    );
    assert.deepEqual(c.tags, []);
    assert.equal(c.entity, null);
    assert.equal(c.unit, null);
    const tagged = await w.company(`/campaigns/${ids.standby}?embed=tags`);
    assert.deepEqual(tagged.body.tags, ['remote']);
  });

  it('embeds work on the list endpoint too: each campaign with its own channels, tags and address, as on its own', async () => {
    const list = (await w.company('/campaigns?embed=channels,tags,address')).body as Json[];
    assert.deepEqual(list.map((c) => c.id).sort(), Object.values(ids).sort());
    for (const c of list) {
      const one = (await w.company(`/campaigns/${c.id}?embed=channels,tags,address`)).body;
      assert.deepEqual([c.channels, c.tags, c.address], [one.channels, one.tags, one.address], `campaign ${c.id}`);
    }
    const byId = new Map(list.map((c) => [c.id as number, c]));
    assert.deepEqual(
      byId
        .get(ids.standby!)
        .channels.map((ch: Json) => ch.value)
        .sort(),
      ['board_test', 'career_fr'],
    );
    assert.deepEqual(byId.get(ids.standby!).tags, ['remote']);
    assert.equal(byId.get(ids.archived!).address.city, 'Lyon');
    assert.deepEqual(
      byId.get(ids.draft!).channels.map((ch: Json) => ch.value),
      ['career_fr'],
    );
  });

  it('leaves embeds out unless asked', async () => {
    const reply = await w.company(`/campaigns/${ids.standby}`);
    assert.equal('channels' in reply.body, false);
    assert.equal('tags' in reply.body, false);
  });

  it('when an embed value is unknown, answers 400 naming the allowed values', async () => {
    const reply = await w.company('/campaigns?embed=channels,skills');
    assert.equal(reply.status, 400);
    assert.match(
      reply.body.error.message,
      /embed\.1 is not an allowed value; allowed: address, channels, entity, tags, unit/,
    );
  });

  it('when the campaign does not exist or the id is not an integer, answers 404', async () => {
    assert.equal((await w.company('/campaigns/999999')).status, 404);
    assert.equal((await w.company('/campaigns/abc')).body.error.code, 'not_found');
  });

  it('a job-board client sees only the campaigns broadcast on its channel, with company_id and company_name', async () => {
    const reply = await w.board('/campaigns');
    assert.deepEqual(reply.body.map((c: Json) => c.id).sort(), [ids.online, ids.standby, ids.archived].sort());
    assert.equal(reply.body[0].company_id, w.companyId);
    assert.equal(reply.body[0].company_name, 'Test Co');
    assert.equal((await w.board(`/campaigns/${ids.draft}`)).status, 404);
  });

  it("a company client does not see another company's campaigns", async () => {
    const other = await w.t.admin('POST', '/companies', { name: 'Other' });
    const api = w.t.api(await w.t.token(await w.t.admin('POST', '/clients', { company_id: other.id })));
    assert.equal((await api(`/campaigns/${ids.online}`)).status, 404);
    assert.equal((await api('/campaigns')).body.length, 0);
  });

  it('POST /campaigns answers 201 with the created draft campaign', async () => {
    const reply = await w.company('/campaigns', {
      body: {
        campaign: {
          manage_name: 'Backend developer',
          name: 'Backend developer',
          description: '<p>Hello</p>',
          job_type: 'Permanent contract',
          working_time: 'Full time',
          contract_duration: 12,
          job_start_date: '2030-01-01',
          salary_min: 40000,
          salary_max: 50000,
          address: { city: 'Paris', latitude: 48.85, longitude: 2.35 },
        },
      },
    });
    assert.equal(reply.status, 201);
    const c = Campaign.parse(reply.body);
    assert.equal(c.status, 'draft');
    assert.equal(c.job_type, 'Permanent contract');
    assert.equal(c.address?.latitude, 48.85);
  });

  it('when manage_name is missing, answers 400 naming campaign.manage_name', async () => {
    const reply = await w.company('/campaigns', { body: { campaign: { name: 'x' } } });
    assert.equal(reply.status, 400);
    assert.deepEqual(
      reply.body.error.details.map((d: Json) => d.field),
      ['campaign.manage_name'],
    );
  });

  it('job_type is case sensitive: "permanent contract" answers 422 invalid_job_type', async () => {
    const reply = await w.company('/campaigns', {
      body: { campaign: { manage_name: 'x', job_type: 'permanent contract' } },
    });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'invalid_job_type');
    assert.equal(reply.body.error.details[0].field, 'campaign.job_type');
  });

  it('working_time is case sensitive: "full time" answers 422 invalid_working_time', async () => {
    const reply = await w.company('/campaigns', {
      body: { campaign: { manage_name: 'x', working_time: 'full time' } },
    });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'invalid_working_time');
  });

  it('when a job-board client posts a campaign, answers 403 (it has no campaigns_write scope)', async () => {
    const reply = await w.board('/campaigns', { body: { campaign: { manage_name: 'x' } } });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 'missing_scope');
  });

  it('when the date in date_end is reached on the sandbox clock, the campaign is paused (standby)', async () => {
    const id = await w.campaign({ status: 'online', channels: ['board_test'] }, { date_end: '2031-06-01' });
    const before = await w.company(`/campaigns/${id}`);
    assert.equal(before.body.status, 'online', JSON.stringify(before.body));
    const keys = await w.t.admin('POST', '/clients', { company_id: w.companyId });
    // Tokens follow the sandbox clock too: take a fresh one after each move.
    const statusOn = async (now: string) => {
      await w.t.admin('PUT', '/clock', { now });
      const api = w.t.api(await w.t.token(keys));
      return (await api(`/campaigns/${id}`)).body.status;
    };
    try {
      assert.equal(await statusOn('2031-05-31T23:00:00Z'), 'online');
      assert.equal(await statusOn('2031-06-01T00:00:01Z'), 'standby');
    } finally {
      await w.t.admin('PUT', '/clock', { now: null });
    }
  });
});

describe('sandbox campaigns under the Entity option', () => {
  const w = suiteWorld({}, { entity_option: true });
  let unitId: number;
  let entityId: number;

  before(async () => {
    const entity = await w.t.admin('POST', '/entities', { company_id: w.companyId, name: 'North', units: ['Lille'] });
    entityId = entity.id;
    unitId = entity.units[0].id;
  });

  it('when unit_id is missing, POST /campaigns answers 422 unit_required', async () => {
    const reply = await w.company('/campaigns', { body: { campaign: { manage_name: 'x' } } });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'unit_required');
    assert.equal(reply.body.error.details[0].field, 'campaign.unit_id');
  });

  it('when unit_id is not a unit of the company, answers 422 unknown_reference', async () => {
    const reply = await w.company('/campaigns', { body: { campaign: { manage_name: 'x', unit_id: 999 } } });
    assert.equal(reply.body.error.code, 'unknown_reference');
  });

  it('a campaign with a unit embeds its unit and its entity (the campaign → entity → unit chain)', async () => {
    const created = await w.company('/campaigns', { body: { campaign: { manage_name: 'x', unit_id: unitId } } });
    assert.equal(created.status, 201);
    const reply = await w.company(`/campaigns/${created.body.id}?embed=unit,entity`);
    assert.deepEqual(reply.body.unit, { id: unitId, name: 'Lille' });
    assert.deepEqual(reply.body.entity, { id: entityId, name: 'North' });
  });

  it("an application's embedded campaign reaches its entity and unit", async () => {
    const created = await w.company('/campaigns', { body: { campaign: { manage_name: 'y', unit_id: unitId } } });
    await w.t.admin('PATCH', `/campaigns/${created.body.id}`, { status: 'online' });
    const applicant = await w.company('/applicants', {
      body: { applicant: { email: 'chain@example.com', applications: [{ campaign_id: created.body.id }] } },
    });
    const app = await w.company(`/applications/${applicant.body.applications[0].id}?embed=campaign`);
    assert.deepEqual(app.body.campaign.entity, { id: entityId, name: 'North' });
    assert.deepEqual(app.body.campaign.unit, { id: unitId, name: 'Lille' });
  });
});

// Its own world: these create many campaigns, which would change the counts the tests above rely on.
describe('sandbox POST /campaigns field values', () => {
  const w = suiteWorld();

  it('takes every job_type and working_time value of the service, spelled exactly', async () => {
    for (const job_type of JOB_TYPES) {
      assert.equal(
        (await w.company('/campaigns', { body: { campaign: { manage_name: 'x', job_type } } })).status,
        201,
        job_type,
      );
    }
    for (const working_time of WORKING_TIMES) {
      assert.equal(
        (await w.company('/campaigns', { body: { campaign: { manage_name: 'x', working_time } } })).status,
        201,
        working_time,
      );
    }
  });

  it('when job_start_date or date_end is not YYYY-MM-DD, answers 400 naming each field', async () => {
    const reply = await w.company('/campaigns', {
      body: { campaign: { manage_name: 'x', job_start_date: '01/02/2030', date_end: '2030-02-30T00:00:00Z' } },
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body.error.details.map((d: Json) => d.field).sort(), [
      'campaign.date_end',
      'campaign.job_start_date',
    ]);
  });
});
