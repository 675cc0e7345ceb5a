// GET /embed/campaigns: the offers as an HTML fragment, for boards that build
// their pages on their server. The fragment is the <jobboard-campaigns>
// element with its shadow DOM already rendered (declarative shadow DOM), its
// state for the script to hydrate from, and the open offer's JobPosting:
// readable without JavaScript, indexed by search engines, no layout shift.
// Boards pass their page's query string on, and a link to the board's page can
// carry any parameter: the element's endpoint comes from the proxy's own
// configuration, and only the list's parameters are read.
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Router } from 'express';
import type { Request } from 'express';
import type { CatalogueReader } from './reader.ts';
import type { EmbedRenderer, PrerenderedCampaigns } from '../../../public-api/embed.ts';
import { DEFAULT_OFFER_PARAM, LIST_URL_PARAMS } from '../../../public-api/list-params.ts';
import type { ListPreset } from '../../../public-api/list-params.ts';
import { listUrlOf } from '../job-posting.ts';
import { matchesEtag } from '../../http/http-cache.ts';
import { offerHeadHandler } from './offer-head.ts';
import { ProblemError, validationProblem } from '../../http/problem.ts';
import { EmbedQuery } from '../../../public-api/schemas.ts';
import { CAMPAIGNS_CACHE_CONTROL, fieldProblems } from './campaigns.ts';

/** The list's and the query's own names, which offer_param cannot take. */
const RESERVED_NAMES = Object.keys(EmbedQuery.shape).filter((name) => name !== 'offer');

/** The element's offer-param as the query gives it; the default when it is absent or not a name (the parse then says so). */
function offerParamOf(query: Request['query']): string {
  const named = EmbedQuery.shape.offer_param.safeParse(query.offer_param);
  return named.success ? named.data : DEFAULT_OFFER_PARAM;
}

/** The query with the open offer's id read under the board's offer-param. */
function embedQueryInput(query: Request['query'], offerParam: string): Record<string, unknown> {
  if (offerParam === DEFAULT_OFFER_PARAM) return query;
  if (RESERVED_NAMES.includes(offerParam))
    throw validationProblem([
      {
        field: 'offer_param',
        code: 'invalid_value',
        message: `must not be one of this query's own parameters (${RESERVED_NAMES.join(', ')}): name the one your element's offer-param holds`,
      },
    ]);
  return { ...query, offer: query[offerParam] };
}

/**
 * The proxy's URL for the board's visitors: PUBLIC_ORIGIN followed by the path
 * the proxy is mounted under (the server's own mount, never an address from
 * the request), or that path alone, relative to the page, without it.
 */
function endpointOf(req: Request, publicOrigin: string | null): string {
  // baseUrl ends with this router's own mount ("/embed"); what comes before is the proxy's.
  const mount = req.baseUrl.replace(/\/[^/]*$/, '').replace(/^\/{2,}/, '/');
  return (publicOrigin ?? '') + mount;
}

/** The renderer built from the widget's sources (npm run build); loaded on first use. */
function rendererLoader(file: string): () => Promise<EmbedRenderer> {
  let loading: Promise<EmbedRenderer> | undefined;
  return () => {
    loading ??= import(pathToFileURL(file).href).then(
      (module: Partial<EmbedRenderer>) => {
        if (typeof module.renderCampaigns !== 'function') throw new Error(`${file} has no renderCampaigns`);
        return module as EmbedRenderer;
      },
      () => {
        loading = undefined;
        throw new ProblemError(
          'not_found',
          'The server renderer is not built on this server: run "npm run build" and restart the proxy.',
        );
      },
    );
    return loading;
  };
}

export function embedRouter(
  reader: CatalogueReader,
  rendererFile: string,
  publicOrigin: string | null,
  boardOfferUrl: string | null,
): Router {
  const router = Router();
  const renderer = rendererLoader(rendererFile);
  router.get('/campaigns/head', offerHeadHandler(reader, listUrlOf(boardOfferUrl)));

  router.get('/campaigns', async (req, res) => {
    const offerParam = offerParamOf(req.query);
    const parsed = EmbedQuery.safeParse(embedQueryInput(req.query, offerParam));
    // Every other parameter (an endpoint among them) is left out by the parse and has no effect.
    if (!parsed.success)
      throw validationProblem(
        fieldProblems(parsed.error).map((problem) =>
          problem.field === 'offer' ? { ...problem, field: offerParam } : problem,
        ),
      );
    const {
      lang,
      offer,
      offer_param: _offerParam,
      preset_company_id,
      preset_job_type,
      preset_city,
      ...query
    } = parsed.data;
    // The board's presets win over the candidate's filters, as on the element.
    const presets = { company_id: preset_company_id, job_type: preset_job_type, city: preset_city };
    const fixed = (name: string) => presets[name as ListPreset] !== undefined;
    const list = (
      await reader.list({
        ...query,
        company_id: preset_company_id ?? query.company_id,
        job_type: preset_job_type ?? query.job_type,
        city: preset_city ?? query.city,
      })
    ).value;
    const detail = offer === undefined ? undefined : reader.detail(offer);
    const state: PrerenderedCampaigns = {
      // As the element writes them in the URL: the first page is no parameter, a preset is the element's.
      query: Object.fromEntries(
        LIST_URL_PARAMS.flatMap((name) =>
          query[name] === undefined || fixed(name) || (name === 'page' && query.page === 1)
            ? []
            : [[name, query[name]]],
        ),
      ),
      list,
      offer: offer === undefined ? null : { id: offer, detail: detail?.value ?? null },
    };
    const posting = offer === undefined ? undefined : reader.jobPosting(offer);
    const html = await (
      await renderer()
    ).renderCampaigns({
      endpoint: endpointOf(req, publicOrigin),
      offerParam,
      lang,
      perPage: query.per_page,
      presets,
      state,
      jobPosting: posting?.value ?? null,
    });
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 32)}"`;
    // An offer that is closed or unknown: the fragment says so (with the way back to the list), and the
    // status lets the board answer the same: 410 Gone for one that was published, so search engines drop it.
    const missing = state.offer !== null && state.offer.detail === null ? state.offer.id : null;
    res.status(missing === null ? 200 : reader.closed(missing) ? 410 : 404);
    res.setHeader('Cache-Control', CAMPAIGNS_CACHE_CONTROL);
    res.setHeader('ETag', etag);
    if (res.statusCode === 200 && matchesEtag(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    res.type('html').send(html);
  });

  return router;
}
