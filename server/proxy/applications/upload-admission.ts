// Who may start sending an application, decided before any byte of its body
// is read: the queue must have room on disk (QueueCeiling), at most
// MAX_CONCURRENT_UPLOADS applications are received at once, and at most
// MAX_CONCURRENT_UPLOADS_PER_IP of them from one address, so one or two
// addresses holding slow uploads cannot take every place. Each refusal is a
// 503 with Retry-After, and the connection closes once answered.
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ProblemError } from '../problem.ts';
import type { ApplicationMetrics } from './metrics.ts';
import type { QueueCeiling } from './queue-ceiling.ts';
import { addressGroup } from './spam.ts';
import { storageFull, storeUnavailable } from './store-failure.ts';

/** Places for uploads in progress, in all and per address group. */
export class UploadSlots {
  readonly #max: number;
  readonly #maxPerAddress: number;
  #taken = 0;
  readonly #byAddress = new Map<string, number>();

  constructor(max: number, maxPerAddress: number) {
    this.#max = max;
    this.#maxPerAddress = maxPerAddress;
  }

  /** Takes a place for `group`; answers its release (idempotent), or why there is none. */
  take(group: string): (() => void) | 'full' | 'address_full' {
    const mine = this.#byAddress.get(group) ?? 0;
    if (mine >= this.#maxPerAddress) return 'address_full';
    if (this.#taken >= this.#max) return 'full';
    this.#taken += 1;
    this.#byAddress.set(group, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#taken -= 1;
      const left = (this.#byAddress.get(group) ?? 1) - 1;
      if (left === 0) this.#byAddress.delete(group);
      else this.#byAddress.set(group, left);
    };
  }
}

function serverBusy(detail: string): ProblemError {
  return new ProblemError('server_busy', detail, { headers: { 'Retry-After': '5', Connection: 'close' } });
}

export interface AdmissionDeps {
  slots: UploadSlots;
  ceiling: QueueCeiling;
  metrics: ApplicationMetrics;
  log: Logger;
}

/** The middleware before POST /api/applications reads its body; its place is released when the answer ends. */
export function admitUploads({ slots, ceiling, metrics, log }: AdmissionDeps): RequestHandler {
  const refuse = (problem: ProblemError): never => {
    metrics.refused.inc({ code: problem.code });
    throw problem;
  };
  return async (req, res, next) => {
    res.locals.metricsRoute = '/api/applications';
    // Which ceiling is in the metric's count of refusals (storage_full); both mean the same to the candidate.
    // A store or disk that cannot be read fails closed, as the rate limits do.
    const reached = await ceiling.reached().catch((error: unknown) => {
      log.error({ event: 'queue_ceiling_error', error: error instanceof Error ? error.message : String(error) }, "the queue's room on disk could not be read: application refused");
      res.setHeader('Connection', 'close');
      return refuse(storeUnavailable(error));
    });
    if (reached !== undefined) refuse(storageFull());
    const release = slots.take(addressGroup(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
    if (release === 'address_full') refuse(serverBusy('Too many applications are being sent from your network right now; wait for them to finish, then send the form again.'));
    if (release === 'full') refuse(serverBusy('Too many applications are being received right now; send the form again in a few seconds.'));
    if (typeof release === 'function') {
      res.once('finish', release);
      res.once('close', release);
    }
    next();
  };
}
