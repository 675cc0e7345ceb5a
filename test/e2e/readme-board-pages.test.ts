// The README's plain PHP and plain Node recipes ("Where boards live"), pages
// built on the server, run as written: the PHP page under `php -S`, the Node
// page server as a child process, both against a real proxy and sandbox,
// each opened in Chromium with hostile query strings. No script of a link may
// run on the board's page, and the page answers the proxy's 404 and 410; any
// other refusal serves the empty element. Only the addresses are set: the
// proxy's, the widget's and the Node server's port.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { freePort } from '../cli-processes.ts';
import { startApplyWorld } from '../proxy-apply.test-support.ts';
import type { ApplyWorld } from '../proxy-apply.test-support.ts';
import { eventually } from '../../server/test/poll.ts';
import { adminCall } from '../../server/test/sandbox-admin.ts';

/** What a link's markup does if it ever runs: one console line the test watches for. */
const RAN = 'a-link-script-ran';
const HOSTILE = `<img src=x onerror=console.log('${RAN}')>`;

/** The README's example in its ```LANG block under its recipe for that server ("Where boards live"). */
function readmeExample(lang: 'php' | 'js'): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const heading = lang === 'php' ? '#### Plain PHP' : '#### Plain Node';
  assert.ok(readme.includes(heading), `the README has a "${heading}" recipe`);
  const block = new RegExp(`\\n\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(readme.slice(readme.indexOf(heading)));
  assert.ok(block, `the README shows a \`\`\`${lang} page built on the server`);
  return block[1]!;
}

/** The example with this test's addresses: the proxy's (for the page's server and for the browser). */
function addressed(example: string, proxyUrl: string): string {
  assert.ok(
    example.includes('http://127.0.0.1:8080') && example.includes('https://your-proxy.example'),
    "the example names the proxy's addresses",
  );
  return example.replaceAll('http://127.0.0.1:8080', proxyUrl).replaceAll('https://your-proxy.example', proxyUrl);
}

describe("the README's pages built on the server, opened with hostile links", () => {
  let w: ApplyWorld;
  let browser: Browser;
  let dir: string;
  let proxyUrl: string;
  const ports = { PHP: 0, Node: 0 };
  const children: ChildProcess[] = [];
  let closedId: number;

  before(async () => {
    const proxyPort = await freePort();
    ports.PHP = await freePort();
    ports.Node = await freePort();
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
    w = await startApplyWorld({
      env: {
        PORT: String(proxyPort),
        PUBLIC_ORIGIN: proxyUrl,
        ALLOWED_ORIGINS: `http://127.0.0.1:${ports.PHP},http://127.0.0.1:${ports.Node}`,
      },
    });
    // An offer the board listed, then closed: 410.
    closedId = w.openCampaignIds.at(-1)!;
    assert.equal((await adminCall(w.sandbox, 'PATCH', `/campaigns/${closedId}`, { status: 'archived' })).status, 200);
    await w.catalogue.syncNow();
    dir = mkdtempSync(join(tmpdir(), 'jbc-readme-pages-'));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    for (const child of children) child.kill();
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Serves the README's example for this board; answers its page's URL. */
  async function serve(name: 'PHP' | 'Node'): Promise<string> {
    const port = ports[name];
    if (name === 'PHP') {
      writeFileSync(join(dir, 'index.php'), addressed(readmeExample('php'), proxyUrl));
      children.push(spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir], { stdio: 'ignore' }));
    } else {
      const proxyModule = pathToFileURL(join(import.meta.dirname, '../../server/proxy/index.ts')).href;
      const example = addressed(readmeExample('js'), proxyUrl);
      assert.ok(
        example.includes("'jobboard-connector/proxy'") && example.includes('.listen(3000)'),
        'the Node example is a whole server on port 3000',
      );
      writeFileSync(
        join(dir, 'page-server.mjs'),
        example
          .replace("'jobboard-connector/proxy'", `'${proxyModule}'`)
          .replace('.listen(3000)', `.listen(${port}, '127.0.0.1')`),
      );
      children.push(spawn(process.execPath, [join(dir, 'page-server.mjs')], { stdio: 'inherit' }));
    }
    const url = `http://127.0.0.1:${port}/${name === 'PHP' ? 'index.php' : ''}`;
    await eventually(async () => (await fetch(url).catch(() => undefined)) !== undefined, {
      timeoutMs: 20_000,
      what: `the ${name} page`,
    });
    return url;
  }

  /** Opens the page with this query; answers its status and whether a link's script ran. */
  async function open(
    board: string,
    query: string,
  ): Promise<{ status: number | undefined; ran: boolean; hasElement: boolean }> {
    const page = await browser.newPage();
    let ran = false;
    page.on('console', (message) => {
      if (message.text().includes(RAN)) ran = true;
    });
    const response = await page.goto(`${board}?${query}`);
    await page.waitForLoadState('load');
    const hasElement = (await page.locator('main jobboard-campaigns').count()) === 1;
    await page.close();
    return { status: response?.status(), ran, hasElement };
  }

  const cases = (): { query: string; status: number }[] => [
    // The proxy refuses these (422): the page serves the empty element.
    ...['near', 'offer', 'page', 'salary_min', 'sort'].map((name) => ({
      query: new URLSearchParams({ [name]: HOSTILE }).toString(),
      status: 200,
    })),
    // The proxy serves these (200), the value escaped in its fragment.
    ...['q', 'city', 'job_type'].map((name) => ({
      query: new URLSearchParams({ [name]: HOSTILE }).toString(),
      status: 200,
    })),
    { query: `offer=999999999&q=${encodeURIComponent(HOSTILE)}`, status: 404 },
    { query: `offer=${closedId}`, status: 410 },
  ];

  for (const name of ['PHP', 'Node'] as const) {
    it(`${name}: no link's script runs, the page answers the proxy's 404 and 410, and every page holds the element`, async () => {
      const board = await serve(name);
      const wrong: string[] = [];
      for (const { query, status } of cases()) {
        const opened = await open(board, query);
        if (opened.ran) wrong.push(`${query}: the link's script ran`);
        if (opened.status !== status) wrong.push(`${query}: answered ${opened.status}, not ${status}`);
        if (!opened.hasElement) wrong.push(`${query}: no <jobboard-campaigns> in the page`);
      }
      assert.deepEqual(wrong, []);
    });
  }
});
