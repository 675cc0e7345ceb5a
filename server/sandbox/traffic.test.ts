// What the sandbox saw: GET /_sandbox/stats and GET /_sandbox/creates, and the
// per-company duplicate_applications setting they exist to test against.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { Database } from './db.ts';
import { boardApplicant, suiteWorld } from './test-support.ts';
import type { Json } from './test-support.ts';
import { eventually } from '../test/poll.ts';
import { adminCall } from '../test/sandbox-admin.ts';

describe('duplicate_applications (a company setting of the sandbox)', () => {
  const w = suiteWorld();
  const admin = (method: string, path: string, body?: unknown) => adminCall(w.t.sandbox, method, path, body);
  /** POST /applications as the board: the applicant of this email applies to the world's campaign. */
  const applyByEmail = (email: string) =>
    w.board('/applications', { body: { campaign_id: w.campaignId, applicant_email: email } });

  it("by default ('refuse'), a second application of an applicant to a campaign answers 409 application_exists", async () => {
    await boardApplicant(w, { email: 'refused@example.org', applications: [{ campaign_id: w.campaignId }] });
    const again = await applyByEmail('refused@example.org');
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'application_exists');
  });

  it("with 'accept', creates the second application like any other, until the setting is back to 'refuse'", async () => {
    const patched = await admin('PATCH', `/companies/${w.companyId}`, { duplicate_applications: 'accept' });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.duplicate_applications, 'accept');
    await boardApplicant(w, { email: 'twice@example.org', applications: [{ campaign_id: w.campaignId }] });
    const second = await applyByEmail('twice@example.org');
    assert.equal(second.status, 201);
    const listed = await w.company(`/applications?campaign_id=${w.campaignId}&embed=applicant`);
    assert.equal(listed.body.filter((a: Json) => a.applicant.email === 'twice@example.org').length, 2);
    await admin('PATCH', `/companies/${w.companyId}`, { duplicate_applications: 'refuse' });
    assert.equal((await applyByEmail('twice@example.org')).status, 409);
  });

  it('is taken by POST /_sandbox/companies, and PATCH refuses another value or an unknown company', async () => {
    const created = await admin('POST', '/companies', { name: 'Accepting Co', duplicate_applications: 'accept' });
    assert.equal(created.body.duplicate_applications, 'accept');
    const wrong = await admin('PATCH', `/companies/${w.companyId}`, { duplicate_applications: 'sometimes' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.details[0].field, 'duplicate_applications');
    assert.equal((await admin('PATCH', '/companies/999999', { duplicate_applications: 'accept' })).status, 404);
  });
});

describe('GET /_sandbox/stats and GET /_sandbox/creates', () => {
  // Two requests per second per client, so that the limit is reached and waited out in a test.
  const w = suiteWorld({ rateLimitPerMinute: 2, rateLimitWindowMs: 1000 });
  const admin = (method: string, path: string, body?: unknown) => adminCall(w.t.sandbox, method, path, body);

  it('counts per API client the requests in the window, the most in any window, all of them, and the rate-limited ones', async () => {
    const keys = await w.t.admin('POST', '/clients', { channel: 'board_test' });
    const board = w.t.api(await w.t.token(keys));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await board('/campaigns')).status);
    assert.deepEqual(statuses, [200, 200, 403]);
    const stats = (await admin('GET', '/stats')).body;
    assert.equal(stats.window_ms, 1000);
    const mine = stats.clients.find((c: Json) => c.client_id === keys.id);
    assert.deepEqual(
      { ...mine, client_id: 0 },
      { client_id: 0, requests_in_window: 2, max_in_window: 2, total: 3, rate_limited: 1 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = (await admin('GET', '/stats')).body.clients.find((c: Json) => c.client_id === keys.id);
    assert.deepEqual(
      [later.requests_in_window, later.max_in_window],
      [0, 2],
      'the window moved on; the most seen stays',
    );
  });

  it('records every create request in order with the email and campaigns it names and its answer, faulted ones included', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const body = {
      company_id: w.companyId,
      applicant: { email: 'Wire@Example.org', applications: [{ campaign_id: w.campaignId }] },
    };
    await admin('POST', '/faults', { count: 1, status: 503 });
    assert.equal((await w.board('/jobboards/applicants', { body })).status, 503);
    assert.equal((await w.board('/jobboards/applicants', { body })).status, 201);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal(
      (await w.board('/applications', { body: { campaign_id: w.campaignId, applicant_email: 'wire@example.org' } }))
        .status,
      409,
    );
    await w.board('/campaigns');
    const creates = (await admin('GET', '/creates?email=WIRE@example.org')).body;
    assert.deepEqual(
      creates.map((c: Json) => [c.path, c.status, c.email, c.campaign_ids]),
      [
        ['/jobboards/applicants', 503, 'wire@example.org', [w.campaignId]],
        ['/jobboards/applicants', 201, 'wire@example.org', [w.campaignId]],
        ['/applications', 409, 'wire@example.org', [w.campaignId]],
      ],
    );
    assert.ok(creates[0].seq < creates[1].seq && creates[1].seq < creates[2].seq);
    assert.deepEqual(
      creates.map((c: Json) => c.application_ids.length),
      [0, 1, 0],
      'only the 201 created an application',
    );
    assert.equal(creates[0].client_id, null, 'the fault answered before the token was read');
    assert.equal(typeof creates[1].client_id, 'number');
  });

  it('records what a create did when its caller gave up before the answer: status 0, the application it created', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const keys = await w.t.admin('POST', '/clients', { channel: 'board_test' });
    const token = await w.t.token(keys);
    await admin('POST', '/faults', { count: 1, delay_ms: 400 });
    const body = {
      company_id: w.companyId,
      applicant: { email: 'lost@example.org', applications: [{ campaign_id: w.campaignId }] },
    };
    await assert.rejects(
      fetch(`${w.t.url}/jobboards/applicants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(100),
      }),
    );
    let creates: Json[] = [];
    // The assertion below says what was recorded if the application never shows.
    await eventually(
      async () => {
        creates = (await admin('GET', '/creates?email=lost@example.org')).body;
        return creates[0]?.application_ids.length === 1;
      },
      { timeoutMs: 2500, what: 'the lost create to record its application', intervalMs: 50 },
    ).catch(() => undefined);
    assert.deepEqual(
      creates.map((c: Json) => [c.status, c.application_ids.length]),
      [[0, 1]],
    );
  });

  it('records a create whose connection was dropped with status 0, and forgets everything at reset', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await admin('POST', '/faults', { count: 1, drop: true });
    await assert.rejects(boardApplicant(w, { email: 'dropped@example.org', applications: [] }));
    assert.deepEqual(
      (await admin('GET', '/creates?email=dropped@example.org')).body.map((c: Json) => c.status),
      [0],
    );
    await admin('POST', '/reset');
    assert.deepEqual((await admin('GET', '/creates')).body, []);
    assert.deepEqual((await admin('GET', '/stats')).body.clients, []);
  });
});

describe('a --db file made before duplicate_applications', () => {
  it('loses its UNIQUE (applicant_id, campaign_id) constraint at open, keeping its applications', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-db-'));
    try {
      const path = join(dir, 'sandbox.db');
      const old = new DatabaseSync(path);
      old.exec(`CREATE TABLE applications (id INTEGER PRIMARY KEY, company_id INTEGER NOT NULL, campaign_id INTEGER NOT NULL, applicant_id INTEGER NOT NULL,
        created_by_client INTEGER, source TEXT, status TEXT NOT NULL, status_changed_at TEXT NOT NULL, is_complete INTEGER NOT NULL DEFAULT 0,
        resume_path TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (applicant_id, campaign_id));
        INSERT INTO applications (company_id, campaign_id, applicant_id, status, status_changed_at, created_at, updated_at) VALUES (1, 2, 3, 'new', 'x', 'x', 'x');`);
      old.close();
      const db = new Database(path);
      assert.equal(db.get<{ n: number }>('SELECT count(*) AS n FROM applications')?.n, 1);
      db.run(
        "INSERT INTO applications (company_id, campaign_id, applicant_id, status, status_changed_at, created_at, updated_at) VALUES (1, 2, 3, 'new', 'x', 'x', 'x')",
      );
      assert.equal(
        db.get<{ n: number }>('SELECT count(*) AS n FROM applications WHERE applicant_id = 3 AND campaign_id = 2')?.n,
        2,
      );
      db.raw.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
