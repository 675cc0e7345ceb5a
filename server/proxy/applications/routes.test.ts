// The applications module behind a minimal app, with a stand-in client and
// catalogue: behaviours the sandbox cannot easily stage (a stale catalogue,
// the captcha verifier, field configuration, refusals after the deadline).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import { ValidationError } from '../../client/index.ts';
import type { CampaignStatus } from '../../contract/index.ts';
import { loadProxyConfig } from '../config.ts';
import { fetch } from '../test-support.ts';
import { ProblemError } from '../http/problem.ts';
import { lockDataDir } from '../storage/data-dir-lock.ts';
import { openBackend } from '../storage/index.ts';
import { createApplicationsModule } from './index.ts';
import type { ApplicationsCatalogue, ApplicationsModule, DeliveryClient } from './index.ts';
import { eventually } from '../../test/poll.ts';
import { pdf } from '../../test/files.ts';

const PDF = pdf();

interface Campaign {
  id: number;
  company_id: number;
  status: CampaignStatus;
}

interface Harness {
  url: string;
  module: ApplicationsModule;
  calls: { endpoint: string; body: Record<string, unknown> }[];
}

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  // Every cleanup runs, a failed check among them included; the first failure is reported.
  const failures: unknown[] = [];
  for (const cleanup of cleanups.reverse())
    await Promise.resolve()
      .then(cleanup)
      .catch((error: unknown) => failures.push(error));
  cleanups = [];
  if (failures.length > 0) throw failures[0];
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function harness(options: {
  env?: Record<string, string>;
  catalogue?: Partial<ApplicationsCatalogue>;
  campaigns?: Campaign[];
  createApplicant?: (body: Record<string, unknown>) => Promise<unknown>;
}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'jbc-routes-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadProxyConfig({
    UPSTREAM_URL: 'http://upstream.invalid/v2',
    UPSTREAM_PRIVATE_KEY: 'private',
    UPSTREAM_SECRET_KEY: 'secret',
    JOBBOARD_CHANNEL: 'jobboard_demo',
    DATA_DIR: dataDir,
    DELIVERY_DEADLINE_MS: '300',
    ...options.env,
  });
  const campaigns = new Map((options.campaigns ?? [{ id: 12, company_id: 3, status: 'online' }]).map((c) => [c.id, c]));
  const catalogue: ApplicationsCatalogue = {
    getCampaign: (id) => campaigns.get(id),
    getCompany: () => undefined,
    isStale: () => false,
    refreshCampaign: async (id) => campaigns.get(id),
    ...options.catalogue,
  };
  const calls: Harness['calls'] = [];
  const client = {
    jobboards: {
      createApplicant: async (body: Record<string, unknown>) => {
        calls.push({ endpoint: 'jobboards/applicants', body });
        return options.createApplicant
          ? options.createApplicant(body)
          : { id: 1, applications: [{ id: 2, campaign_id: 12 }] };
      },
    },
    // Never expected here (every candidate is new): recorded, and checked after the test, since
    // the worker catches what a call throws and would take an assertion for an upstream failure.
    applications: {
      create: async (body: Record<string, unknown>) => {
        calls.push({ endpoint: 'applications', body });
        throw new Error('POST /applications was not expected');
      },
    },
  } as unknown as DeliveryClient;
  const dataDirLock = lockDataDir(dataDir);
  cleanups.push(() => dataDirLock.release());
  const backend = openBackend({ dataDir, databaseUrl: null });
  cleanups.push(() => backend.close());
  const module = createApplicationsModule({
    config,
    client,
    catalogue,
    backend,
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    dataDirLock,
    delivery: { pollIntervalMs: 20, baseBackoffMs: 20, maxBackoffMs: 50 },
  });
  module.start();
  // Cleanups run last first: this check runs once the worker has stopped.
  cleanups.push(() =>
    assert.deepEqual(
      calls.filter((c) => c.endpoint === 'applications'),
      [],
      'the module called POST /applications',
    ),
  );
  cleanups.push(() => module.stop());
  const app = express();
  app.use('/api/applications', module.router);
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const problem = error instanceof ProblemError ? error : new ProblemError('internal_error', 'x');
    for (const [k, v] of Object.entries(problem.headers)) res.setHeader(k, v);
    res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem.toBody()));
  });
  const { url } = await listen(app);
  return { url, module, calls };
}

function form(fields: Record<string, string>, resume: Buffer | null = PDF): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (resume !== null) data.append('resume', new Blob([new Uint8Array(resume)]), 'cv.pdf');
  return data;
}

const FIELDS = {
  campaign_id: '12',
  email: 'ada@example.org',
  first_name: 'Ada',
  last_name: 'Lovelace',
  is_legals_accepted_by_manager: 'true',
};

async function post(url: string, body: FormData): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/applications`, {
    method: 'POST',
    headers: { 'idempotency-key': crypto.randomUUID() },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('applications module', () => {
  describe('campaign check with a stale catalogue', () => {
    it('when the service says the campaign is no longer open, answers 422 campaign_closed', async () => {
      const h = await harness({ catalogue: { isStale: () => true, refreshCampaign: async () => undefined } });
      const answer = await post(h.url, form(FIELDS));
      assert.equal(answer.status, 422);
      assert.equal(answer.body.code, 'campaign_closed');
      assert.equal(h.calls.length, 0);
    });

    it('when the service cannot answer the re-check, trusts the local copy and takes the application', async () => {
      const h = await harness({
        catalogue: { isStale: () => true, refreshCampaign: async () => Promise.reject(new Error('down')) },
      });
      assert.equal((await post(h.url, form(FIELDS))).status, 201);
    });

    it('when the campaign is unknown and the service cannot be asked, answers 503 not_ready with Retry-After', async () => {
      const h = await harness({
        campaigns: [],
        catalogue: { isStale: () => true, refreshCampaign: async () => Promise.reject(new Error('down')) },
      });
      const response = await fetch(`${h.url}/api/applications`, {
        method: 'POST',
        headers: { 'idempotency-key': 'k' },
        body: form(FIELDS),
      });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '30');
      assert.equal(((await response.json()) as { code: string }).code, 'not_ready');
    });

    it('when the catalogue is fresh, never calls the service for an unknown campaign', async () => {
      let refreshed = 0;
      const h = await harness({
        catalogue: {
          refreshCampaign: async () => {
            refreshed += 1;
            return undefined;
          },
        },
      });
      const answer = await post(h.url, form({ ...FIELDS, campaign_id: '99' }));
      assert.equal(answer.status, 404);
      assert.equal(answer.body.code, 'campaign_not_found');
      assert.equal(refreshed, 0);
    });

    it('when the local copy is paused (standby), still takes the application (the service allows it)', async () => {
      const h = await harness({ campaigns: [{ id: 12, company_id: 3, status: 'standby' }] });
      assert.equal((await post(h.url, form(FIELDS))).status, 201);
    });

    it('when the local copy is archived, answers 422 campaign_closed', async () => {
      const h = await harness({ campaigns: [{ id: 12, company_id: 3, status: 'archived' }] });
      assert.equal((await post(h.url, form(FIELDS))).body.code, 'campaign_closed');
    });
  });

  describe('captcha', () => {
    async function verifier(answer: (params: URLSearchParams) => unknown) {
      const seen: URLSearchParams[] = [];
      const { url } = await listen((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const params = new URLSearchParams(body);
          seen.push(params);
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(answer(params)));
        });
      });
      return { url, seen };
    }
    const captchaEnv = (url: string) => ({
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SECRET: 'captcha-secret',
      CAPTCHA_SITE_KEY: 'site',
      CAPTCHA_VERIFY_URL: url,
    });

    it('when the verifier accepts the token, takes the application, having sent it the secret and the token', async () => {
      const v = await verifier((p) => ({ success: p.get('response') === 'good-token' }));
      const h = await harness({ env: captchaEnv(v.url) });
      assert.equal((await post(h.url, form({ ...FIELDS, captcha_token: 'good-token' }))).status, 201);
      assert.equal(v.seen[0]?.get('secret'), 'captcha-secret');
      assert.equal(v.seen[0]?.get('remoteip'), '127.0.0.1');
    });

    it('when the verifier refuses the token, answers 422 captcha_failed and sends nothing', async () => {
      const v = await verifier(() => ({ success: false, 'error-codes': ['invalid-input-response'] }));
      const h = await harness({ env: captchaEnv(v.url) });
      const answer = await post(h.url, form({ ...FIELDS, captcha_token: 'bad' }));
      assert.equal(answer.status, 422);
      assert.equal(answer.body.code, 'captcha_failed');
      assert.equal(h.calls.length, 0);
    });

    it('when the token is missing, answers 422 captcha_failed without asking the verifier', async () => {
      const v = await verifier(() => ({ success: true }));
      const h = await harness({ env: captchaEnv(v.url) });
      assert.equal((await post(h.url, form(FIELDS))).body.code, 'captcha_failed');
      assert.equal(v.seen.length, 0);
    });

    it('when the verifier cannot be reached, fails closed with 422 captcha_failed', async () => {
      const h = await harness({ env: captchaEnv('http://127.0.0.1:9/siteverify') });
      assert.equal((await post(h.url, form({ ...FIELDS, captcha_token: 'x' }))).body.code, 'captcha_failed');
    });
  });

  describe('field configuration (FORM_FIELDS)', () => {
    it('drops the value of a hidden field instead of sending it', async () => {
      const h = await harness({ env: { FORM_FIELDS: 'phone:hidden,bio_url:hidden' } });
      assert.equal(
        (
          await post(
            h.url,
            form({ ...FIELDS, phone_code: '+33', phone_number: '612345678', bio_url: 'https://x.example' }),
          )
        ).status,
        201,
      );
      const applicant = h.calls[0]?.body.applicant as Record<string, unknown>;
      assert.equal(applicant.phone_number, undefined);
      assert.equal(applicant.bio_url, undefined);
    });

    it('when the resume is optional and absent, sends the applicant without one', async () => {
      const h = await harness({ env: { FORM_FIELDS: 'resume:optional' } });
      assert.equal((await post(h.url, form(FIELDS, null))).status, 201);
      assert.equal((h.calls[0]?.body.applicant as Record<string, unknown>).resume, undefined);
    });

    it('when the phone is required and missing, answers phone_number: required', async () => {
      const h = await harness({ env: { FORM_FIELDS: 'phone:required' } });
      const answer = await post(h.url, form(FIELDS));
      assert.deepEqual(answer.body.errors, [
        { field: 'phone_number', code: 'required', message: 'This field is required.' },
      ]);
    });
  });

  describe('refusals by the service', () => {
    const refusal = () =>
      new ValidationError({
        method: 'POST',
        url: 'http://upstream/v2/jobboards/applicants',
        status: 422,
        code: 'invalid_request',
        message: 'no',
        details: [{ field: 'applicant.bio_url', message: 'is not reachable' }],
      });

    it('while the candidate waits, answers 422 with the refused field named as in the form', async () => {
      const h = await harness({ createApplicant: async () => Promise.reject(refusal()) });
      const answer = await post(h.url, form(FIELDS));
      assert.equal(answer.status, 422);
      assert.deepEqual(
        (answer.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]),
        [['bio_url', 'invalid_url']],
      );
      const row = await h.module.outbox.get(String((await h.module.outbox.list())[0]?.reference));
      assert.equal(row?.status, 'rejected');
      assert.equal(row?.resume_bytes, null, 'a refused application keeps no personal data');
    });

    it('after the candidate was told 202, dead-letters the refused application for an operator', async () => {
      const h = await harness({
        createApplicant: () => new Promise((_, reject) => setTimeout(() => reject(refusal()), 600)),
      });
      const answer = await post(h.url, form(FIELDS));
      assert.equal(answer.status, 202);
      const reference = String(answer.body.reference);
      await eventually(async () => (await h.module.outbox.get(reference))?.status === 'dead', {
        timeoutMs: 2000,
        what: 'the application to be dead',
        intervalMs: 20,
      });
      const row = await h.module.outbox.get(reference);
      assert.equal(row?.status, 'dead');
      assert.equal(row?.outcome, 'upstream_rejected');
      assert.notEqual(row?.resume_bytes, null);
    });
  });

  it("stores the application due for the delivery loop only at DELIVERY_DEADLINE_MS: the first attempt is the request's", async () => {
    const h = await harness({});
    const answer = await post(h.url, form(FIELDS));
    assert.equal(answer.status, 201);
    const row = await h.module.outbox.get(String(answer.body.reference));
    assert.equal(row?.status, 'delivered');
    assert.equal(Number(row?.next_attempt_at) - Number(row?.created_at), 300);
  });

  it('answers 400 malformed_request to a JSON body', async () => {
    const h = await harness({});
    const response = await fetch(`${h.url}/api/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
      body: '{"email":"a@b.c"}',
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { code: string }).code, 'malformed_request');
  });
});
