// GET /api/campaigns and GET /api/campaigns/:id: the broadcast catalogue,
// served from the proxy's own store (never by calling upstream per view).
import type { Request, Router } from 'express';
import type { z } from 'zod';
import type { CatalogueReader } from './reader.ts';
import { sendCachedJson } from '../../http/http-cache.ts';
import { ProblemError, validationProblem } from '../../http/problem.ts';
import type { FieldProblem } from '../../http/problem.ts';
import { CampaignListQuery } from '../../../public-api/schemas.ts';

/** Browsers and CDNs may reuse an answer for a minute; the catalogue syncs every few minutes anyway. */
export const CAMPAIGNS_CACHE_CONTROL = 'public, max-age=60';

/** The problems of a query string that does not parse, one per parameter. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: String(issue.path[0] ?? 'query'),
    code: issue.code === 'too_big' && issue.origin === 'string' ? 'too_long' : 'invalid_value',
    message: issue.message,
  }));
}

/**
 * The list's search, filters, order and page from a query string: what
 * GET /api/campaigns reads, for every route that lists the same offers.
 * Throws a validation problem naming each parameter that does not parse.
 */
export function parseListQuery(query: unknown): CampaignListQuery {
  const parsed = CampaignListQuery.safeParse(query);
  if (!parsed.success) throw validationProblem(fieldProblems(parsed.error));
  return parsed.data;
}

function campaignNotFound(): ProblemError {
  return new ProblemError('campaign_not_found', 'This job offer is not (or no longer) published on this job board.');
}

function campaignId(param: string): number {
  if (!/^[1-9]\d{0,15}$/.test(param)) throw campaignNotFound();
  return Number(param);
}

/** Parsed query strings kept, at most: arbitrary searches must not grow memory without end. */
const MAX_PARSED_QUERIES = 1000;

/**
 * The catalogue's routes, registered on `app` under `base` ("/api/campaigns")
 * rather than as a mounted router: a page view then goes through no
 * sub-router, whose dispatch and URL rewriting were a measurable part of
 * the cost of the proxy's busiest answer.
 */
export function campaignRoutes(app: Router, base: string, reader: CatalogueReader): void {
  // A board's pages ask for a handful of distinct URLs: each query string is
  // parsed and validated once, then found by its raw text (req.query is a
  // function of the URL alone).
  const parsedQueries = new Map<string, CampaignListQuery | ProblemError>();
  const parseQuery = (req: Request): CampaignListQuery => {
    let parsed = parsedQueries.get(req.url);
    if (parsed === undefined) {
      try {
        parsed = parseListQuery(req.query);
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        parsed = error;
      }
      if (parsedQueries.size >= MAX_PARSED_QUERIES) parsedQueries.delete(parsedQueries.keys().next().value as string);
      parsedQueries.set(req.url, parsed);
    }
    if (parsed instanceof ProblemError) throw parsed;
    return parsed;
  };

  app.get(base, async (req, res) => {
    sendCachedJson(req, res, await reader.list(parseQuery(req)), CAMPAIGNS_CACHE_CONTROL);
  });

  app.get(`${base}/:id`, (req, res) => {
    const answer = reader.detail(campaignId(req.params.id));
    if (answer === undefined) throw campaignNotFound();
    sendCachedJson(req, res, answer, CAMPAIGNS_CACHE_CONTROL);
  });

  // The offer's schema.org JobPosting, for search engines (mapping: server/public-api/README.md, "JobPosting").
  app.get(`${base}/:id/jobposting`, (req, res) => {
    const answer = reader.jobPosting(campaignId(req.params.id));
    if (answer === undefined) throw campaignNotFound();
    sendCachedJson(req, res, answer, CAMPAIGNS_CACHE_CONTROL, 'application/ld+json; charset=utf-8');
  });
}
