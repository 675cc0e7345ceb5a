// The receipt link in the apply answers, over real HTTP with the sandbox as
// the service: 201, 202 and their replays carry the same link (the replay
// body is the stored first answer), the link opens the candidate's page on
// the proxy, and a robot's decoy answer carries one that leads nowhere.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin } from '../server/test/sandbox-admin.ts';
import { apply, fetch, startApplyWorld, validFields } from './proxy-apply-support.ts';
import type { ApplyWorld } from './proxy-apply-support.ts';

const RECEIPT_LINK = /^\/applications\/receipt\/[A-Za-z0-9_-]{24}$/;

describe('the receipt link of an application', () => {
  let world: ApplyWorld;
  let campaign: number;

  before(async () => {
    world = await startApplyWorld({ env: { DELIVERY_DEADLINE_MS: '1000', STATUS_SYNC_DAYS: '0' } });
    [campaign] = world.openCampaignIds as [number];
  });
  after(() => world.close());

  /** The receipt page the link leads to, in English (checked against the OpenAPI document, as every answer here). */
  async function receipt(link: unknown): Promise<{ status: number; heading: string | undefined }> {
    const response = await fetch(`${world.proxyUrl}${String(link)}`, { headers: { 'Accept-Language': 'en' } });
    return { status: response.status, heading: /<h1>(.*?)<\/h1>/.exec(await response.text())?.[1] };
  }

  it('comes with 201 delivered, the same in its replay, and opens the "sent to the company" page', async () => {
    const key = crypto.randomUUID();
    const fields = validFields(campaign);
    const first = await apply(world.proxyUrl, { fields, key });
    assert.equal(first.status, 201);
    assert.match(String(first.body.receipt_url), RECEIPT_LINK);
    assert.ok(!String(first.body.receipt_url).includes(String(first.body.reference)), 'the reference is not in the link');
    const replay = await apply(world.proxyUrl, { fields, key });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, first.text, 'the replay is the first answer, link included');
    assert.deepEqual(await receipt(first.body.receipt_url), { status: 200, heading: 'Sent to the company' });
  });

  it('comes with 202 queued, the same in its replay, and opens the "received" page', async () => {
    await admin(world.sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
    try {
      const key = crypto.randomUUID();
      const fields = validFields(campaign);
      const first = await apply(world.proxyUrl, { fields, key });
      assert.equal(first.status, 202);
      assert.match(String(first.body.receipt_url), RECEIPT_LINK);
      const replay = await apply(world.proxyUrl, { fields, key });
      assert.equal(replay.status, 202);
      assert.equal(replay.text, first.text);
      assert.deepEqual(await receipt(first.body.receipt_url), { status: 200, heading: 'Application received' });
    } finally {
      await admin(world.sandbox, 'POST', '/faults', { count: 0 });
    }
  });

  it("gives each application its own link, and a robot's decoy answer one that leads to the \"not available\" page", async () => {
    const links = new Set<string>();
    for (let i = 0; i < 3; i++) links.add(String((await apply(world.proxyUrl, { fields: validFields(campaign) })).body.receipt_url));
    assert.equal(links.size, 3);
    const decoy = await apply(world.proxyUrl, { fields: { ...validFields(campaign), website: 'https://spam.example' } });
    assert.equal(decoy.status, 202);
    assert.match(String(decoy.body.receipt_url), RECEIPT_LINK);
    assert.deepEqual(await receipt(decoy.body.receipt_url), { status: 404, heading: 'Receipt not available' });
  });
});
