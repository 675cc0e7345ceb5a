import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Application, Campaign } from '../contract/index.ts';
import { DEMO_ENTITY_COMPANY_KEYS, DEMO_KEYS } from './index.ts';
import { TestSandbox } from './test-support.ts';
import type { Json } from './test-support.ts';

describe('sandbox demo seed', () => {
  let t: TestSandbox;
  let company: ReturnType<TestSandbox['api']>;
  let board: ReturnType<TestSandbox['api']>;
  let entityCompany: ReturnType<TestSandbox['api']>;

  before(async () => {
    t = await TestSandbox.start({ seed: 'demo', rateLimitPerMinute: 0 });
    company = t.api(await t.token(DEMO_KEYS.company));
    board = t.api(await t.token(DEMO_KEYS.jobboard));
    entityCompany = t.api(await t.token(DEMO_ENTITY_COMPANY_KEYS));
  });
  after(() => t?.close());

  it('start answers the fixed demo keys', () => {
    assert.deepEqual(t.sandbox.demoKeys, DEMO_KEYS);
  });

  it('has 20+ campaigns in every status, with multi-paragraph HTML descriptions in fr and en', async () => {
    const all = [...(await company('/campaigns')).body, ...(await entityCompany('/campaigns')).body].map((c: Json) =>
      Campaign.parse(c),
    );
    assert.ok(all.length >= 20, `${all.length} campaigns`);
    assert.deepEqual([...new Set(all.map((c) => c.status))].sort(), ['archived', 'draft', 'online', 'standby']);
    assert.ok(all.every((c) => (c.description?.match(/<p>/g) ?? []).length >= 2));
    assert.ok(all.some((c) => c.description?.includes('Vos missions')));
    assert.ok(all.some((c) => c.description?.includes('What you will do')));
  });

  it('broadcasts some campaigns on jobboard_demo, from both companies', async () => {
    const seen = (await board('/campaigns?status=online')).body as Json[];
    assert.ok(seen.length >= 5);
    assert.deepEqual([...new Set(seen.map((c) => c.company_id))].sort(), [1, 2]);
  });

  it('one company uses the Entity option: its campaigns have units and entities', async () => {
    const list = (await entityCompany('/campaigns?embed=unit,entity')).body as Json[];
    assert.ok(list.length >= 5, `${list.length} campaigns`);
    assert.ok(list.every((c) => Number.isInteger(c.unit?.id) && Number.isInteger(c.entity?.id)));
    const channels = (await entityCompany(`/entities/${list[0].entity.id}/channels`)).body as Json[];
    assert.ok(channels.length >= 1);
  });

  it('has applicants and applications with status history', async () => {
    const apps = (await company('/applications?embed=status_history')).body as Json[];
    assert.ok(apps.length >= 20);
    for (const a of apps) Application.parse(a);
    assert.ok(apps.some((a) => a.status_history.length >= 3));
    assert.ok((await company('/applicants')).body.length >= 20);
  });

  it('keeps the status of a change from before 2021-05-06 but no history for it', async () => {
    const early = await company('/applicants/early.bird@example.com?embed=applications');
    const app = early.body.applications[0];
    const read = await company(`/applications/${app.id}?embed=status_history`);
    assert.equal(read.body.status, 'hired');
    assert.deepEqual(read.body.status_history, []);
  });
});
