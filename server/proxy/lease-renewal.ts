// The hold on a claimed piece of shared work (an outbox row being delivered,
// a webhook event being posted): its lease is renewed every third of it while
// the work runs, so another instance takes it back only once this process
// stalled or died. The delivery worker and the webhook sender both use it.

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
