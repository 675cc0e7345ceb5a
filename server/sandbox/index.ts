// The sandbox recruitment API: startSandbox() for tests, the demo and the
// `jobboard-connector sandbox` command; createSandboxApp() for embedding.
import type { AddressInfo } from 'node:net';
import { createSandboxApp as createApp } from './app.ts';
import { createContext } from './context.ts';
import type { ContextOptions, SandboxContext } from './context.ts';
import { DEMO_KEYS, seedDemo } from './seed.ts';
import type { DemoKeys } from './seed.ts';

export { DEMO_KEYS, DEMO_ENTITY_COMPANY_KEYS } from './seed.ts';
export type { DemoKeys } from './seed.ts';
export { createContext } from './context.ts';
export type { SandboxContext, ContextOptions } from './context.ts';
export { MAX_BODY_BYTES } from './app.ts';
export { MAX_FILE_BYTES } from './files.ts';

export interface SandboxOptions {
  /** Default 0 (any free port); the CLI passes 4010. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** A SQLite file, or ':memory:' (default). */
  dbPath?: string;
  seed?: 'demo';
  /** Serve the /_sandbox admin routes (default false; tests and the demo pass true). */
  admin?: boolean;
  /** Requests per minute per API client (default 120; 0 turns the limit off). */
  rateLimitPerMinute?: number;
  /**
   * Length of the rate limit's sliding window in ms (default 60 000, the service's minute). Tests shorten it so
   * that waiting out a 403 rate_limited takes little time; Retry-After stays in whole seconds (at least 1).
   */
  rateLimitWindowMs?: number;
  /** One line per request on stdout (default false). */
  log?: boolean;
  /**
   * The address clients reach the sandbox at when it is not where it listens
   * (behind a reverse proxy): a self-signed token's "aud" may name it.
   */
  publicUrl?: string;
}

export interface RunningSandbox {
  /** The API root, e.g. 'http://127.0.0.1:4010/v2'. */
  url: string;
  /** 'http://127.0.0.1:4010'; admin routes are origin + '/_sandbox/...'. */
  origin: string;
  port: number;
  demoKeys?: DemoKeys;
  /** The dependencies of the running app (tests reach the database and the job queue through it). */
  context: SandboxContext;
  close(): Promise<void>;
}

/** Builds the Express app of a sandbox from its dependencies, or from options. */
export function createSandboxApp(deps: SandboxContext | ContextOptions = {}) {
  return createApp('db' in deps ? deps : createContext(deps));
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const context = createContext({
    dbPath: options.dbPath ?? ':memory:',
    admin: options.admin ?? false,
    rateLimitPerMinute: options.rateLimitPerMinute,
    rateLimitWindowMs: options.rateLimitWindowMs,
    log: options.log ?? false,
  });
  let demoKeys: DemoKeys | undefined;
  if (options.seed === 'demo') {
    const alreadySeeded =
      context.db.get('SELECT 1 AS yes FROM api_clients WHERE private_key = ?', DEMO_KEYS.company.private_key) !==
      undefined;
    demoKeys = alreadySeeded ? DEMO_KEYS : seedDemo(context);
  }
  const app = createApp(context);
  const host = options.host ?? '127.0.0.1';
  const server = app.listen(options.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Large uploads over slow links: keep the defaults generous but bounded.
  server.requestTimeout = 120_000;
  // Idle keep-alive sockets outlive any client's own idle timeout (undici's is
  // 4 s), so a client never reuses a socket the sandbox is closing: that race
  // reads as ECONNRESET on a busy machine.
  server.keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  context.tokens.setAudiences([origin, ...(options.publicUrl === undefined ? [] : [options.publicUrl])]);
  let closed: Promise<void> | undefined;
  return {
    url: `${origin}/v2`,
    origin,
    port,
    ...(demoKeys === undefined ? {} : { demoKeys }),
    context,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        context.jobs.close();
        context.faults.close();
        server.close((error) => {
          context.db.close();
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
