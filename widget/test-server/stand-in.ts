// A small scripted stand-in of the proxy's public API (server/public-api/README.md),
// mounted in the @web/test-runner dev server so browser tests talk real HTTP
// with outcomes a real proxy only gives under rare conditions (dropped
// connections, 413, a slow upload).
//
// A test picks its script with the endpoint it gives the element:
//   endpoint="/stand-in/<scenario>~<token>"
// <scenario> chooses the answers (see `scenarios` below); <token> keeps
// tests apart in the log at GET /stand-in/_log?token=<token>.
//
// Answers are typed by the proxy's own schemas, so the stand-in cannot drift
// from the proxy's public API.
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type {
  ApplicationAnswer,
  CampaignDetail,
  CampaignList,
  CampaignSummary,
  FieldProblemSchema,
  ProblemSchema,
} from '../../server/public-api/schemas.ts';
import { DEFAULT_FIELD_MODES } from '../../server/public-api/application-form.ts';
import type { WidgetConfig } from '../src/internal/api.ts';

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  method: string;
  querystring: string;
  status: number;
  body: unknown;
  respond?: boolean;
  set(name: string, value: string): void;
}

type Next = () => Promise<unknown>;

/** An application as a stand-in of the proxy read it. */
export interface ReceivedApplication {
  idempotencyKey: string | null;
  fields: Record<string, string>;
  files: Record<string, { name: string; size: number; type: string }>;
  /** Every file part in the order posted, a name sent several times (resume_pages) included. */
  fileParts: { field: string; name: string; size: number; type: string }[];
}

export interface LoggedApplication extends ReceivedApplication {
  token: string;
  scenario: string;
}

/** A funnel beacon as the stand-in received it: its body as sent, and the headers that tell how. */
export interface LoggedBeacon {
  token: string;
  contentType: string | null;
  /** Whether the request carried a Cookie header (the widget must send none of its own). */
  cookie: boolean;
  body: string;
}

const log: LoggedApplication[] = [];
const beacons: LoggedBeacon[] = [];
const seenKeys = new Set<string>();

const cities = ['Lyon', 'Paris', 'Madrid', 'Nantes', 'Bordeaux'];
// 'Seasonal work' is not an API value (hence the cast): the widget must show
// what it does not know as it came.
const jobTypes = ['Permanent contract', 'Fixed term contract', 'Seasonal work'] as NonNullable<
  CampaignSummary['job_type']
>[];
const workingTimes: NonNullable<CampaignSummary['working_time']>[] = ['Full time', 'Part time'];
const titles = ['Backend developer', 'Nurse', 'Accountant', 'Sales assistant', 'Data analyst'];

const campaigns = Array.from({ length: 23 }, (_, i): CampaignSummary => ({
  id: 100 + i,
  company_id: 1 + (i % 3),
  company_name: ['Acme', 'Globex', 'Initech'][i % 3]!,
  name: `${titles[i % titles.length]} ${i + 1}`,
  job_type: jobTypes[i % jobTypes.length]!,
  working_time: workingTimes[i % workingTimes.length]!,
  city: cities[i % cities.length]!,
  country: i % cities.length === 2 ? 'Spain' : 'France',
  salary_min: i % 4 === 3 ? null : 30000 + i * 1000,
  salary_max: i % 4 === 3 ? null : 40000 + i * 1000,
  job_start_date: '2027-01-05',
  contract_duration: null,
  updated_at: '2026-11-20T10:00:00.000Z',
  // A day of its own per offer: a test can tell which offer's date it reads.
  published_at: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T09:30:00.000Z`,
}));

function detail(c: CampaignSummary): CampaignDetail {
  return {
    ...c,
    description: `<p>Join <strong>${c.company_name}</strong> as ${c.name}.</p><script>window.__pwned = true</script><p><a href="javascript:alert(1)" onclick="window.__pwned = true">More</a></p>`,
    profile: '<ul><li>Two years of experience</li><li>Team spirit</li></ul>',
    // The service's own address of a town: its name repeats the city and country (as the sandbox's seed does).
    address:
      c.id === 100
        ? {
            street_number: '12',
            street: 'rue de la République',
            postal_code: '69002',
            city: 'Lyon',
            country: 'France',
            name: null,
            latitude: 45.7578,
            longitude: 4.8351,
          }
        : c.id === 103
          ? {
              street_number: null,
              street: null,
              postal_code: '44000',
              city: 'Nantes',
              country: 'France',
              name: 'Nantes, France',
              latitude: null,
              longitude: null,
            }
          : null,
    date_end: c.id === 100 ? '2027-02-28' : null,
  };
}

/** The proxy's defaults, as /api/config answers them: every field in its default mode, a 10 MiB resume. */
export const baseConfig: WidgetConfig = {
  locales: ['fr', 'en', 'es'],
  resume: { types: ['pdf', 'jpg', 'png', 'doc', 'docx'], max_bytes: 10485760 },
  fields: { email: 'required', ...DEFAULT_FIELD_MODES },
  consent_url: 'https://board.example/privacy',
  captcha: null,
  track_utm: true,
  funnel: true,
  // The alert panel's own tests turn it on; the others' pages stay as they were.
  alerts: { feed: false, email: false },
  spontaneous_applications: [],
};

function config(scenario: string): WidgetConfig {
  if (scenario === 'small') return { ...baseConfig, resume: { ...baseConfig.resume, max_bytes: 2048 } };
  if (scenario === 'lenient') {
    return {
      ...baseConfig,
      fields: { ...baseConfig.fields, resume: 'optional', first_name: 'optional', phone: 'optional' },
    };
  }
  if (scenario === 'no-utm') return { ...baseConfig, track_utm: false };
  if (scenario === 'no-funnel') return { ...baseConfig, funnel: false };
  if (scenario === 'spontaneous') return { ...baseConfig, spontaneous_applications: 'all' };
  if (scenario === 'captcha') return { ...baseConfig, captcha: { provider: 'turnstile', site_key: 'test-site-key' } };
  // A misconfigured or compromised proxy's privacy link.
  if (scenario === 'script-consent')
    return { ...baseConfig, consent_url: 'javascript:void(document.title="consent link ran")' };
  return baseConfig;
}

/** A problem+json body of the proxy's shape for `code`; the Node tests' stand-in answers it too. */
export function problemBody(
  status: number,
  code: string,
  errors?: z.infer<typeof FieldProblemSchema>[],
): z.infer<typeof ProblemSchema> {
  return {
    type: `https://jobboard-connector.dev/problems/${code}`,
    title: code,
    status,
    detail: code,
    code,
    ...(errors ? { errors } : {}),
  };
}

function problem(ctx: Ctx, status: number, code: string, errors?: z.infer<typeof FieldProblemSchema>[]): void {
  ctx.status = status;
  ctx.set('content-type', 'application/problem+json');
  ctx.body = JSON.stringify(problemBody(status, code, errors));
}

type Answer = z.infer<typeof ApplicationAnswer>;

function json(
  ctx: Ctx,
  status: number,
  body:
    | WidgetConfig
    | CampaignList
    | CampaignDetail
    | Answer
    | LoggedApplication[]
    | LoggedBeacon[]
    | Record<string, unknown>,
): void {
  ctx.status = status;
  ctx.set('content-type', 'application/json');
  ctx.body = JSON.stringify(body);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readForm(ctx: Ctx): Promise<FormData> {
  const request = new Request('http://stand-in.local/', {
    method: 'POST',
    headers: { 'content-type': ctx.req.headers['content-type'] ?? '' },
    body: Readable.toWeb(ctx.req) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  return request.formData();
}

async function listCampaigns(ctx: Ctx, scenario: string): Promise<void> {
  if (scenario === 'campaigns-error') return problem(ctx, 500, 'internal_error');
  if (scenario === 'slow') await sleep(400);
  const params = new URLSearchParams(ctx.querystring);
  // A town with no offer with a position, as the proxy refuses it.
  if (params.get('near') === 'Atlantis')
    return problem(ctx, 422, 'validation_failed', [
      {
        field: 'near',
        code: 'invalid_value',
        reason: 'place_unknown',
        message: 'no offer in this city has a known position: give another city, or LATITUDE,LONGITUDE like 45.76,4.84',
      },
    ]);
  const q = params.get('q')?.toLowerCase();
  const matches = (scenario === 'empty' ? [] : campaigns).filter(
    (c) =>
      (!q || `${c.name} ${c.company_name} ${c.city}`.toLowerCase().includes(q)) &&
      (!params.get('job_type') || c.job_type === params.get('job_type')) &&
      (!params.get('working_time') || c.working_time === params.get('working_time')) &&
      (!params.get('city') || c.city === params.get('city')),
  );
  const perPage = Math.min(50, Number(params.get('per_page') ?? 20));
  const page = Math.max(1, Number(params.get('page') ?? 1));
  json(ctx, 200, {
    items: matches.slice((page - 1) * perPage, page * perPage),
    page,
    per_page: perPage,
    total: matches.length,
    last_page: Math.max(1, Math.ceil(matches.length / perPage)),
    facets: { job_types: jobTypes, working_times: workingTimes, cities, companies: [] },
  });
}

async function apply(ctx: Ctx, scenario: string, token: string): Promise<void> {
  const key = (ctx.req.headers['idempotency-key'] as string | undefined) ?? null;
  if (scenario === 'drop' && key && !seenKeys.has(`${token}:${key}`)) {
    // The body arrives, then the connection dies mid-answer: the browser sees
    // a network error (a reset before any byte would be retried by Chromium).
    seenKeys.add(`${token}:${key}`);
    await readForm(ctx);
    log.push({ token, scenario: 'drop:dropped', idempotencyKey: key, fields: {}, files: {}, fileParts: [] });
    ctx.respond = false;
    ctx.req.socket.end(
      'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"sta',
      () => ctx.req.socket.destroy(),
    );
    return;
  }
  const form = await readForm(ctx);
  const entry: LoggedApplication = { token, scenario, idempotencyKey: key, fields: {}, files: {}, fileParts: [] };
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') entry.fields[name] = value;
    else {
      entry.files[name] = { name: value.name, size: value.size, type: value.type };
      entry.fileParts.push({ field: name, name: value.name, size: value.size, type: value.type });
    }
  }
  log.push(entry);
  if (!key) return problem(ctx, 400, 'idempotency_key_missing');
  switch (scenario) {
    case 'hang':
      // Body received, answer never comes: the candidate can only cancel.
      await new Promise((resolve) => ctx.req.socket.once('close', resolve));
      ctx.respond = false;
      return;
    case 'slow':
      await sleep(400);
      return json(ctx, 201, {
        status: 'delivered',
        reference: 'ref-slow',
        campaign_id: Number(entry.fields.campaign_id),
      });
    case 'queued':
      return json(ctx, 202, {
        status: 'queued',
        reference: 'ref-queued',
        campaign_id: Number(entry.fields.campaign_id),
        receipt_url: 'https://jobs.example/applications/receipt/tok-2',
      });
    case 'conflict':
      return problem(ctx, 409, 'already_applied');
    case 'invalid':
      return problem(ctx, 422, 'validation_failed', [
        { field: 'email', code: 'invalid_email', message: 'Enter a valid email address.' },
        { field: 'phone_number', code: 'invalid_phone', message: 'Enter a valid phone number.' },
      ]);
    case 'wrong-file':
      // Two problems at once, the resume's a workbook named .pdf (the proxy read its bytes whole).
      return problem(ctx, 422, 'validation_failed', [
        { field: 'email', code: 'invalid_email', message: 'Enter a valid email address.' },
        {
          field: 'resume',
          code: 'unsupported_file_type',
          message: 'This file is not a real PDF: its content is XLSX.',
          detected_type: 'xlsx',
        },
      ]);
    case 'closed':
      return problem(ctx, 422, 'campaign_closed');
    case 'too-large':
      return problem(ctx, 413, 'file_too_large');
    case 'rate':
      ctx.set('retry-after', '60');
      return problem(ctx, 429, 'rate_limited');
    default:
      if (scenario === 'drop') ctx.set('idempotent-replayed', 'true');
      // Root-relative, as a proxy without PUBLIC_ORIGIN gives it ('slow' gives none, as a proxy before receipts).
      return json(ctx, 201, {
        status: 'delivered',
        reference: 'ref-1',
        campaign_id: Number(entry.fields.campaign_id),
        receipt_url: '/applications/receipt/tok-1',
      });
  }
}

/** What the test of the request's `token` left in a list the stand-in keeps for all tests. */
function ofToken<T extends { token: string }>(ctx: Ctx, entries: T[]): T[] {
  const token = new URLSearchParams(ctx.querystring).get('token');
  return entries.filter((e) => e.token === token);
}

/** Koa middleware for the wtr dev server (`middleware: [standIn]`). */
export async function standIn(ctx: Ctx, next: Next): Promise<unknown> {
  if (!ctx.path.startsWith('/stand-in/')) return next();
  if (ctx.path === '/stand-in/_log') return json(ctx, 200, ofToken(ctx, log));
  if (ctx.path === '/stand-in/_beacons') return json(ctx, 200, ofToken(ctx, beacons));
  const match = /^\/stand-in\/([a-z-]+)(?:~([\w-]+))?(\/api\/.*)$/.exec(ctx.path);
  if (!match) return problem(ctx, 404, 'not_found');
  const [, scenario = 'ok', token = '', route = ''] = match;
  if (scenario === 'offline') {
    ctx.respond = false;
    ctx.req.socket.destroy();
    return;
  }
  // A proxy whose ALLOWED_ORIGINS lacks the page's origin: every /api route refuses it, readably.
  if (scenario === 'refused') return problem(ctx, 403, 'origin_not_allowed');
  if (ctx.method === 'GET' && route === '/api/config') {
    if (scenario === 'slow-config') await sleep(400);
    return scenario === 'config-error' ? problem(ctx, 503, 'not_ready') : json(ctx, 200, config(scenario));
  }
  if (ctx.method === 'GET' && route === '/api/campaigns') return listCampaigns(ctx, scenario);
  const one = /^\/api\/campaigns\/(\d+)$/.exec(route);
  if (ctx.method === 'GET' && one) {
    const c = campaigns.find((x) => x.id === Number(one[1]));
    return c && scenario !== 'gone' ? json(ctx, 200, detail(c)) : problem(ctx, 404, 'campaign_not_found');
  }
  const posting = /^\/api\/campaigns\/(\d+)\/jobposting$/.exec(route);
  if (ctx.method === 'GET' && posting) {
    const c = campaigns.find((x) => x.id === Number(posting[1]));
    if (!c || scenario === 'gone') return problem(ctx, 404, 'campaign_not_found');
    json(ctx, 200, {
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: c.name,
      description: `<p>Join <strong>${c.company_name}</strong> as ${c.name} &amp; grow.</p>`,
      hiringOrganization: { '@type': 'Organization', name: c.company_name },
      identifier: { '@type': 'PropertyValue', value: String(c.id) },
      url: `https://board.example/offers?offer=${c.id}`,
      image: 'https://board.example/share.png',
    });
    ctx.set('content-type', 'application/ld+json');
    return;
  }
  if (ctx.method === 'POST' && route === '/api/applications') return apply(ctx, scenario, token);
  if (ctx.method === 'POST' && route === '/api/funnel') {
    // As the proxy: a beacon's answer, which the page never reads.
    const body = await new Response(Readable.toWeb(ctx.req) as ReadableStream).text();
    const { headers } = ctx.req;
    beacons.push({ token, contentType: headers['content-type'] ?? null, cookie: headers.cookie !== undefined, body });
    ctx.status = 204;
    return;
  }
  return problem(ctx, 404, 'not_found');
}
