// Every method of the client against the sandbox over real HTTP: each
// endpoint, each embed, the errors a program branches on, token renewal.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CampaignAddress, Entity, Pool, Skill, StatusChange } from '../../contract/index.ts';
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionError,
  ValidationError,
  fileFromBuffer,
} from '../index.ts';
import type { Campaign, RecruitmentClient } from '../index.ts';
import { pdf } from '../../test/files.ts';
import { JOBBOARD_CHANNEL, startWorld } from './world.ts';
import type { World } from './world.ts';

let world: World;
let client: RecruitmentClient;
let online: Campaign;

before(async () => {
  world = await startWorld();
  client = world.client(world.companyKeys);
  online = await client.campaigns.create({
    manage_name: 'Backend developer (internal)',
    name: 'Backend developer',
    description: '<p>Node.js and SQL</p>',
    job_type: 'Permanent contract',
    working_time: 'Full time',
    salary_min: 42_000,
    salary_max: 52_000,
    address: { city: 'Lyon', country: 'France', postal_code: '69002' },
  });
  await world.admin('PATCH', `/campaigns/${online.id}`, {
    status: 'online',
    channels: ['career_fr', JOBBOARD_CHANNEL],
    tags: ['remote'],
  });
});

after(() => world.close());

/** The check of a rule the service refused: a ValidationError, 422, with this code naming these fields. */
function brokenRule(code: string, fields: string[]) {
  return (error: unknown): true => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.status, 422);
    assert.equal(error.code, code);
    assert.deepEqual(
      error.details.map((d) => d.field),
      fields,
    );
    return true;
  };
}

describe('campaigns', () => {
  it('creates a campaign (draft until a manager publishes it) and reads it back', async () => {
    const created = await client.campaigns.create({ manage_name: 'Designer', job_type: 'Freelance' });
    assert.equal(created.manage_name, 'Designer');
    assert.equal(created.status, 'draft');
    const read = await client.campaigns.get(created.id);
    assert.equal(read.id, created.id);
    assert.equal(read.job_type, 'Freelance');
  });

  it('embeds address, channels, entity, tags and unit, typed as present', async () => {
    const campaign = await client.campaigns.get(online.id, {
      embed: ['address', 'channels', 'entity', 'tags', 'unit'],
    });
    // These assignments only compile because the embeds are typed as present.
    const address: CampaignAddress | null = campaign.address;
    const channels: string[] = campaign.channels.map((c) => c.value).sort();
    const tags: string[] = campaign.tags;
    const unit: { id: number; name: string } | null = campaign.unit;
    assert.equal(address?.city, 'Lyon');
    assert.deepEqual(channels, ['career_fr', JOBBOARD_CHANNEL]);
    assert.deepEqual(tags, ['remote']);
    assert.equal(campaign.entity, null);
    assert.equal(unit, null);

    const plain = await client.campaigns.get(online.id);
    // @ts-expect-error without the embed, `address` may be absent, so it is not typed as present.
    const absent: CampaignAddress | null = plain.address;
    assert.equal(absent, undefined);
  });

  it('lists one page with its X-Pagination data, filtered by status and channel', async () => {
    const page = await client.campaigns.list({ status: ['online'], channels: [JOBBOARD_CHANNEL], embed: ['tags'] });
    assert.deepEqual(
      page.data.map((c) => c.id),
      [online.id],
    );
    assert.deepEqual(page.data[0]?.tags, ['remote']);
    assert.deepEqual(page.pagination, { 'total-count': 1, 'current-page': 1, 'next-page': null, 'last-page': 1 });
  });

  it('iterates over every page with listAll', async () => {
    for (let i = 0; i < 3; i++) await client.campaigns.create({ manage_name: `Paged ${i}` });
    const all: number[] = [];
    for await (const campaign of client.campaigns.listAll({ per_page: 2 })) all.push(campaign.id);
    const total = (await client.campaigns.list({ per_page: 1 })).pagination['total-count'];
    assert.equal(all.length, total);
    assert.equal(new Set(all).size, total);
  });

  it('when a job-board client lists, sees only the campaigns broadcast on its channel, with their company', async () => {
    const board = world.client(world.jobboardKeys);
    const seen: Campaign[] = [];
    for await (const campaign of board.campaigns.listAll({ channels: [JOBBOARD_CHANNEL] })) seen.push(campaign);
    assert.deepEqual(
      seen.map((c) => [c.id, c.company_id]),
      [[online.id, world.companyId]],
    );
  });

  it('when the company uses entities, a campaign needs a unit: 422 unit_required names campaign.unit_id', async () => {
    const company = await world.admin<{ id: number }>('POST', '/companies', {
      name: 'Entity Corp',
      entity_option: true,
    });
    const keys = await world.admin<{ private_key: string; secret_key: string }>('POST', '/clients', {
      company_id: company.id,
    });
    const entityClient = world.client(keys);
    await assert.rejects(
      entityClient.campaigns.create({ manage_name: 'No unit' }),
      brokenRule('unit_required', ['campaign.unit_id']),
    );
  });

  it("with the Entity option, embeds the entity and unit and lists an entity's channels", async () => {
    const company = await world.admin<{ id: number }>('POST', '/companies', { name: 'Units Inc', entity_option: true });
    const keys = await world.admin<{ private_key: string; secret_key: string }>('POST', '/clients', {
      company_id: company.id,
    });
    const entity = await world.admin<Entity>('POST', '/entities', {
      company_id: company.id,
      name: 'North',
      units: ['Lille office'],
    });
    await world.admin('POST', '/channels', {
      company_id: company.id,
      value: 'north_careers',
      name: 'North careers',
      entity_id: entity.id,
    });
    const entityClient = world.client(keys);
    const created = await entityClient.campaigns.create({
      manage_name: 'Warehouse lead',
      unit_id: entity.units[0]!.id,
    });
    const campaign = await entityClient.campaigns.get(created.id, { embed: ['entity', 'unit'] });
    const unit: { id: number; name: string } | null = campaign.unit;
    assert.equal(campaign.entity?.name, 'North');
    assert.equal(unit?.name, 'Lille office');
    const channels = await entityClient.entities.listChannels(entity.id);
    assert.deepEqual(
      channels.map((c) => [c.value, c.entity_id]),
      [['north_careers', entity.id]],
    );
  });
});

describe('channels', () => {
  it("lists the company's channels", async () => {
    const channels = await client.channels.list();
    assert.deepEqual(channels.map((c) => c.value).sort(), ['career_fr', JOBBOARD_CHANNEL]);
  });

  it('when the entity does not exist, throws NotFoundError', async () => {
    await assert.rejects(client.entities.listChannels(999_999), NotFoundError);
  });
});

describe('applicants', () => {
  it('creates an applicant with its address, pool and application, and reads it by id and by email with each embed', async () => {
    const pool = await world.admin<Pool>('POST', '/pools', { company_id: world.companyId, name: 'Talents' });
    const created = await client.applicants.create({
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      is_legals_accepted_by_manager: true,
      address: { city: 'London', country: 'United Kingdom' },
      pools: [pool.id],
      applications: [{ campaign_id: online.id, source: 'carriere' }],
    });
    assert.equal(created.email, 'ada@example.com');
    assert.deepEqual(
      created.applications.map((a) => a.campaign_id),
      [online.id],
    );

    const byId = await client.applicants.get(created.id, { embed: ['address', 'applications', 'pools'] });
    const pools: Pool[] = byId.pools;
    assert.equal(byId.address?.city, 'London');
    assert.deepEqual(
      byId.applications.map((a) => a.campaign_id),
      [online.id],
    );
    assert.deepEqual(
      pools.map((p) => p.name),
      ['Talents'],
    );

    const byEmail = await client.applicants.get('ada@example.com');
    assert.equal(byEmail.id, created.id);
  });

  it('lists applicants found by keywords', async () => {
    await client.applicants.create({ email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' });
    const page = await client.applicants.list({ keywords: 'hopper', embed: ['address'] });
    assert.deepEqual(
      page.data.map((a) => a.email),
      ['grace@example.com'],
    );
    assert.equal(page.data[0]?.address, null);
  });

  it('when the email is taken, throws ConflictError applicant_exists with the existing id', async () => {
    const first = await client.applicants.create({ email: 'twice@example.com' });
    await assert.rejects(client.applicants.create({ email: 'twice@example.com' }), (error: unknown) => {
      assert.ok(error instanceof ConflictError);
      assert.equal(error.status, 409);
      assert.equal(error.code, 'applicant_exists');
      assert.equal(error.existingId, first.id);
      assert.deepEqual(
        error.details.map((d) => d.field),
        ['applicant.email'],
      );
      return true;
    });
  });

  it('when the applicant does not exist, throws NotFoundError', async () => {
    await assert.rejects(client.applicants.get('nobody@example.com'), NotFoundError);
  });
});

/** A PDF whose text names three skills the sandbox knows. */
const RESUME_WITH_SKILLS = pdf({ text: 'TypeScript, SQL and Docker' });

describe('applications', () => {
  it('creates an application with a resume, which makes it complete once processed, and reads it with each embed', async () => {
    await client.applicants.create({ email: 'linus@example.com', first_name: 'Linus' });
    const created = await client.applications.create({
      campaign_id: online.id,
      applicant_email: 'linus@example.com',
      application: {
        source: 'jobboard',
        resume: await fileFromBuffer(RESUME_WITH_SKILLS),
        comments: { content: 'Cover letter' },
        tags: ['fast-track'],
      },
    });
    // The sandbox processes the resume after answering; then the status is 'complete'.
    await world.admin('POST', '/jobs/drain');
    assert.equal((await client.applications.get(created.id)).status, 'complete');
    await world.admin('PUT', `/applications/${created.id}/status`, { value: 'interview' });

    const read = await client.applications.get(created.id, {
      embed: ['applicant', 'campaign', 'comments', 'skills', 'status_history', 'tags'],
    });
    const skills: Skill[] = read.skills;
    const history: StatusChange[] = read.status_history;
    assert.equal(read.applicant.email, 'linus@example.com');
    assert.equal(read.campaign.id, online.id);
    assert.deepEqual(
      read.comments.map((c) => c.content),
      ['Cover letter'],
    );
    assert.deepEqual(skills.map((s) => s.name).sort(), ['Docker', 'SQL', 'TypeScript']);
    assert.deepEqual(history.map((h) => h.value).slice(-2), ['complete', 'interview']);
    assert.deepEqual(read.tags, ['fast-track']);
    assert.match(read.resume_url ?? '', /^http/);

    const onlyInterview = await client.applications.get(created.id, { embed: ['status_history:interview'] });
    assert.deepEqual(
      onlyInterview.status_history.map((h) => h.value),
      ['interview'],
    );
  });

  it('lists applications by status value and status date, in bracket notation', async () => {
    const applicant = await client.applicants.create({ email: 'margaret@example.com' });
    const created = await client.applications.create({ campaign_id: online.id, applicant_id: applicant.id });
    await world.admin('PUT', `/applications/${created.id}/status`, { value: 'hired', at: '2024-03-10T10:00:00Z' });
    const march = await client.applications.list({
      status: { value: 'hired', date: { gte: '2024-03-01', lte: '2024-03-31' } },
    });
    assert.deepEqual(
      march.data.map((a) => a.id),
      [created.id],
    );
    const april = await client.applications.list({ status: { value: 'hired', date: { gte: '2024-04-01' } } });
    assert.deepEqual(april.data, []);
    const all: number[] = [];
    for await (const application of client.applications.listAll({ campaign_id: online.id })) all.push(application.id);
    assert.ok(all.includes(created.id));
  });

  it('when the applicant already applied, throws ConflictError application_exists', async () => {
    const applicant = await client.applicants.create({
      email: 'again@example.com',
      applications: [{ campaign_id: online.id }],
    });
    await assert.rejects(
      client.applications.create({ campaign_id: online.id, applicant_id: applicant.id }),
      (error: unknown) =>
        error instanceof ConflictError &&
        error.code === 'application_exists' &&
        error.existingId === applicant.applications[0]?.id,
    );
  });

  it('when the campaign is archived, answers 422 campaign_not_open naming campaign_id', async () => {
    const archived = await client.campaigns.create({ manage_name: 'Closed' });
    await world.admin('PATCH', `/campaigns/${archived.id}`, { status: 'archived' });
    await assert.rejects(
      client.applications.create({ campaign_id: archived.id, applicant_email: 'ada@example.com' }),
      (error: unknown) => {
        brokenRule('campaign_not_open', ['campaign_id'])(error);
        assert.match(
          (error as Error).message,
          /POST http:\/\/127\.0\.0\.1:\d+\/v2\/applications answered 422 campaign_not_open/,
        );
        return true;
      },
    );
  });

  it("when the source is not in the company's list, answers 422 source_not_allowed", async () => {
    await assert.rejects(
      client.applications.create({
        campaign_id: online.id,
        applicant_email: 'ada@example.com',
        application: { source: 'elsewhere' },
      }),
      (error: unknown) =>
        error instanceof ValidationError &&
        error.code === 'source_not_allowed' &&
        error.details[0]?.field === 'application.source',
    );
  });
});

describe('jobboards', () => {
  it('creates an applicant with its application for a company broadcasting on the board', async () => {
    const board = world.client(world.jobboardKeys);
    const created = await board.jobboards.createApplicant({
      company_id: world.companyId,
      applicant: {
        email: 'board@example.com',
        first_name: 'Bo',
        resume: await fileFromBuffer(pdf()),
        applications: [{ campaign_id: online.id }],
      },
    });
    assert.equal(created.company_id, world.companyId);
    assert.deepEqual(
      created.applications.map((a) => a.campaign_id),
      [online.id],
    );
  });

  it('when the campaign is not broadcast on the board, answers 422 campaign_not_broadcast', async () => {
    const hidden = await client.campaigns.create({ manage_name: 'Internal only' });
    await world.admin('PATCH', `/campaigns/${hidden.id}`, { status: 'online', channels: ['career_fr'] });
    const board = world.client(world.jobboardKeys);
    await assert.rejects(
      board.jobboards.createApplicant({
        company_id: world.companyId,
        applicant: { email: 'hidden@example.com', applications: [{ campaign_id: hidden.id }] },
      }),
      (error: unknown) =>
        error instanceof ValidationError && error.code === 'campaign_not_broadcast' && error.details.length > 0,
    );
  });
});

describe('auth and scopes', () => {
  it('when the key pair is wrong, throws AuthenticationError from POST /jwt', async () => {
    const wrong = world.client({ private_key: world.companyKeys.private_key, secret_key: 'not-the-secret' });
    await assert.rejects(wrong.channels.list(), (error: unknown) => {
      assert.ok(error instanceof AuthenticationError);
      assert.equal(error.status, 401);
      assert.match(error.url, /\/v2\/jwt$/);
      return true;
    });
  });

  it('when the API client lacks the scope, throws PermissionError missing_scope', async () => {
    const readOnly = world.client(world.readOnlyKeys);
    await readOnly.campaigns.get(online.id);
    await assert.rejects(readOnly.campaigns.create({ manage_name: 'Nope' }), (error: unknown) => {
      assert.ok(error instanceof PermissionError);
      assert.equal(error.status, 403);
      assert.equal(error.code, 'missing_scope');
      return true;
    });
  });

  it('when calls start together, they share one POST /jwt', async () => {
    const fresh = world.client(world.companyKeys);
    await Promise.all([
      fresh.channels.list(),
      fresh.campaigns.list(),
      fresh.applicants.list(),
      fresh.applications.list(),
    ]);
    assert.equal(fresh.tokens.renewals, 1);
  });

  it('when the sandbox clock passes the token expiry, the 401 token_expired renews the token and the call succeeds', async () => {
    const fresh = world.client(world.companyKeys);
    await fresh.channels.list();
    await world.admin('PUT', '/clock', { now: new Date(Date.now() + 5 * 3600 * 1000).toISOString() });
    try {
      const channels = await fresh.channels.list();
      assert.equal(channels.length, 2);
      assert.equal(fresh.tokens.renewals, 2);
    } finally {
      await world.admin('PUT', '/clock', { now: null });
    }
  });

  it('when the client clock nears the expiry, renews the token before calling', async () => {
    let now = Date.now();
    const fresh = world.client(world.companyKeys, { clock: { now: () => now } });
    await fresh.channels.list();
    now += 4 * 3600 * 1000 - 60_000;
    await fresh.channels.list();
    assert.equal(fresh.tokens.renewals, 2);
  });
});
