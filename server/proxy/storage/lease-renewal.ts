// The hold on a claimed piece of shared work (an outbox row being delivered,
// a webhook event being posted, an Idempotency-Key whose request runs): its
// lease is renewed every third of it while the work runs, so another
// instance takes it back only once this process stalled or died. The
// delivery worker, the webhook sender and the PostgreSQL store's key claims
// use it; a write under a lease no longer held rejects with LeaseLostError.

/** A lease held while its work runs. */
export interface LeaseHold {
  /** True once a renewal found the lease no longer held (ran out, or taken back): it stays so. */
  lost(): boolean;
  /** Aborted when the lease is lost: work that can be cut short (a request) listens to it. */
  readonly signal: AbortSignal;
  /** Ends the renewals (the work is over). */
  stop(): void;
}

export interface LeaseRenewal {
  /** Extends the lease by leaseMs; resolves false once it is no longer held. */
  renew: () => Promise<boolean>;
  leaseMs: number;
  /** A renewal the database did not answer: the lease may still be held, and a write under it will tell. */
  onError: (error: unknown) => void;
}

/** How often a lease is renewed: every third of it, so two renewals can fail before it runs out. */
export function renewalIntervalMs(leaseMs: number): number {
  return Math.max(1, Math.floor(leaseMs / 3));
}

/** Starts renewing a lease just claimed; stop() once its work ends. */
export function holdLease({ renew, leaseMs, onError }: LeaseRenewal): LeaseHold {
  const lostIt = new AbortController();
  const timer = setInterval(() => {
    renew().then((held) => {
      if (!held) lostIt.abort(new Error('the lease was lost'));
    }, onError);
  }, renewalIntervalMs(leaseMs));
  // A renewal never keeps a stopping process alive.
  timer.unref();
  return {
    lost: () => lostIt.signal.aborted,
    signal: lostIt.signal,
    stop: () => clearInterval(timer),
  };
}

/**
 * A write of an attempt whose lease is no longer held (its lease ran out and
 * the row was taken back, or claimed again): nothing was changed. The one
 * error of every lease (an application's delivery, a webhook event's
 * sending). For an application, the attempt's outcome is now the new
 * claimer's to find out (it looks at the service first: the row is marked
 * "may have reached the service").
 */
export class LeaseLostError extends Error {
  /** The reference of the application (or the id of the webhook event) whose lease was lost. */
  readonly reference: string;

  constructor(reference: string, what: 'application' | 'webhook event' = 'application') {
    super(
      `The lease on ${what} ${reference} is no longer this attempt's: another claimer has it, so this attempt's result was not written.`,
    );
    this.name = 'LeaseLostError';
    this.reference = reference;
  }
}
