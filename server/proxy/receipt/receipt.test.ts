// The receipt page over HTTP, on a real SQLite store whose rows are moved
// through each state as the delivery worker would: what the candidate reads,
// in which language, which status label, which offer and date, and the
// headers that keep the page private. The apply answers that carry the link are tested with the whole
// proxy (test/proxy-receipt.test.ts), the page in Chromium with axe
// (test/e2e/receipt-page.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { SqliteApplicationStore } from '../storage/outbox/sqlite-store.ts';
import { NO_CAMPAIGN } from '../storage/outbox/application-store.ts';
import { claimed, newApplication } from '../storage/test-support.ts';
import { receiptRouter } from './route.ts';
import { decoyReceipts } from './decoy.ts';
import { RECEIPT_TEXTS } from './texts.ts';
import type { ReceiptTexts } from './texts.ts';
import {
  RECEIPT_PATH,
  RECEIPT_ROUTE,
  RECEIPT_TOKEN_BYTES,
  isReceiptToken,
  newReceiptToken,
  receiptUrl,
} from './token.ts';

const DAY = 24 * 60 * 60 * 1000;

const decoys = decoyReceipts('the board upstream secret key');

describe('the receipt page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jbc-receipt-'));
  // Noon: the same day in any time zone the proxy may run in.
  let now = Date.UTC(2026, 0, 1, 12);
  const store = new SqliteApplicationStore({ dataDir: dir, owner: 'test', now: () => now });
  const labels = new Map([
    ['interview', { en: 'Interview <planned>', fr: 'Entretien prévu' }],
    ['offer', { en: `Offer & "terms" 'soon'` }],
  ]);
  // 12 listed, 13 held but closed (no company name), 14 not held: the catalogue no longer has it.
  const campaigns = new Map([
    [12, { status: 'online' as const, name: 'Night <nurse>', company_name: 'Soins & "Cie"' }],
    [13, { status: 'archived' as const, name: 'Welder', company_name: null }],
  ]);
  // Company 3 is held, 4 no longer (its last offer left the board).
  const catalogue = {
    getCampaign: (id: number) => campaigns.get(id),
    getCompany: (id: number) => (id === 3 ? { name: 'Soins & "Cie"' } : undefined),
  };
  let server: Server;
  let base: string;

  /** A stored application with a fresh token, in a state reached as the worker reaches it. */
  async function stored(
    state: 'pending' | 'delivered' | 'dead' | 'rejected',
    companyStatus?: string,
    campaignId = 12,
    companyId = 3,
  ): Promise<string> {
    const token = newReceiptToken();
    const reference = `r-${token}`;
    await store.enqueue(
      { ...newApplication(reference), campaign_id: campaignId, company_id: companyId, receipt_token: token },
      { deadLetterAfterMs: DAY },
    );
    if (state === 'delivered')
      await store.markDelivered(await claimed(store, reference), 'created_applicant', {
        applicantId: 1,
        applicationId: 40,
      });
    if (state === 'dead') await store.markDead(await claimed(store, reference), 'expired', 'timeout (no answer)');
    if (state === 'rejected')
      await store.markRejected(await claimed(store, reference), 'upstream_rejected', 'validation_failed (422)');
    if (companyStatus !== undefined) {
      now += DAY;
      const checks = await store.claimStatusChecks(now, 0, now, 100);
      const check = checks.find((c) => c.reference === reference);
      assert.ok(check, 'the delivered application is due for a check');
      assert.ok(await store.recordStatus(check, companyStatus));
    }
    return token;
  }

  async function page(token: string, init: { lang?: string; acceptLanguage?: string } = {}) {
    const query = init.lang === undefined ? '' : `?lang=${init.lang}`;
    const response = await fetch(`${base}${RECEIPT_PATH}/${token}${query}`, {
      headers: init.acceptLanguage === undefined ? {} : { 'Accept-Language': init.acceptLanguage },
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }
  const heading = (html: string) => /<h1>(.*?)<\/h1>/.exec(html)?.[1];
  /** The list naming the application, and what follows it. */
  const details = (html: string) => /<dl>.*<\/main>/s.exec(html)?.[0];

  before(async () => {
    await store.ready();
    const app = express();
    app.use(
      RECEIPT_PATH,
      receiptRouter(
        { statusLabels: labels, boardOfferUrl: 'https://jobs.example/offers?offer={id}' },
        async () => store,
        decoys,
        catalogue,
        () => now,
      ),
    );
    // A board without BOARD_OFFER_URL.
    app.use(
      `/no-offer-url${RECEIPT_PATH}`,
      receiptRouter(
        { statusLabels: labels, boardOfferUrl: null },
        async () => store,
        decoys,
        catalogue,
        () => now,
      ),
    );
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says "received" while the application waits for the service, with the language\'s lang attribute', async () => {
    const { status, html, headers } = await page(await stored('pending'));
    assert.equal(status, 200);
    assert.equal(heading(html), 'Application received');
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<main>/);
    assert.equal(headers.get('content-type'), 'text/html; charset=utf-8');
  });

  it('says "sent to the company" once delivered, and shows no company status the board does not map', async () => {
    const token = await stored('delivered', 'hired-internal-code');
    const { html } = await page(token);
    assert.equal(heading(html), 'Sent to the company');
    assert.doesNotMatch(html, /hired-internal-code/);
    assert.match(html, /<dt>Status<\/dt><dd>Sent to the company<\/dd><\/dl>/);
  });

  it("shows a mapped status with the board's label, in the page's language, escaped", async () => {
    const token = await stored('delivered', 'interview');
    assert.match((await page(token)).html, /<dt>Status<\/dt><dd>Interview &#60;planned&#62;<\/dd>/);
    assert.match((await page(token, { lang: 'fr' })).html, /<dt>Statut<\/dt><dd>Entretien prévu<\/dd>/);
    // No Spanish label: the English one.
    assert.match((await page(token, { lang: 'es' })).html, /<dt>Estado<\/dt><dd>Interview &#60;planned&#62;<\/dd>/);
    assert.doesNotMatch((await page(token)).html, /interview</, 'the raw status value is not shown');
    assert.match(
      (await page(await stored('delivered', 'offer'))).html,
      /<dt>Status<\/dt><dd>Offer &#38; &#34;terms&#34; &#39;soon&#39;<\/dd>/,
    );
  });

  it("names the application: the offer's title linked to its page on the board, its company, the date, the status", async () => {
    now = Date.UTC(2026, 2, 14, 12);
    const token = await stored('pending');
    assert.equal(
      details((await page(token)).html),
      '<dl><dt>Job offer</dt><dd><a href="https://jobs.example/offers?offer=12">Night &#60;nurse&#62;</a></dd>' +
        '<dt>Company</dt><dd>Soins &#38; &#34;Cie&#34;</dd><dt>Applied on</dt><dd>March 14, 2026</dd>' +
        '<dt>Status</dt><dd>Application received</dd></dl>\n</main>',
    );
    assert.equal(
      details((await page(token, { lang: 'fr' })).html),
      '<dl><dt>Offre d&#39;emploi</dt><dd><a href="https://jobs.example/offers?offer=12">Night &#60;nurse&#62;</a></dd>' +
        '<dt>Entreprise</dt><dd>Soins &#38; &#34;Cie&#34;</dd><dt>Date de candidature</dt><dd>14 mars 2026</dd>' +
        '<dt>Statut</dt><dd>Candidature reçue</dd></dl>\n</main>',
    );
    assert.equal(
      details((await page(token, { lang: 'es' })).html),
      '<dl><dt>Oferta de empleo</dt><dd><a href="https://jobs.example/offers?offer=12">Night &#60;nurse&#62;</a></dd>' +
        '<dt>Empresa</dt><dd>Soins &#38; &#34;Cie&#34;</dd><dt>Fecha de la candidatura</dt><dd>14 de marzo de 2026</dd>' +
        '<dt>Estado</dt><dd>Candidatura recibida</dd></dl>\n</main>',
    );
    // Nothing of the candidate's: the row holds an email, which the page never shows.
    assert.doesNotMatch((await page(token)).html, /ada@example\.org/);
  });

  it('names an offer the board no longer lists without a link to it, and says it is no longer on the board', async () => {
    now = Date.UTC(2026, 2, 15, 12);
    for (const state of ['pending', 'dead'] as const) {
      const { html } = await page(await stored(state, undefined, 13));
      assert.equal(
        details(html),
        `<dl><dt>Job offer</dt><dd>Welder</dd><dt>Applied on</dt><dd>March 15, 2026</dd><dt>Status</dt><dd>${state === 'dead' ? 'Not delivered' : 'Application received'}</dd></dl>` +
          '<p>This job offer is no longer on the job board.</p>\n</main>',
        state,
      );
      assert.doesNotMatch(html, /<a /, 'no link to apply again to a closed offer');
    }
  });

  it('still shows the date and the status, and says the offer is gone, when the catalogue no longer holds it', async () => {
    now = Date.UTC(2026, 2, 16, 12);
    const token = await stored('delivered', 'interview', 14);
    assert.equal(
      details((await page(token, { lang: 'fr' })).html),
      '<dl><dt>Date de candidature</dt><dd>16 mars 2026</dd><dt>Statut</dt><dd>Entretien prévu</dd></dl>' +
        '<p>Cette offre n&#39;est plus publiée sur le site d&#39;emploi.</p>\n</main>',
    );
    const dead = await page(await stored('dead', undefined, 14));
    assert.equal(dead.status, 200);
    assert.equal(heading(dead.html), 'Not delivered');
    assert.match(
      dead.html,
      /<dt>Status<\/dt><dd>Not delivered<\/dd><\/dl><p>This job offer is no longer on the job board\.<\/p>/,
    );
    assert.doesNotMatch(dead.html, /<a /);
  });

  it('names the offer without a link when the board has no BOARD_OFFER_URL', async () => {
    const response = await fetch(`${base}/no-offer-url${RECEIPT_PATH}/${await stored('pending')}`);
    const html = await response.text();
    assert.match(html, /<dl><dt>Job offer<\/dt><dd>Night &#60;nurse&#62;<\/dd><dt>Company<\/dt>/);
    assert.doesNotMatch(html, /<a /);
  });

  it('names a spontaneous application as one, to the company by its name while the catalogue holds it, with no offer, link or "no longer on the board"', async () => {
    now = Date.UTC(2026, 2, 17, 12);
    assert.equal(
      details((await page(await stored('pending', undefined, NO_CAMPAIGN))).html),
      '<dl><dt>Job offer</dt><dd>Spontaneous application (to the company, not to a job offer)</dd>' +
        '<dt>Company</dt><dd>Soins &#38; &#34;Cie&#34;</dd><dt>Applied on</dt><dd>March 17, 2026</dd>' +
        '<dt>Status</dt><dd>Application received</dd></dl>\n</main>',
    );
    const dead = await page(await stored('dead', undefined, NO_CAMPAIGN, 4), { lang: 'fr' });
    assert.equal(
      details(dead.html),
      '<dl><dt>Offre d&#39;emploi</dt><dd>Candidature spontanée (à l&#39;entreprise, sans offre d&#39;emploi)</dd>' +
        '<dt>Date de candidature</dt><dd>17 mars 2026</dd><dt>Statut</dt><dd>Non transmise</dd></dl>\n</main>',
    );
    assert.doesNotMatch(dead.html, /<a /, 'no offer to apply to again');
  });

  it('lists what names the application as terms beside their values, and prints black on white, with the address of its link written out', async () => {
    const { html } = await page(await stored('pending'));
    assert.match(
      html,
      /dl\{display:grid;grid-template-columns:auto 1fr;gap:\.25rem 1rem\}dt\{font-weight:600\}dd\{margin:0\}/,
    );
    assert.match(
      html,
      /@media print\{body\{color:#000;background:#fff;font-size:12pt\}main\{max-width:none;margin:0;padding:0\}a\{color:#000\}a\[href\]::after\{content:" \(" attr\(href\) "\)";overflow-wrap:anywhere\}\}<\/style>/,
    );
  });

  it('says "not delivered" for a dead or refused application, with what to do and a link to apply again', async () => {
    for (const state of ['dead', 'rejected'] as const) {
      const { status, html } = await page(await stored(state));
      assert.equal(status, 200);
      assert.equal(heading(html), 'Not delivered', state);
      assert.match(html, /Apply again from the job offer on the job board, or contact the job board/);
      assert.match(html, /<a href="https:\/\/jobs\.example\/offers\?offer=12">Apply again to this job offer<\/a>/);
      assert.match(html, /<dt>Status<\/dt><dd>Not delivered<\/dd><\/dl>/);
    }
  });

  it('says "not delivered" with what to do but no link when the board has no BOARD_OFFER_URL', async () => {
    const response = await fetch(`${base}/no-offer-url${RECEIPT_PATH}/${await stored('dead')}`);
    const html = await response.text();
    assert.equal(heading(html), 'Not delivered');
    assert.match(
      html,
      /Apply again from the job offer on the job board, or contact the job board if it happens again\.<\/p>\n<dl><dt>Job offer<\/dt><dd>Night &#60;nurse&#62;<\/dd>/,
    );
    assert.doesNotMatch(html, /<a /);
  });

  it('speaks the language of ?lang=, else of Accept-Language, else English', async () => {
    const token = await stored('pending');
    const fr = await page(token, { acceptLanguage: 'de-DE, fr-FR;q=0.8, en;q=0.5' });
    assert.equal(heading(fr.html), 'Candidature reçue');
    assert.match(fr.html, /<html lang="fr">/);
    assert.equal(fr.headers.get('content-language'), 'fr');
    assert.equal(heading((await page(token, { lang: 'es', acceptLanguage: 'fr' })).html), 'Candidatura recibida');
    assert.equal(heading((await page(token, { lang: 'xx', acceptLanguage: 'de' })).html), 'Application received');
    // fetch always sends an Accept-Language; a client such as curl may send none.
    const bare = await new Promise<string>((resolve, reject) => {
      httpGet(`${base}${RECEIPT_PATH}/${token}`, (res) => {
        let html = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (html += chunk));
        res.on('end', () => resolve(html));
      }).on('error', reject);
    });
    assert.equal(heading(bare), 'Application received');
    assert.match(bare, /<html lang="en">/);
    // A wildcard takes the first language the page has: English.
    assert.equal(heading((await page(token, { acceptLanguage: '*' })).html), 'Application received');
    assert.equal(heading((await page(token, { acceptLanguage: 'es;q=0.5, *;q=0.8' })).html), 'Application received');
    assert.equal(heading((await page(token, { acceptLanguage: 'es-MX' })).html), 'Candidatura recibida');
  });

  it("writes every state's words in each language, the page's title after its heading", async () => {
    const pending = await stored('pending');
    const delivered = await stored('delivered');
    const dead = await stored('dead');
    for (const lang of ['en', 'fr', 'es'] as const) {
      const t = RECEIPT_TEXTS[lang];
      const escaped = (text: string) => text.replace(/'/g, '&#39;');
      const received = (await page(pending, { lang })).html;
      assert.ok(received.includes(`<title>${escaped(t.received.heading)} – ${escaped(t.title)}</title>`), lang);
      assert.ok(
        received.includes(`<h1>${escaped(t.received.heading)}</h1>\n<p>${escaped(t.received.body)}</p>\n<dl>`),
        lang,
      );
      const sent = (await page(delivered, { lang })).html;
      assert.ok(
        sent.includes(`<h1>${escaped(t.delivered.heading)}</h1>\n<p>${escaped(t.delivered.body)}</p>\n<dl>`),
        lang,
      );
      const notDelivered = (await page(dead, { lang })).html;
      assert.ok(
        notDelivered.includes(
          `<p>${escaped(t.notDelivered.body)}</p><p>${escaped(t.notDelivered.what)}</p><p><a href="https://jobs.example/offers?offer=12">${escaped(t.notDelivered.applyAgain)}</a></p>\n<dl>`,
        ),
        lang,
      );
      const missing = (await page('unknown', { lang })).html;
      assert.ok(missing.includes(`<h1>${escaped(t.notFound.heading)}</h1>\n<p>${escaped(t.notFound.body)}</p>`), lang);
    }
  });

  it('answers 404 "not available" for an unknown token, a malformed one, and one whose row was purged', async () => {
    const delivered = await stored('delivered');
    now += 2 * DAY;
    assert.ok((await store.purgeDelivered(DAY)) >= 1);
    for (const token of [newReceiptToken(), 'not-a-token', `${'a'.repeat(24)}%27`, delivered]) {
      const { status, html } = await page(token, { lang: 'fr' });
      assert.equal(status, 404, token);
      assert.equal(heading(html), 'Accusé de réception indisponible');
    }
  });

  it("shows a decoy's token (a robot caught by the honeypot) the page of a queued application to its offer, in the asked language", async () => {
    for (const campaignId of [12, 13, 14]) {
      const real = await stored('pending', undefined, campaignId);
      const decoy = decoys.newToken(campaignId, now);
      for (const lang of ['en', 'fr', 'es']) {
        const [ofDecoy, ofReal] = [await page(decoy, { lang }), await page(real, { lang })];
        assert.equal(ofDecoy.status, 200);
        assert.equal(ofDecoy.html, ofReal.html, `${campaignId} ${lang}`);
      }
    }
  });

  it('shows neither offer nor date for a decoy whose time is to come: a decoy made before tokens carried them', async () => {
    const expected =
      '<dl><dt>Status</dt><dd>Application received</dd></dl><p>This job offer is no longer on the job board.</p>\n</main>';
    for (const token of [decoys.newToken(12, now + 60_000), 'AAAAAAAAAAAAAAAAqFNO48-I']) {
      const { status, html } = await page(token);
      assert.equal(status, 200);
      assert.equal(details(html), expected, token);
    }
    // This minute is no time to come.
    assert.match((await page(decoys.newToken(12, now))).html, /<dt>Applied on<\/dt>/);
  });

  it('answers 404 to a decoy whose proof is changed, and to one made with another secret', async () => {
    const decoy = Buffer.from(decoys.newToken(12, now), 'base64url');
    decoy[RECEIPT_TOKEN_BYTES - 1]! ^= 1;
    const other = decoyReceipts('another board').newToken(12, now);
    for (const token of [decoy.toString('base64url'), other]) {
      const { status, html } = await page(token);
      assert.equal(status, 404, token);
      assert.equal(heading(html), 'Receipt not available');
    }
  });

  it('is private: a strict CSP allowing its own style only, never cached, no Referer, not indexed', async () => {
    for (const token of [await stored('pending'), 'unknown', decoys.newToken(12, now)]) {
      const { headers, html } = await page(token);
      const csp = headers.get('content-security-policy') ?? '';
      assert.match(csp, /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; /);
      assert.doesNotMatch(csp, /unsafe/);
      assert.equal(headers.get('cache-control'), 'no-store');
      assert.equal(headers.get('referrer-policy'), 'no-referrer');
      assert.equal(headers.get('x-robots-tag'), 'noindex');
      assert.equal(headers.get('vary'), 'Accept-Language', 'its language follows the request');
      assert.doesNotMatch(html, /<script/);
    }
  });
});

describe("the receipt page's words", () => {
  it('are written in every language: none empty, each one translated from the English', () => {
    const english = RECEIPT_TEXTS.en;
    const flat = (texts: ReceiptTexts): [string, string][] =>
      Object.entries(texts).flatMap(([key, value]): [string, string][] =>
        typeof value === 'string'
          ? [[key, value]]
          : Object.entries(value as Record<string, string>).map(([sub, text]): [string, string] => [
              `${key}.${sub}`,
              text,
            ]),
      );
    const keys = flat(english).map(([key]) => key);
    assert.equal(keys.length, 17);
    for (const lang of ['fr', 'es'] as const) {
      const texts = flat(RECEIPT_TEXTS[lang]);
      assert.deepEqual(
        texts.map(([key]) => key),
        keys,
        lang,
      );
      for (const [key, text] of texts) {
        assert.ok(text.trim().length > 0, `${lang} ${key}`);
        assert.notEqual(text, Object.fromEntries(flat(english))[key], `${lang} ${key} is translated`);
      }
    }
    for (const [key, text] of flat(english)) assert.ok(text.trim().length > 0, `en ${key}`);
  });
});

describe('decoy receipt tokens', () => {
  it('are the same for every instance and every release sharing the secret: a decoy made before an upgrade still opens', () => {
    assert.equal(decoys.isDecoy('AAAAAAAAAAAAAAAAqFNO48-I'), true);
    assert.equal(decoys.isDecoy('AAAAAAAAAAAAAAAAqFNO48-J'), false);
    // One carrying its offer and minute, made by another instance: read the same here.
    assert.deepEqual(decoys.open('212Yta21xDJs-Qv4ci2mojhh'), {
      campaignId: 4242,
      appliedAt: Date.UTC(2026, 5, 30, 8, 15),
    });
  });

  it('are shaped as real tokens, each new, and known only under their secret', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => decoys.newToken(12, Date.UTC(2026, 0, 1))));
    assert.equal(tokens.size, 200);
    const other = decoyReceipts('another board');
    for (const token of tokens) {
      assert.ok(isReceiptToken(token) && Buffer.from(token, 'base64url').length === RECEIPT_TOKEN_BYTES);
      assert.equal(decoys.isDecoy(token), true);
      assert.equal(other.isDecoy(token), false);
    }
  });

  it('never take a real token, nor a string that is not a token, for a decoy', () => {
    const real = Array.from({ length: 200 }, newReceiptToken);
    assert.equal(real.filter((token) => decoys.isDecoy(token)).length, 0);
    const decoy = decoys.newToken(12, 0);
    for (const token of ['', 'not-a-token', `${decoy}A`, decoy.slice(1), ...real.slice(0, 10)]) {
      assert.equal(decoys.isDecoy(token), false, token);
      assert.equal(decoys.open(token), undefined, token);
    }
  });

  it("carry the offer and the minute of the robot's application, read back under their secret only", () => {
    const at = Date.UTC(2026, 4, 2, 9, 41, 27, 500);
    const minute = Date.UTC(2026, 4, 2, 9, 41);
    assert.deepEqual(decoys.open(decoys.newToken(12, at)), { campaignId: 12, appliedAt: minute });
    assert.deepEqual(decoys.open(decoys.newToken(0xffff_ffff, at)), { campaignId: 0xffff_ffff, appliedAt: minute });
    // An offer id the token cannot carry is written 0, an id no offer has.
    for (const id of [-1, 1.5, 0x1_0000_0000, Number.NaN])
      assert.deepEqual(decoys.open(decoys.newToken(id, at)), { campaignId: 0, appliedAt: minute }, String(id));
    assert.equal(decoyReceipts('another board').open(decoys.newToken(12, at)), undefined);
  });

  it('seal what they carry: the tokens of one offer at one minute have no byte in common by position', () => {
    const tokens = Array.from({ length: 64 }, () =>
      Buffer.from(decoys.newToken(12, Date.UTC(2026, 0, 1)), 'base64url'),
    );
    for (let i = 0; i < RECEIPT_TOKEN_BYTES; i++)
      assert.ok(new Set(tokens.map((t) => t[i])).size > 1, `byte ${i} is the same in every token`);
  });
});

describe('receipt tokens and links', () => {
  it('makes tokens of 144 random bits, each new', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newReceiptToken));
    assert.equal(tokens.size, 1000);
    for (const token of tokens)
      assert.ok(isReceiptToken(token) && Buffer.from(token, 'base64url').length === RECEIPT_TOKEN_BYTES);
    assert.equal(RECEIPT_TOKEN_BYTES, 18);
  });

  it('is routed at /applications/receipt/:token, the route the access log writes', () => {
    assert.equal(RECEIPT_ROUTE, '/applications/receipt/:token');
  });

  it('links from the root when the apply route is not where the proxy mounts it', () => {
    assert.equal(receiptUrl(null, '/elsewhere', 'T'), '/applications/receipt/T');
  });

  it('links on PUBLIC_ORIGIN when set, else from the root, under the path the proxy is mounted at', () => {
    assert.equal(
      receiptUrl('https://jobs.acme.example', '/api/applications', 'T'),
      'https://jobs.acme.example/applications/receipt/T',
    );
    assert.equal(receiptUrl(null, '/api/applications', 'T'), '/applications/receipt/T');
    assert.equal(receiptUrl(null, '/careers/api/applications', 'T'), '/careers/applications/receipt/T');
  });
});
