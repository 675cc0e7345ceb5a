// A board whose pages are served with a strict Content-Security-Policy and
// Trusted Types, the policy the widget's README asks of such a board: the
// widget must list the offers, open one (its description's HTML, its JSON-LD
// in the head) and take an application without one violation of the policy.
// Reads the built bundle: `npm run build` first.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { listenBoard } from './board-server.ts';
import type { Board } from './board-server.ts';
import { boardWorldPerSuite, writeResume } from './demo-world.ts';
import { collectViolations, strictPolicy } from './board-security.ts';
import { fillAndSend } from './apply-form.ts';

/** A script of the board's own that creates a Trusted Types policy of the widget's name, and says on the page whether it could. */
const TAKE_POLICY = `try {
  trustedTypes.createPolicy('jobboard-connector', { createHTML: (s) => s });
  document.documentElement.dataset.pagePolicy = 'created';
} catch {
  document.documentElement.dataset.pagePolicy = 'refused';
}`;

/**
 * A French board page (so the language module loads too), served with the
 * strict policy: `/`; `/first` where a script of the page takes the widget's
 * policy name before widget.js runs; `/later` where one tries after it.
 */
async function startBoard(proxyUrl: () => string): Promise<Board> {
  const pages: Record<string, { before: string; after: string }> = {
    '/': { before: '', after: '' },
    '/first': { before: '<script src="/take-policy.js"></script>', after: '' },
    '/later': { before: '', after: '<script type="module" src="/take-policy.js"></script>' },
  };
  const server = createServer((req, res) => {
    if (req.url === '/take-policy.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(TAKE_POLICY);
      return;
    }
    const page = pages[req.url ?? ''];
    // No favicon, and no 404 for it in the console either (a data: icon is no image of 'self').
    if (page === undefined) {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': strictPolicy(proxyUrl()),
    });
    res.end(`<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Offres</title>
${page.before}<script type="module" src="${proxyUrl()}/widget.js"></script>${page.after}</head>
<body><h1>Nos offres</h1><jobboard-campaigns endpoint="${proxyUrl()}"></jobboard-campaigns></body></html>`);
  });
  return listenBoard(server);
}

describe('a board served with a strict Content-Security-Policy and Trusted Types', () => {
  const world = boardWorldPerSuite('strict-csp', startBoard);
  let pdfPath: string;

  before(async () => {
    pdfPath = await writeResume(world.dir, 'Ana Lopez - data analyst');
  });

  it('lists the offers, opens one with its description and JSON-LD, and takes an application, with no violation reported', async () => {
    const page = await world.browser.newPage();
    const violations = await collectViolations(page);

    const response = await page.goto(world.board.origin + '/');
    assert.match(response?.headers()['content-security-policy'] ?? '', /require-trusted-types-for 'script'/);
    await page.locator('jobboard-campaigns [data-offer]').first().click();
    await page.locator('jobboard-campaigns [part="description"] .rich').first().waitFor();
    assert.ok(
      (await page.locator('jobboard-campaigns [part="description"] .rich').first().innerText()).trim().length > 0,
      'the description is shown',
    );
    // The JobPosting is fetched once the offer is painted: it follows the description.
    await page.locator('head script[type="application/ld+json"]').waitFor({ state: 'attached' });
    assert.equal(
      await page.locator('head script[type="application/ld+json"]').count(),
      1,
      'the JobPosting is in the head, once',
    );
    assert.equal(
      JSON.parse((await page.locator('head script[type="application/ld+json"]').textContent()) ?? '')['@type'],
      'JobPosting',
    );

    await page.locator('jobboard-apply form').waitFor();
    await fillAndSend(page, { email: 'ana.lopez@example.org', firstName: 'Ana', lastName: 'Lopez', resume: pdfPath });
    await page.locator('jobboard-apply [part="outcome"].success').waitFor({ timeout: 15_000 });

    assert.deepEqual(violations, []);
    await page.close();
  });

  it('keeps its policy when a script of the page tries to take the name after widget.js ran: the description is shown as HTML', async () => {
    const page = await world.browser.newPage();
    const violations = await collectViolations(page);
    await page.goto(world.board.origin + '/later');
    await page.locator('jobboard-campaigns [data-offer]').first().click();
    const rich = page.locator('jobboard-campaigns [part="description"] .rich').first();
    await rich.waitFor();
    assert.ok((await rich.locator('p, li, strong').count()) > 0, 'the description keeps its formatting');
    assert.equal(
      await page.evaluate(() => document.documentElement.dataset.pagePolicy),
      'refused',
      "the page's script could not take the name",
    );
    assert.ok(
      violations.every((line) => !line.includes('jobboard widget')),
      violations.join('\n'),
    );
    await page.close();
  });

  it('when a script of the page took the policy name first, says so once in the console, and lists and opens the offers with their descriptions as text', async () => {
    const page = await world.browser.newPage();
    const violations = await collectViolations(page);
    await page.goto(world.board.origin + '/first');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.pagePolicy), 'created');
    await page.locator('jobboard-campaigns [data-offer]').first().click();
    const rich = page.locator('jobboard-campaigns [part="description"] .rich').first();
    await rich.waitFor();
    assert.ok((await rich.innerText()).trim().length > 0, 'the description is shown');
    assert.equal(await rich.locator(':not(p)').count(), 0, 'as paragraphs of text');
    // Opening another offer says nothing more.
    await page.goBack();
    await page.locator('jobboard-campaigns [data-offer]').nth(1).click();
    await page.locator('jobboard-campaigns [part="description"] .rich').first().waitFor();
    const told = violations.filter((line) => line.includes('jobboard widget'));
    assert.equal(told.length, 1, violations.join('\n'));
    assert.match(
      told[0]!,
      /refused the Trusted Types policy jobboard-connector .*Allow jobboard-connector in trusted-types; create no other policy of that name\./,
    );
    assert.equal(
      await page.locator('head script[type="application/ld+json"]').count(),
      0,
      'no JobPosting script, which the page would refuse',
    );
    assert.ok(
      violations.every((line) => !/page error/.test(line)),
      violations.join('\n'),
    );
    await page.close();
  });
});
