import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Applicant, CreatedApplicant } from '../contract/index.ts';
import { b64, docx, pdf, png } from '../test/files.ts';
import { boardApplicant, call, suiteWorld } from './test-support.ts';
import type { Json } from './test-support.ts';

describe('sandbox POST /applicants', () => {
  const w = suiteWorld();
  let poolId: number;

  before(async () => {
    poolId = (await w.t.admin('POST', '/pools', { company_id: w.companyId, name: 'Tech pool' })).id;
  });

  it('answers 201 with the created applicant, its address, pools and nested applications', async () => {
    const reply = await w.company('/applicants', {
      body: {
        applicant: {
          email: 'grace@example.com',
          first_name: 'Grace',
          last_name: 'Hopper',
          locale: 'en',
          phone_code: '+33',
          phone_number: '612345678',
          is_partner_newsletter_active: true,
          is_legals_accepted_by_manager: true,
          bio_url: 'https://grace.example.com',
          address: { city: 'Paris', zipcode: '75011', lat: 48.86 },
          pools: [poolId],
          applications: [{ campaign_id: w.campaignId, source: 'carriere', tags: ['a'], comments: [{ content: 'hi' }] }],
        },
      },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const applicant = CreatedApplicant.parse(reply.body);
    assert.equal(applicant.address?.city, 'Paris');
    assert.equal(applicant.address?.street, null);
    assert.deepEqual(applicant.pools, [{ id: poolId, name: 'Tech pool' }]);
    assert.equal(applicant.applications.length, 1);
    assert.equal(applicant.applications[0]?.campaign_id, w.campaignId);
    assert.equal(applicant.is_partner_newsletter_active, true);
    assert.equal(applicant.is_campaign_alert_active, false);
  });

  it('takes applications given as one object', async () => {
    const reply = await w.company('/applicants', {
      body: { applicant: { email: 'one@example.com', applications: { campaign_id: w.campaignId } } },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.applications.length, 1);
  });

  it('when the email already exists in the company, answers 409 applicant_exists with the existing id', async () => {
    const first = await w.company('/applicants', { body: { applicant: { email: 'dup@example.com' } } });
    const again = await w.company('/applicants', { body: { applicant: { email: 'DUP@example.com' } } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'applicant_exists');
    assert.equal(again.body.error.details[0].existing_id, first.body.id);
    assert.equal(again.body.error.details[0].field, 'applicant.email');
  });

  it('an email may exist once per company: another company can use it', async () => {
    const other = await w.t.admin('POST', '/companies', { name: 'Other' });
    const api = w.t.api(await w.t.token(await w.t.admin('POST', '/clients', { company_id: other.id })));
    await w.company('/applicants', { body: { applicant: { email: 'shared@example.com' } } });
    assert.equal((await api('/applicants', { body: { applicant: { email: 'shared@example.com' } } })).status, 201);
  });

  it('when email is missing or invalid, answers 400 naming applicant.email', async () => {
    for (const applicant of [{ first_name: 'x' }, { email: 'not-an-email' }]) {
      const reply = await w.company('/applicants', { body: { applicant } });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.details[0].field, 'applicant.email');
    }
  });

  it('when locale is not fr, en or es, answers 400', async () => {
    const reply = await w.company('/applicants', { body: { applicant: { email: 'l@example.com', locale: 'de' } } });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details[0].field, 'applicant.locale');
  });

  it('when a pool is not one of the company, answers 422 unknown_reference and creates nothing', async () => {
    const reply = await w.company('/applicants', { body: { applicant: { email: 'pool@example.com', pools: [9999] } } });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.details[0].field, 'applicant.pools.0');
    assert.equal((await w.company('/applicants/pool@example.com')).status, 404);
  });

  it('when a nested application breaks a rule, answers its error and creates neither applicant nor application', async () => {
    const archived = await w.campaign({ status: 'archived' });
    const reply = await w.company('/applicants', {
      body: {
        applicant: {
          email: 'rollback@example.com',
          applications: [{ campaign_id: w.campaignId }, { campaign_id: archived }],
        },
      },
    });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'campaign_not_open');
    assert.equal(reply.body.error.details[0].field, 'applicant.applications.1.campaign_id');
    assert.equal((await w.company('/applicants/rollback@example.com')).status, 404);
  });

  it("when a nested application's source is not in the company's sources list, answers 422 source_not_allowed on its path and creates nothing", async () => {
    const reply = await w.company('/applicants', {
      body: {
        applicant: { email: 'source@example.com', applications: [{ campaign_id: w.campaignId, source: 'indeed' }] },
      },
    });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'source_not_allowed');
    assert.equal(reply.body.error.details[0].field, 'applicant.applications.0.source');
    assert.equal((await w.company('/applicants/source@example.com')).status, 404);
  });

  it('when is_legals_accepted_by_manager is not true, the applicant receives the legal-terms email', async () => {
    await w.company('/applicants', { body: { applicant: { email: 'terms@example.com', locale: 'fr' } } });
    await w.company('/applicants', {
      body: { applicant: { email: 'accepted@example.com', is_legals_accepted_by_manager: true } },
    });
    const emails = (await call(`${w.t.sandbox.origin}/_sandbox/emails`)).body as Json[];
    const to = emails.map((e) => e.to);
    assert.ok(to.includes('terms@example.com'));
    assert.ok(!to.includes('accepted@example.com'));
    const mine = (await call(`${w.t.sandbox.origin}/_sandbox/emails?to=TERMS@example.com`)).body as Json[];
    assert.deepEqual(
      mine.map((e) => e.to),
      ['terms@example.com'],
    );
    const mail = mine[0];
    assert.equal(mail.kind, 'legal_terms');
    assert.match(mail.subject, /conditions générales/);
    // Following the link accepts the terms.
    const link = /http:\/\/\S+\/legals\/[0-9a-f]+/.exec(mail.body)![0];
    assert.equal((await fetch(link)).status, 200);
    assert.equal((await w.company('/applicants/terms@example.com')).body.is_legals_accepted_by_manager, true);
  });

  it('an applicant resume is processed after the response: resume_url appears, and nested applications become complete', async () => {
    const reply = await w.company('/applicants', {
      body: {
        applicant: {
          email: 'resume@example.com',
          resume: { base64: b64(docx()), mime_type: 'docx' },
          applications: [{ campaign_id: w.campaignId }],
        },
      },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.resume_url, null);
    await w.t.drain();
    const read = await w.company(`/applicants/${reply.body.id}?embed=applications`);
    assert.match(read.body.resume_url, /\/files\/[0-9a-f]{32}\.docx$/);
    assert.equal(read.body.applications[0].status, 'complete');
    assert.equal(read.body.applications[0].is_complete, true);
    assert.equal(read.body.applications[0].resume_url, read.body.resume_url);
  });

  it('when a job-board client posts to /applicants, answers 403 wrong_client_kind', async () => {
    const reply = await w.board('/applicants', { body: { applicant: { email: 'x@example.com' } } });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 'wrong_client_kind');
  });
});

describe('sandbox GET /applicants and GET /applicants/:id', () => {
  const w = suiteWorld();
  const ids: Record<string, number> = {};

  before(async () => {
    const pool = await w.t.admin('POST', '/pools', { company_id: w.companyId, name: 'P' });
    const mk = async (key: string, applicant: Json) => {
      const reply = await w.company('/applicants', {
        body: { applicant: { is_legals_accepted_by_manager: true, ...applicant } },
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      ids[key] = reply.body.id;
    };
    await mk('marie', {
      email: 'marie.curie@example.com',
      first_name: 'Marie',
      last_name: 'Curie',
      is_partner_newsletter_active: true,
      pools: [pool.id],
    });
    await mk('pierre', {
      email: 'pierre@example.com',
      first_name: 'Pierre',
      last_name: 'Curie',
      is_campaign_alert_active: true,
      address: { city: 'Paris' },
    });
    await mk('alan', {
      email: 'alan@turing.example.org',
      first_name: 'Alan',
      last_name: 'Turing',
      applications: [{ campaign_id: w.campaignId }],
    });
  });

  const list = async (query: string) => (await w.company(`/applicants${query}`)).body.map((a: Json) => a.id);

  it('lists the newest first as contract records, with X-Pagination', async () => {
    const reply = await w.company('/applicants');
    for (const a of reply.body) Applicant.parse(a);
    assert.deepEqual(
      reply.body.map((a: Json) => a.id),
      [ids.alan, ids.pierre, ids.marie],
    );
    assert.equal(JSON.parse(reply.headers.get('x-pagination')!)['total-count'], 3);
    assert.deepEqual(await list('?sort=asc'), [ids.marie, ids.pierre, ids.alan]);
  });

  it('pages with page and per_page (order=created_at), and answers 422 page_out_of_range outside 1..50', async () => {
    const first = await w.company('/applicants?order=created_at&per_page=2');
    assert.deepEqual(
      first.body.map((a: Json) => a.id),
      [ids.alan, ids.pierre],
    );
    assert.deepEqual(JSON.parse(first.headers.get('x-pagination')!), {
      'total-count': 3,
      'current-page': 1,
      'next-page': 2,
      'last-page': 2,
    });
    assert.deepEqual(await list('?per_page=2&page=2'), [ids.marie]);
    assert.deepEqual(await list('?page=3'), [], 'a page past the last is empty');
    assert.equal((await w.company('/applicants?per_page=51')).body.error.code, 'page_out_of_range');
    assert.equal((await w.company('/applicants?per_page=0')).body.error.code, 'page_out_of_range');
    assert.equal((await w.company('/applicants?order=email')).status, 400, 'order allows created_at only');
  });

  it('keywords search first_name, last_name and email, case-insensitively', async () => {
    assert.deepEqual(await list('?keywords=curie'), [ids.pierre, ids.marie]);
    assert.deepEqual(await list('?keywords=ALAN'), [ids.alan]);
    assert.deepEqual(await list('?keywords=turing.example'), [ids.alan]);
    assert.deepEqual(await list('?keywords=marie%20curie'), [ids.marie]);
    assert.deepEqual(await list('?keywords=%25'), [], 'a % is searched literally');
  });

  it('filters by is_partner_newsletter_active and is_campaign_alert_active', async () => {
    assert.deepEqual(await list('?is_partner_newsletter_active=true'), [ids.marie]);
    assert.deepEqual(await list('?is_campaign_alert_active=true'), [ids.pierre]);
    assert.deepEqual(await list('?is_campaign_alert_active=false'), [ids.alan, ids.marie]);
  });

  it('embeds address, applications and pools', async () => {
    const reply = await w.company('/applicants?embed=address,applications,pools');
    const byId = new Map(reply.body.map((a: Json) => [a.id, a]));
    const alan = byId.get(ids.alan) as Json;
    const pierre = byId.get(ids.pierre) as Json;
    const marie = byId.get(ids.marie) as Json;
    assert.equal(alan.applications.length, 1);
    assert.equal(pierre.address.city, 'Paris');
    assert.equal(alan.address, null);
    assert.deepEqual(
      marie.pools.map((p: Json) => p.name),
      ['P'],
    );
  });

  it('when an embed value is unknown, answers 400', async () => {
    assert.equal((await w.company('/applicants?embed=skills')).status, 400);
  });

  it('GET /applicants/:id finds the applicant by id or by email', async () => {
    const byId = await w.company(`/applicants/${ids.alan}?embed=applications`);
    assert.equal(byId.body.email, 'alan@turing.example.org');
    assert.equal(byId.body.applications.length, 1);
    const byEmail = await w.company(`/applicants/${encodeURIComponent('Alan@Turing.example.org')}`);
    assert.equal(byEmail.body.id, ids.alan);
  });

  it('when no applicant has that id or email, answers 404', async () => {
    assert.equal((await w.company('/applicants/99999')).status, 404);
    assert.equal((await w.company('/applicants/nobody@example.com')).status, 404);
  });
});

describe('sandbox POST /jobboards/applicants', () => {
  const w = suiteWorld();
  let otherCompany: number;
  let otherCampaign: number;

  before(async () => {
    // A second company broadcasting on the same job board.
    otherCompany = (await w.t.admin('POST', '/companies', { name: 'Second', sources: [] })).id;
    const keys = await w.t.admin('POST', '/clients', { company_id: otherCompany });
    const api = w.t.api(await w.t.token(keys));
    otherCampaign = (await api('/campaigns', { body: { campaign: { manage_name: 'Other job' } } })).body.id;
    await w.t.admin('PATCH', `/campaigns/${otherCampaign}`, { status: 'online', channels: ['board_test'] });
  });

  /** A candidate who accepted the terms and sent a PDF resume reading `resumeText`, created through the board. */
  async function createdWithResume(resumeText: string, applicant: Json): Promise<CreatedApplicant> {
    const reply = await boardApplicant(w, {
      is_legals_accepted_by_manager: true,
      resume: { base64: b64(pdf({ text: resumeText })), mime_type: 'pdf' },
      ...applicant,
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return CreatedApplicant.parse(reply.body);
  }

  it('creates the applicant with its applications and resume for a company broadcasting on the board', async () => {
    const created = await createdWithResume('JavaScript', {
      email: 'cand@example.com',
      first_name: 'Cand',
      applications: [{ campaign_id: w.campaignId, source: 'board', comments: [{ content: 'Cover letter' }] }],
    });
    assert.equal(created.company_id, w.companyId);
    await w.t.drain();
    const app = await w.board(`/applications/${created.applications[0]!.id}?embed=skills,comments`);
    assert.equal(app.body.status, 'complete');
    assert.deepEqual(app.body.skills, [{ name: 'JavaScript' }]);
    assert.equal(app.body.comments[0].content, 'Cover letter');
  });

  it('takes an applicant with no application (a spontaneous one): GET /applicants lists it with its resume', async () => {
    const created = await createdWithResume('Rust', { email: 'spontaneous@example.com', first_name: 'Spon' });
    assert.deepEqual(created.applications, []);
    await w.t.drain();
    const listed = await w.company('/applicants?keywords=spontaneous%40example.com');
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const found = (listed.body as Json[]).map((a) => Applicant.parse(a)).filter((a) => a.id === created.id);
    assert.equal(found.length, 1);
    assert.match(String(found[0]!.resume_url), /^https?:\/\//);
  });

  it('may name any company whose campaign is broadcast on the board', async () => {
    const reply = await boardApplicant(
      w,
      { email: 'cand@example.com', applications: [{ campaign_id: otherCampaign }] },
      otherCompany,
    );
    assert.equal(reply.status, 201);
    assert.equal(reply.body.company_id, otherCompany);
  });

  it('when a referenced campaign is not broadcast on the calling job board, answers 422 campaign_not_broadcast', async () => {
    const hidden = await w.campaign({ status: 'online', channels: ['career_fr'] });
    const reply = await boardApplicant(w, { email: 'hidden@example.com', applications: [{ campaign_id: hidden }] });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'campaign_not_broadcast');
    assert.equal(reply.body.error.details[0].field, 'applicant.applications.0.campaign_id');
  });

  it('when a campaign belongs to another company than company_id, answers 422 unknown_reference', async () => {
    const reply = await boardApplicant(w, { email: 'mix@example.com', applications: [{ campaign_id: otherCampaign }] });
    assert.equal(reply.body.error.code, 'unknown_reference');
  });

  it('when the company broadcasts nothing on the board, answers 422 unknown_reference on company_id', async () => {
    const silent = (await w.t.admin('POST', '/companies', { name: 'Silent' })).id;
    const reply = await boardApplicant(w, { email: 'x@example.com' }, silent);
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.details[0].field, 'company_id');
  });

  it('when the campaign is archived, answers 422 campaign_not_open', async () => {
    const archived = await w.campaign({ status: 'archived', channels: ['board_test'] });
    const reply = await boardApplicant(w, { email: 'late@example.com', applications: [{ campaign_id: archived }] });
    assert.equal(reply.body.error.code, 'campaign_not_open');
  });

  it('when the applicant exists for that company, answers 409 applicant_exists with its id', async () => {
    const first = await boardApplicant(w, { email: 'again@example.com' });
    const again = await boardApplicant(w, {
      email: 'again@example.com',
      applications: [{ campaign_id: w.campaignId }],
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.details[0].existing_id, first.body.id);
  });

  it('pools are not taken here (the job-board applicant has no pools): 400 naming applicant.pools', async () => {
    const reply = await boardApplicant(w, { email: 'p@example.com', pools: [1] });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details[0].field, 'applicant.pools');
  });

  it('when the resume bytes are not the declared type, answers 422 file_type_mismatch and creates nothing', async () => {
    const reply = await boardApplicant(w, {
      email: 'fake@example.com',
      resume: { base64: b64(png()), mime_type: 'docx' },
      applications: [{ campaign_id: w.campaignId }],
    });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'file_type_mismatch');
    assert.equal(reply.body.error.details[0].field, 'applicant.resume.mime_type');
  });

  it('when a company client calls it, answers 403 wrong_client_kind', async () => {
    const reply = await w.company('/jobboards/applicants', {
      body: { company_id: w.companyId, applicant: { email: 'c@example.com' } },
    });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 'wrong_client_kind');
  });
});
