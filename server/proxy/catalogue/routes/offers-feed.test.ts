// GET /feeds/offers.atom over real HTTP: an Atom 1.0 document a real XML
// parser reads, with the elements RFC 4287 requires of a feed and of each
// entry, the list's filters applied, hostile offer text kept as text,
// revalidation by ETag and Last-Modified, compression and the answer cache.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { toCatalogueCampaign } from '../catalogue.ts';
import { upstreamCampaign } from '../fixtures.test-support.ts';
import { openCatalogueStore } from '../../storage/catalogue/catalogue-sqlite.ts';
import { fetch, listen, problemNaming, rawGet } from '../../test-support.ts';
import { catalogueApp } from '../../test/catalogue-app.ts';

const HOSTILE = 'Ops ]]> </title><script>alert(1)</script> & "quotes" \u0001\u0008 <![CDATA[x]]>';

async function start(env: Record<string, string>) {
  const store = openCatalogueStore(':memory:');
  const synced = new Date('2026-11-25T09:00:00.000Z');
  store.replaceAll(
    [
      upstreamCampaign({
        id: 1,
        name: 'Backend developer',
        updated_at: '2026-11-20T10:00:00.000Z',
        last_activation_at: '2026-11-02T10:00:00.000Z',
      }),
      upstreamCampaign({
        id: 2,
        name: 'Nurse',
        company_name: 'Clinique',
        job_type: 'Fixed term contract',
        updated_at: '2026-11-21T08:30:00.000Z',
        last_activation_at: '2026-11-03T10:00:00.000Z',
      }),
      upstreamCampaign({
        id: 3,
        name: HOSTILE,
        description: `<p>${HOSTILE.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p><p>Fine <strong>print</strong></p>`,
        updated_at: '2026-11-19T10:00:00.000Z',
        last_activation_at: '2026-11-01T10:00:00.000Z',
      }),
    ].map(toCatalogueCampaign),
    synced,
  );
  // The store's searches, counted: a feed served from the cache reads nothing.
  let searches = 0;
  const search = store.searchAsync.bind(store);
  store.searchAsync = (filters) => {
    searches += 1;
    return search(filters);
  };
  return { ...(await listen(catalogueApp(store, { env, synced }))), store, searches: () => searches };
}

interface AtomLink {
  rel: string;
  href: string;
}
interface AtomEntry {
  id: string;
  title: string;
  updated: string;
  published: string;
  link: AtomLink;
  author: { name: string };
  summary: string;
  content: { '#text': string; type: string };
}
interface AtomFeed {
  id: string;
  title: string;
  updated: string;
  link: AtomLink[];
  entry?: AtomEntry | AtomEntry[];
  'xml:lang': string;
}

/** The feed as a real XML parser reads it, after checking it is well-formed. */
function parse(xml: string): { feed: AtomFeed; entries: AtomEntry[] } {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    htmlEntities: true,
    textNodeName: '#text',
    parseTagValue: false,
  }).parse(xml) as { feed: AtomFeed & { xmlns: string } };
  assert.equal(doc.feed.xmlns, 'http://www.w3.org/2005/Atom');
  const entries = [doc.feed.entry ?? []].flat();
  return { feed: doc.feed, entries };
}

/** RFC 4287's required elements: atom:feed has id, title, updated (and author, here on every entry); atom:entry has id, title, updated, and a link or content. */
function assertAtom({ feed, entries }: ReturnType<typeof parse>): void {
  for (const name of ['id', 'title', 'updated'] as const) assert.ok(feed[name], `feed ${name}`);
  assert.ok(!Number.isNaN(Date.parse(feed.updated)) && /Z$/.test(feed.updated), 'feed updated is an RFC 3339 date');
  assert.ok(
    feed.link.some((l) => l.rel === 'self'),
    'feed links to itself',
  );
  for (const entry of entries) {
    for (const name of ['id', 'title', 'updated'] as const) assert.ok(entry[name] !== undefined, `entry ${name}`);
    assert.match(entry.id, /^[a-z][a-z0-9+.-]*:/, 'entry id is an IRI');
    assert.ok(entry.author.name, 'every entry has an author (the feed has none)');
    assert.equal(entry.link.rel, 'alternate');
  }
  assert.equal(new Set(entries.map((e) => e.id)).size, entries.length, 'entry ids are unique');
}

describe('GET /feeds/offers.atom', () => {
  let proxy: Awaited<ReturnType<typeof start>>;
  before(async () => {
    proxy = await start({
      BOARD_OFFER_URL: 'https://jobs.acme.example/offres?offer={id}',
      PUBLIC_ORIGIN: 'https://jobs-proxy.acme.example',
    });
  });
  after(() => proxy?.close());

  it('answers an Atom 1.0 feed of the newest offers, each linking to its page on the board, with its text escaped', async () => {
    const res = await fetch(`${proxy.url}/feeds/offers.atom`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/atom+xml; charset=utf-8');
    const parsed = parse(await res.text());
    assertAtom(parsed);
    const { feed, entries } = parsed;
    assert.equal(feed.title, 'Job offers');
    assert.equal(feed['xml:lang'], 'en', 'the language of its own words, English unless lang says otherwise');
    assert.equal(feed.updated, '2026-11-21T08:30:00.000Z', 'the newest change');
    assert.deepEqual(feed.link, [
      { rel: 'self', href: 'https://jobs-proxy.acme.example/feeds/offers.atom', type: 'application/atom+xml' },
      { rel: 'alternate', href: 'https://jobs.acme.example/offres', type: 'text/html' },
    ]);
    assert.deepEqual(
      entries.map((e) => e.link.href),
      [
        'https://jobs.acme.example/offres?offer=2',
        'https://jobs.acme.example/offres?offer=1',
        'https://jobs.acme.example/offres?offer=3',
      ],
    );
    const nurse = entries[0]!;
    assert.equal(nurse.title, 'Nurse');
    assert.equal(nurse.author.name, 'Clinique');
    assert.equal(nurse.updated, '2026-11-21T08:30:00.000Z');
    assert.equal(nurse.published, '2026-11-03T10:00:00.000Z');
    assert.equal(nurse.summary, 'Build things. Curious.');
    assert.equal(nurse.content.type, 'html');
    assert.equal(nurse.content['#text'], '<p>Build <strong>things</strong>.</p>\n<p>Curious.</p>');
  });

  it('keeps hostile offer text as text: no markup leaks, the document stays well-formed', async () => {
    const xml = await (await fetch(`${proxy.url}/feeds/offers.atom?q=ops`)).text();
    assert.doesNotMatch(xml, /<script|<!\[CDATA\[/);
    assert.ok(!xml.includes('\u0001'), 'no control character');
    const { entries } = parse(xml);
    assert.equal(entries.length, 1);
    assert.equal(
      entries[0]!.title,
      'Ops ]]> </title><script>alert(1)</script> & "quotes"  <![CDATA[x]]>',
      'the title as written, without the characters XML forbids',
    );
    assert.match(
      entries[0]!.content['#text'],
      /^<p>Ops \]\]&gt; &lt;\/title&gt;&lt;script&gt;/,
      'the sanitised HTML, as HTML',
    );
  });

  it("applies the list's search and filters, links to itself at the very URL it was asked at, and refuses a bad one with 422 naming it", async () => {
    const asked = '/feeds/offers.atom?per_page=5&job_type=Fixed%20term%20contract&endpoint=https://evil.example';
    const { feed, entries } = parse(await (await fetch(`${proxy.url}${asked}`)).text());
    assert.deepEqual(
      entries.map((e) => e.title),
      ['Nurse'],
    );
    assert.equal(
      feed.link[0]!.href,
      `https://jobs-proxy.acme.example${asked}`,
      'on PUBLIC_ORIGIN, the path and query as asked',
    );
    const sameQuery = parse(
      await (await fetch(`${proxy.url}/feeds/offers.atom?job_type=Fixed+term+contract&per_page=5&page=1`)).text(),
    );
    assert.equal(sameQuery.feed.id, feed.id, 'one feed for one query, however it is written');
    assert.equal(
      sameQuery.feed.link[0]!.href,
      'https://jobs-proxy.acme.example/feeds/offers.atom?job_type=Fixed+term+contract&per_page=5&page=1',
    );
    const other = parse(await (await fetch(`${proxy.url}/feeds/offers.atom?q=developer`)).text());
    assert.notEqual(other.feed.id, feed.id, 'a feed per query');
    assert.equal(other.feed.title, 'Job offers: developer');
    await problemNaming(await fetch(`${proxy.url}/feeds/offers.atom?job_type=Astronaut`), 422, ['job_type']);
  });

  it('revalidates with its ETag or its Last-Modified', async () => {
    const first = await fetch(`${proxy.url}/feeds/offers.atom`);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    assert.equal(lastModified, 'Sat, 21 Nov 2026 08:30:00 GMT');
    assert.equal(first.headers.get('cache-control'), 'public, max-age=60');
    assert.equal((await fetch(`${proxy.url}/feeds/offers.atom`, { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal(
      (await fetch(`${proxy.url}/feeds/offers.atom`, { headers: { 'if-modified-since': lastModified } })).status,
      304,
    );
    assert.equal(
      (
        await fetch(`${proxy.url}/feeds/offers.atom`, {
          headers: { 'if-modified-since': 'Fri, 20 Nov 2026 08:30:00 GMT' },
        })
      ).status,
      200,
    );
  });

  it('is written in the language lang asks, its title too, and refuses a language it does not know with 422 naming lang', async () => {
    const { feed } = parse(await (await fetch(`${proxy.url}/feeds/offers.atom?lang=fr&q=nurse`)).text());
    assert.equal(feed['xml:lang'], 'fr');
    assert.equal(feed.title, 'Offres d’emploi: nurse');
    const english = parse(await (await fetch(`${proxy.url}/feeds/offers.atom?q=nurse`)).text());
    assert.notEqual(english.feed.id, feed.id, 'a feed per language');
    await problemNaming(await fetch(`${proxy.url}/feeds/offers.atom?lang=de`), 422, ['lang']);
  });

  it('is sent compressed as the list is, brotli or gzip as the reader accepts, one ETag per encoding', async () => {
    const plain = await rawGet(`${proxy.url}/feeds/offers.atom`, { 'Accept-Encoding': 'identity' });
    assert.equal(plain.headers['content-encoding'], undefined);
    const br = await rawGet(`${proxy.url}/feeds/offers.atom`, { 'Accept-Encoding': 'gzip, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.body).toString(), plain.body.toString());
    const gzip = await rawGet(`${proxy.url}/feeds/offers.atom`, { 'Accept-Encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.body).toString(), plain.body.toString());
    assert.match(String(gzip.headers.vary), /Accept-Encoding/);
    assert.equal(new Set([plain, br, gzip].map((r) => r.headers.etag)).size, 3);
  });

  it('is built once per catalogue version: asked again, it reads nothing from the store; after a change, it is built anew', async () => {
    const url = `${proxy.url}/feeds/offers.atom?q=developer&per_page=7`;
    const first = await (await fetch(url)).text();
    const searches = proxy.searches();
    assert.equal(await (await fetch(url)).text(), first);
    assert.equal(proxy.searches(), searches, 'the second answer came from the cache');
    proxy.store.upsert(
      toCatalogueCampaign(
        upstreamCampaign({ id: 4, name: 'Frontend developer', updated_at: '2026-11-22T08:00:00.000Z' }),
      ),
    );
    const changed = parse(await (await fetch(url)).text());
    assert.equal(proxy.searches(), searches + 1);
    assert.deepEqual(
      changed.entries.map((e) => e.title),
      ['Frontend developer', 'Backend developer'],
    );
  });

  it('answers 404 feed_not_configured naming BOARD_OFFER_URL without it', async () => {
    const bare = await start({});
    try {
      const res = await fetch(`${bare.url}/feeds/offers.atom`);
      assert.equal(res.status, 404);
      const problem = (await res.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'feed_not_configured');
      assert.match(problem.detail, /Set BOARD_OFFER_URL/);
    } finally {
      await bare.close();
    }
  });
});
