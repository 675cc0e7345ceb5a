// The README's Next.js recipe, run as a board runs it: the recipe's files
// (server/examples/nextjs) with Next.js, React and this package from its
// packed tarball (test/nextjs-app.test-support.ts), against a real sandbox
// and proxy, in Chromium. Under `next dev` the page hydrates without a
// warning (React checks the server's HTML against the client's there); built
// by `next build` and served by `next start`, the offers are in the HTML with
// JavaScript off, with the open offer's head; an unknown offer answers 404 and
// a closed one 410, each with the fragment's own message; and with JavaScript
// a candidate applies and the application reaches the sandbox, with nothing
// in the console. Needs `npm run build` first (npm test builds).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { freePort } from './cli-processes.ts';
import { assertCreatedOnceAtTheWire, startApplyWorld, uniqueEmail } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { fillAndSend } from './e2e/apply-form.ts';
import { writeResume } from './e2e/demo-world.ts';
import { RECIPE_DIR, prepareNextApp } from './nextjs-app.test-support.ts';
import type { NextApp, NextServer } from './nextjs-app.test-support.ts';
import { eventually } from '../server/test/poll.ts';
import { adminCall } from '../server/test/sandbox-admin.ts';

/** The README's ```LANG block under its "Next.js" recipe. */
function readmeBlock(lang: 'tsx' | 'ts'): string {
  const readme = readFileSync(join(RECIPE_DIR, '../../../README.md'), 'utf8');
  const recipe = readme.slice(readme.indexOf('#### Next.js'));
  const block = new RegExp(`\\n\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(recipe);
  assert.ok(block, `the README's Next.js recipe shows a \`\`\`${lang} file`);
  return `${block[1]!}\n`;
}

/**
 * What the page says in the console from now on that a board would not want
 * there: errors and warnings (a hydration mismatch among them), and uncaught
 * errors; but the browser's own line for the document's status when the visit
 * expects a 404 or a 410.
 */
function consoleProblems(page: Page, documentStatus = 200): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const own = `the server responded with a status of ${documentStatus}`;
    if (documentStatus !== 200 && message.location().url === page.url() && message.text().includes(own)) return;
    problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/** Fails naming a hydration message first: what this recipe is most likely to get wrong. */
function assertQuiet(problems: string[], where: string): void {
  const hydration = problems.filter((p) =>
    /hydrat|did not match|didn't match|react\.dev\/errors\/4(18|19|23|25)/i.test(p),
  );
  assert.deepEqual(hydration, [], `${where}: hydration warnings`);
  assert.deepEqual(problems, [], `${where}: console errors or warnings`);
}

/**
 * Resolves once React has hydrated the page (its <main> carries React's fiber)
 * and widget.js has defined the element that takes over the fragment. Page
 * code as text: this file is checked without the DOM's types.
 */
async function whenHydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    "Object.keys(document.querySelector('main') ?? {}).some((key) => key.startsWith('__reactFiber$'))",
  );
  await page.locator('jobboard-campaigns:defined').waitFor({ state: 'attached' });
}

describe('the Next.js recipe, as a board runs it', () => {
  let w: ApplyWorld;
  let app: NextApp;
  let browser: Browser;
  const servers: NextServer[] = [];
  const ports = { dev: 0, start: 0 };
  let closedId: number;

  before(async () => {
    const proxyPort = await freePort();
    ports.dev = await freePort();
    ports.start = await freePort();
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    w = await startApplyWorld({
      env: {
        PORT: String(proxyPort),
        PUBLIC_ORIGIN: proxyUrl,
        ALLOWED_ORIGINS: `http://127.0.0.1:${ports.dev},http://127.0.0.1:${ports.start}`,
        // The offers' URLs are the Next.js page's: the head's canonical URL and the JobPosting's url.
        BOARD_OFFER_URL: `http://127.0.0.1:${ports.start}/jobs?offer={id}`,
      },
    });
    // An offer the board listed, then closed: 410.
    closedId = w.openCampaignIds.at(-1)!;
    assert.equal((await adminCall(w.sandbox, 'PATCH', `/campaigns/${closedId}`, { status: 'archived' })).status, 200);
    await w.catalogue.syncNow();
    app = await prepareNextApp();
    browser = await launchChromium();
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await browser?.close();
    await w?.close();
    app?.remove();
  });

  /** The addresses of the proxy the recipe reads: the same for its server and for the visitors here. */
  const proxyEnv = () => ({ JOBBOARD_PROXY_URL: w.proxyUrl, JOBBOARD_PUBLIC_URL: w.proxyUrl });

  it('is the code the README shows: the page and the status check', () => {
    assert.equal(readmeBlock('tsx'), readFileSync(join(RECIPE_DIR, 'app/jobs/page.tsx'), 'utf8'));
    assert.equal(readmeBlock('ts'), readFileSync(join(RECIPE_DIR, 'proxy.ts'), 'utf8'));
  });

  it('under next dev, the list and an open offer hydrate with no warning in the console', async () => {
    servers.push(await app.serve('dev', ports.dev, proxyEnv()));
    const offer = w.openCampaignIds[0]!;
    for (const query of ['', `?offer=${offer}`]) {
      const page = await browser.newPage();
      const problems = consoleProblems(page);
      await page.goto(`http://127.0.0.1:${ports.dev}/jobs${query}`);
      await whenHydrated(page);
      await page
        .locator(query === '' ? 'jobboard-campaigns [data-offer]' : 'jobboard-apply form')
        .first()
        .waitFor();
      await page.close();
      assertQuiet(problems, `/jobs${query} under next dev`);
    }
  });

  describe('built by next build, served by next start', () => {
    let board: string;

    before(async () => {
      // One server at a time: the machine's cores go to the build.
      for (const server of servers) await server.stop();
      await app.build();
      servers.push(await app.serve('start', ports.start, proxyEnv()));
      board = `http://127.0.0.1:${ports.start}/jobs`;
    });

    it("with JavaScript off, lists the offers from the page's HTML; a link preview gets an open offer's title, description, canonical URL, Open Graph tags and JobPosting in the head", async () => {
      // A chat's link preview reads the HTML without running it. Next.js streams the metadata of a
      // dynamic page into the body for browsers (React moves it into the head), and writes it in the head
      // for the user agents it knows to read HTML only, this one among them.
      const context = await browser.newContext({ javaScriptEnabled: false, userAgent: 'Slackbot-LinkExpanding 1.0' });
      const page = await context.newPage();
      try {
        const list = await page.goto(board);
        assert.equal(list?.status(), 200);
        assert.ok((await page.locator('jobboard-campaigns [data-offer]').count()) > 0, 'offers in the HTML');

        const offer = w.openCampaignIds[0]!;
        const open = await page.goto(`${board}?offer=${offer}`);
        assert.equal(open?.status(), 200);
        await page.locator('jobboard-campaigns [part="description"]').first().waitFor();
        const { name } = (await (await fetch(`${w.proxyUrl}/api/campaigns/${offer}`)).json()) as { name: string };
        const head = (selector: string, attribute: string) => page.locator(`head ${selector}`).getAttribute(attribute);
        assert.ok((await page.locator('head title').textContent())?.startsWith(`${name} – `), 'the title');
        assert.ok(await head('meta[name="description"]', 'content'), 'the description');
        assert.match((await head('link[rel="canonical"]', 'href')) ?? '', new RegExp(`offer=${offer}$`));
        assert.ok((await head('meta[property="og:title"]', 'content'))?.startsWith(`${name} – `), 'og:title');
        assert.equal(await page.locator('script[type="application/ld+json"]').count(), 1, 'the JobPosting');
      } finally {
        await context.close();
      }
    });

    it("answers 404 for an offer never published and 410 for a closed one, each page with the fragment's message; other parameters of a link are not forwarded", async () => {
      const cases = [
        { query: 'offer=999999999', status: 404 },
        { query: `offer=${closedId}`, status: 410 },
        // Not a list parameter: the proxy would refuse it (422) if it were forwarded.
        { query: 'endpoint=https://attacker.example&per_page=abc', status: 200 },
      ];
      for (const { query, status } of cases) {
        const page = await browser.newPage();
        const problems = consoleProblems(page, status);
        const answer = await page.goto(`${board}?${query}`);
        assert.equal(answer?.status(), status, query);
        await whenHydrated(page);
        // The fragment, with the endpoint of the proxy's own configuration (the empty element has no shadow root).
        const html = (await answer?.text()) ?? '';
        assert.match(html, /<template shadowroot(mode)?="open"/, `${query}: the fragment in the HTML`);
        assert.match(html, new RegExp(`<jobboard-campaigns\\s+endpoint="${w.proxyUrl}"`), query);
        await page.close();
        assertQuiet(problems, query);
      }
    });

    it('with JavaScript, hydrates the offers, and a candidate opens one and applies: the application reaches the sandbox, and the console stays quiet', async () => {
      const page = await browser.newPage();
      const problems = consoleProblems(page);
      const email = uniqueEmail('nextjs');
      try {
        await page.goto(board);
        await whenHydrated(page);
        await page.locator('jobboard-campaigns [data-offer]').first().click();
        await page.locator('jobboard-apply form').waitFor();
        const campaignId = Number(new URL(page.url()).searchParams.get('offer'));
        await fillAndSend(page, {
          email,
          firstName: 'Ana',
          lastName: 'Lopez',
          resume: await writeResume(app.dir, 'Ana Lopez - data analyst'),
        });
        await page.locator('jobboard-apply [part="outcome"].success').waitFor({ timeout: 15_000 });
        await eventually(
          async () => {
            const counts = await w.applications.outbox.counts();
            return counts.pending + counts.delivering === 0;
          },
          { timeoutMs: 30_000, what: 'the outbox to have nothing left to send' },
        );
        await assertCreatedOnceAtTheWire(w.sandbox, email, campaignId);
      } finally {
        await page.close();
      }
      assertQuiet(problems, 'the list, an offer and its form');
    });
  });
});
