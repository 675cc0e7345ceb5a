// What a proxy loads to start, in a process of its own (a test process has
// loaded everything already): the OpenAPI document's builder and file-type
// wait for their first use, so a starting proxy does not carry them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const tmp = mkdtempSync(join(tmpdir(), 'proxy-footprint-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const INDEX = new URL('./index.ts', import.meta.url).href;
const CONFIG = new URL('./config.ts', import.meta.url).href;

/**
 * Builds a proxy (createProxy, its app on port 0, no sync started), then asks
 * it for `paths` in turn; prints the modules loaded before and after.
 */
const SCRIPT = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ resolve(specifier, context, next) { const resolved = next(specifier, context); loaded.add(resolved.url); return resolved; } });
const { createProxy } = await import(${JSON.stringify(INDEX)});
const { loadProxyConfig } = await import(${JSON.stringify(CONFIG)});
const config = loadProxyConfig({
  UPSTREAM_URL: 'http://127.0.0.1:9/v2', UPSTREAM_PRIVATE_KEY: 'k', UPSTREAM_SECRET_KEY: 's', JOBBOARD_CHANNEL: 'jobboard_test',
  DATA_DIR: process.env.DATA_DIR, LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0',
});
const proxy = createProxy({ config });
const server = proxy.app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const atStart = [...loaded];
const statuses = [];
for (const path of JSON.parse(process.env.PATHS)) statuses.push((await fetch('http://127.0.0.1:' + server.address().port + path)).status);
console.log(JSON.stringify({ atStart, afterwards: [...loaded], statuses }));
server.close();
server.closeAllConnections();
await proxy.stop();
`;

async function startAndAsk(paths: string[]): Promise<{ atStart: string[]; afterwards: string[]; statuses: number[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, DATA_DIR: mkdtempSync(join(tmp, 'data-')), PATHS: JSON.stringify(paths) },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    atStart: string[];
    afterwards: string[];
    statuses: number[];
  };
}

const isOpenApiBuilder = (url: string) => url.endsWith('/server/public-api/openapi.ts');
const isFileType = (url: string) => url.includes('/node_modules/file-type/');

describe('a starting proxy', () => {
  it('loads neither the OpenAPI builder nor file-type, and loads the builder on the first GET /api/openapi.json', async () => {
    const { atStart, afterwards, statuses } = await startAndAsk(['/api/openapi.json', '/api/openapi.json']);
    // The hook sees the proxy's own modules: an empty list would prove nothing.
    assert.ok(
      atStart.some((url) => url.endsWith('/server/proxy/app.ts')),
      'the hook saw the app load',
    );
    assert.deepEqual(
      atStart.filter((url) => isOpenApiBuilder(url) || isFileType(url)),
      [],
    );
    assert.deepEqual(statuses, [200, 200]);
    assert.ok(afterwards.some(isOpenApiBuilder), 'the builder is loaded once the document is asked for');
  });
});
