// POST /api/funnel over real HTTP, against a proxy synced with a seeded
// sandbox, on SQLite and on PostgreSQL (skipped without a server): what a
// beacon counts, the per-address daily limit, what is refused and counted in
// /metrics; and the proxy's own stages counted as applications arrive, none
// for the honeypot's robots, nothing at all with FUNNEL=false.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEACON_DAILY_LIMIT_PER_ADDRESS } from '../../public-api/funnel.ts';
import type { FunnelStage } from '../../public-api/funnel.ts';
import { BOARD_ORIGIN, apply, applyWorldPerSuite, fetch, validFields } from '../../../test/proxy-apply.test-support.ts';
import type { ApplyWorld } from '../../../test/proxy-apply.test-support.ts';
import { SQLITE_STORE, postgresStore } from '../../../test/proxy-stores.ts';
import { dayOf } from '../storage/index.ts';

/** Posts a beacon as navigator.sendBeacon does from the board's page (text/plain), from `address` (X-Forwarded-For). */
function beacon(world: ApplyWorld, body: unknown, options: { address?: string; type?: string; origin?: string } = {}) {
  return fetch(`${world.proxyUrl}/api/funnel`, {
    method: 'POST',
    headers: {
      origin: options.origin ?? BOARD_ORIGIN,
      'content-type': options.type ?? 'text/plain;charset=UTF-8',
      'x-forwarded-for': options.address ?? '203.0.113.7',
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Today's count of `stage` per offer, all sources. */
async function todays(world: ApplyWorld, stage: FunnelStage): Promise<Map<number, number>> {
  const today = dayOf(Date.now());
  const report = await world.applications.outbox.funnel.report(
    { from: today, to: today },
    { sort: stage, limit: 1000 },
  );
  return new Map(report.offers.filter((o) => o.counts[stage] > 0).map((o) => [o.campaign_id, o.counts[stage]]));
}

/** The value of funnel_beacons_refused_total for `reason` (0 when never counted). */
async function refusals(world: ApplyWorld, reason: string): Promise<number> {
  const text = await (await fetch(world.metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`funnel_beacons_refused_total{reason="${reason}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

const postgres = await postgresStore();

for (const store of [SQLITE_STORE, postgres]) {
  describe(`POST /api/funnel (${store.name})`, { skip: store.skip }, () => {
    const world = applyWorldPerSuite(() => ({ env: { ...store.env, TRUST_PROXY: '1' } }));

    it('counts each offer of a beacon once, today, under the channel and the kept campaign parameters, cross-origin from the board', async () => {
      const [a, b] = world().openCampaignIds;
      const res = await beacon(world(), {
        stage: 'listed',
        campaign_ids: [a, b, a],
        utm_source: ' newsletter ',
        utm_campaign: 'spring\u0007',
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), BOARD_ORIGIN, 'the board page may send it');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(
        res.headers.get('cross-origin-resource-policy'),
        'cross-origin',
        "the browser's check of a no-cors answer lets it pass, with no error in the board's console",
      );
      const listed = await todays(world(), 'listed');
      assert.equal(listed.get(a!), 1);
      assert.equal(listed.get(b!), 1);
      const today = dayOf(Date.now());
      const report = await world().applications.outbox.funnel.report({ from: today, to: today });
      assert.deepEqual(
        report.sources.map(({ channel, utm_source, utm_campaign }) => ({ channel, utm_source, utm_campaign })),
        [{ channel: world().config.channel, utm_source: 'newsletter', utm_campaign: null }],
        'the parameter breaking the rule dropped, not the beacon',
      );
    });

    it('takes a beacon sent as application/json too', async () => {
      const [, , c] = world().openCampaignIds;
      const before = (await todays(world(), 'opened')).get(c!) ?? 0;
      const res = await beacon(world(), { stage: 'opened', campaign_ids: [c] }, { type: 'application/json' });
      assert.equal(res.status, 204);
      assert.equal((await todays(world(), 'opened')).get(c!), before + 1);
    });

    it(`lets 1,000 beacons from one address move a count by ${BEACON_DAILY_LIMIT_PER_ADDRESS} at most, answered alike, while another address still counts`, async () => {
      const offer = world().openCampaignIds[3]!;
      const limitedBefore = await refusals(world(), 'limited');
      for (let sent = 0; sent < 1000; sent += 50) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, () => beacon(world(), { stage: 'started', campaign_ids: [offer] })),
        );
        assert.deepEqual([...new Set(answers.map((r) => r.status))], [204]);
      }
      assert.equal((await todays(world(), 'started')).get(offer), BEACON_DAILY_LIMIT_PER_ADDRESS);
      assert.equal(await refusals(world(), 'limited'), limitedBefore + 1000 - BEACON_DAILY_LIMIT_PER_ADDRESS);
      await beacon(world(), { stage: 'started', campaign_ids: [offer] }, { address: '198.51.100.4' });
      assert.equal((await todays(world(), 'started')).get(offer), BEACON_DAILY_LIMIT_PER_ADDRESS + 1);
      await beacon(world(), { stage: 'submitted', campaign_ids: [offer] });
      assert.equal(
        (await todays(world(), 'submitted')).get(offer),
        1,
        'another count of the same offer has its own limit',
      );
    });

    it('refuses what it cannot count with a problem saying why, counts nothing of it, and counts each reason in /metrics', async () => {
      const [offer] = world().openCampaignIds;
      const refused: [unknown, number, string, string][] = [
        [{ stage: 'listed', campaign_ids: [offer], visitor: 'x' }, 422, 'beacon_invalid', 'invalid'],
        [{ stage: 'clicked', campaign_ids: [offer] }, 422, 'beacon_invalid', 'invalid'],
        [{ stage: 'listed', campaign_ids: [] }, 422, 'beacon_invalid', 'invalid'],
        [{ stage: 'listed', campaign_ids: [offer, 999_999_999] }, 422, 'beacon_offer_unknown', 'unknown_offer'],
        ['{"stage": "listed", ', 400, 'malformed_request', 'malformed'],
        [
          { stage: 'listed', campaign_ids: [offer], utm_source: 'x'.repeat(5000) },
          413,
          'request_too_large',
          'too_large',
        ],
      ];
      const listedBefore = (await todays(world(), 'listed')).get(offer!) ?? 0;
      for (const [body, status, code, reason] of refused) {
        const before = await refusals(world(), reason);
        const res = await beacon(world(), body);
        assert.equal(res.status, status, code);
        assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        const problem = (await res.json()) as { code: string; detail: string };
        assert.equal(problem.code, code);
        assert.doesNotMatch(problem.detail, /visitor|clicked|999999999/, 'what the beacon sent is not repeated');
        assert.equal(await refusals(world(), reason), before + 1, reason);
      }
      assert.equal((await todays(world(), 'listed')).get(offer!) ?? 0, listedBefore);
    });

    it('refuses a page of an origin the board did not allow before reading it, and counts nothing', async () => {
      const [offer] = world().openCampaignIds;
      const before = (await todays(world(), 'opened')).get(offer!) ?? 0;
      const res = await beacon(
        world(),
        { stage: 'opened', campaign_ids: [offer] },
        { origin: 'https://elsewhere.example' },
      );
      assert.equal(res.status, 403);
      assert.equal((await todays(world(), 'opened')).get(offer!) ?? 0, before);
    });

    it('counts an application received, and nothing of one caught by the honeypot', async () => {
      const offer = world().openCampaignIds[4]!;
      const robot = await apply(world().proxyUrl, {
        fields: { ...validFields(offer), website: 'http://spam.example' },
      });
      assert.equal(robot.status, 202, robot.text);
      assert.equal((await todays(world(), 'received')).get(offer), undefined);
      const candidate = await apply(world().proxyUrl, { fields: validFields(offer) });
      assert.ok([201, 202].includes(candidate.status), candidate.text);
      assert.equal((await todays(world(), 'received')).get(offer), 1);
    });
  });
}

describe('FUNNEL=false', () => {
  const world = applyWorldPerSuite({ env: { FUNNEL: 'false' } });

  it('tells the widget to send nothing, refuses beacons with 404 funnel_disabled, and counts no application', async () => {
    const config = (await (
      await fetch(`${world().proxyUrl}/api/config`, { headers: { origin: BOARD_ORIGIN } })
    ).json()) as {
      funnel: boolean;
    };
    assert.equal(config.funnel, false);
    const [offer] = world().openCampaignIds;
    const res = await beacon(world(), { stage: 'listed', campaign_ids: [offer] });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { code: string }).code, 'funnel_disabled');
    const answer = await apply(world().proxyUrl, { fields: validFields(offer!) });
    assert.ok([201, 202].includes(answer.status), answer.text);
    const today = dayOf(Date.now());
    const report = await world().applications.outbox.funnel.report({ from: today, to: today });
    assert.equal(report.offers_total, 0);
    assert.equal(report.totals.received, 0);
  });
});
