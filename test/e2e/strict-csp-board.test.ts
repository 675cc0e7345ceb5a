// A board whose pages are served with a strict Content-Security-Policy and
// Trusted Types, the policy the widget's README asks of such a board: the
// widget must list the offers, open one (its description's HTML, its JSON-LD
// in the head) and take an application without one violation of the policy.
// Reads the built bundle: `npm run build` first.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startDemoWorld } from './demo-world.ts';
import type { DemoWorld } from './demo-world.ts';
import { pdf } from '../../server/test/files.ts';
import { collectViolations, strictPolicy } from './board-security.ts';
import { fillAndSend } from './apply-form.ts';

/** A French board page (so the language module loads too), served with the strict policy. */
async function startBoard(proxyUrl: () => string): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    // No favicon, and no 404 for it in the console either (a data: icon is no image of 'self').
    if (req.url !== '/') {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': strictPolicy(proxyUrl()) });
    res.end(`<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Offres</title>
<script type="module" src="${proxyUrl()}/widget.js"></script></head>
<body><h1>Nos offres</h1><jobboard-campaigns endpoint="${proxyUrl()}"></jobboard-campaigns></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('a board served with a strict Content-Security-Policy and Trusted Types', () => {
  let world: DemoWorld;
  let board: { origin: string; server: Server };
  let browser: Browser;
  let pdfPath: string;

  before(async () => {
    let proxyUrl = '';
    board = await startBoard(() => proxyUrl);
    world = await startDemoWorld('strict-csp', { ALLOWED_ORIGINS: board.origin });
    proxyUrl = world.demo.proxy.url;
    ({ browser } = world);
    pdfPath = join(world.dir, 'cv.pdf');
    await writeFile(pdfPath, pdf({ text: 'Ana Lopez - data analyst' }));
  });

  after(async () => {
    await world?.close();
    board?.server.close();
  });

  it('lists the offers, opens one with its description and JSON-LD, and takes an application, with no violation reported', async () => {
    const page = await browser.newPage();
    const violations = await collectViolations(page);

    const response = await page.goto(board.origin + '/');
    assert.match(response?.headers()['content-security-policy'] ?? '', /require-trusted-types-for 'script'/);
    await page.locator('jobboard-campaigns [data-offer]').first().click();
    await page.locator('jobboard-campaigns [part="description"] .rich').first().waitFor();
    assert.ok((await page.locator('jobboard-campaigns [part="description"] .rich').first().innerText()).trim().length > 0, 'the description is shown');
    assert.equal(await page.locator('head script[type="application/ld+json"]').count(), 1, 'the JobPosting is in the head');
    assert.equal(JSON.parse((await page.locator('head script[type="application/ld+json"]').textContent()) ?? '')['@type'], 'JobPosting');

    await page.locator('jobboard-apply form').waitFor();
    await fillAndSend(page, { email: 'ana.lopez@example.org', firstName: 'Ana', lastName: 'Lopez', resume: pdfPath });
    await page.locator('jobboard-apply [part="outcome"].success').waitFor({ timeout: 15_000 });

    assert.deepEqual(violations, []);
    await page.close();
  });
});
