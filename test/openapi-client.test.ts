// A client generated from the documents works, as a board in another
// language would build one: openapi-typescript turns each server's
// /openapi.json into types, a short script on openapi-fetch is type-checked
// with them (tsc), then run against a seeded sandbox and a proxy in front of
// it: list campaigns, create an applicant, apply through the proxy.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { DEMO_KEYS } from '../server/sandbox/index.ts';
import * as files from '../server/test/files.ts';
import { fetch, startApplyWorld, uniqueEmail } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');

/** The partner's script: only the generated types and openapi-fetch, nothing of this package. */
const SCRIPT = `
import createClient from 'openapi-fetch';
import type { paths as RecruitmentApi } from './recruitment-api.ts';
import type { paths as Proxy } from './proxy.ts';

const env = process.env as Record<string, string>;

// The recruitment API (the sandbox): a token, the board's online campaigns, an applicant with an application.
const api = createClient<RecruitmentApi>({ baseUrl: env.API_URL });
const token = await api.POST('/jwt', { body: { private_key: env.PRIVATE_KEY, secret_key: env.SECRET_KEY } });
if (token.data === undefined) throw new Error(JSON.stringify(token.error));
const headers = { Authorization: 'Bearer ' + token.data.token };
const campaigns = await api.GET('/campaigns', { params: { query: { status: ['online'], per_page: 5 } }, headers });
if (campaigns.data === undefined) throw new Error(JSON.stringify(campaigns.error));
const campaign = campaigns.data[0]!;
const applicant = await api.POST('/jobboards/applicants', {
  body: { company_id: campaign.company_id, applicant: { email: env.API_EMAIL, first_name: 'Grace', is_legals_accepted_by_manager: true, applications: [{ campaign_id: campaign.id }] } },
  headers,
});
if (applicant.data === undefined) throw new Error(JSON.stringify(applicant.error));

// The proxy: its catalogue, and an application with a resume (multipart).
const proxy = createClient<Proxy>({ baseUrl: env.PROXY_URL });
const catalogue = await proxy.GET('/api/campaigns', { params: { query: { per_page: 5 } } });
if (catalogue.data === undefined) throw new Error(JSON.stringify(catalogue.error));
const offer = catalogue.data.items[0]!;
const applied = await proxy.POST('/api/applications', {
  params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
  body: {
    campaign_id: offer.id,
    email: env.PROXY_EMAIL,
    first_name: 'Ada',
    last_name: 'Lovelace',
    is_legals_accepted_by_manager: 'true',
    resume: 'resume.pdf',
  },
  bodySerializer(body) {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) if (name !== 'resume') form.append(name, String(value));
    form.append('resume', new Blob([Buffer.from(env.RESUME_BASE64, 'base64')], { type: 'application/pdf' }), body.resume);
    return form;
  },
});
if (applied.data === undefined) throw new Error(JSON.stringify(applied.error));

console.log(JSON.stringify({
  campaigns: campaigns.data.map((c) => c.status),
  pagination: campaigns.response.headers.get('X-Pagination'),
  applicant: { email: applicant.data.email, applications: applicant.data.applications.map((a) => a.campaign_id) },
  catalogue: catalogue.data.total,
  applied: { status: applied.response.status, campaign_id: applied.data.campaign_id, delivery: applied.data.status },
}));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    types: ['node'],
    skipLibCheck: true,
  },
  files: ['client.ts'],
};

let world: ApplyWorld;
let dir: string;

before(async () => {
  world = await startApplyWorld();
  dir = mkdtempSync(join(tmpdir(), 'jbc-generated-client-'));
  // The script's imports (openapi-fetch, @types/node) resolve from this checkout's node_modules.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
});

after(async () => {
  await world?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('a client generated from the OpenAPI documents', () => {
  it('type-checks against the generated types, then lists campaigns, creates an applicant and applies through the proxy', async () => {
    // Arrange: the types of each document as its server serves it.
    for (const [name, url] of [
      ['recruitment-api', `${world.sandbox.origin}/openapi.json`],
      ['proxy', `${world.proxyUrl}/api/openapi.json`],
    ] as const) {
      const document = (await (await fetch(url)).json()) as object;
      writeFileSync(join(dir, `${name}.ts`), astToString(await openapiTS(document as Parameters<typeof openapiTS>[0])));
    }
    writeFileSync(join(dir, 'client.ts'), SCRIPT);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));

    // Act: type-check, then run.
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]).catch(
      (error: { stdout: string }) => {
        throw new Error(`the generated client does not type-check:\n${error.stdout}`);
      },
    );
    const apiEmail = uniqueEmail('generated-api');
    const proxyEmail = uniqueEmail('generated-proxy');
    const { stdout } = await run(process.execPath, [join(dir, 'client.ts')], {
      cwd: dir,
      env: {
        ...process.env,
        API_URL: world.sandbox.url,
        PRIVATE_KEY: DEMO_KEYS.jobboard.private_key,
        SECRET_KEY: DEMO_KEYS.jobboard.secret_key,
        PROXY_URL: world.proxyUrl,
        API_EMAIL: apiEmail,
        PROXY_EMAIL: proxyEmail,
        RESUME_BASE64: files.pdf().toString('base64'),
      },
    });

    // Assert
    const result = JSON.parse(stdout) as {
      campaigns: string[];
      pagination: string;
      applicant: { email: string; applications: number[] };
      catalogue: number;
      applied: { status: number; campaign_id: number; delivery: string };
    };
    assert.ok(result.campaigns.length > 0 && result.campaigns.every((status) => status === 'online'), stdout);
    assert.ok(JSON.parse(result.pagination)['total-count'] >= result.campaigns.length);
    assert.equal(result.applicant.email, apiEmail);
    assert.equal(result.applicant.applications.length, 1);
    assert.ok(result.catalogue > 0);
    assert.equal(result.applied.status, 201);
    assert.equal(result.applied.delivery, 'delivered');
    assert.equal(
      world.sandbox.context.db.get<{ n: number }>('SELECT count(*) AS n FROM applicants WHERE email = ?', proxyEmail)
        ?.n,
      1,
    );
  });
});
