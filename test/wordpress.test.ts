// The WordPress plugin (wordpress/jobboard-connector/) in a real WordPress:
// Debian's WordPress 6.1 on MariaDB under PHP's built-in server, a seeded
// sandbox and a proxy. An admin uploads the zip `npm run build:wordpress`
// writes through Plugins → Add New, activates it and fills its settings form
// in Chromium; then pages with [jobboard_offers], the Job offers block and
// [jobboard_apply] are read with JavaScript off (the offers in the HTML, an
// offer's JobPosting and head, 404 and 410) and used with it on (a candidate
// applies; the sandbox receives it). Every call WordPress makes while serving
// the pages is recorded, and PHP runs with WP_DEBUG.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { freePort } from './cli-processes.ts';
import { fillAndSend } from './e2e/apply-form.ts';
import { consoleMessages } from './e2e/console-messages.ts';
import { startApplyWorld } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { ADMIN, phpComplaints, startWordpressSite } from './wordpress-site.ts';
import type { WordpressSite } from './wordpress-site.ts';
import { FORWARDED_PAGE_PARAMS, LIST_PRESETS } from '../server/public-api/list-params.ts';
import { LOCALES } from '../server/contract/values.ts';
import { pdf } from '../server/test/files.ts';
import { eventually } from '../server/test/poll.ts';
import { admin, adminCall } from '../server/test/sandbox-admin.ts';
import { pluginFiles } from '../server/scripts/build-wordpress.ts';
import { createClient } from '../server/client/index.ts';
import { DEMO_KEYS } from '../server/sandbox/index.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const PLUGIN_DIR = join(ROOT, 'wordpress', 'jobboard-connector');

/** The newest offer's name: what WordPress's typography (wptexturize) would rewrite in a page's text. */
const TYPOGRAPHY_NAME = 'Night nurse -- Lyon...';

/** The pages the site publishes before the plugin is installed, by slug: title and content. */
const PAGES = (applyId: number) => ({
  jobs: { title: 'Jobs', content: '[jobboard_offers per_page="3"]' },
  'block-offers': {
    title: 'Block offers',
    content: '<!-- wp:jobboard-connector/offers {"perPage":2,"lang":"en"} /-->',
  },
  apply: {
    title: 'Apply',
    content: `<!-- wp:shortcode -->\n[jobboard_apply campaign="${applyId}"]\n<!-- /wp:shortcode -->`,
  },
});

/**
 * A must-use plugin of the test: every HTTP call WordPress makes while serving
 * a visitor's page is recorded, one URL a line. And WordPress.org, out of reach
 * here, answers WordPress's update checks with nothing (a failed one warns),
 * and the admin dashboard's news with an empty feed.
 */
const testSitePlugin = (log: string) => `<?php
add_filter(
	'pre_http_request',
	function ( $pre, $args, $url ) {
		if ( ! is_admin() && ! wp_doing_cron() ) {
			file_put_contents( '${log}', $url . "\\n", FILE_APPEND );
		}
		if ( in_array( wp_parse_url( $url, PHP_URL_HOST ), array( 'api.wordpress.org', 'wordpress.org' ), true ) ) {
			// The dashboard's news is a feed: an empty one, which its reader takes without a notice.
			$feed = '/feed/' === substr( (string) wp_parse_url( $url, PHP_URL_PATH ), -6 );
			return array(
				'headers'  => $feed ? array( 'content-type' => 'application/rss+xml' ) : array(),
				'body'     => $feed ? '<?xml version="1.0"?><rss version="2.0"><channel><title>News</title></channel></rss>' : '',
				'response' => array( 'code' => 200, 'message' => 'OK' ),
				'cookies'  => array(),
				'filename' => null,
			);
		}
		return $pre;
	},
	10,
	3
);
`;

/** WordPress's editor data stores (wp.data), as far as the editor test calls them. */
interface EditorStore {
  getCurrentPostId(): number | undefined;
  isFeatureActive(feature: string): boolean;
  toggleFeature(feature: string): void;
  openGeneralSidebar(name: string): void;
  editPost(edits: { title: string; status: string }): void;
  savePost(): Promise<void>;
}
declare global {
  // Page code: run in the editor's page, where WordPress defines it.
  var wp: { data: { select(store: string): EditorStore; dispatch(store: string): EditorStore } } | undefined;
}

/** The strings of a PHP constant of the plugin, in order: a list's, or a map's keys and values. */
function phpStrings(file: string, name: string): string[] {
  const source = readFileSync(join(PLUGIN_DIR, file), 'utf8');
  const found = new RegExp(`const ${name} = array\\(([^)]*)\\);`).exec(source);
  assert.ok(found, `${file} defines ${name}`);
  return [...found[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}

describe('the WordPress plugin in a real WordPress', () => {
  let w: ApplyWorld;
  let site: WordpressSite;
  let browser: Browser;
  let adminContext: BrowserContext;
  let adminPage: Page;
  let reader: BrowserContext;
  let dir: string;
  let zipPath: string;
  let proxyUrl: string;
  let callsLog: string;
  let openId: number;
  let closedId: number;
  const pageIds: Record<string, number> = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-wordpress-'));
    // The zip as the build command writes it.
    await run(process.execPath, [join(ROOT, 'server/scripts/build-wordpress.ts'), '--out', dir]);
    zipPath = join(dir, 'jobboard-connector.zip');
    const [proxyPort, sitePort] = [await freePort(), await freePort()];
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
    w = await startApplyWorld({
      env: { PORT: String(proxyPort), PUBLIC_ORIGIN: proxyUrl, ALLOWED_ORIGINS: `http://127.0.0.1:${sitePort}` },
    });
    openId = w.openCampaignIds[0]!;
    // An offer the board listed, then closed: 410.
    closedId = w.openCampaignIds.at(-1)!;
    assert.equal((await adminCall(w.sandbox, 'PATCH', `/campaigns/${closedId}`, { status: 'archived' })).status, 200);
    const company = createClient({
      baseUrl: w.sandbox.url,
      privateKey: DEMO_KEYS.company.private_key,
      secretKey: DEMO_KEYS.company.secret_key,
    });
    const { id: newest } = await company.campaigns.create({ manage_name: 'typography', name: TYPOGRAPHY_NAME });
    await admin(w.sandbox, 'PATCH', `/campaigns/${newest}`, {
      status: 'online',
      channels: [DEMO_KEYS.jobboard.channel],
    });
    await w.catalogue.syncNow();
    site = await startWordpressSite({ dir, port: sitePort });
    callsLog = join(dir, 'calls.log');
    mkdirSync(join(site.root, 'wp-content', 'mu-plugins'), { recursive: true });
    writeFileSync(join(site.root, 'wp-content', 'mu-plugins', 'test-site.php'), testSitePlugin(callsLog));
    for (const [slug, page] of Object.entries(PAGES(openId))) {
      const id = await site.php(
        `echo wp_insert_post( wp_slash( array( 'post_type' => 'page', 'post_status' => 'publish', 'post_name' => '${slug}', 'post_title' => '${page.title}', 'post_content' => base64_decode( '${Buffer.from(page.content).toString('base64')}' ) ) ) );`,
      );
      pageIds[slug] = Number(id);
    }
    browser = await launchChromium();
    adminContext = await browser.newContext();
    adminPage = await adminContext.newPage();
    reader = await browser.newContext({ javaScriptEnabled: false });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a page of the site with JavaScript off; answers the page and its status. */
  async function read(path: string): Promise<{ page: Page; status: number }> {
    const page = await reader.newPage();
    const response = await page.goto(site.url + path);
    return { page, status: response!.status() };
  }

  /** The ids of the offers a page lists, in order. */
  const listed = async (page: Page) =>
    Promise.all(
      (await page.locator('jobboard-campaigns [part="offer"] [data-offer]').all()).map(async (link) =>
        Number(await link.getAttribute('data-offer')),
      ),
    );

  /** The ids of the proxy's list for this query. */
  async function proxyList(query: string): Promise<number[]> {
    const answer = (await (await fetch(`${proxyUrl}/api/campaigns?${query}`)).json()) as { items: { id: number }[] };
    return answer.items.map((item) => item.id);
  }

  it('every PHP file of the plugin passes php -l, and it forwards the proxy list parameters, presets and languages', async () => {
    const files = pluginFiles().filter((file) => file.endsWith('.php'));
    assert.ok(files.includes('jobboard-connector.php') && files.includes('uninstall.php'));
    for (const file of files) {
      const { stdout } = await run('php', ['-l', join(PLUGIN_DIR, file)]);
      assert.match(stdout, /No syntax errors/, file);
    }
    // The plugin restates these in PHP: they must stay the proxy's.
    assert.deepEqual(
      ['offer', ...phpStrings('includes/proxy.php', 'JOBBOARD_CONNECTOR_LIST_PARAMS')],
      [...FORWARDED_PAGE_PARAMS],
    );
    assert.deepEqual(
      phpStrings('includes/proxy.php', 'JOBBOARD_CONNECTOR_PRESETS'),
      Object.entries(LIST_PRESETS).flat(),
    );
    assert.deepEqual(phpStrings('includes/settings.php', 'JOBBOARD_CONNECTOR_LANGUAGES').sort(), [...LOCALES].sort());
  });

  it('an admin uploads the zip in Plugins → Add New, activates it, and sets it up; a proxy address that is no web address is refused', async () => {
    const page = adminPage;
    await page.goto(`${site.url}/wp-login.php`);
    await page.fill('#user_login', ADMIN.user);
    await page.fill('#user_pass', ADMIN.password);
    await Promise.all([page.waitForURL('**/wp-admin/'), page.click('#wp-submit')]);

    await page.goto(`${site.url}/wp-admin/plugin-install.php?tab=upload`);
    await page.setInputFiles('#pluginzip', zipPath);
    await page.click('#install-plugin-submit');
    await page.getByText('Plugin installed successfully.').waitFor();
    await page.getByRole('link', { name: 'Activate Plugin' }).click();
    await page.getByText('Plugin activated.').waitFor();
    await page.locator('tr[data-slug="jobboard-connector"] a', { hasText: 'Settings' }).click();
    await page.waitForURL('**/options-general.php?page=jobboard-connector');

    await page.fill('#jobboard_connector_proxy_url', 'javascript:alert(1)');
    await page.click('#submit');
    await page.locator('.notice-error, .error', { hasText: 'must be a web address' }).waitFor();
    assert.equal(await page.inputValue('#jobboard_connector_proxy_url'), '', 'nothing saved');

    await page.fill('#jobboard_connector_proxy_url', `${proxyUrl}/`);
    await page.selectOption('#jobboard_connector_lang', 'fr');
    await page.selectOption('#jobboard_connector_offer_page', { label: 'Jobs' });
    await page.click('#submit');
    await page.getByText('Settings saved.').waitFor();
    assert.equal(await page.inputValue('#jobboard_connector_proxy_url'), proxyUrl);
    const hints = await page.locator('.wrap li').allInnerTexts();
    assert.deepEqual(hints, [
      `ALLOWED_ORIGINS must include ${site.url}.`,
      `Set BOARD_OFFER_URL to ${site.url}/jobs/?offer={id} for the sitemap and the canonical address of each offer.`,
    ]);
    const saved = JSON.parse(await site.php(`echo wp_json_encode( get_option( 'jobboard_connector_settings' ) );`));
    assert.deepEqual(saved, { proxy_url: proxyUrl, lang: 'fr', offer_page: pageIds.jobs });
  });

  it('with JavaScript off, the offers page holds the offers in its HTML, in the settings language, with the widget module script', async () => {
    const { page, status } = await read('/jobs/');
    assert.equal(status, 200);
    assert.deepEqual(await listed(page), await proxyList('per_page=3'));
    const element = page.locator('jobboard-campaigns');
    assert.equal(await element.getAttribute('lang'), 'fr');
    assert.equal(await element.getAttribute('endpoint'), proxyUrl);
    assert.equal(await page.locator(`head script[type="module"][src="${proxyUrl}/widget.js"]`).count(), 1);
    // WordPress writes no description: the list's page gets one, for search engines' results.
    const description = page.locator('head meta[name="description"]');
    assert.equal(await description.count(), 1);
    assert.match(
      (await description.getAttribute('content'))!,
      /^Job offers on .+: search them, read them and apply online\.$/,
    );
    // The list's own page 2, which WordPress would otherwise redirect to the post's /jobs/2/.
    const second = await read('/jobs/?page=2');
    assert.equal(second.status, 200);
    assert.equal(second.page.url(), `${site.url}/jobs/?page=2`);
    assert.deepEqual(await listed(second.page), await proxyList('per_page=3&page=2'));
    await page.close();
    await second.page.close();
  });

  it("only the list's parameters of the page's address reach the proxy; the language, per-page and presets are the site's", async () => {
    writeFileSync(callsLog, '');
    const evil = new URLSearchParams({
      q: 'designer',
      lang: 'es',
      per_page: '50',
      preset_company_id: '1',
      endpoint: 'https://evil.example',
      utm_source: 'mail',
    });
    const { page, status } = await read(`/jobs/?${evil}`);
    assert.equal(status, 200);
    const calls = readFileSync(callsLog, 'utf8').trim().split('\n');
    assert.deepEqual(calls, [`${proxyUrl}/embed/campaigns?q=designer&lang=fr&per_page=3`]);
    assert.equal(await page.locator('jobboard-campaigns').getAttribute('lang'), 'fr');
    assert.equal(await page.locator('jobboard-campaigns').getAttribute('endpoint'), proxyUrl);
    await page.close();
  });

  it("the shortcode and the block put the proxy's fragment in the page as the proxy wrote it, untouched by WordPress's typography", async () => {
    for (const [path, query] of [
      ['/jobs/', 'lang=fr&per_page=3'],
      ['/block-offers/', 'lang=en&per_page=2'],
    ] as const) {
      const fragment = await (await fetch(`${proxyUrl}/embed/campaigns?${query}`)).text();
      assert.ok(fragment.includes(TYPOGRAPHY_NAME), `the newest offer is on the first page of ${path}`);
      const page = await (await fetch(site.url + path)).text();
      assert.ok(page.includes(fragment), `${path} holds the fragment as it is`);
    }
  });

  it("an open offer's page has its JobPosting JSON-LD, and its title, description and canonical address in the head", async () => {
    writeFileSync(callsLog, '');
    const { page, status } = await read(`/jobs/?offer=${openId}`);
    assert.equal(status, 200);
    const posting = (await (await fetch(`${proxyUrl}/api/campaigns/${openId}/jobposting`)).json()) as {
      title: string;
      hiringOrganization: { name: string };
    };
    const jsonLd = await page.locator('jobboard-campaigns > script[type="application/ld+json"]').textContent();
    assert.deepEqual(JSON.parse(jsonLd!), posting);
    const offerTitle = `${posting.title} – ${posting.hiringOrganization.name}`;
    assert.equal((await page.title()).replaceAll('’', "'"), `${offerTitle} – Acme Jobs`);
    assert.equal(await page.locator('head meta[property="og:title"]').getAttribute('content'), offerTitle);
    assert.ok(await page.locator('head meta[name="description"]').getAttribute('content'));
    assert.equal(await page.locator('head meta[name="description"]').count(), 1, "the offer's description alone");
    // One canonical address, the offer's on the offer page (the proxy has no BOARD_OFFER_URL here).
    const canonical = page.locator('head link[rel="canonical"]');
    assert.equal(await canonical.count(), 1);
    assert.equal(await canonical.getAttribute('href'), `${site.url}/jobs/?offer=${openId}`);
    // The fragment and the head, each asked once.
    assert.deepEqual(readFileSync(callsLog, 'utf8').trim().split('\n'), [
      `${proxyUrl}/embed/campaigns?offer=${openId}&lang=fr&per_page=3`,
      `${proxyUrl}/embed/campaigns/head?offer=${openId}`,
    ]);
    await page.close();
  });

  it("a closed offer's page answers 410 and an unknown offer's 404, each with the proxy's fragment; a query the proxy refuses gets the empty element", async () => {
    for (const [path, expected] of [
      [`/jobs/?offer=${closedId}`, 410],
      ['/jobs/?offer=999999999', 404],
      [`/block-offers/?offer=${closedId}`, 410],
    ] as const) {
      const { page, status } = await read(path);
      assert.equal(status, expected, path);
      assert.match(
        await page.locator('jobboard-campaigns #detail-error').innerText(),
        /\S/,
        `${path}: the fragment says why`,
      );
      await page.close();
    }
    const refused = await read('/jobs/?page=abc');
    assert.equal(refused.status, 200);
    assert.equal(
      await refused.page
        .locator('main')
        .innerHTML()
        .then((html) => /<jobboard-campaigns [^>]*><\/jobboard-campaigns>/.exec(html)?.[0]),
      `<jobboard-campaigns endpoint="${proxyUrl}" lang="fr" per-page="3"></jobboard-campaigns>`,
    );
    await refused.page.close();
  });

  it('the Job offers block renders the fragment with its own options; its offer links lead to the offer page', async () => {
    const { page, status } = await read('/block-offers/');
    assert.equal(status, 200);
    assert.deepEqual(await listed(page), await proxyList('per_page=2'));
    assert.equal(
      await page.locator('.wp-block-jobboard-connector-offers > jobboard-campaigns').getAttribute('lang'),
      'en',
    );
    const offer = await read(`/block-offers/?offer=${openId}`);
    assert.equal(
      await offer.page.locator('head link[rel="canonical"]').getAttribute('href'),
      `${site.url}/jobs/?offer=${openId}`,
    );
    await page.close();
    await offer.page.close();
  });

  it('in the block editor, an admin finds the Job offers block in the inserter, sets its options in the sidebar and publishes the page: it lists the offers so', async () => {
    const page = adminPage;
    const errors = consoleMessages(page, 'error');
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
    page.on('response', (response) => {
      if (response.status() >= 500) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${site.url}/wp-admin/post-new.php?post_type=page`);
    await page.waitForFunction(() => globalThis.wp?.data.select('core/editor')?.getCurrentPostId() !== undefined);
    // The guide WordPress shows on a first visit, closed as an admin closes it.
    await page.evaluate(() => {
      const { select, dispatch } = globalThis.wp!.data;
      if (select('core/edit-post').isFeatureActive('welcomeGuide'))
        dispatch('core/edit-post').toggleFeature('welcomeGuide');
    });
    await page.getByRole('button', { name: 'Toggle block inserter' }).click();
    await page.getByRole('searchbox', { name: 'Search for blocks and patterns' }).fill('Job offers');
    await page.getByRole('option', { name: 'Job offers' }).click();
    // The editor script's placeholder, in the canvas (an iframe where the theme's editor has one).
    const canvas = (await page.locator('iframe[name="editor-canvas"]').count())
      ? page.frameLocator('iframe[name="editor-canvas"]')
      : page;
    await canvas.getByText('The offers of your proxy show here when the page is viewed.').waitFor();
    // Its options, in the block's sidebar (the settings sidebar's Block tab, opened as its button does).
    await page.evaluate(() => globalThis.wp!.data.dispatch('core/edit-post').openGeneralSidebar('edit-post/block'));
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await page.getByRole('spinbutton', { name: 'Offers per page' }).fill('2');
    const id = await page.evaluate(async () => {
      const { select, dispatch } = globalThis.wp!.data;
      dispatch('core/editor').editPost({ title: 'Editor offers', status: 'publish' });
      await dispatch('core/editor').savePost();
      return select('core/editor').getCurrentPostId();
    });
    assert.equal(
      await site.php(`echo get_post_field( 'post_content', ${id} );`),
      '<!-- wp:jobboard-connector/offers {"lang":"es","perPage":2} /-->',
    );
    // WordPress's own calls to wordpress.org (the welcome guide's pictures, the block directory's search,
    // which the site answers 500 when wordpress.org is out of reach) and to gravatar.com (the admin's
    // avatar) fail here, as on any offline site.
    const offline = (line: string) =>
      line.includes('https://s.w.org/') ||
      line.includes('/wp/v2/block-directory/') ||
      line.includes('.gravatar.com/avatar/');
    assert.deepEqual(
      failed.filter((line) => !offline(line)),
      [],
      'no request of the editor failed',
    );
    // Each resource error in the console is one of those requests (an aborted one, such as the avatar's, logs none).
    assert.ok(
      errors.filter((e) => e.startsWith('Failed to load resource')).length <= failed.length,
      `resource errors beyond the failed requests: ${errors.join(' | ')}; failed: ${failed.join(' | ')}`,
    );
    assert.deepEqual(
      errors.filter((e) => !e.startsWith('Failed to load resource')),
      [],
      'the editor wrote no other error in the console',
    );

    const { page: published, status } = await read(`/?page_id=${id}`);
    assert.equal(status, 200);
    assert.deepEqual(await listed(published), await proxyList('per_page=2'));
    assert.equal(await published.locator('jobboard-campaigns').getAttribute('lang'), 'es');
    await published.close();
  });

  it('with JavaScript on, the list opens an offer in place, and a candidate applies from the [jobboard_apply] page: the sandbox receives it', async () => {
    const visitor = await browser.newContext();
    const page = await visitor.newPage();
    const errors = consoleMessages(page, 'error');
    await page.goto(`${site.url}/jobs/`);
    await page.locator('jobboard-campaigns [part="offer"] [data-offer]').first().click();
    await page.locator('jobboard-apply form').waitFor();
    assert.match(page.url(), new RegExp(`^${site.url}/jobs/\\?offer=\\d+$`));

    await page.goto(`${site.url}/apply/`);
    const resume = join(dir, 'cv.pdf');
    writeFileSync(resume, pdf({ text: 'Lou Bernard - accountant' }));
    const email = 'lou.bernard@example.org';
    await fillAndSend(page, { email, firstName: 'Lou', lastName: 'Bernard', resume });
    await page.locator('jobboard-apply [part="outcome"].success').waitFor({ timeout: 15_000 });
    await eventually(
      async () =>
        (
          (await admin(w.sandbox, 'GET', `/creates?email=${encodeURIComponent(email)}`)) as {
            campaign_ids: number[];
            application_ids: number[];
          }[]
        ).some((create) => create.campaign_ids.includes(openId) && create.application_ids.length > 0),
      { timeoutMs: 15_000, what: `an application of ${email} to offer ${openId} in the sandbox` },
    );
    assert.deepEqual(errors, []);
    await visitor.close();
  });

  it('deleting the plugin in Plugins removes its settings', async () => {
    const page = adminPage;
    await page.goto(`${site.url}/wp-admin/plugins.php`);
    await page.locator('tr[data-slug="jobboard-connector"] .deactivate a').click();
    await page.getByText('Plugin deactivated.').waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('tr[data-slug="jobboard-connector"] .delete a').click();
    await page.getByText('Jobboard Connector was successfully deleted.').waitFor();
    assert.equal(await site.php(`var_export( get_option( 'jobboard_connector_settings', 'absent' ) );`), "'absent'");
    assert.equal(existsSync(join(site.root, 'wp-content', 'plugins', 'jobboard-connector')), false);
  });

  it('PHP wrote no notice, warning or error under WP_DEBUG, and no deprecation but in WordPress core', (t) => {
    const complaints = phpComplaints(site.phpOutput());
    // WordPress 6.1's own code under PHP 8.2 (its Requests library, loaded by any HTTP call) is deprecated there.
    const core = /PHP Deprecated: .* in \S+\/site\/wp-(includes|admin)\//;
    assert.deepEqual(
      complaints.filter((line) => !core.test(line)),
      [],
    );
    t.diagnostic(`${complaints.length} deprecations in WordPress core`);
  });
});
