// A crafted link to a board's own page: `?offer=<id>&endpoint=<another
// server>`. The board builds the page on its server with the proxy's
// pre-rendered fragment; the candidate applies with a resume through the
// rendered form. Not one request may reach the other server (a real one,
// counting every connection and request, preflights included), and the
// application must reach the proxy. Real Chromium, the demo stack over real
// HTTP.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { Browser } from 'playwright-core';
import { listenBoard } from './board-server.ts';
import type { Board } from './board-server.ts';
import { startDemoWorld, writeResume } from './demo-world.ts';
import type { DemoWorld } from './demo-world.ts';
import { eventually } from '../../server/test/poll.ts';
import { fillAndSend } from './apply-form.ts';

/**
 * The stranger's server: relays everything to the proxy, as a collecting
 * server would to go unnoticed (so the form works whichever way the page
 * goes), and counts every connection and request, CORS preflights included.
 */
async function startStranger(
  proxyUrl: () => string,
): Promise<Board & { connections: () => number; requests: () => string[] }> {
  let connections = 0;
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '/', proxyUrl());
    const relayed = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    relayed.on('error', () => res.destroy());
    req.pipe(relayed);
  });
  server.on('connection', () => {
    connections += 1;
  });
  return { ...(await listenBoard(server)), connections: () => connections, requests: () => requests };
}

/**
 * A board that builds its page on its server and passes its page's whole
 * query string on to GET /embed/campaigns, as boards following the earlier
 * guide do: the proxy alone must keep the link's endpoint out.
 */
async function startWholeQueryBoard(proxyUrl: () => string): Promise<Board> {
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://board').search.slice(1);
    void fetch(`${proxyUrl()}/embed/campaigns?${query}&lang=en`).then(async (answer) => {
      res.writeHead(answer.status === 404 ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Offres</title><link rel="icon" href="data:,">
<script type="module" src="${proxyUrl()}/widget.js"></script></head>
<body><main>${await answer.text()}</main></body></html>`);
    });
  });
  return listenBoard(server);
}

describe("a crafted link carrying endpoint=<another server> to a page built on the board's server", () => {
  let world: DemoWorld;
  let demo: DemoWorld['demo'];
  let browser: Browser;
  let stranger: Awaited<ReturnType<typeof startStranger>>;
  let board: Board;
  let pdfPath: string;
  let offerIds: number[];

  before(async () => {
    stranger = await startStranger(() => demo.proxy.url);
    board = await startWholeQueryBoard(() => demo.proxy.url);
    // The board's pages are on another origin than the proxy: PUBLIC_ORIGIN, as the guide says.
    world = await startDemoWorld('crafted-link', (port) => ({
      ALLOWED_ORIGINS: board.origin,
      PUBLIC_ORIGIN: `http://localhost:${port}`,
    }));
    ({ demo, browser } = world);
    pdfPath = await writeResume(world.dir, 'Noa Petit - nurse');
    offerIds = await eventually(
      async () => {
        const list = (await (await fetch(`${demo.proxy.url}/api/campaigns?per_page=5`)).json()) as {
          items: { id: number }[];
        };
        return list.items.length >= 2 ? list.items.map((item) => item.id) : undefined;
      },
      { timeoutMs: 30_000, what: "open offers in the proxy's catalogue" },
    );
  });

  after(async () => {
    await world?.close();
    board?.server.close();
    stranger?.server.close();
  });

  /** The applications in the proxy's outbox, whatever their state. */
  async function storedApplications(): Promise<number> {
    return Object.values(await demo.proxy.applications.outbox.counts()).reduce((sum, count) => sum + count, 0);
  }

  const pages = [
    { name: "the demo's /server-rendered/ page", url: () => `${demo.proxy.url}/server-rendered/` },
    { name: 'a board that passes its whole query string on', url: () => `${board.origin}/offres` },
  ];

  pages.forEach(({ name, url }, index) => {
    it(`${name}: the application goes to the proxy and not one request reaches the other server`, async () => {
      const offer = offerIds[index]!;
      const link = `${url()}?offer=${offer}&endpoint=${encodeURIComponent(stranger.origin)}`;
      const page = await browser.newPage();
      const proxyApplications: number[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith(`${demo.proxy.url}/api/applications`) && response.request().method() === 'POST')
          proxyApplications.push(response.status());
      });

      const stored = await storedApplications();
      const answer = await page.goto(link);
      assert.equal(answer?.status(), 200);
      try {
        await page.locator('jobboard-apply form').waitFor();
      } catch (error) {
        // A form that never comes: say first where the page's requests went.
        assert.deepEqual(stranger.requests(), [], 'no request reached the other server');
        assert.ok(!(await page.content()).includes(stranger.origin), 'the page names no other server');
        throw error;
      }
      await fillAndSend(page, {
        email: `noa.petit.${index}@example.org`,
        firstName: 'Noa',
        lastName: 'Petit',
        resume: pdfPath,
      });
      await page.locator('jobboard-apply [part="outcome"]').waitFor({ timeout: 15_000 });

      assert.deepEqual(stranger.requests(), [], 'no request reached the other server');
      assert.ok(!(await page.content()).includes(stranger.origin), 'the page names no other server');
      assert.equal(stranger.connections(), 0, 'no connection reached the other server');
      assert.equal(proxyApplications.length, 1, 'the browser sent the application to the proxy');
      assert.equal(await storedApplications(), stored + 1, 'the proxy stored it');
      assert.ok([201, 202].includes(proxyApplications[0]!), `the proxy took it (answered ${proxyApplications[0]})`);
      assert.equal(
        await page.locator('jobboard-apply [part="outcome"].success').count(),
        1,
        'the candidate is told it is received',
      );
      await page.close();
    });
  });
});
