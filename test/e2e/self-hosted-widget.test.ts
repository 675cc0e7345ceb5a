// A board that self-hosts the script-tag bundle: the built widget.js copied
// alone to its own web server, without the modules the build writes beside it
// (the apply form's, the languages'). On a French page the French texts cannot
// load; the widget must still show the offers, in English, and tell the
// board's developer once for each file missing.
// Reads the built bundle: `npm run build` first.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenBoard } from './board-server.ts';
import type { Board } from './board-server.ts';
import { consoleMessages } from './console-messages.ts';
import { boardWorldPerSuite } from './demo-world.ts';

const BUILT_WIDGET = new URL('../../dist/widget/widget.js', import.meta.url);

/** The board's web server: a French page at /, and the files of `dir` (only widget.js) beside it. */
async function startBoard(dir: string, proxyUrl: () => string): Promise<Board> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://board').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Offres</title><link rel="icon" href="data:,">
<script type="module" src="/widget.js"></script></head>
<body><h1>Nos offres</h1><jobboard-campaigns endpoint="${proxyUrl()}"></jobboard-campaigns></body></html>`);
      return;
    }
    readFile(join(dir, path.replace(/[^\w.-]/g, ''))).then(
      (body) => {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        res.end(body);
      },
      () => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Not found');
      },
    );
  });
  return listenBoard(server);
}

describe('a board that self-hosts widget.js alone', () => {
  let dir: string;
  const world = boardWorldPerSuite('self-hosted', async (proxyUrl) => {
    dir = await mkdtemp(join(tmpdir(), 'jobboard-e2e-board-'));
    await copyFile(BUILT_WIDGET, join(dir, 'widget.js')).catch(() => {
      throw new Error('dist/widget/widget.js is missing: run `npm run build` first.');
    });
    return startBoard(dir, proxyUrl);
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('on a French page, shows the offers in English and warns once in the console for each module to copy, naming it', async () => {
    const page = await world.browser.newPage();
    const warnings = consoleMessages(page, 'warning');
    await page.goto(world.board.origin + '/');
    await page.locator('jobboard-campaigns [data-offer]').first().waitFor({ timeout: 15_000 });

    assert.match(await page.locator('jobboard-campaigns [part="count"]').innerText(), /^\d+ offers?$/);
    assert.equal(
      (await page.locator('jobboard-campaigns form[role="search"] button[type="submit"]').innerText()).trim(),
      'Search',
    );
    assert.equal(warnings.length, 2, warnings.join('\n'));
    for (const module of [/widget-apply-/, /widget-fr-/]) {
      const warning = warnings.find((text) => module.test(text));
      assert.match(warning ?? warnings.join('\n'), /copy every file of dist\/widget\//);
    }
    await page.close();
  });
});
