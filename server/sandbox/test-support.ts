// Helpers for the sandbox's own tests: a sandbox on port 0 with the admin
// routes, a small world built through them, and a fetch wrapper that
// returns status, headers and the parsed body, having checked the answer
// against the API's OpenAPI document.
import { after, before } from 'node:test';
import { fetch } from '../openapi/test/answers.ts';
import { admin } from '../test/sandbox-admin.ts';
import { startSandbox } from './index.ts';
import type { RunningSandbox, SandboxOptions } from './index.ts';

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

// Tests read bodies loosely; each asserts the shape it cares about.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply<Json>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body };
}

export interface KeyPair {
  private_key: string;
  secret_key: string;
}

/** A running sandbox plus shortcuts to its admin routes and API. */
export class TestSandbox {
  readonly sandbox: RunningSandbox;

  constructor(sandbox: RunningSandbox) {
    this.sandbox = sandbox;
  }

  static async start(options: SandboxOptions = {}): Promise<TestSandbox> {
    return new TestSandbox(await startSandbox({ admin: true, ...options }));
  }

  get url(): string {
    return this.sandbox.url;
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }

  admin(method: string, path: string, body?: unknown): Promise<Json> {
    return admin(this.sandbox, method, path, body);
  }

  async token(keys: KeyPair): Promise<string> {
    const reply = await call(`${this.url}/jwt`, {
      body: { private_key: keys.private_key, secret_key: keys.secret_key },
    });
    if (reply.status !== 200) throw new Error(`jwt: ${reply.status} ${JSON.stringify(reply.body)}`);
    return (reply.body as { token: string }).token;
  }

  api(token: string) {
    return (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      call(`${this.url}${path}`, { ...init, token });
  }

  /** Waits until the asynchronous file jobs have run. */
  drain(): Promise<Json> {
    return this.admin('POST', '/jobs/drain');
  }
}

export interface World {
  t: TestSandbox;
  companyId: number;
  /** A company client with every scope. */
  company: ReturnType<TestSandbox['api']>;
  /** A job-board client bound to channel "board_test". */
  board: ReturnType<TestSandbox['api']>;
  /** An online campaign of the company, broadcast on board_test (0 under the Entity option). */
  campaignId: number;
  /** Creates a campaign through the API and sets it up as a manager would. */
  campaign(
    patch?: { status?: string; channels?: string[]; tags?: string[] },
    fields?: Record<string, unknown>,
  ): Promise<number>;
}

/**
 * One company (sources carriere and board, skills option) with a company
 * client, a job-board client on channel "board_test" and one online
 * campaign broadcast there.
 */
export async function world(options: SandboxOptions = {}, company: Record<string, unknown> = {}): Promise<World> {
  // Tests make many calls with one client: no rate limit unless a test asks for one.
  const t = await TestSandbox.start({ rateLimitPerMinute: 0, ...options });
  try {
    return await buildWorld(t, company);
  } catch (error) {
    await t.close();
    throw error;
  }
}

/**
 * The world of a describe block: built in its before hook, closed in its
 * after hook. The object returned reads that world, so a test uses it as the
 * World itself.
 */
export function suiteWorld(options: SandboxOptions = {}, company: Record<string, unknown> = {}): World {
  let built: World | undefined;
  before(async () => {
    built = await world(options, company);
  });
  after(() => built?.t.close());
  const current = (): World => {
    if (built === undefined) throw new Error('the world is built in the before hook: read it inside a test');
    return built;
  };
  return {
    get t() {
      return current().t;
    },
    get companyId() {
      return current().companyId;
    },
    get campaignId() {
      return current().campaignId;
    },
    company: (path, init) => current().company(path, init),
    board: (path, init) => current().board(path, init),
    campaign: (patch, fields) => current().campaign(patch, fields),
  };
}

async function buildWorld(t: TestSandbox, company: Record<string, unknown>): Promise<World> {
  const created = await t.admin('POST', '/companies', {
    name: 'Test Co',
    sources: ['carriere', 'board'],
    skills_option: true,
    ...company,
  });
  const companyKeys = await t.admin('POST', '/clients', { company_id: created.id });
  const boardKeys = await t.admin('POST', '/clients', { channel: 'board_test' });
  const companyApi = t.api(await t.token(companyKeys));
  const boardApi = t.api(await t.token(boardKeys));
  const campaign = async (
    patch: { status?: string; channels?: string[]; tags?: string[] } = { status: 'online', channels: ['board_test'] },
    fields: Record<string, unknown> = {},
  ) => {
    const reply = await companyApi('/campaigns', {
      body: { campaign: { manage_name: 'Campaign', name: 'Job', ...fields } },
    });
    if (reply.status !== 201) throw new Error(`campaign: ${reply.status} ${JSON.stringify(reply.body)}`);
    await t.admin('PATCH', `/campaigns/${reply.body.id}`, patch);
    return reply.body.id as number;
  };
  // Under the Entity option a campaign needs a unit: the caller creates its own.
  const campaignId = company.entity_option === true ? 0 : await campaign();
  return { t, companyId: created.id, company: companyApi, board: boardApi, campaignId, campaign };
}

/** POST /jobboards/applicants as the world's job board, for its company unless another is named. */
export function boardApplicant(w: World, applicant: Json, companyId: number = w.companyId): Promise<Reply<Json>> {
  return w.board('/jobboards/applicants', { body: { company_id: companyId, applicant } });
}
