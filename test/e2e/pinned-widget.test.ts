// A board that loads the widget pinned: the tags `jobboard-connector
// widget-tag` prints (an import map with the integrity of the modules
// widget.js imports, the script of /widget-<hash>.js with its own, a preload
// of the apply form's module), pasted in a French page
// served with the strict Content-Security-Policy and Trusted Types of the
// widget's guide, plus the import map's hash.
// Chromium must run the pinned bytes and refuse any other.
// Reads the built bundle: `npm run build` first.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { listenBoard } from './board-server.ts';
import type { Board } from './board-server.ts';
import { boardWorldPerSuite } from './demo-world.ts';
import { parseWidgetTag, strictPolicy } from './board-security.ts';

const run = promisify(execFile);
const CLI = new URL('../../server/cli.ts', import.meta.url).pathname;

/** The CSP source of the import map in `head`: what its board adds to script-src. */
function importMapSourceOf(head: string): string {
  const map = /<script type="importmap">(.*?)<\/script>/.exec(head)![1]!;
  return `'sha256-${createHash('sha256').update(map).digest('base64')}'`;
}

/** A French board page with `head` in its head, served with the strict policy of the widget's guide, allowing the import map in `head` unless `refuseMap`. */
async function startBoard(page: () => { head: string; proxy: string; refuseMap: boolean }): Promise<Board> {
  const server = createServer((req, res) => {
    if (req.url !== '/') {
      res.writeHead(204);
      res.end();
      return;
    }
    const { head, proxy, refuseMap } = page();
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': strictPolicy(proxy, refuseMap ? [] : [importMapSourceOf(head)]),
    });
    res.end(`<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Offres</title>
${head}</head>
<body><h1>Nos offres</h1><jobboard-campaigns endpoint="${proxy}"></jobboard-campaigns></body></html>`);
  });
  return listenBoard(server);
}

/** Another valid-looking SHA-384 in place of the one the tags give for `url` (the board's policy then allows that import map). */
function wrongIntegrity(head: string, url: RegExp): string {
  const map = /<script type="importmap">(.*?)<\/script>/.exec(head)![1]!;
  const integrity = (JSON.parse(map) as { integrity: Record<string, string> }).integrity;
  const [, value] = Object.entries(integrity).find(([key]) => url.test(key))!;
  const wrong = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;
  return head.replaceAll(value, wrong);
}

describe('a board that loads the widget pinned, with Subresource Integrity', () => {
  let printed: { head: string; importMapSource: string };
  let head = '';
  let refuseMap = false;
  const world = boardWorldPerSuite('pinned', (proxyUrl) => startBoard(() => ({ head, proxy: proxyUrl(), refuseMap })));

  before(async () => {
    const { stdout } = await run(process.execPath, [CLI, 'widget-tag', '--endpoint', world.demo.proxy.url]);
    printed = parseWidgetTag(stdout);
  });

  /** Opens the board with `tags` in its head; answers the page, the URLs it loaded and what the console said. */
  async function open(
    tags: string,
    options: { refuseMap?: boolean } = {},
  ): Promise<{ page: Page; loaded: string[]; console: string[] }> {
    head = tags;
    refuseMap = options.refuseMap ?? false;
    const page = await world.browser.newPage();
    const loaded: string[] = [];
    const said: string[] = [];
    page.on('requestfinished', (request) => loaded.push(new URL(request.url()).pathname));
    page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
    await page.goto(world.board.origin + '/');
    return { page, loaded, console: said };
  }

  it("runs the pinned widget.js, its apply form's module (preloaded), its saved offers', its alert panel's and its French module, each checked, with no unpinned file and nothing refused", async () => {
    assert.match(
      printed.head,
      /<script type="module" src="http:\/\/[\w.]+:\d+\/widget-[0-9a-f]{16}\.js" integrity="sha384-[A-Za-z0-9+/]{64}" crossorigin="anonymous"><\/script>/,
    );
    const preload =
      /<link rel="modulepreload" href="([^"]+\/widget-apply-[\w-]{8}\.js)" integrity="(sha384-[A-Za-z0-9+/]{64})" crossorigin="anonymous">/.exec(
        printed.head,
      );
    assert.ok(preload, printed.head);
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(printed.head)![1]!) as {
      integrity: Record<string, string>;
    };
    assert.equal(
      map.integrity[preload[1]!],
      preload[2],
      "the preload and the import map give the apply form's module one integrity",
    );
    assert.equal(
      printed.importMapSource,
      importMapSourceOf(printed.head),
      "the CSP source printed is the import map's",
    );
    const { page, loaded, console: said } = await open(printed.head);
    await page.locator('jobboard-campaigns [data-offer]').first().waitFor({ timeout: 15_000 });
    assert.equal(
      (await page.locator('jobboard-campaigns form[role="search"] button[type="submit"]').innerText()).trim(),
      'Rechercher',
    );
    await page.evaluate(() => customElements.whenDefined('jobboard-apply'));
    await page.locator('jobboard-campaigns .save-toggle').first().waitFor();
    await page.evaluate(() => customElements.whenDefined('jobboard-alert'));
    assert.deepEqual(
      loaded
        .filter((path) => path.endsWith('.js'))
        .map((path) =>
          path
            .replace(/^\/widget-[0-9a-f]{16}\.js$/, '/widget-<hash>.js')
            .replace(/^(\/widget-(?:[a-z]{2}|apply|saved|alert))-[\w-]{8}\.js$/, '$1-<hash>.js'),
        )
        .sort(),
      [
        '/widget-<hash>.js',
        '/widget-alert-<hash>.js',
        '/widget-apply-<hash>.js',
        '/widget-fr-<hash>.js',
        '/widget-saved-<hash>.js',
      ],
    );
    assert.deepEqual(said, []);
    await page.close();
  });

  /** Opens the board with the tags giving `module` another integrity; once `shown` holds, asserts Chromium said why it refused it. */
  async function openNotPinned(module: RegExp, shown: (page: Page) => Promise<void>): Promise<void> {
    const { page, console: said } = await open(wrongIntegrity(printed.head, module));
    await shown(page);
    assert.ok(
      said.some((line) => /integrity/i.test(line)),
      said.join('\n'),
    );
    await page.close();
  }

  it('when widget.js is not the pinned bytes, Chromium refuses it: no element is defined', () =>
    openNotPinned(/\/widget-[0-9a-f]{16}\.js$/, async (page) => {
      await page.waitForLoadState('load');
      assert.equal(await page.evaluate(() => customElements.get('jobboard-campaigns') === undefined), true);
    }));

  it("when the apply form's module is not the pinned bytes, Chromium refuses it: the offers are shown, the form is not defined", () =>
    openNotPinned(/\/widget-apply-[\w-]+\.js$/, async (page) => {
      await page.locator('jobboard-campaigns [data-offer]').first().waitFor({ timeout: 15_000 });
      await page.waitForLoadState('load');
      assert.equal(await page.evaluate(() => customElements.get('jobboard-apply') === undefined), true);
    }));

  it('when the French module is not the pinned bytes, Chromium refuses it: the offers are shown in English, with a warning', () =>
    openNotPinned(/\/widget-fr-[\w-]+\.js$/, async (page) => {
      await page.locator('jobboard-campaigns [data-offer]').first().waitFor({ timeout: 15_000 });
      assert.equal(
        (await page.locator('jobboard-campaigns form[role="search"] button[type="submit"]').innerText()).trim(),
        'Search',
      );
    }));

  it("when the page's policy lacks the import map's hash, loads no second widget.js or Lit: the offers are listed, and one console error names the hash to add", async () => {
    const { page, loaded, console: said } = await open(printed.head, { refuseMap: true });
    await page.locator('jobboard-campaigns [data-offer]').first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState('load');
    await page.waitForTimeout(500);
    assert.ok(!loaded.includes('/widget.js'), loaded.join('\n'));
    assert.deepEqual(
      await page.evaluate(() => (globalThis as unknown as { litHtmlVersions: string[] }).litHtmlVersions.length),
      1,
      'one Lit',
    );
    const told = said.filter((line) => line.includes('jobboard widget'));
    assert.equal(told.length, 1, said.join('\n'));
    assert.ok(told[0]!.startsWith('error: '), told[0]!);
    assert.ok(told[0]!.includes(`add ${printed.importMapSource} to script-src`), told[0]!);
    assert.ok(!said.some((line) => /lit-html|copy every file/.test(line)), said.join('\n'));
    await page.close();
  });
});
