// Fault injection (POST /_sandbox/faults): the next `count` requests under
// /v2 wait delay_ms, then answer `status` (a 5xx), have their connection
// dropped, or, with neither, go on normally after the wait.
export interface Fault {
  status?: number;
  delay_ms?: number;
  drop?: boolean;
}

export class Faults {
  #remaining = 0;
  #fault: Fault = {};

  set(count: number, fault: Fault): void {
    this.#remaining = count;
    this.#fault = fault;
  }

  get remaining(): number {
    return this.#remaining;
  }

  /** The fault for this request, if one is armed; counts it down. */
  take(): Fault | undefined {
    if (this.#remaining <= 0) return undefined;
    this.#remaining--;
    return this.#fault;
  }
}
