// A scripted stand-in of the proxy's public API for the apply controller's
// Node tests: a real HTTP server in the test's process, answering
// /api/config, /api/campaigns/:id and POST /api/applications as each test
// says, and keeping every request and application it received. Its answers
// are typed by the proxy's own schemas.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { z } from 'zod';
import type {
  ApplicationAnswer,
  CampaignDetail,
  CampaignSummary,
  FieldProblemSchema,
} from '../../server/public-api/schemas.ts';
import type { WidgetConfig } from '../src/internal/api.ts';
import { baseConfig, problemBody } from '../test-server/stand-in.ts';
import type { ReceivedApplication } from '../test-server/stand-in.ts';

export type FieldProblem = z.infer<typeof FieldProblemSchema>;

/** How the stand-in answers one application. */
export type Answer =
  /** A success; a string body is sent as it is (a proxy or load balancer may answer HTML). */
  | { status: 201 | 202; body: z.infer<typeof ApplicationAnswer> | string }
  /** A problem+json answer. */
  | { status: number; code: string; errors?: FieldProblem[] }
  /** The body read, no answer until the connection closes. */
  | 'hang'
  /** The body read, then the connection cut. */
  | 'drop';

export type Received = ReceivedApplication;

export interface ProxyStandIn {
  /** The proxy's address, as a board writes it in `endpoint`. */
  endpoint: string;
  /** The answer of /api/config from now on. */
  config: NonNullable<StandInOptions['config']>;
  /** `METHOD /path` of each request, in order. */
  requests: string[];
  /** Each application, as the proxy read it. */
  applications: Received[];
  /** Resolves once `n` applications have been read. */
  applied(n: number): Promise<void>;
  close(): Promise<void>;
}

/** The proxy's defaults, as the browser tests' stand-in answers them. */
export const defaultConfig: WidgetConfig = {
  ...baseConfig,
  // These tests read applications; the funnel's beacons are the browser tests' (widget/src/campaigns/funnel.test.ts).
  funnel: false,
};

export const delivered = (receipt_url = '/applications/receipt/tok-1'): Answer => ({
  status: 201,
  body: { status: 'delivered', reference: 'ref-1', campaign_id: 101, kind: 'offer', receipt_url },
});

export const problem = (status: number, code: string, errors?: FieldProblem[]): Answer => ({
  status,
  code,
  ...(errors ? { errors } : {}),
});

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*' });
  res.end(body);
}

function sendProblem(res: ServerResponse, status: number, code: string, errors?: FieldProblem[]): void {
  send(res, status, 'application/problem+json', JSON.stringify(problemBody(status, code, errors)));
}

async function readApplication(req: IncomingMessage): Promise<Received> {
  const form = await new Request('http://stand-in.local/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body: Readable.toWeb(req) as ReadableStream,
    duplex: 'half',
  } as RequestInit).formData();
  const received: Received = {
    idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
    fields: {},
    files: {},
    fileParts: [],
  };
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') received.fields[name] = value;
    else {
      received.files[name] = { name: value.name, size: value.size, type: value.type };
      received.fileParts.push({ field: name, name: value.name, size: value.size, type: value.type });
    }
  }
  return received;
}

/** An offer of the stand-in as the list gives it, and as `<jobboard-campaigns>` gives its open one to the form. */
export function offerSummary(id: number): CampaignSummary {
  return {
    id,
    company_id: 1,
    company_name: 'Acme',
    name: 'Backend developer',
    job_type: 'Permanent contract',
    working_time: 'Full time',
    city: 'Lyon',
    country: 'France',
    salary_min: null,
    salary_max: null,
    job_start_date: null,
    contract_duration: null,
    updated_at: '2026-11-20T10:00:00.000Z',
    published_at: '2026-11-12T09:30:00.000Z',
  };
}

function detail(id: number): CampaignDetail {
  return {
    ...offerSummary(id),
    description: '<p>Join Acme.</p>',
    profile: null,
    address: null,
    date_end: null,
  };
}

export interface StandInOptions {
  /** The answer of /api/config: the config, or a problem. */
  config?: WidgetConfig | { status: number; code: string };
  /** Milliseconds before /api/config answers. */
  configDelay?: number;
  /** The open offers; any other id is gone. */
  offers?: number[];
  /** The answers to the applications, in order; `delivered()` once they are used up. */
  answers?: Answer[];
}

export async function proxyStandIn(options: StandInOptions = {}): Promise<ProxyStandIn> {
  const { offers = [101], answers = [], configDelay = 0 } = options;
  const requests: string[] = [];
  const applications: Received[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stand-in.local').pathname;
    requests.push(`${req.method} ${path}`);
    void (async () => {
      if (req.method === 'GET' && path === '/api/config') {
        if (configDelay > 0) await new Promise((resolve) => setTimeout(resolve, configDelay));
        const { config } = proxy;
        if ('code' in config) return sendProblem(res, config.status, config.code);
        return send(res, 200, 'application/json', JSON.stringify(config));
      }
      const offer = /^\/api\/campaigns\/(\d+)$/.exec(path);
      if (req.method === 'GET' && offer) {
        const id = Number(offer[1]);
        return offers.includes(id)
          ? send(res, 200, 'application/json', JSON.stringify(detail(id)))
          : sendProblem(res, 404, 'campaign_not_found');
      }
      if (req.method !== 'POST' || path !== '/api/applications') return sendProblem(res, 404, 'not_found');
      applications.push(await readApplication(req));
      for (const w of waiting.filter((w) => applications.length >= w.n)) w.resolve();
      const answer = answers.shift() ?? delivered();
      if (answer === 'hang') return;
      if (answer === 'drop') return req.socket.destroy();
      if ('body' in answer) {
        const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        return send(res, answer.status, typeof answer.body === 'string' ? 'text/html' : 'application/json', text);
      }
      sendProblem(res, answer.status, answer.code, answer.errors);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: ProxyStandIn = {
    endpoint: `http://127.0.0.1:${port}`,
    config: options.config ?? defaultConfig,
    requests,
    applications,
    applied: (n) =>
      applications.length >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

const started: ProxyStandIn[] = [];

/** A stand-in closed by `closeStandIns` (each test file's afterEach). */
export async function standIn(options: StandInOptions = {}): Promise<ProxyStandIn> {
  const proxy = await proxyStandIn(options);
  started.push(proxy);
  return proxy;
}

export async function closeStandIns(): Promise<void> {
  await Promise.all(started.splice(0).map((proxy) => proxy.close()));
}
