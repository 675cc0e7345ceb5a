// Decoy receipts: the link a robot caught by the honeypot gets. Its page must
// read as a real queued application's (200, "Application received", the
// offer it applied to and the date), or the robot learns it was caught; yet
// nothing about the robot is stored. So a decoy's token carries what its page
// shows and proves itself: random salt, the offer's id and the minute of the
// application sealed under the salt (so the token reads as random bytes, as a
// real one does), then the start of an HMAC of all that, under a key derived
// from UPSTREAM_SECRET_KEY. Every instance of a board has that key, so any of
// them knows another's decoys; without it, a decoy's token is as random as a
// real one.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RECEIPT_TOKEN_BYTES, isReceiptToken } from './token.ts';

/** The proof's length: a guess holds once in 2^48, and earns a "received" page. */
const PROOF_BYTES = 6;
const NONCE_BYTES = RECEIPT_TOKEN_BYTES - PROOF_BYTES;
/** The salt, then the sealed offer id (uint32) and minute (uint32): the nonce the proof covers. */
const SALT_BYTES = 4;
const SEALED_BYTES = NONCE_BYTES - SALT_BYTES;
const MINUTE_MS = 60_000;
const UINT32_MAX = 0xffff_ffff;

/** What a decoy's page shows: the offer the robot named and when it applied. */
export interface DecoyApplication {
  campaignId: number;
  /** Milliseconds since the epoch, to the minute. */
  appliedAt: number;
}

export interface DecoyReceipts {
  /** A token shaped as a real one, whose page is the "received" one of this offer at this time. */
  newToken(campaignId: number, at: number): string;
  /** True for a token newToken() made, on any instance sharing the secret. */
  isDecoy(token: string): boolean;
  /**
   * What a decoy's page shows; undefined for a token that is not a decoy. A
   * decoy made before tokens carried their application reads as noise:
   * its caller checks the time is not in the future.
   */
  open(token: string): DecoyApplication | undefined;
}

/** Decoys under `secret` (UPSTREAM_SECRET_KEY): keys of their own are derived from it, so the secret is used for nothing else. */
export function decoyReceipts(secret: string): DecoyReceipts {
  const key = createHmac('sha256', secret).update('jobboard-connector decoy receipts').digest();
  const sealKey = createHmac('sha256', key).update('seal').digest();
  const proofOf = (nonce: Uint8Array) => createHmac('sha256', key).update(nonce).digest().subarray(0, PROOF_BYTES);
  /** XORs the sealed part with a stream of the salt: sealing and opening are the same. */
  const sealed = (salt: Uint8Array, bytes: Uint8Array): Buffer => {
    const stream = createHmac('sha256', sealKey).update(salt).digest();
    return Buffer.from(bytes.map((b, i) => b ^ stream[i]!));
  };
  const isDecoy = (token: string): boolean => {
    if (!isReceiptToken(token)) return false;
    const bytes = Buffer.from(token, 'base64url');
    return timingSafeEqual(bytes.subarray(NONCE_BYTES), proofOf(bytes.subarray(0, NONCE_BYTES)));
  };
  return {
    newToken(campaignId, at) {
      const plain = Buffer.alloc(SEALED_BYTES);
      // An id the page cannot name (not a uint32) is written 0: no offer has it, so the page says the offer is gone.
      plain.writeUInt32BE(Number.isInteger(campaignId) && campaignId >= 0 && campaignId <= UINT32_MAX ? campaignId : 0);
      plain.writeUInt32BE(Math.floor(at / MINUTE_MS), 4);
      const salt = randomBytes(SALT_BYTES);
      const nonce = Buffer.concat([salt, sealed(salt, plain)]);
      return Buffer.concat([nonce, proofOf(nonce)]).toString('base64url');
    },
    isDecoy,
    open(token) {
      if (!isDecoy(token)) return undefined;
      const bytes = Buffer.from(token, 'base64url');
      const plain = sealed(bytes.subarray(0, SALT_BYTES), bytes.subarray(SALT_BYTES, NONCE_BYTES));
      return { campaignId: plain.readUInt32BE(0), appliedAt: plain.readUInt32BE(4) * MINUTE_MS };
    },
  };
}
