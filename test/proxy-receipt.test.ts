// The receipt link in the apply answers, over real HTTP with the sandbox as
// the service: 201, 202 and their replays carry the same link (the replay
// body is the stored first answer), the link opens the candidate's page on
// the proxy, and a robot's decoy answer carries one that leads nowhere.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { apply, fetch, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';

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
    assert.ok(
      !String(first.body.receipt_url).includes(String(first.body.reference)),
      'the reference is not in the link',
    );
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

  it('gives each application its own link, and a robot\'s decoy answer one that opens a "received" page like a real one', async () => {
    const links = new Set<string>();
    for (let i = 0; i < 3; i++)
      links.add(String((await apply(world.proxyUrl, { fields: validFields(campaign) })).body.receipt_url));
    assert.equal(links.size, 3);
    const decoy = await apply(world.proxyUrl, {
      fields: { ...validFields(campaign), website: 'https://spam.example' },
    });
    assert.equal(decoy.status, 202);
    assert.match(String(decoy.body.receipt_url), RECEIPT_LINK);
    assert.deepEqual(await receipt(decoy.body.receipt_url), { status: 200, heading: 'Application received' });
  });

  it("serves a decoy's receipt exactly as a queued application's: same headers, same page, in each language", async () => {
    await admin(world.sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
    let real: string;
    try {
      const queued = await apply(world.proxyUrl, { fields: validFields(campaign) });
      assert.equal(queued.status, 202);
      real = String(queued.body.receipt_url);
    } finally {
      await admin(world.sandbox, 'POST', '/faults', { count: 0 });
    }
    const rows = (await world.applications.outbox.list()).length;
    const decoy = String(
      (await apply(world.proxyUrl, { fields: { ...validFields(campaign), website: 'https://spam.example' } })).body
        .receipt_url,
    );
    const page = async (link: string, lang: string) => {
      const response = await fetch(`${world.proxyUrl}${link}?lang=${lang}`);
      const headers = Object.fromEntries(
        [...response.headers].filter(([name]) => !['date', 'x-request-id', 'etag'].includes(name)),
      );
      return { status: response.status, headers, html: await response.text() };
    };
    for (const lang of ['en', 'fr', 'es']) assert.deepEqual(await page(decoy, lang), await page(real, lang), lang);
    // Nothing about the robot is stored: no row, and no receipt of the store's has its token.
    assert.equal((await world.applications.outbox.list()).length, rows);
    assert.equal(await world.applications.outbox.receipt(decoy.split('/').at(-1)!), undefined);
  });

  it("answers 404 to a token that is neither an application's nor a decoy's", async () => {
    const decoy = String(
      (await apply(world.proxyUrl, { fields: { ...validFields(campaign), website: 'https://spam.example' } })).body
        .receipt_url,
    );
    // One character changed: the decoy's proof no longer holds.
    const last = decoy.at(-1) === 'A' ? 'B' : 'A';
    assert.deepEqual(await receipt(`${decoy.slice(0, -1)}${last}`), { status: 404, heading: 'Receipt not available' });
  });

  it("logs the receipt's route, never its token", async () => {
    const answer = await apply(world.proxyUrl, { fields: validFields(campaign) });
    const link = String(answer.body.receipt_url);
    const token = link.split('/').at(-1)!;
    await fetch(`${world.proxyUrl}${link}`, { headers: { 'X-Request-Id': 'receipt-line' } });
    await fetch(`${world.proxyUrl}${link}`, { method: 'POST', headers: { 'X-Request-Id': 'receipt-post' } });
    const line = await eventually(
      () => world.logs.lines.find((l) => (l.req as { id?: string } | undefined)?.id === 'receipt-line'),
      { timeoutMs: 5_000, what: 'the access log line' },
    );
    assert.deepEqual(line.req, { id: 'receipt-line', method: 'GET', path: '/applications/receipt/:token' });
    assert.deepEqual(line.res, { status: 200 });
    await eventually(
      () => world.logs.lines.some((l) => (l.req as { id?: string } | undefined)?.id === 'receipt-post'),
      { timeoutMs: 5_000, what: "the refused POST's line" },
    );
    assert.ok(!world.logs.text().includes(token), 'the token is in no log line');
  });
});
