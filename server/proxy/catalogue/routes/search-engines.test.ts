// What the proxy gives search engines and boards that render on their server:
// the JobPosting of an offer, the sitemap of the board's offer pages and the
// server-rendered fragment of GET /embed/campaigns. Real HTTP against the app;
// the fragment comes from the built renderer (npm run build).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { toCatalogueCampaign } from '../catalogue.ts';
import { placeAt, upstreamCampaign } from '../fixtures.test-support.ts';
import { openCatalogueStore } from '../../storage/catalogue/catalogue-sqlite.ts';
import { offerUrlOf } from '../job-posting.ts';
import { JobPostingAnswer } from '../../../public-api/schemas.ts';
import type { CatalogueStore } from '../types.ts';
import { fetch, listen, problemNaming } from '../../test-support.ts';
import { catalogueApp } from '../../test/catalogue-app.ts';

const OFFER_URL = 'https://jobs.acme.example/offres?offer={id}';
/** Where the fixture's offers are, as their JobPosting says. */
const FIXTURE_PLACE = placeAt({
  streetAddress: '1 rue de la République',
  postalCode: '69002',
  addressLocality: 'Lyon',
  addressCountry: 'France',
});

const designer = upstreamCampaign({
  id: 2,
  name: 'Designer <UX> & "UI"',
  job_type: 'Internship',
  salary_min: null,
  salary_max: 1200,
  address: null,
  updated_at: '2026-11-21T08:30:00.000Z',
});

/** The proxy's app on its own, or mounted under `mount` in a board's Express app. */
async function start(
  env: Record<string, string>,
  mount?: string,
): Promise<{ url: string; store: CatalogueStore; close: () => Promise<void> }> {
  const store = openCatalogueStore(':memory:');
  const synced = new Date();
  store.replaceAll(
    [
      upstreamCampaign({
        id: 1,
        name: 'Backend developer',
        job_type: 'Fixed term contract',
        working_time: 'Part time',
        date_end: '2027-03-31',
        salary_min: 42000,
        salary_max: 52000,
        updated_at: '2026-11-20T10:00:00.000Z',
      }),
      designer,
      upstreamCampaign({ id: 3, name: 'Archived offer', status: 'archived' }),
    ].map(toCatalogueCampaign),
    synced,
  );
  const app = catalogueApp(store, { env, synced });
  const server = await listen(mount === undefined ? app : express().use(mount, app));
  return { url: server.url + (mount ?? ''), store, close: server.close };
}

describe('search engines and server-rendering boards', () => {
  let proxy: Awaited<ReturnType<typeof start>>;
  let bare: Awaited<ReturnType<typeof start>>;

  before(async () => {
    proxy = await start({ BOARD_OFFER_URL: OFFER_URL });
    bare = await start({});
  });
  after(async () => {
    await proxy?.close();
    await bare?.close();
  });

  describe('GET /api/campaigns/:id/jobposting', () => {
    it("answers the offer's JobPosting as JSON-LD with Google's required properties and the mapped recommended ones", async () => {
      const res = await fetch(`${proxy.url}/api/campaigns/1/jobposting`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/ld\+json/);
      const posting = (await res.json()) as Record<string, unknown>;
      assert.deepEqual(posting, {
        '@context': 'https://schema.org',
        '@type': 'JobPosting',
        title: 'Backend developer',
        description: '<p>Build <strong>things</strong>.</p>\n<p>Curious.</p>',
        datePosted: '2026-11-02T10:00:00.000Z',
        validThrough: '2027-03-31T23:59:59Z',
        hiringOrganization: { '@type': 'Organization', name: 'Acme' },
        jobLocation: FIXTURE_PLACE,
        employmentType: ['TEMPORARY', 'PART_TIME'],
        baseSalary: {
          '@type': 'MonetaryAmount',
          currency: 'EUR',
          value: { '@type': 'QuantitativeValue', minValue: 42000, maxValue: 52000, unitText: 'YEAR' },
        },
        identifier: { '@type': 'PropertyValue', name: 'Acme', value: '1' },
        directApply: true,
        url: 'https://jobs.acme.example/offres?offer=1',
      });
      // The shape /api/openapi.json documents.
      JobPostingAnswer.parse(posting);
    });

    it("gives an internship's salary per month, its company's place when it has none, and no url without BOARD_OFFER_URL", async () => {
      const posting = (await (await fetch(`${bare.url}/api/campaigns/2/jobposting`)).json()) as Record<string, unknown>;
      assert.deepEqual(posting.baseSalary, {
        '@type': 'MonetaryAmount',
        currency: 'EUR',
        value: { '@type': 'QuantitativeValue', maxValue: 1200, unitText: 'MONTH' },
      });
      assert.deepEqual(posting.employmentType, ['INTERN', 'FULL_TIME']);
      assert.deepEqual(posting.jobLocation, FIXTURE_PLACE, 'the address of another offer of the company');
      assert.equal('url' in posting, false);
      JobPostingAnswer.parse(posting);
    });

    it("writes the offer's url percent-encoded, as the board's template would be sent over HTTP", () => {
      assert.equal(
        offerUrlOf('https://jobs.acme.example/offres d’emploi?offer={id}', 7),
        'https://jobs.acme.example/offres%20d%E2%80%99emploi?offer=7',
      );
      assert.equal(
        offerUrlOf('https://jobs.acme.example/offres/{id}#apply', 7),
        'https://jobs.acme.example/offres/7#apply',
      );
      assert.equal(offerUrlOf(null, 7), null);
    });

    it('answers 404 campaign_not_found for an unknown or archived offer', async () => {
      for (const id of ['999', '3']) {
        const res = await fetch(`${proxy.url}/api/campaigns/${id}/jobposting`);
        assert.equal(res.status, 404);
        assert.equal(((await res.json()) as { code: string }).code, 'campaign_not_found');
      }
    });
  });

  describe('GET /sitemap.xml', () => {
    it('lists the page of every open offer with its last change, as valid XML', async () => {
      const res = await fetch(`${proxy.url}/sitemap.xml`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/xml/);
      const xml = await res.text();
      assert.equal(XMLValidator.validate(xml), true);
      const { urlset } = new XMLParser().parse(xml) as { urlset: { url: { loc: string; lastmod: string }[] } };
      assert.deepEqual(
        urlset.url.sort((a, b) => a.loc.localeCompare(b.loc)),
        [
          { loc: 'https://jobs.acme.example/offres?offer=1', lastmod: '2026-11-20T10:00:00.000Z' },
          { loc: 'https://jobs.acme.example/offres?offer=2', lastmod: '2026-11-21T08:30:00.000Z' },
        ],
      );
    });

    it('follows the catalogue, and revalidates with its ETag', async () => {
      const first = await fetch(`${proxy.url}/sitemap.xml`);
      const etag = first.headers.get('etag')!;
      assert.equal((await fetch(`${proxy.url}/sitemap.xml`, { headers: { 'if-none-match': etag } })).status, 304);
      proxy.store.remove(2);
      const changed = await fetch(`${proxy.url}/sitemap.xml`, { headers: { 'if-none-match': etag } });
      assert.equal(changed.status, 200);
      assert.doesNotMatch(await changed.text(), /offer=2</);
      proxy.store.upsert(toCatalogueCampaign(designer));
    });

    it('answers 404 with a problem naming BOARD_OFFER_URL when it is not set', async () => {
      const res = await fetch(`${bare.url}/sitemap.xml`);
      assert.equal(res.status, 404);
      const problem = (await res.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'sitemap_not_configured');
      assert.match(problem.detail, /set BOARD_OFFER_URL/);
    });
  });

  describe('GET /embed/campaigns/head', () => {
    const tags = (html: string) =>
      new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '',
        unpairedTags: ['meta', 'link'],
        htmlEntities: true,
      }).parse(html) as {
        title: string;
        meta: { name?: string; property?: string; content: string }[];
        link: { rel: string; href: string };
      };
    const metaOf = (head: ReturnType<typeof tags>) =>
      Object.fromEntries(head.meta.map((m) => [m.name ?? m.property, m.content]));

    it("answers the offer's title, description, canonical URL, Open Graph and Twitter card tags as HTML", async () => {
      const res = await fetch(`${proxy.url}/embed/campaigns/head?offer=1`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(res.headers.get('etag'));
      const head = tags(await res.text());
      assert.equal(head.title, 'Backend developer – Acme');
      assert.deepEqual(head.link, { rel: 'canonical', href: 'https://jobs.acme.example/offres?offer=1' });
      assert.deepEqual(metaOf(head), {
        description: 'Build things. Curious.',
        'og:type': 'website',
        'og:title': 'Backend developer – Acme',
        'og:description': 'Build things. Curious.',
        'og:url': 'https://jobs.acme.example/offres?offer=1',
        'twitter:card': 'summary',
        'twitter:title': 'Backend developer – Acme',
        'twitter:description': 'Build things. Curious.',
      });
    });

    it("shows the board's image (BOARD_OG_IMAGE) in the link preview, og:image, the service giving no company logo; the JobPosting has it as its image", async () => {
      const image = 'https://jobs.acme.example/share/offer.png';
      const withImage = await start({ BOARD_OFFER_URL: OFFER_URL, BOARD_OG_IMAGE: image });
      try {
        assert.equal(
          metaOf(tags(await (await fetch(`${withImage.url}/embed/campaigns/head?offer=1`)).text()))['og:image'],
          image,
        );
        assert.equal(
          ((await (await fetch(`${withImage.url}/api/campaigns/1/jobposting`)).json()) as { image?: string }).image,
          image,
        );
      } finally {
        await withImage.close();
      }
    });

    it('escapes a hostile title and description, cuts the description at a word near 160 characters, and has no canonical URL without BOARD_OFFER_URL', async () => {
      const long = `${'word '.repeat(40)}end`;
      bare.store.upsert(
        toCatalogueCampaign(
          upstreamCampaign({
            id: 6,
            name: '"><script>alert(1)</script> & <b>',
            description: `<p>${long} &lt;img src=x onerror=alert(1)&gt;</p>`,
            profile: null,
          }),
        ),
      );
      try {
        const html = await (await fetch(`${bare.url}/embed/campaigns/head?offer=6`)).text();
        assert.doesNotMatch(html, /<script|<b>|<img/);
        const head = tags(html);
        assert.equal(head.title, '"><script>alert(1)</script> & <b> – Acme', 'the title as text');
        const meta = metaOf(head);
        assert.equal(meta['og:title'], head.title);
        assert.ok(meta.description!.length <= 160 && meta.description!.endsWith('word…'), meta.description);
        assert.equal(head.link, undefined);
        assert.equal(meta['og:url'], undefined);
      } finally {
        bare.store.remove(6);
      }
    });

    it("answers 400 naming offer for a missing or bad id, 404 for an offer never published and 410 Gone with the list's URL for a closed one", async () => {
      for (const query of ['', '?offer=abc', '?offer=0', '?offer=1e3']) {
        const problem = await problemNaming(
          await fetch(`${proxy.url}/embed/campaigns/head${query}`),
          400,
          ['offer'],
          query,
        );
        assert.equal(problem.code, 'malformed_request');
      }
      const unknown = await fetch(`${proxy.url}/embed/campaigns/head?offer=999`);
      assert.equal(unknown.status, 404);
      assert.equal(((await unknown.json()) as { code: string }).code, 'campaign_not_found');
      const closed = await fetch(`${proxy.url}/embed/campaigns/head?offer=3`);
      assert.equal(closed.status, 410);
      const problem = (await closed.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'campaign_gone');
      assert.match(problem.detail, /closed.*https:\/\/jobs\.acme\.example\/offres$/);
    });
  });

  describe('GET /embed/campaigns', () => {
    it('answers the element with its shadow DOM rendered, in the asked language, with the state the script hydrates from', async () => {
      const res = await fetch(`${proxy.url}/embed/campaigns?lang=fr&per_page=5&q=designer`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const html = await res.text();
      assert.match(html, /^<!--lit-part [^>]*--><!--lit-node 0--><jobboard-campaigns\b[^>]*\blang="fr"/);
      assert.match(html, /<template shadowroot="open" shadowrootmode="open">/);
      assert.match(html, />Rechercher</, 'French texts');
      assert.match(html, /href="\?q=designer&amp;offer=2"/, 'offer links keep the search');
      assert.match(
        html,
        /Designer &lt;UX&gt; &amp; &quot;UI&quot;|Designer &lt;UX&gt; &amp; "UI"/,
        'names are escaped',
      );
      assert.match(html, /4 janvier 2027/, 'dates in French');
      assert.match(
        html,
        /<time datetime="2026-11-02">(<!--[^>]*-->)*Publiée le 2 novembre 2026/,
        'the day the offer was published (its last activation)',
      );
      const { formatted, ...state } = JSON.parse(
        /<script type="application\/json" data-jobboard-state>(.*?)<\/script>/s.exec(html)![1]!,
      ) as { formatted: Record<string, string> };
      const list = await (await fetch(`${proxy.url}/api/campaigns?per_page=5&q=designer`)).json();
      assert.deepEqual(state, { query: { q: 'designer' }, list, offer: null });
      // The salary and the date as shown, for the browser to hydrate with, without setting up Intl first.
      assert.deepEqual(Object.keys(formatted).sort(), [
        'date:fr:2026-11-02',
        'date:fr:2027-01-04',
        'salary:fr:null:1200',
      ]);
      for (const text of Object.values(formatted)) assert.ok(html.includes(text), `${text} is shown`);
      assert.doesNotMatch(html, /application\/ld\+json/);
    });

    it('renders an open offer with its text and its JobPosting', async () => {
      const html = await (await fetch(`${proxy.url}/embed/campaigns?offer=1`)).text();
      assert.match(html, /id="detail-title"[^>]*>(<!--[^>]*-->)*Backend developer/);
      assert.match(html, /<p>Build <strong>things<\/strong>\.<\/p>/);
      const posting = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!) as {
        identifier: { value: string };
        url: string;
      };
      assert.equal(posting.identifier.value, '1');
      assert.equal(posting.url, 'https://jobs.acme.example/offres?offer=1');
    });

    it('answers 410 Gone with the "no longer open" state and the way back to the list for a closed offer, 404 for one never published', async () => {
      proxy.store.upsert(toCatalogueCampaign(upstreamCampaign({ id: 5, name: 'Closing soon' })));
      proxy.store.remove(5);
      for (const [id, status] of [
        ['3', 410],
        ['5', 410],
        ['999', 404],
      ] as const) {
        const res = await fetch(`${proxy.url}/embed/campaigns?offer=${id}&lang=en`);
        assert.equal(res.status, status, `offer ${id}`);
        const html = await res.text();
        assert.match(html, /This offer is no longer open/);
        assert.match(html, /Back to offers/);
      }
      assert.doesNotMatch(
        await (await fetch(`${proxy.url}/sitemap.xml`)).text(),
        /offer=[35]</,
        'closed offers leave the sitemap',
      );
    });

    it('refuses a language it does not speak with 422, naming the parameter', async () => {
      await problemNaming(await fetch(`${proxy.url}/embed/campaigns?lang=de`), 422, ['lang']);
    });

    it("renders the proxy's PUBLIC_ORIGIN as the element's endpoint and no address from the request", async () => {
      const configured = await start({ PUBLIC_ORIGIN: 'https://jobs-proxy.acme.example' });
      try {
        for (const query of [
          'endpoint=https://evil.example',
          'offer=1&endpoint=https%3A%2F%2Fevil.example%2Fsteal',
          'endpoint=//evil.example&q=designer',
        ]) {
          const res = await fetch(`${configured.url}/embed/campaigns?${query}`);
          assert.equal(res.status, 200, `${query} is answered, its endpoint ignored`);
          const html = await res.text();
          assert.doesNotMatch(html, /evil\.example/, query);
          assert.match(html, /<jobboard-campaigns\b[^>]*\bendpoint="https:\/\/jobs-proxy\.acme\.example"/, query);
        }
      } finally {
        await configured.close();
      }
    });

    it("without PUBLIC_ORIGIN renders an empty endpoint (the page's own origin) whatever endpoint the query gives", async () => {
      const html = await (await fetch(`${bare.url}/embed/campaigns?endpoint=https://evil.example&offer=1`)).text();
      assert.doesNotMatch(html, /evil\.example/);
      assert.match(html, /<jobboard-campaigns\b[^>]*\bendpoint(="")?[\s>]/);
    });

    it('mounted under a path, renders that path after PUBLIC_ORIGIN, or alone without it', async () => {
      const configured = await start({ PUBLIC_ORIGIN: 'https://www.acme.example' }, '/jobs');
      const relative = await start({}, '/jobs');
      try {
        const withOrigin = await (
          await fetch(`${configured.url}/embed/campaigns?endpoint=https://evil.example`)
        ).text();
        assert.match(withOrigin, /<jobboard-campaigns\b[^>]*\bendpoint="https:\/\/www\.acme\.example\/jobs"/);
        const withoutOrigin = await (
          await fetch(`${relative.url}/embed/campaigns?endpoint=https://evil.example`)
        ).text();
        assert.match(withoutOrigin, /<jobboard-campaigns\b[^>]*\bendpoint="\/jobs"/);
        assert.doesNotMatch(withOrigin + withoutOrigin, /evil\.example/);
      } finally {
        await configured.close();
        await relative.close();
      }
    });

    it("reads the open offer under the element's offer-param given as offer_param, and renders the element with it", async () => {
      const res = await fetch(`${proxy.url}/embed/campaigns?offer_param=job&job=1&offer=2&q=developer`);
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /<jobboard-campaigns\b[^>]*\boffer-param="job"/);
      assert.match(
        html,
        /id="detail-title"[^>]*>(<!--[^>]*-->)*Backend developer/,
        'the offer of job=1, not of offer=2',
      );
      const state = JSON.parse(
        /<script type="application\/json" data-jobboard-state>(.*?)<\/script>/s.exec(html)![1]!,
      ) as { offer: { id: number } };
      assert.equal(state.offer.id, 1);
      const list = await (await fetch(`${proxy.url}/embed/campaigns?offer_param=job&q=developer`)).text();
      assert.match(list, /href="\?q=developer&amp;job=1"/, "offer links under the board's name");
    });

    it("refuses an offer_param that is not a parameter's name, or is one of the list's own, with 422 naming it", async () => {
      for (const name of ['https://evil.example', 'javascript:alert(1)', 'q', 'page', 'lang']) {
        const res = await fetch(`${proxy.url}/embed/campaigns?offer_param=${encodeURIComponent(name)}`);
        await problemNaming(res, 422, ['offer_param'], name);
      }
      await problemNaming(
        await fetch(`${proxy.url}/embed/campaigns?offer_param=job&job=abc`),
        422,
        ['job'],
        "a bad id is named under the board's parameter",
      );
    });

    it('keeps "</script>" in an offer\'s text from ending the state\'s script', async () => {
      proxy.store.upsert(
        toCatalogueCampaign(upstreamCampaign({ id: 4, name: 'Tricky </script><script>alert(1)</script>' })),
      );
      const html = await (await fetch(`${proxy.url}/embed/campaigns?offer=4`)).text();
      assert.doesNotMatch(html, /<script>alert/);
      proxy.store.remove(4);
    });
  });
});
