// End to end, as a candidate on the demo job-board page of a board that takes
// spontaneous applications for one company (SPONTANEOUS_APPLICATIONS): under
// an offer of that company, the entry that names it opens the spontaneous
// form (no cover letter); sent, it reaches the company once, as an applicant
// with its resume and no application; the proxy's outbox in SQLite and in
// PostgreSQL.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoWorld, writeResume } from './demo-world.ts';
import type { DemoWorld } from './demo-world.ts';
import { axeViolations } from './axe.ts';
import { DEMO_ENTITY_COMPANY_KEYS } from '../../server/sandbox/index.ts';
import { createClient } from '../../server/client/index.ts';
import { admin } from '../../server/test/sandbox-admin.ts';
import { listedWithResume, upstreamApplicantCount, upstreamApplications } from '../proxy-apply.test-support.ts';
import { SQLITE_STORE, postgresStore } from '../proxy-stores.ts';

// Globex, the demo's second company: the seed creates it after Acme, so its id is 2 in a new sandbox (checked below).
const GLOBEX_ID = 2;

for (const store of [SQLITE_STORE, await postgresStore()]) {
  describe(
    `a candidate sends a spontaneous application from the demo job-board page (${store.name})`,
    { skip: store.skip },
    () => {
      let world: DemoWorld;
      let pdfPath: string;
      before(async () => {
        world = await startDemoWorld('spontaneous', { ...store.env, SPONTANEOUS_APPLICATIONS: String(GLOBEX_ID) });
        pdfPath = await writeResume(world.dir, 'Noa Bernard - product designer', 'cv-noa-bernard.pdf');
      });
      after(() => world?.close());

      it("opens it from a Globex offer's entry, fills the form without a cover letter (no axe violation), and the sandbox has one applicant with its resume and no application", async () => {
        const { name } = world.demo.sandbox.context.db.get<{ name: string }>(
          'SELECT name FROM companies WHERE id = ?',
          GLOBEX_ID,
        )!;
        assert.match(name, /^Globex/);
        const page = await world.browser.newPage();
        await page.goto(world.demo.proxy.url + '/');
        await page
          .locator('jobboard-campaigns [part="offer"]', { hasText: 'Globex' })
          .locator('[data-offer]')
          .first()
          .click();
        await page.locator('jobboard-apply form').first().waitFor();

        const entry = page.locator('jobboard-apply .spontaneous button');
        await entry.waitFor();
        assert.match(
          await entry.innerText(),
          new RegExp(`(Candidature spontanée chez|Spontaneous application at|Candidatura espontánea en) ${name}`),
        );
        await entry.press('Enter');
        const form = page.locator('jobboard-apply jobboard-apply');
        await form.locator('form').waitFor();
        assert.match(
          await form.locator('h1, h2, h3, h4, h5, h6').first().innerText(),
          new RegExp(`(Candidature spontanée|Spontaneous application|Candidatura espontánea) — ${name}`),
        );
        assert.equal(await form.locator('#cover_letter').count(), 0, 'no cover letter on a spontaneous form');
        assert.deepEqual(await axeViolations(page), []);

        const email = 'noa.bernard@example.org';
        await form.locator('#email').fill(email);
        await form.locator('#first_name').fill('Noa');
        await form.locator('#last_name').fill('Bernard');
        await form.locator('#resume').setInputFiles(pdfPath);
        await form.locator('#consent').check();
        await form.locator('[part="submit-button"]').click();
        await form.locator('[part="outcome"].success').waitFor({ timeout: 15_000 });

        // As the company reads it: GET /applicants lists the applicant, with the resume once processed.
        const globex = createClient({
          baseUrl: world.demo.sandbox.url,
          privateKey: DEMO_ENTITY_COMPANY_KEYS.private_key,
          secretKey: DEMO_ENTITY_COMPANY_KEYS.secret_key,
        });
        const listed = await listedWithResume(globex, email);
        const resume = await fetch(String(listed.resume_url));
        assert.equal(
          Buffer.from(await resume.arrayBuffer())
            .subarray(0, 5)
            .toString(),
          '%PDF-',
        );
        // Once at the wire, with no offer; one applicant, no application.
        const creates = (await admin(world.demo.sandbox, 'GET', `/creates?email=${encodeURIComponent(email)}`)) as {
          path: string;
          campaign_ids: number[];
        }[];
        assert.equal(creates.length, 1, JSON.stringify(creates));
        assert.equal(creates[0]!.path, '/jobboards/applicants');
        assert.deepEqual(creates[0]!.campaign_ids, []);
        assert.equal(upstreamApplicantCount(world.demo.sandbox, email), 1);
        assert.deepEqual(upstreamApplications(world.demo.sandbox, email), []);
        await page.close();
      });
    },
  );
}
