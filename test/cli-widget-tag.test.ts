// `jobboard-connector widget-tag` as a partner runs it: the tags pin the bytes
// the proxy serves today, so it refuses an unencrypted endpoint on another
// machine, and points out a widget.js other than this package's own build.
// Its run against a real proxy, pasted in a page: test/e2e/pinned-widget.test.ts.
// Reads the built bundle: `npm run build` first.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { widgetPin } from '../server/proxy/http/widget-pin.ts';
import { CLI } from './cli-processes.ts';

function widgetTag(endpoint: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI.sources, 'widget-tag', '--endpoint', endpoint], (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
    });
  });
}

/** A stand-in of a proxy serving `files` (name to bytes) at its root, widget.js also under its pinned name; counts the requests. */
async function serve(files: Record<string, Uint8Array>): Promise<{ url: string; server: Server; requests: string[] }> {
  const all = { ...files, [widgetPin(files['widget.js']!).name]: files['widget.js']! };
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const bytes = all[(req.url ?? '').slice(1)];
    res.writeHead(bytes === undefined ? 404 : 200, { 'content-type': 'text/javascript' });
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

const REFUSED =
  /--endpoint is an http:\/\/ address on another machine: .*Give the proxy's https:\/\/ address \(http:\/\/ is taken only for localhost, 127\.0\.0\.1 or \[::1\]/;

describe('jobboard-connector widget-tag', () => {
  let own: Record<string, Uint8Array>;
  const servers: Server[] = [];

  before(async () => {
    const dir = new URL('../dist/widget/', import.meta.url);
    const names = await readdir(dir).catch(() => {
      throw new Error('dist/widget is missing: run `npm run build` first.');
    });
    own = Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, new Uint8Array(await readFile(new URL(name, dir)))] as const)),
    );
  });

  after(() => {
    for (const server of servers) server.close();
  });

  it('refuses an http:// endpoint on another machine, by name or by address, before asking it anything, and says why and what to give', async () => {
    for (const endpoint of ['http://jobs-proxy.example', 'http://192.0.2.10:8080/jobs', 'http://[2001:db8::1]/']) {
      const { code, stdout, stderr } = await widgetTag(endpoint);
      assert.equal(code, 1, endpoint);
      assert.equal(stdout, '', endpoint);
      assert.match(stderr, REFUSED, endpoint);
    }
  });

  it('takes http:// to this machine, by any of its loopback names: the tags of the build it serves, with no warning', async () => {
    const proxy = await serve(own);
    servers.push(proxy.server);
    const port = new URL(proxy.url).port;
    for (const host of ['127.0.0.1', 'localhost']) {
      const { code, stdout, stderr } = await widgetTag(`http://${host}:${port}`);
      assert.equal(code, 0, stderr);
      const pin = widgetPin(own['widget.js']!);
      assert.ok(
        stdout.includes(`<script type="module" src="http://${host}:${port}/${pin.name}" integrity="${pin.integrity}"`),
        stdout,
      );
      // Every module of the build is pinned, those the apply form imports (quick apply) too.
      for (const name of Object.keys(own).filter((n) => n !== 'widget.js' && n.endsWith('.js')))
        assert.ok(stdout.includes(`"http://${host}:${port}/${name}":"sha384-`), `${name} has no integrity: ${stdout}`);
      assert.equal(stderr, '');
    }
  });

  it("warns, on stderr, when the proxy serves another widget.js than this package's build, and still prints the tags of the one served", async () => {
    const other = new TextEncoder().encode('export const stale = 1;\n');
    const proxy = await serve({ 'widget.js': other });
    servers.push(proxy.server);
    const { code, stdout, stderr } = await widgetTag(proxy.url);
    assert.equal(code, 0, stderr);
    assert.ok(
      stdout.includes(
        `<script type="module" src="${proxy.url}/${widgetPin(other).name}" integrity="${widgetPin(other).integrity}"`,
      ),
      stdout,
    );
    assert.match(
      stderr,
      /^Warning: the proxy serves another widget\.js than this package's build \(.*dist\/widget\/widget\.js\); the tags below pin the one it serves\. .*run widget-tag again\.\n$/,
    );
  });
});
