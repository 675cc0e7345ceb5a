// GET /applications/receipt/:token, the candidate's receipt: the state of
// their application, in their language (?lang=, else Accept-Language, else
// English), with the board's label of the company's status when STATUS_LABELS
// maps it, and which application it is: the offer's title and company (from
// the catalogue: public words, nothing of the candidate's), the date, a link
// to the offer while the board lists it. A decoy's token (a robot caught by
// the honeypot) gets the page of a queued application to the offer it named.
// An unknown or malformed token, or one whose application's row was purged
// (`outbox purge-delivered`), gets the "not available" page, 404.
import { Router } from 'express';
import type { Response } from 'express';
import type { CampaignStatus, Locale } from '../../contract/index.ts';
import { pageLanguageOf } from '../http/page-language.ts';
import { offerUrlOf } from '../catalogue/job-posting.ts';
import type { ProxyConfig } from '../config.ts';
import { statusLabel } from '../status-labels.ts';
import type { StatusStore } from '../storage/index.ts';
import { isSpontaneous } from '../storage/outbox/application-store.ts';
import { RECEIPT_CSP, renderReceiptPage } from './page.ts';
import type { ReceiptOffer, ReceiptView } from './page.ts';
import type { DecoyReceipts } from './decoy.ts';
import { RECEIPT_TOKEN_ROUTE, isReceiptToken } from './token.ts';

function send(res: Response, status: number, view: ReceiptView, lang: Locale): void {
  res.status(status);
  res.setHeader('Content-Security-Policy', RECEIPT_CSP);
  // Each link is one candidate's: never cached, never passed on in a Referer, never indexed.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Content-Language', lang);
  res.setHeader('Vary', 'Accept-Language');
  res.type('html').send(renderReceiptPage(view, lang));
}

/** What the receipt reads of the catalogue (the proxy's Catalogue satisfies it). */
export interface ReceiptCatalogue {
  getCampaign(id: number): { status: CampaignStatus; name?: string | null; company_name?: string | null } | undefined;
  /** A company of the catalogue, named on a spontaneous application's receipt. */
  getCompany(id: number): { name: string | null } | undefined;
}

/** A spontaneous application's receipt: no offer, the company by its name when the catalogue still has it. */
function spontaneousOf(catalogue: ReceiptCatalogue, companyId: number): ReceiptOffer {
  return {
    title: null,
    company: catalogue.getCompany(companyId)?.name ?? null,
    url: null,
    listed: true,
    spontaneous: true,
  };
}

/** The offer as the catalogue holds it; its link only while the board lists it (a closed offer's page is gone). */
function offerOf(
  catalogue: ReceiptCatalogue,
  boardOfferUrl: string | null,
  campaignId: number,
): ReceiptOffer | undefined {
  const campaign = catalogue.getCampaign(campaignId);
  if (campaign === undefined) return undefined;
  const listed = campaign.status === 'online';
  return {
    title: campaign.name ?? null,
    company: campaign.company_name ?? null,
    url: listed ? offerUrlOf(boardOfferUrl, campaignId) : null,
    listed,
  };
}

export function receiptRouter(
  config: Pick<ProxyConfig, 'statusLabels' | 'boardOfferUrl'>,
  store: () => Promise<StatusStore>,
  decoys: DecoyReceipts,
  catalogue: ReceiptCatalogue,
  now: () => number = Date.now,
): Router {
  const router = Router();
  router.get(RECEIPT_TOKEN_ROUTE, async (req, res) => {
    const lang = pageLanguageOf(req);
    const token = req.params.token;
    const state = isReceiptToken(token) ? await (await store()).receipt(token) : undefined;
    if (state === undefined) {
      const decoy = decoys.open(token);
      if (decoy === undefined) {
        send(res, 404, { kind: 'not_found' }, lang);
        return;
      }
      // A queued application's page. A decoy made before tokens carried their application opens as noise,
      // most likely a time to come: that one shows neither offer nor date.
      const known = decoy.appliedAt <= now();
      send(
        res,
        200,
        {
          kind: 'found',
          status: 'pending',
          statusLabel: undefined,
          appliedAt: known ? decoy.appliedAt : null,
          offer: known ? offerOf(catalogue, config.boardOfferUrl, decoy.campaignId) : undefined,
        },
        lang,
      );
      return;
    }
    send(
      res,
      200,
      {
        kind: 'found',
        status: state.status,
        statusLabel: statusLabel(config.statusLabels, state.company_status, lang),
        appliedAt: state.created_at,
        offer: isSpontaneous(state)
          ? spontaneousOf(catalogue, state.company_id)
          : offerOf(catalogue, config.boardOfferUrl, state.campaign_id),
      },
      lang,
    );
  });
  return router;
}
