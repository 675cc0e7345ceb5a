// Child process of the proxy bench: the seeded sandbox, the proxy against it
// (catalogue synced, logs off), and a bare Express route answering the very
// bytes of the proxy's GET /api/campaigns, and a control route answering the
// process's CPU time. Prints their URLs as one JSON line, then serves until
// killed. Kept apart from the load generator so
// autocannon does not share an event loop with the servers it measures.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { loadProxyConfig } from '../../server/proxy/config.ts';
import { startProxy } from '../../server/proxy/index.ts';
import { linesByTurnTo } from '../../server/proxy/log-destination.ts';
import { createLogger } from '../../server/proxy/logger.ts';
import { startSandbox } from '../../server/sandbox/index.ts';
import { demoProxyEnv } from '../../server/test/demo-proxy-env.ts';

const sandbox = await startSandbox({ seed: 'demo', rateLimitPerMinute: 0 });
const proxy = await startProxy({
  config: loadProxyConfig(demoProxyEnv(sandbox.url, { DATA_DIR: mkdtempSync(join(tmpdir(), 'proxy-bench-')) })),
  // Request lines are formatted and written as in production, to /dev/null.
  logger: createLogger({ level: 'info', destination: linesByTurnTo('/dev/null') }),
});
await proxy.catalogue.syncNow();

const path = '/api/campaigns?per_page=20';
// Uncompressed, as autocannon asks (it sends no Accept-Encoding).
const sample = await fetch(`${proxy.url}${path}`, { headers: { 'Accept-Encoding': 'identity' } });
const bytes = Buffer.from(await sample.arrayBuffer());
const etag = sample.headers.get('etag') ?? '';

// The same headers too (helmet's, CORS's, ETag...), so the load generator
// parses identical answers and the difference is the proxy's own work.
const SKIP = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding']);
const headers = [...sample.headers].filter(([name]) => !SKIP.has(name));
const bare = express();
bare.disable('x-powered-by');
bare.set('etag', false);
bare.get('/api/campaigns', (_req, res) => {
  for (const [name, value] of headers) res.setHeader(name, value);
  res.send(bytes);
});
const server = bare.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));

// CPU time of this process, read by the bench around fixed-rate runs.
const control = createServer((_req, res) => {
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(process.cpuUsage()));
});
control.listen(0, '127.0.0.1');
await new Promise((resolve) => control.once('listening', resolve));

console.log(
  JSON.stringify({
    proxy: `${proxy.url}${path}`,
    bare: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    cpu: `http://127.0.0.1:${(control.address() as AddressInfo).port}/`,
    etag,
    bytes: bytes.length,
  }),
);

process.on('SIGTERM', () => {
  server.close();
  control.close();
  void proxy
    .close()
    .then(() => sandbox.close())
    .then(() => process.exit(0));
});
