// A board built with React, for the tests of the React entry
// (`@jobboard-connector/widget/react`, re-exported as `jobboard-connector/react`):
// its server renders the page with the entry (renderToString), its script
// (bundled here with Vite, React included, as a board's own build would)
// hydrates it, and a candidate applies in Chromium. The entry is a file: the
// build's (widget/dist/react.js) or an installed package's. React is the
// board's: that of the folder `app` (this repository's React 19 by default, or
// a board's own install, React 18 for one), for its server and its script alike.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ComponentType, createElement as CreateElement } from 'react';
import { build } from 'vite';
import type { Rolldown } from 'vite';
import type { Browser } from 'playwright-core';
import { fillAndSend } from './apply-form.ts';
import { listenBoard } from './board-server.ts';
import type { Board } from './board-server.ts';
import { consoleMessages } from './console-messages.ts';

const ROOT = join(import.meta.dirname, '../..');

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

/** The board's script bundled with the React entry at `reactEntry` and the React of `app` (in development mode, which reports hydration mismatches), by file name. */
async function bundleBoardScript(reactEntry: string, app: string): Promise<Map<string, string>> {
  const output = (await build({
    configFile: false,
    root: app,
    logLevel: 'silent',
    mode: 'development',
    resolve: { alias: { 'jobboard-connector/react': reactEntry } },
    plugins: [
      {
        name: 'board-script',
        resolveId: (id) => (id === 'board-script' ? '\0board-script' : null),
        load: (id) => (id === '\0board-script' ? BOARD_SCRIPT : null),
      },
    ],
    build: {
      write: false,
      minify: false,
      rolldownOptions: { input: 'board-script', output: { entryFileNames: 'app.js' } },
    },
  })) as Rolldown.RolldownOutput;
  return new Map(output.output.map((file) => [file.fileName, file.type === 'chunk' ? file.code : String(file.source)]));
}

/** The React of the folder `app`, as its server loads it. */
function reactOf(app: string): {
  createElement: typeof CreateElement;
  renderToString: (element: ReturnType<typeof CreateElement>) => string;
} {
  const load = createRequire(join(app, 'package.json'));
  return { createElement: load('react').createElement, renderToString: load('react-dom/server').renderToString };
}

/** The page's content as the board's server renders it with the React of `app` and the React entry at `reactEntry`. */
export async function serverRender(reactEntry: string, endpoint: string, app: string = ROOT): Promise<string> {
  const { JobboardCampaigns } = (await import(pathToFileURL(reactEntry).href)) as {
    JobboardCampaigns: ComponentType<Record<string, unknown>>;
  };
  const { createElement, renderToString } = reactOf(app);
  const App = new Function('createElement', 'JobboardCampaigns', `${APP.replace('export ', '')}; return App;`)(
    createElement,
    JobboardCampaigns,
  ) as ComponentType<{ endpoint: string }>;
  return renderToString(createElement(App, { endpoint }));
}

/** Starts the board's server, with the React of `app`; `proxy()` gives the proxy's address when a page is asked for. */
export async function startReactBoard(reactEntry: string, proxy: () => string, app: string = ROOT): Promise<Board> {
  const files = await bundleBoardScript(reactEntry, app);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://board').pathname;
    if (path === '/') {
      void serverRender(reactEntry, proxy(), app).then((html) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Jobs</title><link rel="icon" href="data:,">
<script type="module" src="/app.js"></script></head><body><div id="root" data-endpoint="${proxy()}">${html}</div></body></html>`);
      });
      return;
    }
    const file = files.get(path.slice(1));
    res.writeHead(file === undefined ? 404 : 200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(file ?? '');
  });
  return listenBoard(server);
}

export interface ReactBoardVisit {
  /** The `detail` of each call of the board's onApplicationReceived. */
  received: { campaignId: number; status: string }[];
  /** What React reported while hydrating (onRecoverableError). */
  reactErrors: string[];
  /** Errors in the console and uncaught ones (a hydration mismatch, a request that failed). */
  errors: string[];
  /** The URLs of the list's requests (`/api/campaigns?…`). */
  listed: string[];
}

/** In `browser`, a candidate opens the board at `origin`, opens the first offer and applies with the PDF at `resume`. */
export async function applyOnReactBoard(
  browser: Browser,
  origin: string,
  resume: string,
  email: string,
): Promise<ReactBoardVisit> {
  const page = await browser.newPage();
  const errors = consoleMessages(page, 'error');
  const listed: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/campaigns') listed.push(request.url());
  });
  try {
    await page.goto(`${origin}/`);
    await page.locator('jobboard-campaigns [data-offer]').first().click();
    await page.locator('jobboard-apply form').waitFor();
    await fillAndSend(page, { email, firstName: 'Ana', lastName: 'Lopez', resume });
    await page.locator('jobboard-apply [part="outcome"].success').waitFor({ timeout: 15_000 });
    // Read from the page, typed by hand: the package test that shares this module is checked without the DOM's types.
    const recorded = (await page.evaluate(() => {
      const board = globalThis as unknown as { received: unknown[]; reactErrors: string[] };
      return { received: board.received, reactErrors: board.reactErrors };
    })) as Pick<ReactBoardVisit, 'received' | 'reactErrors'>;
    return { ...recorded, errors, listed };
  } finally {
    await page.close();
  }
}
