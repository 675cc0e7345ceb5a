// GET /embed/campaigns/head?offer=ID: the tags for the <head> of an offer's
// page on a board that renders on its server (title, description, canonical
// URL, Open Graph, Twitter card), so a shared link shows a preview. The same
// list as the widget sets in the browser (public-api/offer-head.ts).
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { CatalogueReader } from './reader.ts';
import { escapeMarkup } from '../../http/markup.ts';
import { ProblemError } from '../../http/problem.ts';
import { elementOf, offerHead } from '../../../public-api/offer-head.ts';
import type { HeadPosting } from '../../../public-api/offer-head.ts';
import { matchesEtag } from '../../http/http-cache.ts';
import { CAMPAIGNS_CACHE_CONTROL } from './campaigns.ts';
import { closedOfferProblem } from './closed-offer.ts';

/** The head's tags as HTML, one per line, every value escaped. */
export function offerHeadHtml(posting: HeadPosting): string {
  const head = offerHead(posting);
  const tags = head.tags.map(([attribute, name, value]) => {
    const [element, valueAttribute] = elementOf(attribute);
    return `<${element} ${attribute}="${escapeMarkup(name)}" ${valueAttribute}="${escapeMarkup(value)}">`;
  });
  return [`<title>${escapeMarkup(head.title)}</title>`, ...tags, ''].join('\n');
}

export function offerHeadHandler(reader: CatalogueReader, listUrl: string | null): RequestHandler {
  return (req, res) => {
    const offer = req.query.offer;
    if (typeof offer !== 'string' || !/^[1-9]\d{0,15}$/.test(offer)) {
      const message = 'must be the id of a job offer, a whole number from 1, like offer=21';
      throw new ProblemError('malformed_request', `The query parameter offer ${message}.`, {
        errors: [{ field: 'offer', code: 'invalid_value', message }],
      });
    }
    const id = Number(offer);
    const posting = reader.jobPosting(id);
    if (posting === undefined) throw closedOfferProblem(reader, id, listUrl);
    const html = offerHeadHtml(posting.value as HeadPosting);
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 32)}"`;
    res.setHeader('Cache-Control', CAMPAIGNS_CACHE_CONTROL);
    res.setHeader('ETag', etag);
    if (matchesEtag(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    res.type('html').send(html);
  };
}
