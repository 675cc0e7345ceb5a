// Fault injection (POST /_sandbox/faults): the next `count` requests under
// /v2 wait delay_ms, then answer `status` (a 5xx), have their connection
// dropped, or, with neither, go on normally after the wait. With `every` N,
// only one request in N of those takes the fault (a service failing a third
// of its requests is every 3); the others go on normally.
export interface Fault {
  status?: number;
  delay_ms?: number;
  drop?: boolean;
}

export class Faults {
  #remaining = 0;
  #fault: Fault = {};
  #every = 1;
  /** Requests counted since the faults were set, for `every`. */
  #seen = 0;
  /** The delays under way, so that close() can end them. */
  readonly #waiting = new Set<{ timer: ReturnType<typeof setTimeout>; resolve: (done: boolean) => void }>();
  #closed = false;

  /** Arms `fault` for the next `count` requests, taken by one request in `every` (1: each). */
  set(count: number, fault: Fault, every = 1): void {
    if (!Number.isInteger(every) || every < 1)
      throw new RangeError(`every must be a whole number >= 1 (got ${every}).`);
    this.#remaining = count;
    this.#fault = fault;
    this.#every = every;
    this.#seen = 0;
  }

  get remaining(): number {
    return this.#remaining;
  }

  /** The fault for this request, if one is armed and it is this request's turn; counts it down. */
  take(): Fault | undefined {
    if (this.#remaining <= 0) return undefined;
    this.#remaining--;
    this.#seen++;
    return this.#seen % this.#every === 0 ? this.#fault : undefined;
  }

  /**
   * Waits delay_ms. Resolves true when the time is up, false at once when the sandbox closes meanwhile (the request
   * must then stop: its connection is gone and its database is closed).
   */
  delay(ms: number): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiting = {
        // Unref'd: a delayed request never keeps a process alive on its own.
        timer: setTimeout(() => {
          this.#waiting.delete(waiting);
          resolve(true);
        }, ms).unref(),
        resolve,
      };
      this.#waiting.add(waiting);
    });
  }

  /** Ends the delays under way (each resolves false) and any later one at once. */
  close(): void {
    this.#closed = true;
    this.#remaining = 0;
    for (const waiting of this.#waiting) {
      clearTimeout(waiting.timer);
      waiting.resolve(false);
    }
    this.#waiting.clear();
  }
}
