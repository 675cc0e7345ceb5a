// A proxy in its own process, for the kill -9 tests (test/proxy-apply-crash.test.ts).
// Configured from the environment like `jobboard-connector proxy`; prints
// {"url": ...} once it listens. With TEST_CRASH_AFTER_UPSTREAM_CREATE=1 it
// kills itself with SIGKILL the moment the service has answered 201 to a
// create and before the outbox can record it: the worst crash window.
import { loadProxyConfig } from '../server/proxy/config.ts';
import { createLogger } from '../server/proxy/logger.ts';
import { startProxyStack } from './proxy-apply.test-support.ts';

const crashAfterCreate = process.env.TEST_CRASH_AFTER_UPSTREAM_CREATE === '1';
const baseBackoffMs = Number(process.env.TEST_BASE_BACKOFF_MS ?? 200);
// With PostgreSQL a killed proxy's rows and keys are taken over when their lease ends: short here.
const leaseMs = process.env.TEST_LEASE_MS === undefined ? {} : { leaseMs: Number(process.env.TEST_LEASE_MS) };

const killingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = input instanceof Request ? input.url : String(input);
  if (url.endsWith('/jobboards/applicants') && response.status === 201) {
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => undefined);
  }
  return response;
};

const config = loadProxyConfig(process.env);
const stack = await startProxyStack(config, {
  logger: createLogger({ level: 'silent' }),
  delivery: { baseBackoffMs, maxBackoffMs: baseBackoffMs * 2, pollIntervalMs: 50, ...leaseMs },
  ...(crashAfterCreate ? { fetch: killingFetch } : {}),
});
process.stdout.write(`${JSON.stringify({ url: stack.url })}\n`);
process.on('SIGTERM', () => {
  void stack.stop().then(() => process.exit(0));
});
