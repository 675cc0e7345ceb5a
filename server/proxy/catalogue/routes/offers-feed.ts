// GET /feeds/offers.atom: the board's newest offers as an Atom 1.0 feed
// (RFC 4287), for feed readers, aggregators and alerts, with the list's own
// query (GET /api/campaigns: search, filters, page): a feed of one search.
// Each entry links to the offer's page on the board (BOARD_OFFER_URL). Built
// once per catalogue version and address, and sent as the list is (ETag,
// Cache-Control, compressed).
import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Locale } from '../../../contract/index.ts';
import { listUrlOf, offerUrlOf } from '../job-posting.ts';
import type { CatalogueCampaign, CatalogueStore } from '../types.ts';
import { versionCache } from '../version-cache.ts';
import { sendCachedJson, textAnswer } from '../../http/http-cache.ts';
import type { JsonAnswer } from '../../http/http-cache.ts';
import { escapeMarkup } from '../../http/markup.ts';
import { ProblemError, validationProblem } from '../../http/problem.ts';
import { plainDescription } from '../../../public-api/offer-head.ts';
import { FeedQuery } from '../../../public-api/schemas.ts';
import type { CatalogueReader } from './reader.ts';
import { CAMPAIGNS_CACHE_CONTROL, fieldProblems } from './campaigns.ts';

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

/** The feed's title in its language (lang), for people reading it in their feed reader. */
const FEED_TITLES: Record<Locale, string> = { en: 'Job offers', fr: 'Offres d’emploi', es: 'Ofertas de empleo' };

/** Feeds kept per catalogue version, one per address asked: as many as the list's answers. */
const MAX_CACHED_FEEDS = 1000;

interface FeedInput {
  /** The feed's own address (rel="self"): the URL it was asked at, on PUBLIC_ORIGIN. */
  self: string;
  /** Its xml:lang: the language of its own words (the offers' text is the companies'). */
  lang: Locale;
  /** The board's list of offers (rel="alternate"). */
  list: string | null;
  /** Unique to the board and the query: the channel and the query as read. */
  id: string;
  title: string;
  /** When the catalogue last changed: the feed's updated when it has no entry. */
  syncedAt: Date | null;
  offers: CatalogueCampaign[];
  offerUrl: (id: number) => string;
  channel: string;
}

const element = (name: string, text: string, attributes = '') =>
  `<${name}${attributes}>${escapeMarkup(text)}</${name}>`;
const link = (rel: string, href: string, type?: string) =>
  `<link rel="${rel}" href="${escapeMarkup(href)}"${type ? ` type="${type}"` : ''}/>`;

/** The feed's time: its newest entry's, else the last sync's. */
export function updatedOf(input: Pick<FeedInput, 'offers' | 'syncedAt'>): string {
  const times = input.offers.map((c) => Date.parse(c.updated_at)).filter((t) => !Number.isNaN(t));
  const newest = times.length > 0 ? Math.max(...times) : (input.syncedAt?.getTime() ?? 0);
  return new Date(newest).toISOString();
}

function entry(c: CatalogueCampaign, input: FeedInput): string {
  const html = [c.description, c.profile].filter(Boolean).join('\n');
  return [
    '<entry>',
    element('id', `urn:jobboard-connector:${encodeURIComponent(input.channel)}:offer:${c.id}`),
    element('title', c.name ?? ''),
    element('updated', new Date(c.updated_at).toISOString()),
    element('published', new Date(c.listed_at).toISOString()),
    link('alternate', input.offerUrl(c.id), 'text/html'),
    `<author>${element('name', c.company_name ?? `Company ${c.company_id}`)}</author>`,
    ...(c.city ? [`<category term="${escapeMarkup(c.city)}" label="${escapeMarkup(c.city)}"/>`] : []),
    element('summary', plainDescription(html)),
    element('content', html, ' type="html"'),
    '</entry>',
  ].join('\n');
}

/** The Atom document: every text escaped, the offers' HTML as escaped text (type="html"). */
export function atomFeed(input: FeedInput): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${input.lang}">`,
    element('id', input.id),
    element('title', input.title),
    element('updated', updatedOf(input)),
    link('self', input.self, 'application/atom+xml'),
    ...(input.list === null ? [] : [link('alternate', input.list, 'text/html')]),
    element('generator', 'jobboard-connector'),
    ...input.offers.map((c) => entry(c, input)),
    '</feed>',
    '',
  ].join('\n');
}

/** The query as read, in a stable order: the feed's identity. */
function queryString(query: FeedQuery): string {
  return new URLSearchParams(
    Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
  ).toString();
}

/**
 * The URL the feed was asked at, as asked (a feed's self link must be the
 * address it is fetched at), on the proxy's own origin (never the Host
 * header); relative without PUBLIC_ORIGIN.
 */
function selfOf(req: Request, publicOrigin: string | null): string {
  return `${publicOrigin ?? ''}${req.originalUrl}`;
}

function parseFeedQuery(query: unknown): FeedQuery {
  const parsed = FeedQuery.safeParse(query);
  if (!parsed.success) throw validationProblem(fieldProblems(parsed.error));
  return parsed.data;
}

interface FeedConfig {
  boardOfferUrl: string | null;
  publicOrigin: string | null;
  channel: string;
}

/** The feed asked for by this request, with its Last-Modified (its newest entry's change). */
async function buildFeed(
  req: Request,
  store: CatalogueStore,
  reader: Pick<CatalogueReader, 'filtersOf'>,
  config: FeedConfig,
  template: string,
): Promise<JsonAnswer<string>> {
  const feedQuery = parseFeedQuery(req.query);
  const { lang, ...listQuery } = feedQuery;
  const offers = (await store.searchAsync(reader.filtersOf(listQuery))).items;
  const syncedAt = store.lastSyncedAt();
  const body = atomFeed({
    self: selfOf(req, config.publicOrigin),
    lang,
    list: listUrlOf(template),
    id: `urn:jobboard-connector:${encodeURIComponent(config.channel)}:offers:${createHash('sha256').update(queryString(feedQuery)).digest('hex').slice(0, 32)}`,
    title: listQuery.q === undefined ? FEED_TITLES[lang] : `${FEED_TITLES[lang]}: ${listQuery.q}`,
    syncedAt,
    offers,
    offerUrl: (id) => offerUrlOf(template, id)!,
    channel: config.channel,
  });
  return textAnswer(body, new Date(updatedOf({ offers, syncedAt })));
}

export function offersFeedHandler(
  store: CatalogueStore,
  reader: Pick<CatalogueReader, 'filtersOf'>,
  config: FeedConfig,
): RequestHandler {
  // By the address as asked: the self link is part of the feed.
  const cached = versionCache<Promise<JsonAnswer<string>>>(() => store.version(), MAX_CACHED_FEEDS);
  return async (req, res) => {
    const template = config.boardOfferUrl;
    if (template === null) {
      throw new ProblemError(
        'feed_not_configured',
        'No feed: its entries link to the offers on your pages. Set BOARD_OFFER_URL to the URL of an offer there, like https://jobs.acme.example/offers?offer={id}, and restart the proxy.',
      );
    }
    const answer = await cached(req.originalUrl, () => buildFeed(req, store, reader, config, template));
    sendCachedJson(req, res, answer, CAMPAIGNS_CACHE_CONTROL, ATOM_CONTENT_TYPE);
  };
}
