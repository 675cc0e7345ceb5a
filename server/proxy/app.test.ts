import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse, get as httpGet } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import express, { Router } from 'express';
import type { Response as ExpressResponse } from 'express';
import { Registry } from 'prom-client';
import { createMetricsApp, createProxyApp } from './app.ts';
import { DEFAULT_FIELD_MODES, FORM_FIELD_NAMES } from '../public-api/application-form.ts';
import { RESUME_PAGES_FIELD } from '../public-api/resume-pages.ts';
import type { AppCatalogue } from './app.ts';
import type { SyncStatus } from './catalogue/catalogue.ts';
import { toCatalogueCampaign } from './catalogue/catalogue.ts';
import { upstreamCampaign } from './catalogue/fixtures.test-support.ts';
import { STORE_FAILURE } from './catalogue/store-failures.ts';
import { openCatalogueStore } from './storage/catalogue/catalogue-sqlite.ts';
import type { ProxyConfig } from './config.ts';
import { ProblemError } from './http/problem.ts';
import { addVary, pickEncoding } from './http/http-cache.ts';
import { PINNED_WIDGET_PATH, widgetPin } from './http/widget-pin.ts';
import { captureLogs } from '../test/logs.ts';
import { eventually } from '../test/poll.ts';
import { TEST_BOARD_ORIGIN, fetch, listen, rawGet, testConfig } from './test-support.ts';

interface Harness {
  url: string;
  status: SyncStatus;
  catalogue: AppCatalogue & { synced: Date | null };
  log: ReturnType<typeof captureLogs>;
  state: { draining: boolean; outboxReady: boolean };
  registry: Registry;
  close: () => Promise<void>;
}

const tmp = mkdtempSync(join(tmpdir(), 'proxy-app-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function start(config: ProxyConfig = testConfig(), options: { demoPageDir?: string } = {}): Promise<Harness> {
  const store = openCatalogueStore(':memory:');
  const synced = new Date();
  store.replaceAll(
    [
      upstreamCampaign({ id: 1, name: 'Backend developer', description: '<p>Go &amp; SQL</p>' }),
      upstreamCampaign({
        id: 2,
        name: 'Designer',
        job_type: 'Freelance',
        last_activation_at: '2026-11-05T00:00:00.000Z',
      }),
    ].map(toCatalogueCampaign),
    synced,
  );
  const status: SyncStatus = { lastAttemptAt: synced, lastError: null, running: false, skippedIds: [] };
  const catalogue = {
    store,
    synced: synced as Date | null,
    lastSyncedAt: () => catalogue.synced,
    isStale: () => false,
    status: () => status,
  };
  const state = { draining: false, outboxReady: true };
  // Stand-in for the applications module: routes that fail in the ways the app must answer.
  const router = Router();
  router.post('/boom', () => {
    throw new Error('upstream said: {"error":"secret internals"}');
  });
  router.get('/limited', () => {
    throw new ProblemError('rate_limited', 'Try again later.', { headers: { 'Retry-After': '120' } });
  });
  router.get('/ip', (req, res) => {
    res.json({ ip: req.ip });
  });
  router.get('/log-personal-data', (req, res) => {
    req.log.info(
      { applicant: { email: 'ada@example.com', first_name: 'Ada', phone_number: '612345678' }, reference: 'app_1' },
      'application received',
    );
    res.json({ ok: true });
  });
  const registry = new Registry();
  const log = captureLogs();
  const app = createProxyApp({
    config,
    logger: log.logger,
    registry,
    catalogue,
    applications: { router, ready: () => state.outboxReady },
    demoPageDir: options.demoPageDir,
    draining: () => state.draining,
    version: '1.2.3',
  });
  const server = await listen(app);
  return {
    url: server.url,
    status,
    catalogue,
    log,
    state,
    registry,
    close: () => server.close().then(() => store.close()),
  };
}

/** The status of a GET with this Host and Origin (fetch will not let a page or a test set Host). */
function requestWithHost(url: string, host: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { Host: host, Origin: origin } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

async function problemOf(response: Response) {
  assert.equal(response.headers.get('content-type'), 'application/problem+json; charset=utf-8');
  return (await response.json()) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    errors?: { field: string; code: string }[];
  };
}

/** The CORS headers of an answer, and its Vary. */
function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries(
    [...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'),
  );
}

/** A browser's CORS preflight from `origin`, before a `method` request with `headers`. */
function preflight(url: string, origin: string, method: string, headers: string): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
  });
}

/** Every header helmet may set: the test lists the ones the proxy must send. */
const SECURITY_HEADERS = new Set([
  'content-security-policy',
  'content-security-policy-report-only',
  'cross-origin-embedder-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-powered-by',
  'x-xss-protection',
]);

describe('proxy app', () => {
  let h: Harness;
  before(async () => {
    h = await start();
  });
  after(() => h.close());

  describe('GET /api/config', () => {
    it('answers what the widget needs from the configuration', async () => {
      const response = await fetch(`${h.url}/api/config`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), {
        locales: ['fr', 'en', 'es'],
        resume: { types: ['pdf', 'jpg', 'png', 'doc', 'docx'], max_bytes: 10 * 1024 * 1024 },
        fields: { email: 'required', ...DEFAULT_FIELD_MODES },
        consent_url: null,
        captcha: null,
        track_utm: true,
        funnel: true,
        // No BOARD_OFFER_URL here: no feed to offer.
        alerts: { feed: false, email: false },
        spontaneous_applications: [],
      });
    });

    it('tells the widget which companies take spontaneous applications (SPONTANEOUS_APPLICATIONS)', async () => {
      for (const [value, expected] of [
        ['12, 34', [12, 34]],
        ['all', 'all'],
      ] as const) {
        const other = await start(testConfig({ SPONTANEOUS_APPLICATIONS: value }));
        try {
          const body = (await (await fetch(`${other.url}/api/config`)).json()) as { spontaneous_applications: unknown };
          assert.deepEqual(body.spontaneous_applications, expected, value);
        } finally {
          await other.close();
        }
      }
    });

    it('tells the widget to send no funnel beacon when FUNNEL is false', async () => {
      const other = await start(testConfig({ FUNNEL: 'false' }));
      try {
        assert.equal(((await (await fetch(`${other.url}/api/config`)).json()) as { funnel: boolean }).funnel, false);
      } finally {
        await other.close();
      }
    });

    it('with a captcha configured, gives its provider and site key but never its secret', async () => {
      const other = await start(
        testConfig({
          CAPTCHA_PROVIDER: 'turnstile',
          CAPTCHA_SECRET: 'captcha-secret-value',
          CAPTCHA_SITE_KEY: 'site-key-1',
          CONSENT_URL: 'https://board.example/privacy',
          FORM_FIELDS: 'phone:hidden',
        }),
      );
      try {
        const response = await fetch(`${other.url}/api/config`);
        const text = await response.text();
        assert.doesNotMatch(text, /captcha-secret-value/);
        const body = JSON.parse(text) as { captcha: unknown; consent_url: string; fields: { phone: string } };
        assert.deepEqual(body.captcha, { provider: 'turnstile', site_key: 'site-key-1' });
        assert.equal(body.consent_url, 'https://board.example/privacy');
        assert.equal(body.fields.phone, 'hidden');
      } finally {
        await other.close();
      }
    });
  });

  describe('GET /api/campaigns', () => {
    it('answers a page of summaries, newest first, with paging and facets', async () => {
      const response = await fetch(`${h.url}/api/campaigns`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as Record<string, unknown> & { items: Record<string, unknown>[] };
      assert.deepEqual(
        body.items.map((c) => c.id),
        [2, 1],
      );
      assert.deepEqual(Object.keys(body.items[0]!).sort(), [
        'city',
        'company_id',
        'company_name',
        'contract_duration',
        'country',
        'id',
        'job_start_date',
        'job_type',
        'name',
        'published_at',
        'salary_max',
        'salary_min',
        'updated_at',
        'working_time',
      ]);
      assert.equal(body.page, 1);
      assert.equal(body.per_page, 20);
      assert.equal(body.total, 2);
      assert.equal(body.last_page, 1);
      assert.deepEqual(body.facets, {
        job_types: ['Freelance', 'Permanent contract'],
        working_times: ['Full time'],
        cities: ['Lyon'],
        companies: [{ id: 1, name: 'Acme' }],
      });
    });

    it('filters by text and job type, ignoring empty parameters', async () => {
      const byText = (await (await fetch(`${h.url}/api/campaigns?q=sql&city=&company_id=`)).json()) as {
        items: { id: number }[];
      };
      assert.deepEqual(
        byText.items.map((c) => c.id),
        [1],
      );
      const byType = (await (await fetch(`${h.url}/api/campaigns?job_type=Freelance`)).json()) as {
        items: { id: number }[];
      };
      assert.deepEqual(
        byType.items.map((c) => c.id),
        [2],
      );
    });

    it('sends ETag and Cache-Control, and answers 304 to a matching If-None-Match', async () => {
      const first = await fetch(`${h.url}/api/campaigns?per_page=5`);
      const etag = first.headers.get('etag');
      assert.ok(etag);
      assert.equal(first.headers.get('cache-control'), 'public, max-age=60');
      const again = await fetch(`${h.url}/api/campaigns?per_page=5`, { headers: { 'If-None-Match': etag } });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), '');
      assert.equal(again.headers.get('etag'), etag);
      const otherQuery = await fetch(`${h.url}/api/campaigns?per_page=1`, { headers: { 'If-None-Match': etag } });
      assert.equal(otherQuery.status, 200);
    });

    it('compresses the page for clients that accept it, with its own ETag', async () => {
      const extra = [10, 11, 12, 13, 14, 15];
      for (const id of extra) h.catalogue.store.upsert(toCatalogueCampaign(upstreamCampaign({ id })));
      try {
        const plain = await fetch(`${h.url}/api/campaigns`, { headers: { 'Accept-Encoding': 'identity' } });
        const plainText = await plain.text();
        const br = await new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          httpGet(`${h.url}/api/campaigns`, { headers: { 'Accept-Encoding': 'br' } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          }).on('error', reject);
        });
        assert.equal(br.headers['content-encoding'], 'br');
        assert.equal(brotliDecompressSync(br.body).toString(), plainText);
        assert.notEqual(br.headers.etag, plain.headers.get('etag'));
        assert.match(String(br.headers.vary), /Accept-Encoding/);
        const revalidated = await fetch(`${h.url}/api/campaigns`, {
          headers: { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) },
        });
        assert.equal(revalidated.status, 304);
      } finally {
        for (const id of extra) h.catalogue.store.remove(id);
      }
    });

    it('answers HEAD with the headers of GET and no body', async () => {
      const get = await fetch(`${h.url}/api/campaigns?per_page=5`, { headers: { 'Accept-Encoding': 'identity' } });
      const bytes = Buffer.from(await get.arrayBuffer());
      const head = await new Promise<{ status?: number; headers: IncomingHttpHeaders; body: Buffer }>(
        (resolve, reject) => {
          httpGet(`${h.url}/api/campaigns?per_page=5`, { method: 'HEAD' }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
          }).on('error', reject);
        },
      );
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
      assert.equal(head.headers['content-length'], String(bytes.length));
      assert.equal(head.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(head.headers.etag, get.headers.get('etag'));
    });

    it('when the catalogue changes, the ETag changes', async () => {
      const before = (await fetch(`${h.url}/api/campaigns`)).headers.get('etag');
      h.catalogue.store.upsert(toCatalogueCampaign(upstreamCampaign({ id: 3, name: 'New offer' })));
      const response = await fetch(`${h.url}/api/campaigns`, { headers: { 'If-None-Match': before ?? '' } });
      assert.equal(response.status, 200);
      assert.notEqual(response.headers.get('etag'), before);
      h.catalogue.store.remove(3);
    });

    it('when per_page is over 50, answers 422 validation_failed naming per_page', async () => {
      const problem = await problemOf(await fetch(`${h.url}/api/campaigns?per_page=51`));
      assert.equal(problem.status, 422);
      assert.equal(problem.code, 'validation_failed');
      assert.deepEqual(
        problem.errors?.map((e) => [e.field, e.code]),
        [['per_page', 'invalid_value']],
      );
    });

    it('when q is longer than 200 characters, answers 422 with too_long', async () => {
      const problem = await problemOf(await fetch(`${h.url}/api/campaigns?q=${'a'.repeat(201)}`));
      assert.deepEqual(
        problem.errors?.map((e) => [e.field, e.code]),
        [['q', 'too_long']],
      );
    });

    it('when job_type is not an allowed value (case matters), answers 422', async () => {
      const problem = await problemOf(await fetch(`${h.url}/api/campaigns?job_type=freelance`));
      assert.deepEqual(
        problem.errors?.map((e) => [e.field, e.code]),
        [['job_type', 'invalid_value']],
      );
    });

    it('when a parameter is repeated, answers 422 rather than guessing', async () => {
      const problem = await problemOf(await fetch(`${h.url}/api/campaigns?q=a&q=b`));
      assert.equal(problem.code, 'validation_failed');
    });
  });

  describe('GET /api/campaigns/:id', () => {
    it('answers the summary fields with the sanitised description, profile, address and date_end', async () => {
      const response = await fetch(`${h.url}/api/campaigns/1`);
      assert.equal(response.status, 200);
      assert.ok(response.headers.get('etag'));
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.description, '<p>Go &amp; SQL</p>');
      assert.equal(body.profile, '<p>Curious.</p>');
      assert.deepEqual(body.address, upstreamCampaign().address, 'the address the service gave');
      assert.equal(body.date_end, null);
    });

    it('dates each offer with its publication, its last activation (else its creation), in the list and opened', async () => {
      const list = (await (await fetch(`${h.url}/api/campaigns`)).json()) as {
        items: { id: number; published_at: string }[];
      };
      assert.deepEqual(
        list.items.map((c) => [c.id, c.published_at]),
        [
          [2, '2026-11-05T00:00:00.000Z'],
          [1, '2026-11-02T10:00:00.000Z'],
        ],
      );
      const opened = (await (await fetch(`${h.url}/api/campaigns/2`)).json()) as { published_at: string };
      assert.equal(opened.published_at, '2026-11-05T00:00:00.000Z');
      const never = toCatalogueCampaign(upstreamCampaign({ id: 1, last_activation_at: null }));
      assert.equal(never.listed_at, upstreamCampaign().created_at, 'never activated: its creation');
    });

    it('answers the list with a trailing slash too, and a path below an offer that is not one with a JSON 404 not_found', async () => {
      assert.equal((await fetch(`${h.url}/api/campaigns/`)).status, 200);
      const problem = await problemOf(await fetch(`${h.url}/api/campaigns/1/nothing`));
      assert.equal(problem.status, 404);
      assert.equal(problem.code, 'not_found');
    });

    it('when the campaign is not in the catalogue, answers 404 campaign_not_found', async () => {
      for (const id of ['999', 'abc', '0', '1e3']) {
        const problem = await problemOf(await fetch(`${h.url}/api/campaigns/${id}`));
        assert.equal(problem.status, 404);
        assert.equal(problem.code, 'campaign_not_found');
      }
    });
  });

  describe('CORS', () => {
    it('for an allowed origin, answers with Access-Control-Allow-Origin and exposes the headers the widget reads', async () => {
      const response = await fetch(`${h.url}/api/campaigns`, { headers: { Origin: TEST_BOARD_ORIGIN } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), TEST_BOARD_ORIGIN);
      assert.match(response.headers.get('vary') ?? '', /Origin/);
      assert.match(response.headers.get('access-control-expose-headers') ?? '', /Idempotent-Replayed/);
    });

    it('for another origin, answers 403 origin_not_allowed that its page can read, without its origin, and logs the origin', async () => {
      const response = await fetch(`${h.url}/api/campaigns`, {
        headers: { Origin: 'https://evil.example', 'X-Request-Id': 'refused-origin' },
      });
      assert.equal(response.status, 403);
      assert.equal(response.headers.get('access-control-allow-origin'), 'https://evil.example');
      const problem = await problemOf(response);
      assert.equal(problem.code, 'origin_not_allowed');
      assert.match(problem.detail, /this page's origin.*ALLOWED_ORIGINS/);
      assert.equal(JSON.stringify(problem).includes('evil.example'), false, 'the answer gives no request text back');
      await eventually(
        () =>
          h.log.lines.some(
            (l) =>
              (l.req as { id?: string } | undefined)?.id === 'refused-origin' && l.origin === 'https://evil.example',
          ),
        {
          timeoutMs: 5000,
          what: 'a log line names the refused origin',
        },
      );
      const line = h.log.lines.find((l) => l.origin === 'https://evil.example')!;
      assert.equal(line.level, 40);
      assert.match(String(line.msg), /https:\/\/evil\.example.*ALLOWED_ORIGINS/);
    });

    it('names a long refused origin by its first 200 characters only in the log', async () => {
      const origin = `https://${'a'.repeat(300)}.example`;
      const shown = origin.slice(0, 200);
      const response = await fetch(`${h.url}/api/campaigns`, { headers: { Origin: origin } });
      assert.equal(response.status, 403);
      await eventually(() => h.log.lines.some((l) => l.origin === shown), {
        timeoutMs: 5000,
        what: 'a log line names the cut origin',
      });
      assert.equal(
        h.log.lines.some((l) => String(l.msg).includes(origin)),
        false,
        'no line holds the whole origin',
      );
    });

    it('refuses origins that merely resemble the allowed one: another host ending or starting like it, another scheme, an explicit port', async () => {
      assert.equal(TEST_BOARD_ORIGIN, 'https://board.example');
      for (const origin of [
        'https://board.example.evil.com',
        'https://board.example.evil.com:443',
        'https://evil-board.example',
        'https://evilboard.example',
        'http://board.example',
        'https://board.example:8443',
        'https://sub.board.example',
        'https://board.exampl',
      ]) {
        const response = await fetch(`${h.url}/api/campaigns`, { headers: { Origin: origin } });
        assert.equal(response.status, 403, origin);
        assert.equal((await problemOf(response)).code, 'origin_not_allowed', origin);
      }
    });

    it('refuses another origin on POST /api/applications too, before the form is read', async () => {
      const response = await fetch(`${h.url}/api/applications/boom`, { method: 'POST', headers: { Origin: 'null' } });
      assert.equal(response.status, 403);
      assert.equal((await problemOf(response)).code, 'origin_not_allowed');
    });

    it('gives a refused origin the refusal alone on every route: config, catalogue, offer, JobPosting, applications', async () => {
      const requests: [string, RequestInit][] = [
        ['/api/config', {}],
        ['/api/campaigns', {}],
        ['/api/campaigns/1', {}],
        ['/api/campaigns/1/jobposting', {}],
        ['/api/applications/ip', {}],
        ['/api/applications', { method: 'POST', body: new FormData() }],
        ['/api/applications/boom', { method: 'POST' }],
      ];
      for (const [path, init] of requests) {
        const response = await fetch(`${h.url}${path}`, { ...init, headers: { Origin: 'https://evil.example' } });
        assert.equal(response.status, 403, path);
        assert.equal(response.headers.get('access-control-allow-origin'), 'https://evil.example', path);
        assert.equal(response.headers.get('cache-control'), 'no-store', path);
        const body = await problemOf(response);
        assert.deepEqual(Object.keys(body).sort(), ['code', 'detail', 'status', 'title', 'type'], path);
        assert.equal(body.code, 'origin_not_allowed', path);
      }
    });

    it('answers the preflight of an allowed origin, allowing Idempotency-Key', async () => {
      const response = await preflight(`${h.url}/api/applications`, TEST_BOARD_ORIGIN, 'POST', 'idempotency-key');
      assert.equal(response.status, 204);
      assert.equal(response.headers.get('access-control-allow-origin'), TEST_BOARD_ORIGIN);
      assert.match(response.headers.get('access-control-allow-headers') ?? '', /Idempotency-Key/);
      assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/);
    });

    it('answers the preflight of another origin as an allowed one, so that the browser sends the request and reads its refusal', async () => {
      const response = await preflight(`${h.url}/api/applications`, 'https://evil.example', 'POST', 'idempotency-key');
      assert.equal(response.status, 204);
      assert.equal(await response.text(), '');
      assert.equal(response.headers.get('access-control-allow-origin'), 'https://evil.example');
      assert.match(response.headers.get('access-control-allow-headers') ?? '', /Idempotency-Key/);
    });

    it('on the catalogue, answers exactly these CORS headers: Allow-Origin for an allowed origin only, Vary: Origin and the exposed headers for every caller', async () => {
      const allowed = await fetch(`${h.url}/api/campaigns`, { headers: { Origin: TEST_BOARD_ORIGIN } });
      assert.deepEqual(corsHeaders(allowed), {
        'access-control-allow-origin': TEST_BOARD_ORIGIN,
        'access-control-expose-headers': 'ETag,Idempotent-Replayed,Retry-After,X-Request-Id',
        vary: 'Origin, Accept-Encoding',
      });
      const without = await fetch(`${h.url}/api/campaigns`);
      assert.deepEqual(corsHeaders(without), {
        'access-control-expose-headers': 'ETag,Idempotent-Replayed,Retry-After,X-Request-Id',
        vary: 'Origin, Accept-Encoding',
      });
    });

    it('answers a preflight with 204, an empty body and exactly the allowed methods, request headers and max age', async () => {
      const response = await preflight(`${h.url}/api/campaigns`, TEST_BOARD_ORIGIN, 'GET', 'if-none-match');
      assert.equal(response.status, 204);
      assert.equal(response.headers.get('content-length'), '0');
      assert.equal(await response.text(), '');
      assert.deepEqual(corsHeaders(response), {
        'access-control-allow-origin': TEST_BOARD_ORIGIN,
        'access-control-allow-methods': 'GET,HEAD,POST',
        'access-control-allow-headers': 'Content-Type,Idempotency-Key,If-None-Match,X-Request-Id',
        'access-control-max-age': '600',
        'access-control-expose-headers': 'ETag,Idempotent-Replayed,Retry-After,X-Request-Id',
        vary: 'Origin',
      });
    });

    it('answers a refused origin with exactly these CORS headers: its Allow-Origin, Vary: Origin and the exposed headers', async () => {
      const response = await fetch(`${h.url}/api/campaigns`, { headers: { Origin: 'https://evil.example' } });
      assert.equal(response.status, 403);
      assert.deepEqual(corsHeaders(response), {
        'access-control-allow-origin': 'https://evil.example',
        'access-control-expose-headers': 'ETag,Idempotent-Replayed,Retry-After,X-Request-Id',
        vary: 'Origin',
      });
    });

    it("accepts requests without Origin, and the proxy's own origin only when PUBLIC_ORIGIN names it, whatever the Host header says", async () => {
      const none = await fetch(`${h.url}/api/campaigns`);
      assert.equal(none.status, 200);
      // The Host header is the sender's choice: a page on any origin could claim to be the proxy.
      const claimed = await fetch(`${h.url}/api/campaigns`, { headers: { Origin: h.url } });
      assert.equal(claimed.status, 403);
      const forged = await requestWithHost(`${h.url}/api/campaigns`, 'evil.example', 'http://evil.example');
      assert.equal(forged, 403);

      const own = await start(testConfig({ PUBLIC_ORIGIN: 'https://jobs.acme.example' }));
      try {
        assert.equal(
          (await fetch(`${own.url}/api/campaigns`, { headers: { Origin: 'https://jobs.acme.example' } })).status,
          200,
        );
        assert.equal((await fetch(`${own.url}/api/campaigns`, { headers: { Origin: own.url } })).status, 403);
      } finally {
        await own.close();
      }
    });
  });

  describe('security headers and errors', () => {
    it('sends helmet headers and no X-Powered-By', async () => {
      const response = await fetch(`${h.url}/api/config`);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      assert.ok(response.headers.get('strict-transport-security'));
      assert.equal(response.headers.get('x-powered-by'), null);
    });

    it('sends exactly these security headers on the catalogue, as helmet sets them', async () => {
      const response = await fetch(`${h.url}/api/campaigns`);
      const security = Object.fromEntries([...response.headers].filter(([name]) => SECURITY_HEADERS.has(name)));
      assert.deepEqual(security, {
        'content-security-policy':
          "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      assert.equal(response.headers.get('x-powered-by'), null);
    });

    it('answers an unknown path with a JSON 404 not_found', async () => {
      const problem = await problemOf(await fetch(`${h.url}/api/nothing-here`));
      assert.equal(problem.status, 404);
      assert.equal(problem.code, 'not_found');
    });

    it('answers an unexpected error with 500 internal_error and no detail of it, and logs it', async () => {
      const response = await fetch(`${h.url}/api/applications/boom`, { method: 'POST' });
      assert.equal(response.status, 500);
      const text = await response.text();
      assert.doesNotMatch(text, /secret internals|upstream said|stack|at /);
      assert.equal((JSON.parse(text) as { code: string }).code, 'internal_error');
      // The request's log line is written when the answer finishes, just after the client has it.
      await eventually(
        () => h.log.lines.some((l) => l.level === 50 && JSON.stringify(l).includes('secret internals')),
        { timeoutMs: 5000, what: 'the error is in the log, for the operator' },
      );
    });

    it("answers a handler's ProblemError with its status, body and headers", async () => {
      const response = await fetch(`${h.url}/api/applications/limited`);
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '120');
      const problem = await problemOf(response);
      assert.deepEqual(problem, {
        type: 'https://jobboard-connector.dev/problems/rate_limited',
        title: 'Too many requests',
        status: 429,
        detail: 'Try again later.',
        code: 'rate_limited',
      });
    });

    it('answers malformed JSON with 400 malformed_request', async () => {
      const response = await fetch(`${h.url}/api/config`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"a":',
      });
      const problem = await problemOf(response);
      assert.equal(problem.status, 400);
      assert.equal(problem.code, 'malformed_request');
    });

    it('answers a JSON body over the limit with 413 request_too_large', async () => {
      const response = await fetch(`${h.url}/api/config`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ a: 'x'.repeat(20_000) }),
      });
      const problem = await problemOf(response);
      assert.equal(problem.status, 413);
      assert.equal(problem.code, 'request_too_large');
    });

    it('never sends the upstream keys in any answer', async () => {
      const paths = [
        '/api/config',
        '/api/campaigns',
        '/api/campaigns/1',
        '/api/openapi.json',
        '/readyz',
        '/metrics',
        '/nothing',
      ];
      for (const path of paths) {
        const text = await (await fetch(`${h.url}${path}`)).text();
        assert.doesNotMatch(text, /test-secret-key-never-shown|test-private-key/, path);
      }
    });
  });

  describe('request ids and logs', () => {
    it('gives every answer an X-Request-Id, keeping a well-formed one the caller sent', async () => {
      const generated = (await fetch(`${h.url}/healthz`)).headers.get('x-request-id');
      assert.match(generated ?? '', /^[0-9a-f-]{36}$/);
      const kept = (await fetch(`${h.url}/healthz`, { headers: { 'X-Request-Id': 'lb-trace.42' } })).headers.get(
        'x-request-id',
      );
      assert.equal(kept, 'lb-trace.42');
      const replaced = (
        await fetch(`${h.url}/healthz`, { headers: { 'X-Request-Id': 'bad id <script>' } })
      ).headers.get('x-request-id');
      assert.match(replaced ?? '', /^[0-9a-f-]{36}$/);
    });

    it('logs method, path, status and request id, without query string or headers', async () => {
      await fetch(`${h.url}/api/campaigns?q=ada.lovelace@example.com`, {
        headers: { Authorization: 'Bearer secret-token', 'X-Request-Id': 'trace-q' },
      });
      await eventually(() => h.log.lines.some((l) => (l.req as { id?: string } | undefined)?.id === 'trace-q'), {
        timeoutMs: 5000,
        what: 'the request is logged',
      });
      const line = h.log.lines.find((l) => (l.req as { id?: string } | undefined)?.id === 'trace-q');
      assert.ok(line);
      assert.deepEqual(line.req, { id: 'trace-q', method: 'GET', path: '/api/campaigns' });
      assert.deepEqual(line.res, { status: 200 });
      assert.doesNotMatch(h.log.text(), /ada\.lovelace|secret-token/);
    });

    it("tags a line a module logs through req.log with that request's id, each request its own", async () => {
      await fetch(`${h.url}/api/applications/log-personal-data`, { headers: { 'X-Request-Id': 'module-line-a' } });
      await fetch(`${h.url}/api/applications/log-personal-data`, { headers: { 'X-Request-Id': 'module-line-b' } });
      await eventually(() => h.log.lines.filter((l) => l.msg === 'application received').length >= 2, {
        timeoutMs: 5000,
        what: 'both module lines are written',
      });
      const ids = h.log.lines
        .filter((l) => l.msg === 'application received')
        .map((l) => (l.req as { id?: string } | undefined)?.id);
      assert.ok(ids.includes('module-line-a') && ids.includes('module-line-b'), `module lines carry ${ids.join(', ')}`);
    });

    it("redacts email, names and phone when a module logs an applicant's fields", async () => {
      await fetch(`${h.url}/api/applications/log-personal-data`);
      const line = h.log.lines.find((l) => l.msg === 'application received');
      assert.deepEqual(line?.applicant, { email: '[redacted]', first_name: '[redacted]', phone_number: '[redacted]' });
      assert.equal(line?.reference, 'app_1');
      assert.doesNotMatch(h.log.text(), /ada@example\.com|612345678/);
    });
  });

  describe('health, readiness and metrics', () => {
    it('GET /healthz answers ok', async () => {
      const response = await fetch(`${h.url}/healthz`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { status: 'ok' });
    });

    it('GET /readyz answers ready once the catalogue is synced and the outbox open', async () => {
      const response = await fetch(`${h.url}/readyz`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as { status: string; checks: Record<string, { status: string }> };
      assert.equal(body.status, 'ready');
      assert.equal(body.checks.catalogue?.status, 'ok');
      assert.equal(body.checks.upstream?.status, 'ok');
      assert.equal(body.checks.outbox?.status, 'ok');
    });

    it('GET /readyz answers 503 before the first catalogue sync', async () => {
      const saved = h.catalogue.synced;
      h.catalogue.synced = null;
      try {
        const response = await fetch(`${h.url}/readyz`);
        assert.equal(response.status, 503);
        const body = (await response.json()) as { status: string; checks: Record<string, { status: string }> };
        assert.equal(body.status, 'not_ready');
        assert.equal(body.checks.catalogue?.status, 'never_synced');
      } finally {
        h.catalogue.synced = saved;
      }
    });

    it('GET /readyz answers 503 when upstream refuses the credentials', async () => {
      h.status.lastError = { at: new Date(), name: 'AuthenticationError', status: 401, code: 'invalid_credentials' };
      try {
        const response = await fetch(`${h.url}/readyz`);
        assert.equal(response.status, 503);
        assert.equal(
          ((await response.json()) as { checks: { upstream: { status: string } } }).checks.upstream.status,
          'credentials_refused',
        );
      } finally {
        h.status.lastError = null;
      }
    });

    it('GET /readyz stays ready while upstream is unreachable (the outbox takes applications), and says so', async () => {
      const at = new Date('2026-11-22T07:00:00.000Z');
      h.status.lastError = { at, name: 'ConnectionError', status: undefined, code: 'connection_failed' };
      try {
        const response = await fetch(`${h.url}/readyz`);
        assert.equal(response.status, 200);
        const { upstream } = ((await response.json()) as { checks: { upstream: Record<string, unknown> } }).checks;
        assert.deepEqual(
          { ...upstream, checked_at: typeof upstream.checked_at },
          {
            status: 'unreachable',
            checked_by: 'catalogue_sync',
            checked_at: 'string',
            affects_readiness: false,
            since: at.toISOString(),
            error: 'connection_failed',
          },
        );
      } finally {
        h.status.lastError = null;
      }
    });

    it("GET /readyz names the catalogue's store when the last sync failed there, and does not blame the service", async () => {
      const at = new Date('2026-11-22T08:00:00.000Z');
      h.status.lastError = { at, name: STORE_FAILURE, status: undefined, code: 'store_failed' };
      try {
        const response = await fetch(`${h.url}/readyz`);
        assert.equal(response.status, 200);
        const { checks } = (await response.json()) as { checks: Record<string, Record<string, unknown>> };
        assert.deepEqual(checks.catalogue_store, { status: 'failing', since: at.toISOString(), error: 'store_failed' });
        assert.equal(checks.upstream?.status, 'unknown');
        assert.equal(checks.upstream?.error, undefined);
      } finally {
        h.status.lastError = null;
      }
    });

    it('GET /readyz tells a rate-limiting or 5xx upstream apart from refused keys, and stays ready', async () => {
      const cases = [
        { error: { name: 'RateLimitError', status: 403, code: 'rate_limited' }, expected: 'rate_limited' },
        { error: { name: 'ServerError', status: 503, code: 'service_unavailable' }, expected: 'unreachable' },
        { error: { name: 'SchemaError', status: 200, code: 'schema_mismatch' }, expected: 'contract_error' },
      ];
      try {
        for (const { error, expected } of cases) {
          h.status.lastError = { at: new Date(), ...error };
          const response = await fetch(`${h.url}/readyz`);
          assert.equal(response.status, 200, expected);
          const { upstream } = ((await response.json()) as { checks: { upstream: Record<string, unknown> } }).checks;
          assert.equal(upstream.status, expected);
          assert.equal(upstream.http_status, error.status);
        }
      } finally {
        h.status.lastError = null;
      }
    });

    it('GET /readyz answers 503 while shutting down and when the outbox is not open', async () => {
      h.state.draining = true;
      const draining = await fetch(`${h.url}/readyz`);
      assert.equal(draining.status, 503);
      assert.equal(draining.headers.get('connection'), 'close');
      h.state.draining = false;
      h.state.outboxReady = false;
      const closed = await fetch(`${h.url}/readyz`);
      assert.equal(closed.status, 503);
      h.state.outboxReady = true;
    });

    it('GET /metrics, on its own listener, counts requests by route pattern and status', async () => {
      await fetch(`${h.url}/api/campaigns/1`);
      await fetch(`${h.url}/api/campaigns/2`);
      await fetch(`${h.url}/api/campaigns?page=1`);
      await fetch(`${h.url}/api/campaigns/1/nothing`);
      const metrics = await listen(createMetricsApp(h.registry));
      const response = await fetch(`${metrics.url}/metrics`);
      await metrics.close();
      assert.match(response.headers.get('content-type') ?? '', /text\/plain/);
      const text = await response.text();
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_requests_total{') &&
            l.includes('route="/api/campaigns/:id"') &&
            l.includes('status="200"'),
        );
      assert.ok(line, 'one series for every campaign id');
      assert.ok(Number(line.split(' ').at(-1)) >= 2);
      assert.match(text, /http_request_duration_seconds_bucket\{/);
      assert.doesNotMatch(text, /route="\/api\/campaigns\/1"/);
      assert.match(text, /http_requests_total\{method="GET",route="\/api\/campaigns",status="200"\}/);
      assert.match(text, /http_requests_total\{method="GET",route="unmatched",status="404"\}/);
    });
  });

  describe('the public listener', () => {
    it('answers 404 for /metrics in any spelling: the metrics are on METRICS_PORT', async () => {
      for (const path of ['/metrics', '/metrics/', '/METRICS', '/Metrics?x=1', '/metrics/../metrics']) {
        const response = await fetch(`${h.url}${path}`);
        assert.equal(response.status, 404, path);
        assert.doesNotMatch(await response.text(), /http_requests_total/, path);
      }
    });
  });

  describe('GET /api/openapi.json', () => {
    it('is an OpenAPI 3.1 document of every public route, whose references all resolve', async () => {
      const response = await fetch(`${h.url}/api/openapi.json`);
      assert.equal(response.status, 200);
      const doc = (await response.json()) as {
        openapi: string;
        info: { version: string };
        paths: Record<string, unknown>;
        components: { schemas: Record<string, unknown> };
      };
      assert.equal(doc.openapi, '3.1.0');
      assert.equal(doc.info.version, '1.2.3');
      for (const path of [
        '/api/config',
        '/api/campaigns',
        '/api/campaigns/{id}',
        '/api/campaigns/{id}/jobposting',
        '/api/applications',
        '/sitemap.xml',
        '/embed/campaigns',
        '/healthz',
        '/readyz',
        '/widget.js',
      ]) {
        assert.ok(path in doc.paths, path);
      }
      const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(refs.length > 5);
      for (const name of refs) assert.ok(name in doc.components.schemas, name);
    });

    it('may be read from any origin', async () => {
      const response = await fetch(`${h.url}/api/openapi.json`, {
        headers: { Origin: 'https://api-explorer.example' },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
    });

    it('generates the schemas from the zod ones: allowed values and limits included', async () => {
      const doc = (await (await fetch(`${h.url}/api/openapi.json`)).json()) as {
        paths: {
          '/api/campaigns': { get: { parameters: { name: string; schema: { maximum?: number; enum?: string[] } }[] } };
        };
        components: { schemas: { CampaignList: { properties: Record<string, unknown> } } };
      };
      const params = doc.paths['/api/campaigns'].get.parameters;
      assert.equal(params.find((p) => p.name === 'per_page')?.schema.maximum, 50);
      assert.ok(params.find((p) => p.name === 'job_type')?.schema.enum?.includes('Permanent contract'));
      assert.deepEqual(Object.keys(doc.components.schemas.CampaignList.properties).sort(), [
        'facets',
        'items',
        'last_page',
        'page',
        'per_page',
        'total',
      ]);
    });

    it('documents exactly the form fields the applications module reads, plus the resume file and its pages', async () => {
      const doc = (await (await fetch(`${h.url}/api/openapi.json`)).json()) as {
        components: { schemas: { ApplicationForm: { properties: Record<string, unknown> } } };
      };
      assert.deepEqual(
        Object.keys(doc.components.schemas.ApplicationForm.properties).sort(),
        [...FORM_FIELD_NAMES, 'resume', RESUME_PAGES_FIELD].sort(),
      );
    });
  });
});

describe('TRUST_PROXY', () => {
  /** The client address a route sees for a request carrying this X-Forwarded-For, on a proxy started with `config`. */
  async function addressSeen(config: ProxyConfig, forwardedFor: string): Promise<string> {
    const h = await start(config);
    try {
      const response = await fetch(`${h.url}/api/applications/ip`, { headers: { 'X-Forwarded-For': forwardedFor } });
      return ((await response.json()) as { ip: string }).ip;
    } finally {
      await h.close();
    }
  }

  it('by default, ignores X-Forwarded-For: a client cannot choose the address the per-IP limit sees', async () => {
    assert.equal(await addressSeen(testConfig(), '203.0.113.7'), '127.0.0.1');
  });

  it('with TRUST_PROXY=1, takes the client address the reverse proxy put in X-Forwarded-For', async () => {
    assert.equal(await addressSeen(testConfig({ TRUST_PROXY: '1' }), '198.51.100.1, 203.0.113.7'), '203.0.113.7');
  });
});

describe('GET /widget.js', () => {
  /** Raw bytes and headers (fetch would decompress). */
  const get = rawGet;

  const source = `export const widget = ${JSON.stringify('x'.repeat(5000))};\n`;

  /** Runs `check` on a proxy whose built widget is `file` (in tmp, named `name`), written with `contents` first. */
  async function withWidget(
    name: string,
    contents: string,
    check: (h: Harness, file: string) => Promise<void>,
  ): Promise<void> {
    const file = join(tmp, name);
    writeFileSync(file, contents);
    const h = await start(testConfig({ WIDGET_FILE: file }));
    try {
      await check(h, file);
    } finally {
      await h.close();
    }
  }

  it("serves the apply form's and the language modules beside it, cached for good, and 404 for a module that is not there", async () => {
    const dir = join(tmp, 'with-modules');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'widget.js'), source);
    const modules = {
      'widget-fr-Ab3_-xYz.js': 'export const templates = {};\n',
      'widget-apply-Cd4_-wXy.js': 'export class JobboardApply {}\n',
    };
    for (const [name, module] of Object.entries(modules)) writeFileSync(join(dir, name), module);
    const h = await start(testConfig({ WIDGET_FILE: join(dir, 'widget.js') }));
    try {
      for (let i = 0; i < 2; i += 1) {
        for (const [name, module] of Object.entries(modules)) {
          const served = await get(`${h.url}/${name}`, { 'Accept-Encoding': 'identity' });
          assert.equal(served.status, 200, name);
          assert.equal(served.body.toString(), module);
          assert.equal(served.headers['content-type'], 'text/javascript; charset=utf-8');
          assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
          assert.equal(served.headers['access-control-allow-origin'], '*');
          assert.equal(served.headers['cross-origin-resource-policy'], 'cross-origin');
        }
      }
      for (const path of [
        '/widget-es-Ab3_-xYz.js',
        '/widget-fr-../../x.js',
        '/widget-fr-Ab3_-xYz.json',
        '/widget-other-Cd4_-wXy.js',
      ]) {
        assert.equal((await get(`${h.url}${path}`, {})).status, 404, path);
      }
    } finally {
      await h.close();
    }
  });

  it('serves the built bundle as JavaScript any page may load, compressed as the browser accepts, with cache validators', async () => {
    await withWidget('widget.js', source, async (h) => {
      const br = await get(`${h.url}/widget.js`, {
        'Accept-Encoding': 'gzip, deflate, br',
        Origin: 'https://any-board.example',
      });
      assert.equal(br.status, 200);
      assert.equal(br.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(br.body).toString(), source);
      assert.ok(br.body.length < source.length / 10);
      assert.equal(br.headers['cache-control'], 'public, max-age=300');
      assert.equal(br.headers['access-control-allow-origin'], '*');
      assert.equal(br.headers['cross-origin-resource-policy'], 'cross-origin');
      assert.match(String(br.headers.vary), /Accept-Encoding/);

      const gz = await get(`${h.url}/widget.js`, { 'Accept-Encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.equal(gunzipSync(gz.body).toString(), source);

      const plain = await get(`${h.url}/widget.js`, { 'Accept-Encoding': 'identity' });
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.body.toString(), source);
      assert.notEqual(plain.headers.etag, br.headers.etag, 'one ETag per encoding');

      const again = await get(`${h.url}/widget.js`, {
        'Accept-Encoding': 'br',
        'If-None-Match': String(br.headers.etag),
      });
      assert.equal(again.status, 304);
      assert.equal(again.body.length, 0);
    });
  });

  it('when the bundle is rebuilt, serves the new one without a restart', async () => {
    await withWidget('widget-rebuilt.js', 'export const v = 1;\n', async (h, file) => {
      const first = await get(`${h.url}/widget.js`, {});
      writeFileSync(file, 'export const v = 2; // rebuilt\n');
      const second = await get(`${h.url}/widget.js`, {});
      assert.equal(second.body.toString(), 'export const v = 2; // rebuilt\n');
      assert.notEqual(second.headers.etag, first.headers.etag);
    });
  });

  it('when the widget is not built, answers 404 not_found saying how to build it', async () => {
    const h = await start(testConfig({ WIDGET_FILE: join(tmp, 'missing.js') }));
    try {
      const response = await fetch(`${h.url}/widget.js`);
      const problem = await problemOf(response);
      assert.equal(problem.status, 404);
      assert.equal(problem.code, 'not_found');
      assert.match(problem.detail, /npm run build/);
    } finally {
      await h.close();
    }
  });

  it('serves it under its hash too, cached for good, with the integrity widget-tag prints; another hash answers 404, and a rebuild changes the name', async () => {
    await withWidget('widget-pinned.js', source, async (h, file) => {
      const pin = widgetPin(Buffer.from(source));
      assert.match(`/${pin.name}`, PINNED_WIDGET_PATH);
      const pinned = await get(`${h.url}/${pin.name}`, {
        'Accept-Encoding': 'identity',
        Origin: 'https://any-board.example',
      });
      assert.equal(pinned.status, 200);
      assert.equal(pinned.body.toString(), source);
      assert.equal(pinned.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(pinned.headers['access-control-allow-origin'], '*', 'a script with integrity is fetched with CORS');
      assert.equal(`sha384-${createHash('sha384').update(pinned.body).digest('base64')}`, pin.integrity);
      const gz = await get(`${h.url}/${pin.name}`, { 'Accept-Encoding': 'gzip' });
      assert.equal(gunzipSync(gz.body).toString(), source);

      const unknown = await fetch(`${h.url}/widget-0123456789abcdef.js`);
      assert.equal(unknown.status, 404);
      assert.match((await problemOf(unknown)).detail, /widget-tag/);

      writeFileSync(file, `${source}// rebuilt\n`);
      assert.equal(
        (await get(`${h.url}/${pin.name}`, {})).status,
        404,
        'the old hash no longer names the bytes served',
      );
      assert.equal((await get(`${h.url}/${widgetPin(Buffer.from(`${source}// rebuilt\n`)).name}`, {})).status, 200);
    });
  });
});

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    assert.equal(pickEncoding('gzip, deflate, br'), 'br');
    assert.equal(pickEncoding('gzip, br;q=0'), 'gzip');
    assert.equal(pickEncoding('*'), 'br');
    assert.equal(pickEncoding(undefined), 'identity');
    assert.equal(pickEncoding('deflate'), 'identity');
  });
});

describe('addVary', () => {
  /** The Vary header an Express response ends with after these calls, from `initial`. */
  function varyAfter(initial: string | undefined, fields: string[]): unknown {
    const res = Object.setPrototypeOf(
      new ServerResponse(new IncomingMessage(new Socket())),
      express.response,
    ) as ExpressResponse;
    if (initial !== undefined) res.setHeader('Vary', initial);
    for (const field of fields) addVary(res, field);
    return res.getHeader('Vary');
  }

  it('gives the header res.vary() gives, the first time and every time after', () => {
    for (let round = 0; round < 2; round++) {
      assert.equal(varyAfter(undefined, ['Origin', 'Accept-Encoding']), 'Origin, Accept-Encoding');
      assert.equal(varyAfter(undefined, ['Origin', 'Origin']), 'Origin');
      assert.equal(varyAfter('Cookie', ['Accept-Encoding']), 'Cookie, Accept-Encoding');
      assert.equal(varyAfter('*', ['Origin']), '*');
    }
  });
});

describe('demo page', () => {
  it('serves demoPageDir at /, after the API routes', async () => {
    const dir = mkdtempSync(join(tmp, 'demo-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Demo board</title>');
    const h = await start(testConfig(), { demoPageDir: dir });
    try {
      const page = await fetch(`${h.url}/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Demo board/);
      // Its inline analytics script runs; the API keeps helmet's strict policy.
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self' 'unsafe-inline'/);
      assert.doesNotMatch(
        (await fetch(`${h.url}/api/config`)).headers.get('content-security-policy') ?? '',
        /unsafe-inline'[^;]*;?\s*$|script-src 'self' 'unsafe-inline'/,
      );
      assert.equal((await fetch(`${h.url}/api/campaigns`)).status, 200);
    } finally {
      await h.close();
    }
  });
});
