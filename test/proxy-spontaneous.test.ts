// Spontaneous applications (SPONTANEOUS_APPLICATIONS, company_id in place of
// campaign_id) against the sandbox, over real HTTP, with the outbox in SQLite
// and in PostgreSQL: the candidate reaches the company once, as an applicant
// with a resume and no application, created by the board's API client (the
// service keeps no source on an applicant: the client that created it names
// the board), and a replay of the same submission sends nothing more.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../server/client/index.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { eventually } from '../server/test/poll.ts';
import {
  apply,
  deliveredRow,
  listedWithResume,
  startApplyWorld,
  upstreamApplicantCount,
  upstreamApplications,
  validFields,
} from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { SQLITE_STORE, postgresStore } from './proxy-stores.ts';

const BOARD = 'jobboard_demo';
const TOKEN = 'spontaneous-dashboard-token';

/** The companies of the board's offers, in the order of their first offer. */
function companiesOf(world: ApplyWorld): number[] {
  const ids = world.openCampaignIds.map(
    (id) =>
      world.sandbox.context.db.get<{ company_id: number }>('SELECT company_id FROM campaigns WHERE id = ?', id)!
        .company_id,
  );
  return [...new Set(ids)];
}

/** A candidate's form for a spontaneous application to `companyId`: no offer, no cover letter. */
function spontaneousFields(companyId: number): Record<string, string> & { email: string } {
  const { campaign_id: _offer, cover_letter: _letter, ...fields } = validFields(0);
  return { ...fields, company_id: String(companyId) };
}

interface WireCreate {
  seq: number;
  status: number | null;
  path: string;
  campaign_ids: number[];
  application_ids: number[];
}

for (const store of [SQLITE_STORE, await postgresStore()]) {
  describe(`a spontaneous application (${store.name})`, { skip: store.skip }, () => {
    let world: ApplyWorld;
    let taking: number;
    let notTaking: number;
    before(async () => {
      // Which companies take them is known once the catalogue is: a first world reads it, then the board's is started.
      const probe = await startApplyWorld({ env: store.env });
      const companies = companiesOf(probe);
      await probe.close();
      assert.ok(companies.length >= 2, 'the demo seed has offers of two companies at least');
      [taking, notTaking] = companies as [number, number];
      world = await startApplyWorld({
        env: { ...store.env, SPONTANEOUS_APPLICATIONS: String(taking), DASHBOARD_TOKEN: TOKEN },
      });
    });
    after(() => world.close());

    it('reaches the company once, as an applicant with its resume and no application, created by the board', async () => {
      const fields = spontaneousFields(taking);
      const key = crypto.randomUUID();
      const answer = await apply(world.proxyUrl, { fields, key });
      assert.ok(answer.status === 201 || answer.status === 202, answer.text);
      assert.equal(answer.body.kind, 'spontaneous');
      assert.equal(answer.body.campaign_id, null);
      const row = await deliveredRow(world, answer.body.reference);
      assert.equal(row.company_id, taking);
      assert.equal(row.outcome, 'created_applicant');

      // The candidate's receipt: a spontaneous application to the company, named, no offer.
      const receipt = await (await fetch(new URL(String(answer.body.receipt_url), world.proxyUrl))).text();
      const { name } = world.sandbox.context.db.get<{ name: string }>(
        'SELECT name FROM companies WHERE id = ?',
        taking,
      )!;
      assert.match(receipt, /Spontaneous application \(to the company, not to a job offer\)/);
      assert.ok(receipt.includes(name.replace(/&/g, '&#38;')), `the receipt names ${name}`);

      // The same submission again (the widget's retry): the stored answer, nothing sent.
      const replay = await apply(world.proxyUrl, { fields, key });
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.reference, answer.body.reference);

      const creates = (await admin(
        world.sandbox,
        'GET',
        `/creates?email=${encodeURIComponent(fields.email)}`,
      )) as WireCreate[];
      assert.equal(creates.length, 1, JSON.stringify(creates));
      assert.equal(creates[0]!.path, '/jobboards/applicants');
      assert.deepEqual(creates[0]!.campaign_ids, []);
      assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 1);
      assert.deepEqual(upstreamApplications(world.sandbox, fields.email), []);

      const { db } = world.sandbox.context;
      const applicant = db.get<{ company_id: number; channel: string | null }>(
        'SELECT p.company_id, c.channel FROM applicants p JOIN api_clients c ON c.id = p.created_by_client WHERE p.email = ?',
        fields.email,
      )!;
      assert.deepEqual({ ...applicant }, { company_id: taking, channel: BOARD });
      // GET /applicants, as the company reads it: the applicant, with the resume once processed.
      const keys = { private_key: `company-${taking}-private`, secret_key: `company-${taking}-secret` };
      await admin(world.sandbox, 'POST', '/clients', { company_id: taking, scopes: ['applicants_read'], ...keys });
      const company = createClient({
        baseUrl: world.config.upstream.url,
        privateKey: keys.private_key,
        secretKey: keys.secret_key,
      });
      const listed = await listedWithResume(company, fields.email);
      assert.match(String(listed.resume_url), /^https?:\/\//);
    });

    it('tells a candidate already among the company applicants, and sends nothing more', async () => {
      const fields = spontaneousFields(taking);
      const first = await apply(world.proxyUrl, { fields });
      await deliveredRow(world, first.body.reference);
      const second = await apply(world.proxyUrl, { fields });
      if (second.status === 202) {
        // Queued (its first attempt outlasted the deadline on a loaded machine): it ends the same way, refused.
        const row = await eventually(
          async () => {
            const found = await world.applications.outbox.get(String(second.body.reference));
            return found?.status === 'rejected' ? found : undefined;
          },
          { timeoutMs: 60_000, what: 'the refusal of the second spontaneous application' },
        );
        assert.equal(row.outcome, 'already_applied');
      } else {
        assert.equal(second.status, 409, second.text);
        assert.equal(second.body.code, 'already_applied');
      }
      assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 1);
    });

    it('refuses a company that takes none, and one with no offer on the board: 404 not_found, nothing stored', async () => {
      for (const companyId of [notTaking, 987_654]) {
        const fields = spontaneousFields(companyId);
        const answer = await apply(world.proxyUrl, { fields });
        assert.equal(answer.status, 404, answer.text);
        assert.equal(answer.body.code, 'not_found');
        assert.match(String(answer.body.detail), companyId === notTaking ? /takes no spontaneous/ : /no company/i);
        assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 0);
      }
    });

    it('refuses company_id with campaign_id, and neither: 422 saying to send one', async () => {
      const both = await apply(world.proxyUrl, {
        fields: { ...spontaneousFields(taking), campaign_id: String(world.openCampaignIds[0]) },
      });
      assert.equal(both.status, 422, both.text);
      assert.deepEqual(
        (both.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]),
        [['company_id', 'invalid_value']],
      );
      const { company_id: _company, ...neither } = spontaneousFields(taking);
      const none = await apply(world.proxyUrl, { fields: neither });
      assert.equal(none.status, 422, none.text);
      assert.deepEqual(
        (none.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]),
        [['campaign_id', 'required']],
      );
    });

    it('counts in the funnel on a line of its own: kind spontaneous, no offer', async () => {
      const answer = await apply(world.proxyUrl, { fields: spontaneousFields(taking) });
      await deliveredRow(world, answer.body.reference);
      const response = await fetch(`${world.proxyUrl}/api/stats`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(response.status, 200);
      const { offers } = (await response.json()) as {
        offers: {
          campaign_id: number | null;
          kind: string;
          counts: { received: number; delivered: number; rejected: number };
        }[];
      };
      const spontaneous = offers.filter((offer) => offer.kind === 'spontaneous');
      assert.equal(spontaneous.length, 1, JSON.stringify(offers));
      assert.equal(spontaneous[0]!.campaign_id, null);
      // This suite's spontaneous applications stored (those refused at once are not): four received, three delivered,
      // one refused (its candidate was the company's applicant already).
      assert.equal(spontaneous[0]!.counts.received, 4);
      assert.equal(spontaneous[0]!.counts.delivered, 3);
      assert.equal(spontaneous[0]!.counts.rejected, 1);
      assert.ok(offers.every((offer) => (offer.kind === 'offer') === (offer.campaign_id !== null)));
    });
  });
}
