// No answer of the proxy or the sandbox gives the request's own text back: a
// problem names the parameter and what is wrong, never the value (a board
// that put a problem into its page would otherwise run whatever a link
// carried). One table: every parameter of the main routes of both servers
// gets a hostile value holding a unique marker, and no problem answer may
// hold the marker; an answer that succeeds may show the value, escaped
// (a search box holding the search), never as markup.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { DEMO_KEYS } from '../server/sandbox/index.ts';
import { ListApplicantsQuery, ListApplicationsQuery, ListCampaignsQuery } from '../server/contract/index.ts';
import { EmbedQuery } from '../server/public-api/schemas.ts';
import { FORM_FIELD_NAMES } from '../server/public-api/application-form.ts';
import { BOARD_ORIGIN, formOf, startApplyWorld, uniqueEmail, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';

const MARKER = 'zq7hostile';
const HOSTILE = `<img src=x onerror=alert(1)>${MARKER}`;
/** The hostile markup as it would appear unescaped. */
const MARKUP = '<img src=x onerror';

interface Answer {
  status: number;
  body: string;
}

interface Case {
  name: string;
  /** Whether the request must be refused (a problem), rather than maybe served. */
  refused: boolean;
  /** The credentials are what is refused (401): every other case is answered past them. */
  credentials?: true;
  send(): Promise<Answer>;
}

async function answer(response: Response): Promise<Answer> {
  return { status: response.status, body: await response.text() };
}

/** A request with a Host header of its own (fetch does not let a caller choose it). */
function withHost(url: string, host: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

const query = (name: string, value = HOSTILE): string => new URLSearchParams({ [name]: value }).toString();

function proxyCases(w: ApplyWorld): Case[] {
  const get =
    (path: string, headers: Record<string, string> = {}) =>
    () =>
      fetch(`${w.proxyUrl}${path}`, { headers }).then(answer);
  const listParams = Object.keys(EmbedQuery.shape);
  const campaignId = w.openCampaignIds[0]!;
  const post =
    (fields: Record<string, string>, headers: Record<string, string> = {}, form = formOf({ fields })) =>
    () =>
      fetch(`${w.proxyUrl}/api/applications`, {
        method: 'POST',
        headers: { origin: BOARD_ORIGIN, 'idempotency-key': crypto.randomUUID(), ...headers },
        body: form,
      }).then(answer);
  const hostileFile = formOf({ fields: validFields(campaignId) });
  hostileFile.append(HOSTILE, new Blob(['x']), 'x.pdf');
  const twice = formOf({ fields: validFields(campaignId) });
  twice.append('first_name', HOSTILE);
  return [
    ...listParams.map((name) => ({
      name: `GET /api/campaigns?${name}=…`,
      refused: false,
      send: get(`/api/campaigns?${query(name)}`),
    })),
    {
      name: 'GET /api/campaigns?near=… (a city of no offer)',
      refused: true,
      send: get(`/api/campaigns?${query('near')}`),
    },
    ...listParams.map((name) => ({
      name: `GET /embed/campaigns?${name}=…`,
      refused: false,
      send: get(`/embed/campaigns?${query(name)}`),
    })),
    { name: 'GET /embed/campaigns?near=…', refused: true, send: get(`/embed/campaigns?${query('near')}`) },
    {
      name: 'GET /embed/campaigns?offer_param=…',
      refused: true,
      send: get(`/embed/campaigns?${query('offer_param', `${MARKER}<b>`)}`),
    },
    { name: 'GET /embed/campaigns/head?offer=…', refused: true, send: get(`/embed/campaigns/head?${query('offer')}`) },
    ...listParams.map((name) => ({
      name: `GET /feeds/offers.atom?${name}=…`,
      refused: false,
      send: get(`/feeds/offers.atom?${query(name)}`),
    })),
    { name: 'GET /sitemap.xml?page=…', refused: true, send: get(`/sitemap.xml?${query('page')}`) },
    {
      name: 'GET /api/campaigns/… (the id)',
      refused: true,
      send: get(`/api/campaigns/${encodeURIComponent(HOSTILE)}`),
    },
    {
      name: 'GET /api/campaigns/…/jobposting (the id)',
      refused: true,
      send: get(`/api/campaigns/${encodeURIComponent(HOSTILE)}/jobposting`),
    },
    {
      name: 'GET /applications/receipt/… (the token)',
      refused: true,
      send: get(`/applications/receipt/${encodeURIComponent(HOSTILE)}`),
    },
    { name: 'GET /… (a path it does not serve)', refused: true, send: get(`/${encodeURIComponent(HOSTILE)}`) },
    {
      name: 'DELETE /api/campaigns?… (a method it does not have)',
      refused: true,
      send: () => fetch(`${w.proxyUrl}/api/campaigns?${query('q')}`, { method: 'DELETE' }).then(answer),
    },
    {
      name: 'GET /api/campaigns with Origin: …',
      refused: true,
      send: get('/api/campaigns', { origin: `https://${MARKER}.example` }),
    },
    ...FORM_FIELD_NAMES.map((name) => ({
      name: `POST /api/applications, ${name}=…`,
      refused:
        name !== 'website' &&
        !name.startsWith('utm_') &&
        !['first_name', 'last_name', 'cover_letter', 'captcha_token'].includes(name),
      send: post({ ...validFields(campaignId), [name]: HOSTILE }),
    })),
    {
      name: 'POST /api/applications, an email holding the marker, twice',
      refused: true,
      send: async () => {
        const fields = { ...validFields(campaignId), email: `${MARKER}.${uniqueEmail()}` };
        await post(fields)();
        return post(fields)();
      },
    },
    {
      name: 'POST /api/applications, Idempotency-Key: …',
      refused: true,
      send: post(validFields(campaignId), { 'idempotency-key': `${MARKER}${'x'.repeat(300)}` }),
    },
    { name: 'POST /api/applications, a file under another name', refused: true, send: post({}, {}, hostileFile) },
    { name: 'POST /api/applications, a field sent twice', refused: true, send: post({}, {}, twice) },
  ];
}

function sandboxCases(w: ApplyWorld, tokens: { board: string; company: string }): Case[] {
  const { url, origin } = w.sandbox;
  const api =
    (path: string, init: { method?: string; token?: string; body?: string; headers?: Record<string, string> } = {}) =>
    () =>
      fetch(`${url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          authorization: `Bearer ${init.token ?? tokens.company}`,
          'content-type': 'application/json',
          ...init.headers,
        },
        ...(init.body === undefined ? {} : { body: init.body }),
      }).then(answer);
  const campaignId = w.openCampaignIds[0]!;
  const companyId = w.catalogue.store.get(campaignId)!.company_id;
  const applicant = (applicant: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      company_id: companyId,
      applicant: { email: uniqueEmail(), applications: [{ campaign_id: campaignId }], ...applicant },
      ...extra,
    });
  const byParam = (path: string, names: string[]) =>
    names.map((name) => ({
      name: `GET ${path}?${name}=…`,
      refused: true,
      send: api(`/${path.slice(4)}?${query(name)}`),
    }));
  const sameEmail = `${MARKER}@example.org`;
  return [
    {
      name: 'POST /v2/jwt with hostile keys',
      refused: true,
      credentials: true,
      send: api('/jwt', { body: JSON.stringify({ private_key: HOSTILE, secret_key: HOSTILE }) }),
    },
    ...byParam(
      '/v2/campaigns',
      Object.keys(ListCampaignsQuery.shape).filter((name) => name !== 'channels'),
    ),
    ...byParam(
      '/v2/applications',
      Object.keys(ListApplicationsQuery.shape).filter((name) => name !== 'source'),
    ),
    ...byParam(
      '/v2/applicants',
      Object.keys(ListApplicantsQuery.shape).filter((name) => name !== 'keywords'),
    ),
    {
      name: 'GET /v2/applications?status[value]=x&status[date][gte]=…',
      refused: true,
      send: api(`/applications?status[value]=new&${query('status[date][gte]')}`),
    },
    { name: 'GET /v2/campaigns/… (the id)', refused: true, send: api(`/campaigns/${encodeURIComponent(HOSTILE)}`) },
    {
      name: 'GET /v2/applicants/… (an id or an email)',
      refused: true,
      send: api(`/applicants/${encodeURIComponent(HOSTILE)}`),
    },
    {
      name: 'GET /v2/applicants/… (an email of no applicant)',
      refused: true,
      send: api(`/applicants/${MARKER}@example.org`),
    },
    { name: 'GET /v2/… (no such route)', refused: true, send: api(`/${encodeURIComponent(HOSTILE)}`) },
    {
      name: 'DELETE /v2/campaigns/… (a method it does not have)',
      refused: true,
      send: api(`/campaigns/${encodeURIComponent(HOSTILE)}`, { method: 'DELETE' }),
    },
    {
      name: 'POST /v2/jobboards/applicants, a source not of the company',
      refused: true,
      send: api('/jobboards/applicants', { token: tokens.board, body: applicant({}, { source: HOSTILE }) }),
    },
    {
      name: 'POST /v2/jobboards/applicants, an unknown field',
      refused: true,
      send: api('/jobboards/applicants', { token: tokens.board, body: applicant({ [HOSTILE]: 1 }) }),
    },
    {
      name: 'POST /v2/jobboards/applicants, an email already used',
      refused: true,
      send: async () => {
        await api('/jobboards/applicants', { token: tokens.board, body: applicant({ email: sameEmail }) })();
        return api('/jobboards/applicants', { token: tokens.board, body: applicant({ email: sameEmail }) })();
      },
    },
    {
      name: 'POST /v2/jobboards/applicants, a body that is not JSON',
      refused: true,
      send: api('/jobboards/applicants', { token: tokens.board, body: `${MARKER}${HOSTILE}` }),
    },
    {
      name: 'POST /v2/jobboards/applicants, an unknown charset',
      refused: true,
      send: api('/jobboards/applicants', {
        token: tokens.board,
        body: '{}',
        headers: { 'content-type': `application/json; charset=${MARKER}` },
      }),
    },
    {
      name: 'GET /_sandbox/clock with Origin: …',
      refused: true,
      send: () => fetch(`${origin}/_sandbox/clock`, { headers: { origin: `https://${MARKER}.example` } }).then(answer),
    },
    {
      name: 'GET /_sandbox/clock with Host: …',
      refused: true,
      send: () => withHost(`${origin}/_sandbox/clock`, `${MARKER}.example`),
    },
    {
      name: 'POST /_sandbox/… without JSON',
      refused: true,
      send: () => fetch(`${origin}/_sandbox/${MARKER}`, { method: 'POST', body: 'x' }).then(answer),
    },
  ];
}

describe("no answer gives the request's text back", () => {
  let w: ApplyWorld;
  let tokens: { board: string; company: string };

  before(async () => {
    w = await startApplyWorld({ env: { BOARD_OFFER_URL: 'https://board.example/jobs?offer={id}' } });
    const token = async ({ private_key, secret_key }: { private_key: string; secret_key: string }) => {
      const answer = await fetch(`${w.sandbox.url}/jwt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ private_key, secret_key }),
      });
      assert.equal(answer.status, 200, 'the sandbox gives a token');
      return ((await answer.json()) as { token: string }).token;
    };
    tokens = { board: await token(DEMO_KEYS.jobboard), company: await token(DEMO_KEYS.company) };
  });
  after(() => w?.close());

  for (const [server, cases] of [
    ['the proxy', proxyCases],
    ['the sandbox', sandboxCases],
  ] as const) {
    it(`${server}: a hostile value in any parameter is never in a problem, nor markup in any answer`, async () => {
      const echoed: string[] = [];
      for (const c of cases(w, tokens)) {
        const { status, body } = await c.send();
        if (c.refused) assert.ok(status >= 400, `${c.name}: answered ${status}, not a refusal`);
        // A refusal of the credentials would hide what the route says of the value.
        if (c.credentials === undefined) assert.notEqual(status, 401, `${c.name}: answered 401`);
        if (status >= 400 && body.toLowerCase().includes(MARKER))
          echoed.push(`${c.name} (${status}): ${body.slice(0, 300)}`);
        if (body.includes(MARKUP)) echoed.push(`${c.name} (${status}), unescaped: ${body.slice(0, 300)}`);
      }
      assert.deepEqual(echoed, []);
    });
  }
});
