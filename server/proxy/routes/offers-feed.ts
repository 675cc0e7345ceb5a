// GET /feeds/offers.atom: the board's newest offers as an Atom 1.0 feed
// (RFC 4287), for feed readers, aggregators and alerts, with the list's own
// query (GET /api/campaigns: search, filters, page): a feed of one search.
// Each entry links to the offer's page on the board (BOARD_OFFER_URL).
import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { listUrlOf, offerUrlOf } from '../catalogue/job-posting.ts';
import type { CatalogueCampaign, CatalogueStore } from '../catalogue/types.ts';
import { matchesEtag } from '../http-cache.ts';
import { escapeMarkup } from '../markup.ts';
import { ProblemError } from '../problem.ts';
import { plainDescription } from '../../public-api/offer-head.ts';
import type { CampaignListQuery } from '../../public-api/schemas.ts';
import type { CatalogueReader } from '../catalogue/reader.ts';
import { CAMPAIGNS_CACHE_CONTROL, parseListQuery } from './campaigns.ts';

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

/** The feed's words, for people reading it in their feed reader. */
const FEED_TITLE = 'Job offers';

interface FeedInput {
  /** The feed's own address (rel="self"): PUBLIC_ORIGIN, the proxy's mount and this path with the query as read. */
  self: string;
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

const element = (name: string, text: string, attributes = '') => `<${name}${attributes}>${escapeMarkup(text)}</${name}>`;
const link = (rel: string, href: string, type?: string) => `<link rel="${rel}" href="${escapeMarkup(href)}"${type ? ` type="${type}"` : ''}/>`;

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
    '<feed xmlns="http://www.w3.org/2005/Atom">',
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

/** The query as read, in a stable order: the feed's address and identity. */
function queryString(query: CampaignListQuery): string {
  return new URLSearchParams(Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]]))).toString();
}

/** The proxy's URL for this request's path, from its own configuration (never the Host header), relative without PUBLIC_ORIGIN. */
function selfOf(req: Request, publicOrigin: string | null, query: string): string {
  return `${publicOrigin ?? ''}${req.baseUrl}${req.path}?${query}`;
}

export function offersFeedHandler(store: CatalogueStore, reader: Pick<CatalogueReader, 'filtersOf'>, config: { boardOfferUrl: string | null; publicOrigin: string | null; channel: string }): RequestHandler {
  return (req, res) => {
    const template = config.boardOfferUrl;
    if (template === null) {
      throw new ProblemError('feed_not_configured', 'No feed: its entries link to the offers on your pages. Set BOARD_OFFER_URL to the URL of an offer there, like https://jobs.acme.example/offers?offer={id}, and restart the proxy.');
    }
    const listQuery = parseListQuery(req.query);
    const query = queryString(listQuery);
    const offers = store.search(reader.filtersOf(listQuery)).items;
    const syncedAt = store.lastSyncedAt();
    const body = atomFeed({
      self: selfOf(req, config.publicOrigin, query),
      list: listUrlOf(template),
      id: `urn:jobboard-connector:${encodeURIComponent(config.channel)}:offers:${createHash('sha256').update(query).digest('hex').slice(0, 32)}`,
      title: listQuery.q === undefined ? FEED_TITLE : `${FEED_TITLE}: ${listQuery.q}`,
      syncedAt,
      offers,
      offerUrl: (id) => offerUrlOf(template, id)!,
      channel: config.channel,
    });
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    const lastModified = new Date(updatedOf({ offers, syncedAt })).toUTCString();
    res.setHeader('Cache-Control', CAMPAIGNS_CACHE_CONTROL);
    res.setHeader('ETag', etag);
    res.setHeader('Last-Modified', lastModified);
    const since = req.headers['if-modified-since'];
    const unchanged = req.headers['if-none-match'] === undefined ? since !== undefined && Date.parse(since) >= Date.parse(lastModified) : matchesEtag(req.headers['if-none-match'], etag);
    if (unchanged) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', ATOM_CONTENT_TYPE);
    res.send(body);
  };
}
