// The variables of a proxy for the sandbox's demo job board, for the tests and
// benches that start one from its environment (a child process, or
// loadProxyConfig): one place names the demo keys and the free ports.
import { DEMO_KEYS } from '../sandbox/index.ts';

/**
 * A proxy of the demo job board against the API at `upstreamUrl`, listening on
 * free ports of 127.0.0.1; `extra` adds variables or overrides these.
 */
export function demoProxyEnv(upstreamUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_PRIVATE_KEY: DEMO_KEYS.jobboard.private_key,
    UPSTREAM_SECRET_KEY: DEMO_KEYS.jobboard.secret_key,
    JOBBOARD_CHANNEL: DEMO_KEYS.jobboard.channel,
    PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    ...extra,
  };
}
