// GET /embed/campaigns: the offers as an HTML fragment, for boards that build
// their pages on their server. The fragment is the <jobboard-campaigns>
// element with its shadow DOM already rendered (declarative shadow DOM), its
// state for the script to hydrate from, and the open offer's JobPosting:
// readable without JavaScript, indexed by search engines, no layout shift.
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Router } from 'express';
import { z } from 'zod';
import { LOCALES } from '../../contract/index.ts';
import type { CatalogueReader } from '../catalogue/reader.ts';
import type { EmbedRenderer, PrerenderedCampaigns } from '../embed/prerendered.ts';
import { LIST_URL_PARAMS } from '../embed/prerendered.ts';
import { matchesEtag } from '../http-cache.ts';
import { ProblemError, validationProblem } from '../problem.ts';
import { CampaignListQuery } from '../schemas.ts';
import { CAMPAIGNS_CACHE_CONTROL, fieldProblems } from './campaigns.ts';

export const EmbedQuery = CampaignListQuery.extend({
  lang: z.enum(LOCALES, { error: `must be one of: ${LOCALES.join(', ')}` }).default('en'),
  offer: z.coerce.number({ error: 'must be the id of a job offer' }).int('must be the id of a job offer').positive('must be the id of a job offer').optional(),
  endpoint: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) URL at which browsers reach this proxy' })
    .optional()
    .describe('The URL at which the board’s visitors reach this proxy; by default the page’s own origin.'),
});

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
        throw new ProblemError('not_found', 'The server renderer is not built on this server: run "npm run build" and restart the proxy.');
      },
    );
    return loading;
  };
}

export function embedRouter(reader: CatalogueReader, rendererFile: string): Router {
  const router = Router();
  const renderer = rendererLoader(rendererFile);

  router.get('/campaigns', async (req, res) => {
    const parsed = EmbedQuery.safeParse(req.query);
    if (!parsed.success) throw validationProblem(fieldProblems(parsed.error));
    const { lang, offer, endpoint, ...query } = parsed.data;
    const list = reader.list(query).value;
    const detail = offer === undefined ? undefined : reader.detail(offer);
    const state: PrerenderedCampaigns = {
      // As the element writes them in the URL: the first page is no parameter.
      query: Object.fromEntries(LIST_URL_PARAMS.flatMap((name) => (query[name] === undefined || (name === 'page' && query.page === 1) ? [] : [[name, query[name]]]))),
      list,
      offer: offer === undefined ? null : { id: offer, detail: detail?.value ?? null },
    };
    const posting = offer === undefined ? undefined : reader.jobPosting(offer);
    const html = await (await renderer()).renderCampaigns({
      endpoint: endpoint ?? '',
      lang,
      perPage: query.per_page,
      state,
      jobPosting: posting?.value ?? null,
    });
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 32)}"`;
    // An offer that is closed or unknown: the fragment says so, and the status lets the board answer 404 too.
    res.status(state.offer !== null && state.offer.detail === null ? 404 : 200);
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
