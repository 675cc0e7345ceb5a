import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Application, PaginationHeader } from '../contract/index.ts';
import { MAX_FILE_BYTES } from './files.ts';
import { b64, doc, docx, jpeg, pdf, png } from '../test/files.ts';
import { suiteWorld } from './test-support.ts';
import type { Json } from './test-support.ts';

describe('sandbox POST /applications rules', () => {
  const w = suiteWorld({}, { restricted_tags: ['priority', 'remote'] });
  let applicantId: number;
  const email = 'ada@example.com';

  before(async () => {
    const created = await w.company('/applicants', {
      body: { applicant: { email, first_name: 'Ada', is_legals_accepted_by_manager: true } },
    });
    applicantId = created.body.id;
  });

  it('answers 201 with the created application, status "new", incomplete', async () => {
    const campaignId = await w.campaign();
    const reply = await w.company('/applications', { body: { campaign_id: campaignId, applicant_id: applicantId } });
    assert.equal(reply.status, 201);
    const app = Application.parse(reply.body);
    assert.equal(app.status, 'new');
    assert.equal(app.is_complete, false);
    assert.equal(app.resume_url, null);
  });

  for (const status of ['online', 'draft', 'standby']) {
    it(`an application can be created for a campaign in status ${status}`, async () => {
      const campaignId = await w.campaign({ status, channels: ['board_test'] });
      const reply = await w.company('/applications', { body: { campaign_id: campaignId, applicant_id: applicantId } });
      assert.equal(reply.status, 201);
    });
  }

  it('when the campaign is archived, answers 422 campaign_not_open', async () => {
    const campaignId = await w.campaign({ status: 'archived' });
    const reply = await w.company('/applications', { body: { campaign_id: campaignId, applicant_id: applicantId } });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'campaign_not_open');
    assert.equal(reply.body.error.details[0].field, 'campaign_id');
  });

  it('when neither applicant_id nor applicant_email is given, answers 422 applicant_reference_required', async () => {
    const reply = await w.company('/applications', { body: { campaign_id: w.campaignId } });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'applicant_reference_required');
  });

  it('takes the applicant by applicant_email (case-insensitive)', async () => {
    const campaignId = await w.campaign();
    const reply = await w.company('/applications', {
      body: { campaign_id: campaignId, applicant_email: 'ADA@example.com' },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.applicant_id, applicantId);
  });

  it('when the applicant does not exist, answers 422 unknown_reference', async () => {
    const reply = await w.company('/applications', {
      body: { campaign_id: w.campaignId, applicant_email: 'nobody@example.com' },
    });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'unknown_reference');
    assert.equal(reply.body.error.details[0].field, 'applicant_email');
  });

  it('when the campaign does not exist, answers 422 unknown_reference', async () => {
    const reply = await w.company('/applications', { body: { campaign_id: 987654, applicant_id: applicantId } });
    assert.equal(reply.body.error.code, 'unknown_reference');
  });

  it('when the applicant already applied to the campaign, answers 409 application_exists with the existing id', async () => {
    const campaignId = await w.campaign();
    const first = await w.company('/applications', { body: { campaign_id: campaignId, applicant_id: applicantId } });
    const again = await w.company('/applications', { body: { campaign_id: campaignId, applicant_id: applicantId } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'application_exists');
    assert.equal(again.body.error.details[0].existing_id, first.body.id);
  });

  it("when the source is not in the company's sources list, answers 422 source_not_allowed", async () => {
    const reply = await w.company('/applications', {
      body: { campaign_id: await w.campaign(), applicant_id: applicantId, application: { source: 'monster' } },
    });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'source_not_allowed');
    assert.equal(reply.body.error.details[0].field, 'application.source');
  });

  it("takes a source from the company's sources list", async () => {
    const reply = await w.company('/applications', {
      body: { campaign_id: await w.campaign(), applicant_id: applicantId, application: { source: 'carriere' } },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.source, 'carriere');
  });

  it('when the company restricts its tags, only authorised tags are taken', async () => {
    const reply = await w.company('/applications', {
      body: {
        campaign_id: await w.campaign(),
        applicant_id: applicantId,
        application: { tags: ['priority', 'vip', 'remote'] },
      },
    });
    assert.equal(reply.status, 201);
    assert.deepEqual(reply.body.tags, ['priority', 'remote']);
  });

  it('stores comments and processes their attachments after the response', async () => {
    const reply = await w.company('/applications', {
      body: {
        campaign_id: await w.campaign(),
        applicant_id: applicantId,
        application: {
          comments: [
            { content: 'Met at the fair' },
            { content: 'Portfolio', attachment: { base64: b64(png()), mime_type: 'png' } },
          ],
        },
      },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.comments.length, 2);
    await w.t.drain();
    const read = await w.company(`/applications/${reply.body.id}?embed=comments`);
    assert.equal(read.body.comments[0].attachment_url, null);
    const url = read.body.comments[1].attachment_url as string;
    const file = await fetch(url);
    assert.equal(file.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), png());
  });

  it('a comment given as one object (not an array) is taken', async () => {
    const reply = await w.company('/applications', {
      body: {
        campaign_id: await w.campaign(),
        applicant_id: applicantId,
        application: { comments: { content: 'Single' } },
      },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.comments[0].content, 'Single');
  });

  it("uploading a resume with the application sets its status to 'complete' once processed, with resume_url and skills", async () => {
    const reply = await w.company('/applications', {
      body: {
        campaign_id: await w.campaign(),
        applicant_id: applicantId,
        application: { resume: { base64: b64(pdf({ text: 'Python, SQL and Docker' })), mime_type: 'pdf' } },
      },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.status, 'new', 'the upload is asynchronous: not complete in the response');
    await w.t.drain();
    const read = await w.company(`/applications/${reply.body.id}?embed=skills,status_history`);
    const app = Application.parse(read.body);
    assert.equal(app.status, 'complete');
    assert.equal(app.is_complete, true);
    assert.match(app.resume_url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/files\/[0-9a-f]{32}\.pdf$/);
    assert.deepEqual(
      app.skills?.map((s) => s.name),
      ['Docker', 'Python', 'SQL'],
    );
    assert.deepEqual(
      app.status_history?.map((h) => h.value),
      ['new', 'complete'],
    );
    const file = await fetch(app.resume_url!);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
  });

  for (const [type, bytes] of [
    ['docx', docx()],
    ['doc', doc()],
    ['jpg', jpeg()],
    ['png', png()],
  ] as const) {
    it(`takes a ${type} resume whose bytes are ${type}`, async () => {
      const reply = await w.company('/applications', {
        body: {
          campaign_id: await w.campaign(),
          applicant_id: applicantId,
          application: { resume: { base64: b64(bytes), mime_type: type } },
        },
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
    });
  }

  it('when the declared type does not match the bytes, answers 422 file_type_mismatch', async () => {
    const reply = await w.company('/applications', {
      body: {
        campaign_id: await w.campaign(),
        applicant_id: applicantId,
        application: { resume: { base64: b64(png()), mime_type: 'pdf' } },
      },
    });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'file_type_mismatch');
    assert.equal(reply.body.error.details[0].field, 'application.resume.mime_type');
    assert.match(reply.body.error.details[0].message, /bytes are png/);
  });

  it('when the bytes are no known file type, answers 422 file_type_mismatch', async () => {
    const reply = await w.company('/applications', {
      body: {
        campaign_id: await w.campaign(),
        applicant_id: applicantId,
        application: { resume: { base64: b64(Buffer.from('just text')), mime_type: 'pdf' } },
      },
    });
    assert.equal(reply.body.error.code, 'file_type_mismatch');
  });

  it('when base64 comes without mime_type (or the reverse), answers 422 file_incomplete', async () => {
    for (const resume of [{ base64: b64(pdf()) }, { mime_type: 'pdf' }]) {
      const reply = await w.company('/applications', {
        body: { campaign_id: w.campaignId, applicant_id: applicantId, application: { resume } },
      });
      assert.equal(reply.status, 422, JSON.stringify(resume));
      assert.equal(reply.body.error.code, 'file_incomplete');
    }
  });

  it('when an attachment comes without mime_type, answers 422 file_incomplete', async () => {
    const reply = await w.company('/applications', {
      body: {
        campaign_id: w.campaignId,
        applicant_id: applicantId,
        application: { comments: [{ attachment: { base64: b64(pdf()) } }] },
      },
    });
    assert.equal(reply.body.error.code, 'file_incomplete');
    assert.equal(reply.body.error.details[0].field, 'application.comments.0.attachment.mime_type');
  });

  it('when mime_type is not an allowed type, answers 400 naming the allowed types', async () => {
    const reply = await w.company('/applications', {
      body: {
        campaign_id: w.campaignId,
        applicant_id: applicantId,
        application: { resume: { base64: b64(pdf()), mime_type: 'gif' } },
      },
    });
    assert.equal(reply.status, 400);
    assert.match(reply.body.error.details[0].message, /pdf, jpg, png, doc, docx/);
  });

  it('when the decoded file is larger than 10 MiB, answers 413 file_too_large', async () => {
    const big = Buffer.concat([pdf(), Buffer.alloc(MAX_FILE_BYTES)]);
    const reply = await w.company('/applications', {
      body: {
        campaign_id: w.campaignId,
        applicant_id: applicantId,
        application: { resume: { base64: b64(big), mime_type: 'pdf' } },
      },
    });
    assert.equal(reply.status, 413);
    assert.equal(reply.body.error.code, 'file_too_large');
  });

  it('a job-board client may apply only to campaigns broadcast on its channel: 422 campaign_not_broadcast', async () => {
    const hidden = await w.campaign({ status: 'online', channels: ['career_fr'] });
    const reply = await w.board('/applications', { body: { campaign_id: hidden, applicant_email: email } });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'campaign_not_broadcast');
    const shown = await w.campaign();
    assert.equal(
      (await w.board('/applications', { body: { campaign_id: shown, applicant_email: email } })).status,
      201,
    );
  });
});

describe('sandbox GET /applications and GET /applications/:id', () => {
  const w = suiteWorld();
  const apps: Record<string, Json> = {};
  let campaignA: number;
  let campaignB: number;

  before(async () => {
    campaignA = w.campaignId;
    campaignB = await w.campaign({ status: 'online', channels: ['board_test'], tags: [] });
    const mk = async (email: string, campaign: number, application: Json = {}) => {
      const applicant = await w.company('/applicants', {
        body: { applicant: { email, first_name: email.split('@')[0], is_legals_accepted_by_manager: true } },
      });
      const reply = await w.company('/applications', {
        body: { campaign_id: campaign, applicant_id: applicant.body.id, application },
      });
      assert.equal(reply.status, 201);
      return reply.body;
    };
    apps.a1 = await mk('a1@example.com', campaignA, { source: 'carriere', tags: ['vip'] });
    apps.a2 = await mk('a2@example.com', campaignA, {
      source: 'board',
      resume: { base64: b64(pdf()), mime_type: 'pdf' },
    });
    apps.b1 = await mk('b1@example.com', campaignB, { comments: [{ content: 'hello' }] });
    await w.t.drain();
    await w.t.admin('PUT', `/applications/${apps.a1.id}/status`, { value: 'interview', at: '2025-03-10T10:00:00Z' });
    await w.t.admin('PUT', `/applications/${apps.b1.id}/status`, { value: 'interview', at: '2025-04-20T10:00:00Z' });
    await w.t.admin('PUT', `/applications/${apps.b1.id}/status`, { value: 'hired', at: '2025-05-01T10:00:00Z' });
  });

  const ids = (reply: { body: Json }) => reply.body.map((a: Json) => a.id);

  it('lists the newest first, as contract records, with X-Pagination', async () => {
    const reply = await w.company('/applications');
    assert.equal(reply.status, 200);
    for (const a of reply.body) Application.parse(a);
    assert.deepEqual(ids(reply), [apps.b1.id, apps.a2.id, apps.a1.id]);
    assert.equal(PaginationHeader.parse(JSON.parse(reply.headers.get('x-pagination')!))['total-count'], 3);
  });

  it('sorts ascending with sort=asc', async () => {
    assert.deepEqual(ids(await w.company('/applications?sort=asc')), [apps.a1.id, apps.a2.id, apps.b1.id]);
  });

  it('filters by campaign_id', async () => {
    assert.deepEqual(ids(await w.company(`/applications?campaign_id=${campaignB}`)), [apps.b1.id]);
  });

  it('filters by is_complete', async () => {
    assert.deepEqual(ids(await w.company('/applications?is_complete=true')), [apps.a2.id]);
    assert.deepEqual(ids(await w.company('/applications?is_complete=false')), [apps.b1.id, apps.a1.id]);
  });

  it('when is_complete is not a boolean, answers 400', async () => {
    assert.equal((await w.company('/applications?is_complete=maybe')).status, 400);
  });

  it('filters by source', async () => {
    assert.deepEqual(ids(await w.company('/applications?source=board')), [apps.a2.id]);
  });

  it('filters by status[value], with its total in X-Pagination', async () => {
    const interview = await w.company('/applications?status[value]=interview');
    assert.deepEqual(ids(interview), [apps.a1.id]);
    assert.equal(JSON.parse(interview.headers.get('x-pagination')!)['total-count'], 1);
    assert.deepEqual(ids(await w.company('/applications?status[value]=complete')), [apps.a2.id]);
  });

  it('filters by status[value] with status[date][gte] and status[date][lte]', async () => {
    assert.deepEqual(
      ids(
        await w.company(
          '/applications?status[value]=interview&status[date][gte]=2025-03-10&status[date][lte]=2025-03-10',
        ),
      ),
      [apps.a1.id],
    );
    assert.deepEqual(ids(await w.company('/applications?status[value]=interview&status[date][gte]=2025-03-11')), []);
    assert.deepEqual(ids(await w.company('/applications?status[value]=hired&status[date][lte]=2025-05-01')), [
      apps.b1.id,
    ]);
  });

  it('when status[date] is used without status[value], answers 422 status_value_required', async () => {
    const reply = await w.company('/applications?status[date][gte]=2025-01-01');
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'status_value_required');
    assert.equal(reply.body.error.details[0].field, 'status.value');
  });

  it('when a status date is not YYYY-MM-DD, answers 400 naming the field', async () => {
    const reply = await w.company('/applications?status[value]=x&status[date][gte]=10/03/2025');
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details[0].field, 'status.date.gte');
  });

  it('when per_page is above 50, answers 422 page_out_of_range', async () => {
    assert.equal((await w.company('/applications?per_page=51')).body.error.code, 'page_out_of_range');
  });

  it('pages with page and per_page (order=created_at), and says so in X-Pagination', async () => {
    const second = await w.company('/applications?order=created_at&per_page=2&page=2');
    assert.deepEqual(ids(second), [apps.a1.id]);
    assert.deepEqual(JSON.parse(second.headers.get('x-pagination')!), {
      'total-count': 3,
      'current-page': 2,
      'next-page': null,
      'last-page': 2,
    });
    assert.equal((await w.company('/applications?page=0')).body.error.code, 'page_out_of_range');
    assert.equal((await w.company('/applications?order=status')).status, 400, 'order allows created_at only');
  });

  it('embeds applicant, campaign (with entity and unit), comments, skills, status_history and tags', async () => {
    const reply = await w.company(
      `/applications/${apps.b1.id}?embed=applicant,campaign,comments,skills,status_history,tags`,
    );
    const app = Application.parse(reply.body);
    assert.equal(app.applicant?.email, 'b1@example.com');
    assert.deepEqual(app.campaign, {
      id: campaignB,
      name: 'Job',
      manage_name: 'Campaign',
      status: 'online',
      entity: null,
      unit: null,
    });
    assert.deepEqual(
      app.comments?.map((c) => c.content),
      ['hello'],
    );
    assert.deepEqual(app.skills, []);
    // In time order: the manager's changes were dated in 2025, before the creation ('new', now).
    assert.deepEqual(
      app.status_history?.map((h) => h.value),
      ['interview', 'hired', 'new'],
    );
    assert.deepEqual(app.tags, []);
    const a1 = await w.company(`/applications/${apps.a1.id}?embed=tags`);
    assert.deepEqual(a1.body.tags, ['vip']);
  });

  it('embed=status_history:<value> restricts the history to that status', async () => {
    const reply = await w.company(`/applications/${apps.b1.id}?embed=status_history:hired`);
    assert.deepEqual(reply.body.status_history, [{ value: 'hired', changed_at: '2025-05-01T10:00:00.000Z' }]);
  });

  it('embeds work on the list endpoint too: each application with its own applicant and tags', async () => {
    const reply = await w.company('/applications?embed=applicant,tags&sort=asc');
    assert.deepEqual(
      (reply.body as Json[]).map((a) => [a.id, a.applicant.email, a.tags]),
      [
        [apps.a1.id, 'a1@example.com', ['vip']],
        [apps.a2.id, 'a2@example.com', []],
        [apps.b1.id, 'b1@example.com', []],
      ],
    );
  });

  it('when an embed value is unknown, answers 400', async () => {
    const reply = await w.company('/applications?embed=pools');
    assert.equal(reply.status, 400);
    assert.match(reply.body.error.message, /status_history:<status_value>/);
  });

  it('status history is recorded only for changes made after 2021-05-06', async () => {
    await w.t.admin('PUT', `/applications/${apps.a2.id}/status`, {
      value: 'archived_lead',
      at: '2021-05-06T12:00:00Z',
    });
    await w.t.admin('PUT', `/applications/${apps.a2.id}/status`, { value: 'reviewed', at: '2021-05-07T08:00:00Z' });
    const reply = await w.company(`/applications/${apps.a2.id}?embed=status_history`);
    assert.equal(reply.body.status, 'reviewed');
    assert.deepEqual(
      reply.body.status_history.map((h: Json) => h.value),
      ['reviewed', 'new', 'complete'],
      'the 2021-05-06 change is missing; the rest is in time order',
    );
  });

  it('when the application does not exist, answers 404', async () => {
    assert.equal((await w.company('/applications/424242')).status, 404);
  });

  it('an application created on the sandbox clock before 2021-05-06 has its status but no history', async () => {
    const keys = await w.t.admin('POST', '/clients', { company_id: w.companyId });
    await w.t.admin('PUT', '/clock', { now: '2021-05-01T10:00:00Z' });
    try {
      const api = w.t.api(await w.t.token(keys));
      const applicant = await api('/applicants', {
        body: { applicant: { email: 'old@example.com', is_legals_accepted_by_manager: true } },
      });
      const created = await api('/applications', { body: { campaign_id: campaignB, applicant_id: applicant.body.id } });
      assert.match(created.body.created_at, /^2021-05-01T10:00/);
      const read = await api(`/applications/${created.body.id}?embed=status_history`);
      assert.equal(read.body.status, 'new');
      assert.deepEqual(read.body.status_history, []);
    } finally {
      await w.t.admin('PUT', '/clock', { now: null });
    }
  });

  it('X-Pagination total-count follows writes (filtered and unfiltered lists)', async () => {
    const total = async (query: string) =>
      JSON.parse((await w.company(`/applications${query}`)).headers.get('x-pagination')!)['total-count'] as number;
    const [all, bySource, hired] = [
      await total(''),
      await total('?source=carriere'),
      await total('?status[value]=hired'),
    ];
    const applicant = await w.company('/applicants', {
      body: { applicant: { email: 'late@example.com', is_legals_accepted_by_manager: true } },
    });
    const created = await w.company('/applications', {
      body: { campaign_id: campaignA, applicant_id: applicant.body.id, application: { source: 'carriere' } },
    });
    await w.t.admin('PUT', `/applications/${created.body.id}/status`, { value: 'hired' });
    assert.deepEqual(
      [await total(''), await total('?source=carriere'), await total('?status[value]=hired')],
      [all + 1, bySource + 1, hired + 1],
    );
  });

  it('a job-board client sees only the applications it created', async () => {
    assert.deepEqual(ids(await w.board('/applications')), []);
    assert.equal((await w.board(`/applications/${apps.a1.id}`)).status, 404);
  });
});
