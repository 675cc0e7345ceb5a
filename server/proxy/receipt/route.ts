// GET /applications/receipt/:token, the candidate's receipt: the state of
// their application, in their language (?lang=, else Accept-Language, else
// English), with the board's label of the company's status when STATUS_LABELS
// maps it. A decoy's token (a robot caught by the honeypot) gets the page of
// a queued application. An unknown or malformed token, or one whose
// application's row was purged (`outbox purge-delivered`), gets the "not
// available" page, 404.
import { Router } from 'express';
import type { Request, Response } from 'express';
import { LOCALES } from '../../contract/index.ts';
import type { Locale } from '../../contract/index.ts';
import { offerUrlOf } from '../catalogue/job-posting.ts';
import type { ProxyConfig } from '../config.ts';
import { statusLabel } from '../status-labels.ts';
import type { StatusStore } from '../storage/index.ts';
import { RECEIPT_CSP, renderReceiptPage } from './page.ts';
import type { ReceiptView } from './page.ts';
import type { DecoyReceipts } from './decoy.ts';
import { RECEIPT_TOKEN_ROUTE, isReceiptToken } from './token.ts';

const BY_PREFERENCE = ['en', ...LOCALES.filter((l) => l !== 'en')];

/** The page's language: a valid ?lang=, else the best of Accept-Language, else English. */
function languageOf(req: Request): Locale {
  const asked = req.query.lang;
  if (typeof asked === 'string' && (LOCALES as readonly string[]).includes(asked)) return asked as Locale;
  if (req.get('Accept-Language') === undefined) return 'en';
  // English first: what a wildcard (`*`) gets.
  const accepted = req.acceptsLanguages(...BY_PREFERENCE);
  return accepted === false ? 'en' : (accepted as Locale);
}

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

/** A decoy's page: a queued application's, which shows nothing of the application (no offer, no status). */
const DECOY: ReceiptView = { kind: 'found', status: 'pending', statusLabel: undefined, applyAgainUrl: null };

export function receiptRouter(
  config: Pick<ProxyConfig, 'statusLabels' | 'boardOfferUrl'>,
  store: () => Promise<StatusStore>,
  decoys: DecoyReceipts,
): Router {
  const router = Router();
  router.get(RECEIPT_TOKEN_ROUTE, async (req, res) => {
    const lang = languageOf(req);
    const token = req.params.token;
    const state = isReceiptToken(token) ? await (await store()).receipt(token) : undefined;
    if (state === undefined) {
      if (decoys.isDecoy(token)) send(res, 200, DECOY, lang);
      else send(res, 404, { kind: 'not_found' }, lang);
      return;
    }
    send(
      res,
      200,
      {
        kind: 'found',
        status: state.status,
        statusLabel: statusLabel(config.statusLabels, state.company_status, lang),
        applyAgainUrl: offerUrlOf(config.boardOfferUrl, state.campaign_id),
      },
      lang,
    );
  });
  return router;
}
