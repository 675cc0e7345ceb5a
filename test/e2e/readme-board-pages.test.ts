// The README's plain PHP and plain Node recipes ("Where boards live"), pages
// built on the server, run as written: the PHP page under `php -S`, the Node
// page server as a child process, both against a real proxy and sandbox,
// each opened in Chromium with hostile query strings. No script of a link may
// run on the board's page, and the page answers the proxy's 404 and 410; any
// other refusal serves the empty element. Each is a whole page: its language,
// title and description, an open offer's from the proxy's head. Only the addresses are set: the
// proxy's, the widget's and the Node server's port.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { freePort } from '../cli-processes.ts';
import { startApplyWorld } from '../proxy-apply.test-support.ts';
import type { ApplyWorld } from '../proxy-apply.test-support.ts';
import { serveReadmePage } from '../readme-recipes.ts';
import { adminCall } from '../../server/test/sandbox-admin.ts';

/** What a link's markup does if it ever runs: one console line the test watches for. */
const RAN = 'a-link-script-ran';
const HOSTILE = `<img src=x onerror=console.log('${RAN}')>`;

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
  const served: Partial<Record<'PHP' | 'Node', string>> = {};
  async function serve(name: 'PHP' | 'Node'): Promise<string> {
    if (served[name] !== undefined) return served[name];
    const { url, child } = await serveReadmePage(name, { dir, port: ports[name], proxyUrl });
    children.push(child);
    return (served[name] = url);
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

    it(`${name}: a whole page, in its language, with the list's title and description, or the open offer's head`, async () => {
      const board = await serve(name);
      const list = await (await fetch(board)).text();
      for (const part of [
        '<html lang="fr">',
        'name="viewport"',
        '<title>Offres d’emploi</title>',
        'name="description"',
      ])
        assert.ok(list.includes(part), `the list's page holds ${part}`);
      const offer = w.openCampaignIds[0]!;
      const head = await (await fetch(`${proxyUrl}/embed/campaigns/head?offer=${offer}`)).text();
      const title = /<title>[^<]*<\/title>/.exec(head)?.[0];
      assert.ok(title, "the proxy's head has the offer's title");
      const open = await (await fetch(`${board}?offer=${offer}`)).text();
      assert.ok(open.includes(title), `the open offer's page has its title ${title}`);
      assert.ok(open.includes(head.trim()), "the open offer's page holds the proxy's head tags");
      assert.ok(!open.includes('<title>Offres d’emploi</title>'), "the open offer's page has no other title");
    });
  }
});
