// A board whose page lives on another origin than its proxy: the script tag
// and the API calls cross origins, so the proxy's CORS (allowed origins, the
// preflight of the Idempotency-Key header) is exercised by a real browser.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { listenBoard } from './board-server.ts';
import type { Board } from './board-server.ts';
import { consoleMessages } from './console-messages.ts';
import { boardWorldPerSuite, writeResume } from './demo-world.ts';
import { createClient } from '../../server/client/index.ts';
import { DEMO_ENTITY_COMPANY_KEYS } from '../../server/sandbox/index.ts';
import { fillAndSend } from './apply-form.ts';
import { eventually } from '../../server/test/poll.ts';

/** A job board's own web server: one page embedding the widget from the proxy's origin. */
async function startBoard(proxyUrl: () => string): Promise<Board> {
  const server = createServer((req, res) => {
    // The page's language comes from ?lang= (English by default), as a multilingual board would set it.
    const params = new URL(req.url ?? '/', 'http://board').searchParams;
    const lang = params.get('lang') ?? 'en';
    // ?apply=<id>: the apply form of one offer alone, as a board's own offer page embeds it.
    const apply = params.get('apply')?.replace(/\D/g, '');
    const element = apply
      ? `<jobboard-apply endpoint="${proxyUrl()}" campaign-id="${apply}"></jobboard-apply>`
      : `<jobboard-campaigns endpoint="${proxyUrl()}"></jobboard-campaigns>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="${lang.replace(/[^a-z-]/gi, '')}"><head><meta charset="utf-8"><title>Another board</title><link rel="icon" href="data:,">
<script type="module" src="${proxyUrl()}/widget.js"></script></head>
<body><h1>Jobs</h1>${element}</body></html>`);
  });
  return listenBoard(server);
}

describe('a board on another origin than its proxy', () => {
  // The proxy allows the suite's board; `refused` is a board it does not know.
  const world = boardWorldPerSuite('cors', startBoard);
  let refused: Board;
  let pdfPath: string;

  before(async () => {
    refused = await startBoard(() => world.demo.proxy.url);
    pdfPath = await writeResume(world.dir, 'Ana Lopez - data analyst');
  });

  after(() => {
    refused?.server.close();
  });

  it('when the board origin is allowed, lists the offers and takes an application across origins', async () => {
    const page = await world.browser.newPage();
    await page.goto(world.board.origin + '/');
    await page.locator('jobboard-campaigns [data-offer]').first().click();
    await page.locator('jobboard-apply form').waitFor();
    await fillAndSend(page, { email: 'ana.lopez@example.org', firstName: 'Ana', lastName: 'Lopez', resume: pdfPath });

    const outcome = page.locator('jobboard-apply [part="outcome"].success');
    await outcome.waitFor({ timeout: 15_000 });
    assert.match(await outcome.innerText(), /Application received/);
    await page.close();
  });

  it("sends the funnel's beacons across origins: the proxy counts the list shown, the offer opened, its form started and a send tried", async () => {
    const page = await world.browser.newPage();
    await page.goto(world.board.origin + '/');
    const first = page.locator('jobboard-campaigns [data-offer]').first();
    const offer = Number(await first.getAttribute('data-offer'));
    await first.click();
    await page.locator('jobboard-apply form').waitFor();
    await page.locator('jobboard-apply #first_name').fill('Ana');
    await page.locator('jobboard-apply [part="submit-button"]').click();
    const today = new Date().toISOString().slice(0, 10);
    const funnel = world.demo.proxy.applications.outbox.funnel;
    await eventually(
      async () => {
        const { offers } = await funnel.report({ from: today, to: today }, { limit: 1000 });
        const counts = offers.find((o) => o.campaign_id === offer)?.counts;
        return (
          counts !== undefined && (['listed', 'opened', 'started', 'submitted'] as const).every((s) => counts[s] > 0)
        );
      },
      { timeoutMs: 15_000, what: "the offer's four steps counted" },
    );
    await page.close();
  });

  it('a form of its own for an offer that is closed says so, and shows no field to fill in', async () => {
    const globex = createClient({
      baseUrl: world.demo.sandbox.url,
      privateKey: DEMO_ENTITY_COMPANY_KEYS.private_key,
      secretKey: DEMO_ENTITY_COMPANY_KEYS.secret_key,
    });
    const archived = (await globex.campaigns.list({ status: 'archived' })).data[0];
    assert.ok(archived, 'the seeded sandbox has an archived offer');
    const page = await world.browser.newPage();
    await page.goto(`${world.board.origin}/?apply=${archived.id}`);
    const said = page.locator('jobboard-apply [part="outcome"]');
    await said.waitFor({ timeout: 15_000 });
    assert.equal((await said.innerText()).trim(), 'This offer is no longer available.');
    assert.equal(await page.locator('jobboard-apply input').count(), 0);
    await page.close();
  });

  it("the built script speaks the page's language: French and Spanish texts, limits written their way", async () => {
    for (const [lang, submit, coverLetterHelp] of [
      ['fr', 'Envoyer ma candidature', '10\u00a0000 caractères au maximum.'],
      ['es', 'Enviar mi candidatura', 'Hasta 10\u00a0000 caracteres.'],
    ] as const) {
      const page = await world.browser.newPage();
      await page.goto(`${world.board.origin}/?lang=${lang}`);
      await page.locator('jobboard-campaigns [data-offer]').first().click();
      await page.locator('jobboard-apply form').waitFor();
      assert.equal((await page.locator('jobboard-apply [part="submit-button"]').innerText()).trim(), submit);
      assert.equal((await page.locator('jobboard-apply #cover_letter-help').innerText()).trim(), coverLetterHelp);
      await page.close();
    }
  });

  it('when the board origin is not allowed, the widget says the offers are not set up on this site and tells the developer which origin to add', async () => {
    const page = await world.browser.newPage();
    const errors = consoleMessages(page, 'error');
    await page.goto(refused.origin + '/');
    const said = page.locator('jobboard-campaigns', {
      hasText: 'The job offers and the application form are not set up on this site yet.',
    });
    await said.waitFor({ timeout: 15_000 });
    assert.doesNotMatch(await said.innerText(), /Check your connection/);
    assert.equal(await page.locator('jobboard-campaigns [data-offer]').count(), 0);
    assert.deepEqual(
      errors.filter((line) => line.includes('ALLOWED_ORIGINS')),
      [
        `jobboard widget: this page's origin ${refused.origin} is not in the ALLOWED_ORIGINS of the proxy at ${world.demo.proxy.url}; add it there.`,
      ],
    );
    await page.close();
  });
});
