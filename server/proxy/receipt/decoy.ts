// Decoy receipts: the link a robot caught by the honeypot gets. Its page must
// read as a real queued application's (200, "Application received"), or the
// robot learns it was caught; yet nothing about the robot is stored. So a
// decoy's token proves itself: random bytes, then the start of their HMAC
// under a key derived from UPSTREAM_SECRET_KEY. Every instance of a board has
// that key, so any of them knows another's decoys; without it, a decoy's
// token is as random as a real one.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RECEIPT_TOKEN_BYTES, isReceiptToken } from './token.ts';

/** The proof's length: a guess holds once in 2^48, and earns a "received" page. */
const PROOF_BYTES = 6;
const NONCE_BYTES = RECEIPT_TOKEN_BYTES - PROOF_BYTES;

export interface DecoyReceipts {
  /** A token shaped as a real one, whose page is the "received" one. */
  newToken(): string;
  /** True for a token newToken() made, on any instance sharing the secret. */
  isDecoy(token: string): boolean;
}

/** Decoys under `secret` (UPSTREAM_SECRET_KEY): a key of their own is derived from it, so the secret is used for nothing else. */
export function decoyReceipts(secret: string): DecoyReceipts {
  const key = createHmac('sha256', secret).update('jobboard-connector decoy receipts').digest();
  const proofOf = (nonce: Uint8Array) => createHmac('sha256', key).update(nonce).digest().subarray(0, PROOF_BYTES);
  return {
    newToken() {
      const nonce = randomBytes(NONCE_BYTES);
      return Buffer.concat([nonce, proofOf(nonce)]).toString('base64url');
    },
    isDecoy(token) {
      if (!isReceiptToken(token)) return false;
      const bytes = Buffer.from(token, 'base64url');
      return timingSafeEqual(bytes.subarray(NONCE_BYTES), proofOf(bytes.subarray(0, NONCE_BYTES)));
    },
  };
}
