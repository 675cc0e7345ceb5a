// Stand-ins for the recruitment service in the delivery worker's tests: a
// createApplicant the test answers when it chooses, or from a script.
import type { DeliveryClient } from './delivery.ts';

/** A service whose createApplicant answers (201) only once the test calls answer(). */
export function heldService(): { client: DeliveryClient; sent: () => number; answer: () => void } {
  let sent = 0;
  let answer = (): void => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const client = {
    jobboards: {
      async createApplicant() {
        sent += 1;
        await answered;
        return { id: 7, applications: [{ id: 9, campaign_id: 12 }] };
      },
    },
    applications: {},
  } as unknown as DeliveryClient;
  return { client, sent: () => sent, answer: () => answer() };
}

/**
 * A service whose createApplicant answers each call with the next of
 * `answers` (an Error is thrown), else creates; held while closed. It holds
 * no earlier application of anyone (the look before a re-send finds none).
 */
export function scriptedService(answers: (unknown | Error)[]): { client: DeliveryClient; sent: () => number; open: () => void; close: () => void } {
  let sent = 0;
  let gate: Promise<void> = Promise.resolve();
  let open = (): void => {};
  const client = {
    jobboards: {
      async createApplicant() {
        sent += 1;
        const answer = answers.shift();
        await gate;
        if (answer instanceof Error) throw answer;
        return answer ?? { id: 7, applications: [{ id: 9, campaign_id: 12 }] };
      },
    },
    applications: {
      async list() {
        return { data: [], pagination: { 'next-page': null } };
      },
    },
  } as unknown as DeliveryClient;
  return {
    client,
    sent: () => sent,
    open: () => open(),
    close: () => {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
  };
}
