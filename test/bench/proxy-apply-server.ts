// Child processes of the apply bench. `sandbox`: the seeded sandbox with no
// rate limit. `proxy`: the proxy (startProxy, logs to /dev/null) against the
// sandbox named by UPSTREAM_URL, with a request budget that never throttles,
// so the bench measures the proxy and not the service's 120/min policy.
// Each prints one JSON line with its URL and pid, then serves until killed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createClient } from '../../server/client/index.ts';
import { loadProxyConfig } from '../../server/proxy/config.ts';
import { startProxy } from '../../server/proxy/index.ts';
import { createLogger } from '../../server/proxy/logger.ts';
import { DEMO_KEYS, startSandbox } from '../../server/sandbox/index.ts';

const mode = process.argv[2];
if (mode === 'sandbox') {
  const sandbox = await startSandbox({ seed: 'demo', rateLimitPerMinute: 0 });
  console.log(JSON.stringify({ url: sandbox.url, pid: process.pid }));
  process.on('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
} else {
  const config = loadProxyConfig({
    UPSTREAM_URL: process.env.UPSTREAM_URL,
    UPSTREAM_PRIVATE_KEY: DEMO_KEYS.jobboard.private_key,
    UPSTREAM_SECRET_KEY: DEMO_KEYS.jobboard.secret_key,
    JOBBOARD_CHANNEL: DEMO_KEYS.jobboard.channel,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'proxy-apply-bench-')),
    APPLY_RATE_LIMIT_PER_IP: '1000000',
    DELIVERY_DEADLINE_MS: '30000',
    // Short enough that the slow-upload part sees every socket cut within the bench.
    UPLOAD_TIMEOUT_SECONDS: process.env.UPLOAD_TIMEOUT_SECONDS ?? '10',
    METRICS_PORT: '0',
  });
  const client = createClient({ baseUrl: config.upstream.url, privateKey: config.upstream.privateKey, secretKey: config.upstream.secretKey, budget: { perMinute: 1_000_000 }, timeout: 60_000 });
  const proxy = await startProxy({
    config,
    client,
    logger: createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: false }) }),
  });
  await proxy.catalogue.syncNow();
  console.log(JSON.stringify({ url: proxy.url, pid: process.pid }));
  process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
}
