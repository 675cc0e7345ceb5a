// The sandbox clock: real time, or real time shifted so that "now" is a
// chosen instant (PUT /_sandbox/clock). Time keeps flowing after a shift, so
// token expiry, date_end and status dates behave as they would on that day.
export class SandboxClock {
  #offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  iso(): string {
    return this.now().toISOString();
  }

  /** YYYY-MM-DD of now, in UTC. */
  today(): string {
    return this.iso().slice(0, 10);
  }

  /** Moves "now" to the given instant, or back to real time with null. */
  set(now: Date | null): void {
    this.#offsetMs = now === null ? 0 : now.getTime() - Date.now();
  }

  get shifted(): boolean {
    return this.#offsetMs !== 0;
  }
}
