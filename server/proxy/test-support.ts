// Helpers for the proxy's tests (not used at run time): a configuration, a
// server on port 0 and the check of a problem answer. Log capture and polling
// are shared, in server/test/.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { get as httpGet } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { Express } from 'express';
import { captureLogs } from '../test/logs.ts';
import { demoProxyEnv } from '../test/demo-proxy-env.ts';
import { loadProxyConfig } from './config.ts';
import type { ProxyConfig } from './config.ts';
import { startProxy } from './index.ts';
import type { RunningProxy } from './index.ts';

/** fetch that checks each answer against the OpenAPI documents: the proxy's tests call the proxy with it. */
export { fetch } from '../openapi/test/answers.ts';

export const TEST_BOARD_ORIGIN = 'https://board.example';

export function testConfig(env: Record<string, string> = {}): ProxyConfig {
  return loadProxyConfig({
    UPSTREAM_URL: 'http://127.0.0.1:9/v2',
    UPSTREAM_PRIVATE_KEY: 'test-private-key',
    UPSTREAM_SECRET_KEY: 'test-secret-key-never-shown',
    JOBBOARD_CHANNEL: 'jobboard_test',
    ALLOWED_ORIGINS: TEST_BOARD_ORIGIN,
    PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: '/nonexistent-data-dir',
    LOG_LEVEL: 'info',
    ...env,
  });
}

/**
 * A proxy of the demo job board of the sandbox at `upstreamUrl` (seeded with
 * the demo), its catalogue synced once; `env` adds variables (DATA_DIR…).
 */
export async function startDemoBoardProxy(upstreamUrl: string, env: Record<string, string>): Promise<RunningProxy> {
  const proxy = await startProxy({
    config: testConfig(demoProxyEnv(upstreamUrl, env)),
    logger: captureLogs().logger,
  });
  try {
    await proxy.catalogue.syncNow();
  } catch (error) {
    await proxy.close();
    throw error;
  }
  return proxy;
}

/** A GET by node:http, for the bytes as sent (fetch decompresses them): compressed answers, empty ones. */
export function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** What tests read of a problem answer: its code and the fields its errors name. */
export interface AnsweredProblem {
  code: string;
  errors: { field: string; message: string }[];
}

/** Asserts `res` is a problem answer of `status` whose errors name `fields`, in order; resolves it for further checks. */
export async function problemNaming(
  res: Response,
  status: number,
  fields: string[],
  what = `a ${status} problem naming ${fields.join(', ')}`,
): Promise<AnsweredProblem> {
  assert.equal(res.status, status, what);
  const problem = (await res.json()) as AnsweredProblem;
  assert.deepEqual(
    problem.errors.map((e) => e.field),
    fields,
    what,
  );
  return problem;
}

export async function listen(app: Express): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
