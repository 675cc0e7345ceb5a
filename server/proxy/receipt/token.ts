// The candidate's receipt link: /applications/receipt/<token> on the proxy.
// The token is 144 random bits (base64url, 24 characters), stored on the
// application's row: it says nothing about the candidate, cannot be guessed,
// and is the only key of the page (the reference, a UUID, never appears).
import { randomBytes } from 'node:crypto';

/** Where receipts are served, under the proxy's mount path. */
export const RECEIPT_PATH = '/applications/receipt';

/** The receipt's route under RECEIPT_PATH: its one parameter is the token. */
export const RECEIPT_TOKEN_ROUTE = '/:token';

/** The receipt's whole route: the access log writes it, never the token (a secret). */
export const RECEIPT_ROUTE = `${RECEIPT_PATH}${RECEIPT_TOKEN_ROUTE}`;

/** A token's bytes: 144 bits. */
export const RECEIPT_TOKEN_BYTES = 18;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;

export function newReceiptToken(): string {
  return randomBytes(RECEIPT_TOKEN_BYTES).toString('base64url');
}

/** True for a string shaped like a token (anything else is answered 404 without a look at the store). */
export function isReceiptToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/** The path under which the apply route is mounted, inside the proxy's app. */
const APPLY_PATH = '/api/applications';

/**
 * The receipt's link as the apply answer gives it: absolute on PUBLIC_ORIGIN
 * when it is set, else root-relative (on the proxy's origin: the widget
 * resolves it against its endpoint). `applyBaseUrl` is the apply route's
 * req.baseUrl, which carries the path a partner mounted the proxy under.
 */
export function receiptUrl(publicOrigin: string | null, applyBaseUrl: string, token: string): string {
  const mount = applyBaseUrl.endsWith(APPLY_PATH) ? applyBaseUrl.slice(0, -APPLY_PATH.length) : '';
  return `${publicOrigin ?? ''}${mount}${RECEIPT_PATH}/${token}`;
}
