// Who may start sending an application, decided before any byte of its body
// is read: the queue must have room on disk (QueueCeiling), at most
// MAX_CONCURRENT_UPLOADS applications are received at once, at most
// MAX_CONCURRENT_UPLOADS_PER_IP of them from one address and at most
// MAX_CONCURRENT_UPLOADS_PER_NETWORK from one network, so a few addresses,
// or the many addresses of one network, holding slow uploads cannot take
// every place. Each refusal is a 503 with Retry-After, and the connection
// closes once answered.
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ProblemError } from '../http/problem.ts';
import type { ApplicationMetrics } from './metrics.ts';
import type { QueueCeiling } from './queue-ceiling.ts';
import { addressGroup, networkGroup } from './spam.ts';
import { storageFull, storeUnavailable } from './store-failure.ts';

/** The most uploads at once: in all, per address group, per network. */
export interface SlotLimits {
  max: number;
  perAddress: number;
  perNetwork: number;
}

/** Places for uploads in progress, in all, per address group and per network. */
export class UploadSlots {
  readonly #limits: SlotLimits;
  #taken = 0;
  readonly #byAddress = new Map<string, number>();
  readonly #byNetwork = new Map<string, number>();

  constructor(limits: SlotLimits) {
    this.#limits = limits;
  }

  /** Takes a place for `address` of `network`; answers its release (idempotent), or why there is none. */
  take(address: string, network: string): (() => void) | 'full' | 'address_full' | 'network_full' {
    if (countOf(this.#byAddress, address) >= this.#limits.perAddress) return 'address_full';
    if (countOf(this.#byNetwork, network) >= this.#limits.perNetwork) return 'network_full';
    if (this.#taken >= this.#limits.max) return 'full';
    this.#taken += 1;
    add(this.#byAddress, address, 1);
    add(this.#byNetwork, network, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#taken -= 1;
      add(this.#byAddress, address, -1);
      add(this.#byNetwork, network, -1);
    };
  }
}

function countOf(counts: Map<string, number>, key: string): number {
  return counts.get(key) ?? 0;
}

/** Adds `delta` to a key's count; a count back to 0 leaves the map. */
function add(counts: Map<string, number>, key: string, delta: number): void {
  const count = countOf(counts, key) + delta;
  if (count === 0) counts.delete(key);
  else counts.set(key, count);
}

/**
 * The address and the network a request counts in. An IPv4 address is its
 * own network unless it came from X-Forwarded-For (TRUST_PROXY): without a
 * declared proxy, the addresses seen may be a balancer's few, often of one /24.
 */
export function slotGroupsOf(req: Request): { address: string; network: string } {
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return { address: addressGroup(ip), network: networkGroup(ip, ip !== req.socket.remoteAddress) };
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
      log.error(
        { event: 'queue_ceiling_error', error: error instanceof Error ? error.message : String(error) },
        "the queue's room on disk could not be read: application refused",
      );
      res.setHeader('Connection', 'close');
      return refuse(storeUnavailable(error));
    });
    if (reached !== undefined) refuse(storageFull());
    const { address, network } = slotGroupsOf(req);
    const release = slots.take(address, network);
    if (release === 'address_full' || release === 'network_full')
      refuse(
        serverBusy(
          'Too many applications are being sent from your network right now; wait for them to finish, then send the form again.',
        ),
      );
    if (release === 'full')
      refuse(serverBusy('Too many applications are being received right now; send the form again in a few seconds.'));
    if (typeof release === 'function') {
      res.once('finish', release);
      res.once('close', release);
    }
    next();
  };
}
