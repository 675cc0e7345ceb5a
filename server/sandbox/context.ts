// Everything a sandbox app depends on, built once per server (
// the app is a function of its dependencies).
import { RATE_LIMIT_PER_MINUTE } from '../contract/index.ts';
import { TokenVerifier } from './auth.ts';
import { SandboxClock } from './clock.ts';
import { Database } from './db.ts';
import { Faults } from './faults.ts';
import { JobQueue } from './jobs.ts';
import { DEFAULT_RATE_LIMIT_WINDOW_MS, RateLimiter } from './rate-limit.ts';
import { TrafficLog } from './traffic.ts';

export interface SandboxContext {
  db: Database;
  clock: SandboxClock;
  jobs: JobQueue;
  faults: Faults;
  rateLimiter: RateLimiter;
  /** What the sandbox saw, per API client and per create request (GET /_sandbox/stats, /_sandbox/creates). */
  traffic: TrafficLog;
  tokens: TokenVerifier;
  /** Whether the /_sandbox admin routes are served. */
  admin: boolean;
  /** One line per request on stdout. */
  log: boolean;
}

export interface ContextOptions {
  dbPath?: string;
  admin?: boolean;
  rateLimitPerMinute?: number;
  /** Length of the rate limit's sliding window in ms (default 60 000): rateLimitPerMinute requests per window. */
  rateLimitWindowMs?: number;
  log?: boolean;
  clock?: SandboxClock;
}

export function createContext(options: ContextOptions = {}): SandboxContext {
  const db = new Database(options.dbPath ?? ':memory:');
  const clock = options.clock ?? new SandboxClock();
  return {
    db,
    clock,
    jobs: new JobQueue(db, clock),
    faults: new Faults(),
    rateLimiter: new RateLimiter(options.rateLimitPerMinute ?? RATE_LIMIT_PER_MINUTE, options.rateLimitWindowMs),
    traffic: new TrafficLog(options.rateLimitWindowMs ?? DEFAULT_RATE_LIMIT_WINDOW_MS),
    tokens: new TokenVerifier(db, clock),
    admin: options.admin ?? false,
    log: options.log ?? false,
  };
}
