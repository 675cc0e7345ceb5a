// A board built with React 19: its server renders the page with
// `jobboard-connector/react` (renderToString), the browser hydrates it, and
// the candidate applies; the board's onApplicationReceived callback hears it.
// Uses the built React entry (dist/npm/react.js, what the package ships):
// `npm run build` first. The board's script is bundled here with Vite, React
// included, as a board's own build would.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createElement } from 'react';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { build } from 'vite';
import type { Rolldown } from 'vite';
import type { Browser } from 'playwright-core';
import { startDemoWorld } from './demo-world.ts';
import type { DemoWorld } from './demo-world.ts';
import { pdf } from '../../server/test/files.ts';

const ROOT = join(import.meta.dirname, '../..');
const REACT_ENTRY = join(ROOT, 'dist/npm/react.js');

/** What the board's server and its script render: the same tree, so that it hydrates. */
const APP = `
export function App({ endpoint, onApplicationReceived }) {
  return createElement('main', null, createElement('h1', null, 'Jobs'), createElement(JobboardCampaigns, { endpoint, perPage: 5, onApplicationReceived }));
}`;

/** The board's script: hydrates the server's HTML and records what the callback receives and what React reports. */
const BOARD_SCRIPT = `
import { createElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { JobboardCampaigns } from 'jobboard-connector/react';
${APP}
const root = document.getElementById('root');
window.received = [];
window.reactErrors = [];
hydrateRoot(root, createElement(App, { endpoint: root.dataset.endpoint, onApplicationReceived: (event) => window.received.push(event.detail) }), {
  onRecoverableError: (error) => window.reactErrors.push(String(error)),
});
`;

/** The board's script bundled (React in development mode, which reports hydration mismatches), by file name. */
async function bundleBoardScript(): Promise<Map<string, string>> {
  const output = (await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    mode: 'development',
    resolve: { alias: { 'jobboard-connector/react': REACT_ENTRY } },
    plugins: [
      {
        name: 'board-script',
        resolveId: (id) => (id === 'board-script' ? '\0board-script' : null),
        load: (id) => (id === '\0board-script' ? BOARD_SCRIPT : null),
      },
    ],
    build: { write: false, minify: false, rolldownOptions: { input: 'board-script', output: { entryFileNames: 'app.js' } } },
  })) as Rolldown.RolldownOutput;
  return new Map(output.output.map((file) => [file.fileName, file.type === 'chunk' ? file.code : String(file.source)]));
}

/** The page as the board's server renders it with React. */
async function serverRender(endpoint: string): Promise<string> {
  const { JobboardCampaigns } = (await import(pathToFileURL(REACT_ENTRY).href)) as { JobboardCampaigns: ComponentType<Record<string, unknown>> };
  const App = new Function('createElement', 'JobboardCampaigns', `${APP.replace('export ', '')}; return App;`)(createElement, JobboardCampaigns) as ComponentType<{ endpoint: string }>;
  return renderToString(createElement(App, { endpoint }));
}

async function startBoard(files: Map<string, string>, page: () => Promise<{ html: string; endpoint: string }>): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://board').pathname;
    if (path === '/') {
      void page().then(({ html, endpoint }) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Jobs</title><link rel="icon" href="data:,">
<script type="module" src="/app.js"></script></head><body><div id="root" data-endpoint="${endpoint}">${html}</div></body></html>`);
      });
      return;
    }
    const file = files.get(path.slice(1));
    res.writeHead(file === undefined ? 404 : 200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(file ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('a board built with React 19 (jobboard-connector/react)', () => {
  let world: DemoWorld;
  let board: { origin: string; server: Server };
  let browser: Browser;
  let pdfPath: string;
  let proxy = '';

  before(async () => {
    board = await startBoard(await bundleBoardScript(), async () => ({ html: await serverRender(proxy), endpoint: proxy }));
    world = await startDemoWorld('react', { ALLOWED_ORIGINS: board.origin });
    proxy = world.demo.proxy.url;
    ({ browser } = world);
    pdfPath = join(world.dir, 'cv.pdf');
    await writeFile(pdfPath, pdf({ text: 'Ana Lopez - data analyst' }));
  });

  after(async () => {
    await world?.close();
    board?.server.close();
  });

  it("renders the element's tag on the server", async () => {
    assert.equal(await serverRender(proxy), '<main><h1>Jobs</h1><jobboard-campaigns></jobboard-campaigns></main>');
  });

  it('hydrates in the browser with its props, takes an application and calls onApplicationReceived, with nothing reported by React', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const listed: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/campaigns') listed.push(request.url());
    });
    await page.goto(board.origin + '/');
    await page.locator('jobboard-campaigns [data-offer]').first().click();
    await page.locator('jobboard-apply form').waitFor();
    await page.locator('jobboard-apply #email').fill('ana.lopez@example.org');
    await page.locator('jobboard-apply #first_name').fill('Ana');
    await page.locator('jobboard-apply #last_name').fill('Lopez');
    await page.locator('jobboard-apply #resume').setInputFiles(pdfPath);
    await page.locator('jobboard-apply #consent').check();
    await page.locator('jobboard-apply [part="submit-button"]').click();
    await page.locator('jobboard-apply [part="outcome"].success').waitFor({ timeout: 15_000 });

    const received = (await page.evaluate(() => (window as unknown as { received: unknown[] }).received)) as { campaignId: number; status: string }[];
    assert.equal(received.length, 1);
    assert.equal(typeof received[0]!.campaignId, 'number');
    assert.match(received[0]!.status, /^(delivered|queued)$/);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { reactErrors: string[] }).reactErrors), []);
    assert.deepEqual(errors, []);
    // The props reached the element before it started: the list was asked of the proxy, with perPage.
    assert.ok(listed.length > 0);
    assert.deepEqual(listed.filter((url) => !url.startsWith(`${proxy}/api/campaigns?`) || new URL(url).searchParams.get('per_page') !== '5'), []);
    await page.close();
  });
});
