// Every embed snippet of the guides (the ```html blocks of README.md, its
// static page among them, widget/README.md and server/proxy/README.md that
// hold a widget element or its script tag) served as a board's page under the Content-Security-Policy
// the widget's guide recommends, in Chromium: no violation of that policy
// (securitypolicyviolation events, console errors) and the widget rendered.
// Only the addresses are changed: the proxy's, and an offer id that exists.
// The pinned tags of `widget-tag` (an import map with placeholder hashes)
// are left to pinned-widget.test.ts, which serves the real ones.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { freePort } from '../cli-processes.ts';
import { startApplyWorld } from '../proxy-apply.test-support.ts';
import type { ApplyWorld } from '../proxy-apply.test-support.ts';

const GUIDES = ['README.md', 'widget/README.md', 'server/proxy/README.md'];
const PROXY_PLACEHOLDERS = ['https://your-proxy.example', 'https://jobs-proxy.example.org'];

function read(path: string): string {
  return readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
}

/** The embed snippets: each guide's ```html blocks with a widget element or script tag, but the pinned tags. */
function snippets(): { where: string; html: string }[] {
  const found: { where: string; html: string }[] = [];
  for (const guide of GUIDES) {
    for (const [i, block] of [...read(guide).matchAll(/```html\n([\s\S]*?)\n```/g)].entries()) {
      const html = block[1]!;
      if (!/<jobboard-|widget\.js/.test(html) || html.includes('type="importmap"')) continue;
      found.push({ where: `${guide}, html block ${i + 1}`, html });
    }
  }
  return found;
}

/** The policy of the widget's guide, section 6, for this proxy. */
function recommendedPolicy(proxyUrl: string): string {
  const line = /^Content-Security-Policy: (.+)$/m.exec(read('widget/README.md'))?.[1];
  assert.ok(
    line !== undefined && line.includes("style-src 'self'"),
    "the widget's guide recommends a policy with style-src 'self'",
  );
  return line.replaceAll('https://jobs-proxy.example.org', proxyUrl);
}

describe("the guides' embed snippets under the recommended Content-Security-Policy", () => {
  let w: ApplyWorld;
  let browser: Browser;
  let board: Server;
  let boardUrl: string;
  let page = '';
  let policy: string;

  before(async () => {
    const [proxyPort, boardPort] = [await freePort(), await freePort()];
    boardUrl = `http://127.0.0.1:${boardPort}`;
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    w = await startApplyWorld({ env: { PORT: String(proxyPort), PUBLIC_ORIGIN: proxyUrl, ALLOWED_ORIGINS: boardUrl } });
    policy = recommendedPolicy(w.proxyUrl);
    board = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy }).end(page),
    );
    await new Promise<void>((resolve) => board.listen(boardPort, '127.0.0.1', resolve));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => board?.close(resolve));
    await w?.close();
  });

  it('finds the snippets', () => {
    assert.ok(snippets().length >= 4, JSON.stringify(snippets().map((s) => s.where)));
  });

  for (const { where, html } of snippets()) {
    it(`${where}: renders the widget with no violation`, async () => {
      let addressed = PROXY_PLACEHOLDERS.reduce((text, placeholder) => text.replaceAll(placeholder, w.proxyUrl), html)
        // The page is on the board's origin here, not the proxy's.
        .replaceAll('endpoint=""', `endpoint="${w.proxyUrl}"`)
        .replace(/campaign-id="\d+"/g, `campaign-id="${w.openCampaignIds[0]}"`);
      if (!addressed.includes('widget.js'))
        addressed = `<script type="module" src="${w.proxyUrl}/widget.js"></script>\n${addressed}`;
      // A whole page (the README's static page) as it is; a snippet in a page of its own.
      page = /^<!doctype html>/i.test(addressed)
        ? addressed
        : `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Board</title></head><body>${addressed}</body></html>`;
      const tab = await browser.newPage();
      try {
        const errors: string[] = [];
        tab.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        tab.on('pageerror', (error) => errors.push(error.message));
        await tab.addInitScript(() => {
          const seen: string[] = [];
          (window as unknown as { violations: string[] }).violations = seen;
          document.addEventListener('securitypolicyviolation', (event) =>
            seen.push(`${event.violatedDirective} ${event.blockedURI}`),
          );
        });
        await tab.goto(boardUrl);
        // Rendered: an element shows offers, or its form.
        if (addressed.includes('<jobboard-campaigns'))
          await tab.locator('jobboard-campaigns [part="offer"]').first().waitFor();
        if (addressed.includes('<jobboard-apply')) await tab.locator('jobboard-apply form').first().waitFor();
        await tab.waitForLoadState('networkidle');
        assert.deepEqual(await tab.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
        assert.deepEqual(errors, []);
      } finally {
        await tab.close();
      }
    });
  }
});
