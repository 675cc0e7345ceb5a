// Shared set-up of the apply tests: a seeded sandbox on port 0 and the proxy
// started by startProxy on port 0, with the outbox's backoff shortened so
// "queued, then delivered" takes milliseconds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createClient } from '../server/client/index.ts';
import type { Applicant, RecruitmentClient } from '../server/client/index.ts';
import type {
  ApplicationsDeps,
  ApplicationsModule,
  DeliveryOptions,
  OpenUploadFile,
} from '../server/proxy/applications/index.ts';
import type { LiveCatalogue } from '../server/proxy/catalogue/index.ts';
import type { WebhookSenderOptions } from '../server/proxy/webhooks/sender.ts';
import { loadProxyConfig } from '../server/proxy/config.ts';
import type { ProxyConfig } from '../server/proxy/config.ts';
import { startProxy } from '../server/proxy/index.ts';
import { main as outboxCommand } from '../server/proxy/commands/outbox.ts';
import { createRegistry } from '../server/proxy/metrics.ts';
import { eventually } from '../server/test/poll.ts';
import { startSandbox } from '../server/sandbox/index.ts';
import { demoProxyEnv } from '../server/test/demo-proxy-env.ts';
import { fetch } from '../server/openapi/test/answers.ts';
import * as files from '../server/test/files.ts';
import { captureLogs } from '../server/test/logs.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import type { LogCapture } from '../server/test/logs.ts';
import type { SandboxOrigin } from '../server/test/sandbox-admin.ts';

/** fetch that checks each answer against the OpenAPI documents: the apply tests call the proxy with it. */
export { fetch };
import type { RunningSandbox } from '../server/sandbox/index.ts';

export const BOARD_ORIGIN = 'https://board.example';

export interface ApplyWorld {
  sandbox: RunningSandbox;
  proxyUrl: string;
  metricsUrl: string;
  config: ProxyConfig;
  applications: ApplicationsModule;
  catalogue: LiveCatalogue;
  client: RecruitmentClient;
  registry: Registry;
  logs: LogCapture;
  /** Campaigns open on the board's channel (from the first sync). */
  openCampaignIds: number[];
  close(): Promise<void>;
  /** Stops the proxy only (the sandbox stays), keeping the data directory. */
  stopProxy(): Promise<void>;
}

export interface WorldOptions {
  env?: Record<string, string>;
  /** The sandbox's duplicate_applications setting for every company (default 'refuse', the sandbox's own). */
  duplicates?: (typeof DUPLICATE_SETTINGS)[number];
  delivery?: Partial<DeliveryOptions>;
  sandboxRateLimitPerMinute?: number;
  /** The sandbox's rate window (default a minute): sandboxRateLimitPerMinute requests per window. */
  sandboxRateLimitWindowMs?: number;
  /** Reuse a sandbox (restart scenarios). */
  sandbox?: RunningSandbox;
  dataDir?: string;
  /** Client options (retry policy) for the proxy's upstream client. */
  clientRetry?: Parameters<typeof createClient>[0]['retry'];
  clientTimeoutMs?: number;
  budgetPerMinute?: number;
  /** The client's budget window (its default: the service's minute and a second): budgetPerMinute requests per window. */
  budgetWindowMs?: number;
  clock?: { now(): number };
  /** The upstream client's fetch: only for what the sandbox cannot produce (an answer lost after the service acted). */
  fetch?: typeof fetch;
  /** How uploads are written (a disk that fills up). */
  openUploadFile?: OpenUploadFile;
  /** The status sync's timings, and what it tells of a change. */
  statusSync?: ApplicationsDeps['statusSync'];
  onStatusChanged?: ApplicationsDeps['onStatusChanged'];
}

export const FAST_DELIVERY: Partial<DeliveryOptions> = {
  baseBackoffMs: 50,
  maxBackoffMs: 400,
  pollIntervalMs: 50,
  upstreamTimeoutMs: 5_000,
};
/** The webhook sender's polling and backoff, shortened likewise (used only with WEBHOOK_URL). */
export const FAST_WEBHOOKS: Partial<WebhookSenderOptions> = {
  pollMs: 50,
  retryBaseMs: 50,
  retryMaxMs: 400,
  timeoutMs: 5_000,
};

export function proxyEnv(
  sandbox: Pick<RunningSandbox, 'url'>,
  dataDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return demoProxyEnv(sandbox.url, {
    ALLOWED_ORIGINS: BOARD_ORIGIN,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    DELIVERY_DEADLINE_MS: '3000',
    APPLY_RATE_LIMIT_PER_IP: '1000',
    // Every candidate of these tests applies from 127.0.0.1, several at once.
    MAX_CONCURRENT_UPLOADS_PER_IP: '50',
    MAX_CONCURRENT_UPLOADS_PER_NETWORK: '50',
    APPLY_RATE_LIMIT_PER_EMAIL: '100',
    ...extra,
  });
}

export interface ProxyStack {
  url: string;
  /** GET /metrics, on its own listener. */
  metricsUrl: string;
  applications: ApplicationsModule;
  catalogue: LiveCatalogue;
  client: RecruitmentClient;
  registry: Registry;
  /** Stops the server, the workers and the stores (the data directory stays). */
  stop(): Promise<void>;
}

/** The proxy started by startProxy, with the outbox's timings shortened and the client's retries injectable. */
export async function startProxyStack(
  config: ProxyConfig,
  options: { logger: Logger; delivery?: Partial<DeliveryOptions>; clock?: { now(): number } } & Pick<
    WorldOptions,
    | 'clientRetry'
    | 'clientTimeoutMs'
    | 'budgetPerMinute'
    | 'budgetWindowMs'
    | 'fetch'
    | 'openUploadFile'
    | 'statusSync'
    | 'onStatusChanged'
  >,
): Promise<ProxyStack> {
  const client = createClient({
    baseUrl: config.upstream.url,
    privateKey: config.upstream.privateKey,
    secretKey: config.upstream.secretKey,
    retry: { baseDelayMs: 10, maxDelayMs: 50, ...options.clientRetry },
    timeout: options.clientTimeoutMs ?? 5_000,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    budget: {
      ...(options.budgetPerMinute === undefined ? {} : { perMinute: options.budgetPerMinute }),
      ...(options.budgetWindowMs === undefined ? {} : { windowMs: options.budgetWindowMs }),
    },
  });
  const proxy = await startProxy({
    config,
    client,
    logger: options.logger,
    registry: createRegistry({ defaultMetrics: false }),
    // Tests end with requests still held by a stalled upstream: cut them rather than wait.
    shutdownGraceMs: 0,
    applications: {
      delivery: { ...FAST_DELIVERY, ...options.delivery },
      webhooks: FAST_WEBHOOKS,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.openUploadFile === undefined ? {} : { openUploadFile: options.openUploadFile }),
      ...(options.statusSync === undefined ? {} : { statusSync: options.statusSync }),
      ...(options.onStatusChanged === undefined ? {} : { onStatusChanged: options.onStatusChanged }),
    },
  });
  try {
    // startProxy syncs in the background; the tests need the campaigns now (joins that sync).
    await proxy.catalogue.syncNow();
  } catch (error) {
    await proxy.close();
    throw error;
  }
  return {
    url: proxy.url,
    metricsUrl: proxy.metricsUrl,
    applications: proxy.applications,
    catalogue: proxy.catalogue,
    client,
    registry: proxy.registry,
    stop: proxy.close,
  };
}

export async function startApplyWorld(options: WorldOptions = {}): Promise<ApplyWorld> {
  const sandbox =
    options.sandbox ??
    (await startSandbox({
      port: 0,
      admin: true,
      seed: 'demo',
      ...(options.sandboxRateLimitPerMinute === undefined
        ? {}
        : { rateLimitPerMinute: options.sandboxRateLimitPerMinute }),
      ...(options.sandboxRateLimitWindowMs === undefined
        ? {}
        : { rateLimitWindowMs: options.sandboxRateLimitWindowMs }),
    }));
  const ownsSandbox = options.sandbox === undefined;
  if (options.duplicates !== undefined) await setDuplicateApplications(sandbox, options.duplicates);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'jbc-apply-'));
  const ownsDataDir = options.dataDir === undefined;
  const config = loadProxyConfig(proxyEnv(sandbox, dataDir, options.env));
  const logs = captureLogs();
  const stack = await startProxyStack(config, {
    logger: logs.logger,
    ...(options.delivery === undefined ? {} : { delivery: options.delivery }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.clientRetry === undefined ? {} : { clientRetry: options.clientRetry }),
    ...(options.clientTimeoutMs === undefined ? {} : { clientTimeoutMs: options.clientTimeoutMs }),
    ...(options.budgetPerMinute === undefined ? {} : { budgetPerMinute: options.budgetPerMinute }),
    ...(options.budgetWindowMs === undefined ? {} : { budgetWindowMs: options.budgetWindowMs }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.openUploadFile === undefined ? {} : { openUploadFile: options.openUploadFile }),
    ...(options.statusSync === undefined ? {} : { statusSync: options.statusSync }),
    ...(options.onStatusChanged === undefined ? {} : { onStatusChanged: options.onStatusChanged }),
  });
  const openCampaignIds = stack.catalogue.store.search({ page: 1, per_page: 50 }).items.map((c) => c.id);
  return {
    sandbox,
    proxyUrl: stack.url,
    metricsUrl: stack.metricsUrl,
    config,
    applications: stack.applications,
    catalogue: stack.catalogue,
    client: stack.client,
    registry: stack.registry,
    logs,
    openCampaignIds,
    stopProxy: stack.stop,
    async close() {
      await stack.stop();
      if (ownsSandbox) await sandbox.close();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The world of a describe's tests: started before them and closed after them.
 * `options` may be a function, called once the describe's earlier `before`
 * hooks have run (a receiver's URL, a database started there). Read the world
 * through the answered function, in hooks and tests.
 */
export function applyWorldPerSuite(options: WorldOptions | (() => WorldOptions) = {}): () => ApplyWorld {
  let world: ApplyWorld | undefined;
  before(async () => {
    world = await startApplyWorld(typeof options === 'function' ? options() : options);
  });
  after(async () => {
    await world?.close();
  });
  return () => {
    if (world === undefined) throw new Error('the apply world is read before it started');
    return world;
  };
}

export interface ApplyInput {
  fields?: Record<string, string>;
  resume?: { bytes: Buffer; name?: string; type?: string } | null;
  key?: string | null;
  origin?: string;
  headers?: Record<string, string>;
}

let counter = 0;
/** A unique candidate email (tests never collide). */
export function uniqueEmail(tag = 'candidate'): string {
  counter += 1;
  return `${tag}.${process.pid}.${Date.now()}.${counter}@example.org`;
}

export type Fields = Record<string, string> & { email: string; campaign_id: string };

export function validFields(campaignId: number, email = uniqueEmail()): Fields {
  return {
    campaign_id: String(campaignId),
    email,
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone_code: '+33',
    phone_number: '6 12 34 56 78',
    locale: 'fr',
    bio_url: 'https://ada.example/portfolio',
    cover_letter: 'I would love to work with you.',
    is_legals_accepted_by_manager: 'true',
    is_partner_newsletter_active: 'on',
  };
}

export function formOf(input: ApplyInput): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(input.fields ?? {})) form.append(name, value);
  if (input.resume !== null) {
    const resume = input.resume ?? { bytes: files.pdf() };
    form.append(
      'resume',
      new Blob([new Uint8Array(resume.bytes)], { type: resume.type ?? 'application/pdf' }),
      resume.name ?? 'resume.pdf',
    );
  }
  return form;
}

export interface ApplyAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export async function apply(proxyUrl: string, input: ApplyInput): Promise<ApplyAnswer> {
  const headers: Record<string, string> = { origin: input.origin ?? BOARD_ORIGIN, ...input.headers };
  if (input.key !== null) headers['idempotency-key'] = input.key ?? crypto.randomUUID();
  const response = await fetch(`${proxyUrl}/api/applications`, { method: 'POST', headers, body: formOf(input) });
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = {};
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Applications the sandbox holds for this candidate email, with their campaign. */
export function upstreamApplications(sandbox: RunningSandbox, email: string): { id: number; campaign_id: number }[] {
  return sandbox.context.db.all<{ id: number; campaign_id: number }>(
    'SELECT a.id, a.campaign_id FROM applications a JOIN applicants p ON p.id = a.applicant_id WHERE p.email = ? ORDER BY a.id',
    email,
  );
}

export function upstreamApplicantCount(sandbox: RunningSandbox, email: string): number {
  return sandbox.context.db.get<{ n: number }>('SELECT count(*) AS n FROM applicants WHERE email = ?', email)?.n ?? 0;
}

/** The applicant `email` as its company reads it (GET /applicants), once the service processed the resume. */
export async function listedWithResume(company: RecruitmentClient, email: string): Promise<Applicant> {
  return eventually(
    async () => {
      const found = (await company.applicants.list({ keywords: email })).data.find((a) => a.email === email);
      return found?.resume_url == null ? undefined : found;
    },
    { timeoutMs: 30_000, what: `the applicant ${email} with its resume` },
  );
}

/** Where the sandbox stored this candidate's resume (a path of its origin); null or undefined while it holds none. */
export function upstreamResumePath(sandbox: RunningSandbox, email: string): string | null | undefined {
  return sandbox.context.db.get<{ resume_path: string | null }>(
    'SELECT resume_path FROM applicants WHERE email = ?',
    email,
  )?.resume_path;
}

/** Applies to `campaignId` while the service answers 503 to every call (until the test lifts the fault): the application is queued (202). */
export async function queuedWhileServiceDown(
  world: Pick<ApplyWorld, 'sandbox' | 'proxyUrl'>,
  campaignId: number,
): Promise<{ fields: Fields; reference: string }> {
  await admin(world.sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
  const fields = validFields(campaignId);
  const answer = await apply(world.proxyUrl, { fields });
  assert.equal(answer.status, 202, answer.text);
  return { fields, reference: String(answer.body.reference) };
}

/** The outbox row of `reference` once it is delivered; fails after a minute (a bound on waiting, not a timing). */
export function deliveredRow(world: Pick<ApplyWorld, 'applications'>, reference: unknown) {
  return eventually(
    async () => {
      const row = await world.applications.outbox.get(String(reference));
      return row?.status === 'delivered' ? row : undefined;
    },
    { timeoutMs: 60_000, what: `delivery of ${String(reference)}` },
  );
}

/** Runs `jobboard-connector outbox ARGS` in this process and returns what it printed. */
export async function runOutboxCommand(args: string[]): Promise<string> {
  const original = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    await outboxCommand(args);
  } finally {
    process.stdout.write = original;
  }
  return out;
}

/** What the sandbox does with a second application of an applicant to a campaign: delivery must be exactly once under both. */
export const DUPLICATE_SETTINGS = ['refuse', 'accept'] as const;

/** Sets duplicate_applications on every company of the sandbox. */
export async function setDuplicateApplications(
  sandbox: RunningSandbox,
  setting: (typeof DUPLICATE_SETTINGS)[number],
): Promise<void> {
  for (const { id } of sandbox.context.db.all<{ id: number }>('SELECT id FROM companies')) {
    await admin(sandbox, 'PATCH', `/companies/${id}`, { duplicate_applications: setting });
  }
}

interface WireCreate {
  seq: number;
  status: number | null;
  email: string | null;
  campaign_ids: number[];
  application_ids: number[];
}

/**
 * Counts at the wire (GET /_sandbox/creates) the create requests the sandbox
 * received for one candidate and one campaign, and asserts exactly one
 * created an application and none came after it: a second send fails this
 * even where the service refused it with 409, or would have taken it.
 */
export async function assertCreatedOnceAtTheWire(
  sandbox: SandboxOrigin,
  email: string,
  campaignId: number,
): Promise<{ requests: number; succeeded: number }> {
  const all = (await admin(sandbox, 'GET', `/creates?email=${encodeURIComponent(email)}`)) as WireCreate[];
  const mine = all.filter((c) => c.campaign_ids.includes(campaignId) || c.campaign_ids.length === 0);
  const created = mine.filter((c) => c.application_ids.length > 0);
  assert.equal(
    created.length,
    1,
    `${email} → campaign ${campaignId}: ${created.length} create requests created an application (${JSON.stringify(mine)})`,
  );
  const after = mine.filter((c) => c.seq > created[0]!.seq);
  assert.deepEqual(after, [], `${email} → campaign ${campaignId}: create requests after the one that succeeded`);
  return { requests: mine.length, succeeded: created.length };
}

/** An answer read off the socket: status, headers and the JSON body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/**
 * POSTs an application over a socket of its own: its headers and first bytes,
 * then `between()` (a fault, a check), then the rest of its body.
 */
export async function applyInTwoParts(
  url: string,
  fields: Record<string, string>,
  between: () => Promise<void>,
): Promise<RawAnswer> {
  const encoded = new Response(formOf({ fields }));
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/applications`, {
      method: 'POST',
      headers: {
        'content-type': encoded.headers.get('content-type')!,
        'content-length': String(body.length),
        origin: BOARD_ORIGIN,
        'idempotency-key': crypto.randomUUID(),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(text || '{}') as Record<string, unknown>,
        }),
      );
    });
    // An answer before the whole body was sent may close the socket under the rest.
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    req.write(body.subarray(0, 100));
    between().then(
      () => req.end(body.subarray(100)),
      (error: unknown) => {
        req.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
