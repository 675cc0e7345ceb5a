// A sandbox on port 0 with a small world built through its admin surface,
// for the client's integration tests over real HTTP.
import { startSandbox } from '../../sandbox/index.ts';
import type { RunningSandbox } from '../../sandbox/index.ts';
import { createClient } from '../index.ts';
import { admin as sandboxAdmin } from '../../test/sandbox-admin.ts';
import type { ClientOptions, RecruitmentClient } from '../index.ts';

export interface KeyPair {
  private_key: string;
  secret_key: string;
}

export interface World {
  sandbox: RunningSandbox;
  companyId: number;
  /** A company API client with every scope. */
  companyKeys: KeyPair;
  /** A job-board API client bound to the channel `jobboard_test`. */
  jobboardKeys: KeyPair;
  /** A company API client with campaigns_read only. */
  readOnlyKeys: KeyPair;
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** A client of the sandbox; the budget is large unless the test says otherwise, so tests never wait on it. */
  client(keys: KeyPair, options?: Partial<ClientOptions>): RecruitmentClient;
  close(): Promise<void>;
}

export const JOBBOARD_CHANNEL = 'jobboard_test';

export async function startWorld(options: { rateLimitPerMinute?: number } = {}): Promise<World> {
  const sandbox = await startSandbox({ port: 0, admin: true, rateLimitPerMinute: options.rateLimitPerMinute ?? 0 });
  const admin = <T>(method: string, path: string, body?: unknown) => sandboxAdmin<T>(sandbox, method, path, body);
  const company = await admin<{ id: number }>('POST', '/companies', {
    name: 'Acme',
    sources: ['carriere', 'jobboard'],
    skills_option: true,
  });
  await admin('POST', '/channels', { company_id: company.id, value: 'career_fr', name: 'Career site (fr)' });
  await admin('POST', '/channels', { company_id: company.id, value: JOBBOARD_CHANNEL, name: 'Test job board' });
  const companyKeys = await admin<KeyPair>('POST', '/clients', { company_id: company.id });
  const jobboardKeys = await admin<KeyPair>('POST', '/clients', { channel: JOBBOARD_CHANNEL });
  const readOnlyKeys = await admin<KeyPair>('POST', '/clients', { company_id: company.id, scopes: ['campaigns_read'] });
  return {
    sandbox,
    companyId: company.id,
    companyKeys,
    jobboardKeys,
    readOnlyKeys,
    admin,
    client: (keys, clientOptions = {}) =>
      createClient({
        baseUrl: sandbox.url,
        privateKey: keys.private_key,
        secretKey: keys.secret_key,
        budget: { perMinute: 100_000 },
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        ...clientOptions,
      }),
    close: () => sandbox.close(),
  };
}
